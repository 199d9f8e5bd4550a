"""Every meld solver against the rule text, on every profile that uses it.

The solvers (engine/onecopy.py: GivenMelds, OneCopy; engine/twocopies.py: Multiset,
AnySuitSets) are asked the questions of engine/solver.py and answered again by the naive
reading of the rules in tests/helpers.py, which works on card names and the profile's YAML
data: C-MELD-1 / C-SET-1 / C-RUN-1..3 / RUL-33 (the list of melds), C-ARR-1 (arrangeable, and
the arrangement shown is a partition into melds), C-ARR-4 / RUL-3 (fits), RUL-22 (extends),
RUL-35 (placeable; one copy), C-TURN-2 / C-ARR-2 (legal_uses, one per multiset under RUL-34).
A list of melds given to `solver_for` (a house rule) is checked against a plain search over
that list.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine import meldrules
from conquian_ref.engine.cards import canonical, cards_of, mask_of
from conquian_ref.engine.melds import meld_table, solver_for
from conquian_ref.engine.onecopy import GivenMelds, OneCopy
from conquian_ref.engine.twocopies import AnySuitSets, Multiset

from helpers import (
    ALL_PROFILES, BY_ID, all_cards, copies, is_meld, minus, naive_arrangeable, naive_extends, naive_fits, naive_placeable,
    rank_of, ranks, suit_of, suits,
)

TD = BY_ID["spielanleitung-two-decks-v1"]


def _with_distinct_suits(profile):
    """The profile with `melds.set_suits: distinct` (in its data too, which the naive model
    reads) and an id of its own (the naive model's memo is keyed by id)."""
    data = copy.deepcopy(profile.data)
    data["melds"]["set_suits"] = "distinct"
    return dataclasses.replace(profile, id=profile.id + "-distinct-suits", set_suits="distinct", data=data)


# No shipped profile has two copies with sets of distinct suits, where solver_for picks
# twocopies.Multiset: the two-deck profile with that policy stands in.
TD_DISTINCT = _with_distinct_suits(TD)
PROFILES = {p.id: p for p in (*ALL_PROFILES, TD_DISTINCT)}

# (profile id, solver) for every solver on every profile that uses it: the rule's solver as
# meld_table picks it, the plain search over the rule's melds given as a list (one copy), and
# the general multiset search over the two-deck melds (the cross-check of AnySuitSets).
CASES = [(p.id, "rule") for p in PROFILES.values()]
CASES += [(p.id, "given") for p in PROFILES.values() if p.deck.copies == 1]
CASES += [(TD.id, "multiset")]


@cache
def solver(profile_id: str, kind: str):
    profile = PROFILES[profile_id]
    if kind == "rule":
        return meld_table(profile)
    if kind == "given":
        return solver_for(profile, meldrules.melds(profile))
    return Multiset(profile)


def test_melds_solver_for_picks_the_solver_of_the_deck():
    for profile in ALL_PROFILES:
        if profile.deck.copies == 1:
            assert type(meld_table(profile)) is OneCopy, profile.id
    assert type(meld_table(TD)) is AnySuitSets  # RUL-33: sets of any suits, counted by rank
    assert type(meld_table(TD_DISTINCT)) is Multiset
    assert type(solver_for(TD_DISTINCT)) is Multiset and solver_for(TD_DISTINCT) is not meld_table(TD_DISTINCT)
    assert type(solver_for(ALL_PROFILES[0], [])) is GivenMelds
    with pytest.raises(ValueError):
        solver_for(TD, meldrules.melds(TD))  # a given list is searched with one copy of each card


def _groups(profile):
    """Every group of cards a meld could be, as sorted name tuples: the multisets of one rank
    (each card at most `copies` times) and the subsets of one suit."""
    n = copies(profile)
    for rank in ranks(profile):
        names = [rank + s for s in suits(profile)]
        for counts in product(range(n + 1), repeat=len(names)):
            yield tuple(sorted(c for c, k in zip(names, counts) for _ in range(k)))
    for suit in suits(profile):
        names = [r + suit for r in ranks(profile)]
        for size in range(2, len(names) + 1):
            yield from (tuple(sorted(g)) for g in combinations(names, size))


@pytest.mark.parametrize("profile_id", sorted(PROFILES))
def test_C_MELD_1_the_listed_melds_are_exactly_the_melds_of_the_rule_text(profile_id):
    profile = PROFILES[profile_id]
    expected = {g for g in _groups(profile) if g and is_meld(profile, g)}
    listed = meldrules.melds(profile)
    assert len(listed) == len(expected)  # no meld listed twice
    assert {tuple(sorted(profile.deck.names(m))) for m in listed} == expected
    for mask, rules in listed.items():  # the rules each meld rests on (rules_of reports them)
        kind = "C-SET-1" if len({rank_of(c) for c in profile.deck.names(mask)}) == 1 else "C-RUN-1"
        assert kind in rules or (kind == "C-SET-1" and "RUL-33" in rules), (profile.deck.names(mask), rules)


def _names(profile, mask) -> tuple[str, ...]:
    return tuple(sorted(profile.deck.names(mask)))


def _masks(profile, *groups):
    """Physical masks of the name lists `groups`, copies numbered across all of them."""
    cards = profile.deck.parse_list([c for g in groups for c in g], "cards")
    masks, i = [], 0
    for g in groups:
        masks.append(mask_of(cards[i:i + len(g)]))
        i += len(g)
    return masks


def _sub_multisets(cards):
    cards = sorted(cards)
    distinct = sorted(set(cards))
    for counts in product(*(range(cards.count(c) + 1) for c in distinct)):
        yield tuple(c for c, k in zip(distinct, counts) for _ in range(k))


def _naive_meldable(profile, pool) -> set[str]:
    """The cards of `pool` (names, a multiset) in some meld made of cards of `pool`: in some
    meld of three (every meld of a card holds one: a set's three, a run's window of three)."""
    found = set()
    for card in set(pool):
        rest = [c for c in minus(pool, [card]) if rank_of(c) == rank_of(card) or suit_of(c) == suit_of(card)]
        if any(is_meld(profile, (card, *pair)) for pair in combinations(rest, 2)):
            found.add(card)
    return found


@st.composite
def _deal(draw, profile):
    """A few cards from a small window of the deck (sets and runs are common there), each at
    most `copies` times, split into exposed cards, a taken card and a hand."""
    rank_list, suit_list = ranks(profile), suits(profile)
    n_ranks = draw(st.integers(1, 6))
    start = draw(st.integers(0, len(rank_list) - n_ranks))
    chosen = draw(st.lists(st.sampled_from(suit_list), min_size=1, max_size=4, unique=True))
    window = [r + s for r in rank_list[start:start + n_ranks] for s in chosen] * copies(profile)
    if draw(st.booleans()):
        window = all_cards(profile) * copies(profile)  # or anywhere in the deck
    size = min(draw(st.integers(1, 11)), len(window))  # drawn apart, so large groups are common
    cards = [window[i] for i in draw(st.lists(st.integers(0, len(window) - 1), min_size=size, max_size=size, unique=True))]
    card, rest = cards[0], cards[1:]
    in_hand = draw(st.integers(0, min(6, len(rest))))
    return rest[in_hand:], card, rest[:in_hand]


@pytest.mark.parametrize(("profile_id", "kind"), CASES)
@settings(max_examples=settings().max_examples * 4)
@given(data=st.data())
def test_C_ARR_1_C_ARR_4_RUL_22_C_TURN_2_each_solver_agrees_with_the_rule_text(profile_id, kind, data):
    profile, table = PROFILES[profile_id], solver(profile_id, kind)
    exposed, card, hand = data.draw(_deal(profile))
    e, c, h = _masks(profile, exposed, [card], hand)
    everything = [*exposed, card, *hand]
    # C-ARR-1: arrangeable, and the arrangement shown is a partition of the cards into melds
    assert table.arrangeable(e | c | h) == naive_arrangeable(profile, everything)
    arrangement = table.arrangement(e | c | h)
    assert (arrangement is not None) == naive_arrangeable(profile, everything)
    if arrangement:
        assert sorted(n for meld in arrangement for n in _names(profile, meld)) == sorted(everything)
        assert all(is_meld(profile, _names(profile, meld)) for meld in arrangement)
        assert "C-ARR-1" in table.rules_of(e | c | h)
    # C-ARR-4 / RUL-3 and RUL-22: fits and extends, nothing exposed fitting nothing
    assert table.fits(e, c) == (bool(exposed) and naive_fits(profile, exposed, card))
    assert table.extends(e, c) == naive_extends(profile, exposed, card)
    # C-TURN-2 / C-ARR-2: every multiset of hand cards that goes down with the taken card, once
    expected = {s for s in _sub_multisets(hand) if naive_arrangeable(profile, [*exposed, card, *s])}
    uses = table.legal_uses(e, c, h)
    assert {_names(profile, s) for s in uses} == expected
    assert len(uses) == len(expected) and all(s & h == s for s in uses)  # the copies held
    # the filter: the cards of a pool in some meld of the pool, every copy of them
    assert sorted(profile.deck.names(table.meldable(e | c | h))) == sorted(
        n for n in everything if n in _naive_meldable(profile, everything)
    )
    # RUL-35: the taken card and the hand cards placed without moving an exposed card
    if profile.deck.copies == 1:
        assert table.placeable(e, c | h) == naive_placeable(profile, exposed, [card, *hand])


# -- a list of melds given (a house rule) ----------------------------------------------------------
AA = BY_ID["anglo-american-v1"]


@pytest.mark.parametrize("profile_id", sorted({p for p, kind in CASES if kind == "rule"}))
@given(data=st.data())
def test_RUL_22_the_grouped_extension_bases_skip_no_base_within_the_exposed_cards(profile_id, data):
    """solver.gated: a group of a card's bases is skipped only when no base of it lies within the
    exposed cards, and the groups hold every base once (with one copy: the melds through the card,
    less the card, that are melds)."""
    profile, table = PROFILES[profile_id], solver(profile_id, "rule")
    exposed, card, _ = data.draw(_deal(profile))
    e, c = _masks(profile, exposed, [card])
    index = c.bit_length() - 1
    if profile.deck.copies == 2:
        e, index = canonical(e, profile.deck.low), index & ~1
    groups = table._ext_groups[index]
    for gate, region, least, bases in groups:
        passes = gate & e == gate and (e & region).bit_count() >= least
        assert passes or not any(base & e == base for base in bases)
    every = [base for *_, bases in groups for base in bases]
    assert len(every) == len(set(every))
    if profile.deck.copies == 1:
        assert sorted(every) == sorted(m ^ c for m in table.melds if m & c and m ^ c in table.is_meld)


def _seven_jack_not_neighbours(profile):
    """The rule's melds less the runs holding a 7 and the rank after it (a house rule)."""
    deck, seven = profile.deck, profile.deck.ranks.index("7")
    pairs = [mask_of([deck.card(s, seven), deck.card(s, seven + 1)]) for s in range(len(deck.suit_ids))]
    return [m for m in meldrules.melds(profile) if not any(m & p == p for p in pairs)]


def _no_run_maximum(profile):
    """The rule's melds and every longer run of one suit (a house rule: no run maximum)."""
    deck, n = profile.deck, len(profile.deck.ranks)
    longer = [
        mask_of([deck.card(s, start + i) for i in range(length)])
        for s in range(len(deck.suit_ids)) for length in range(profile.run_max + 1, n + 1) for start in range(n - length + 1)
    ]
    return [*meldrules.melds(profile), *longer]


HOUSE_RULES = {"seven-jack-not-neighbours": _seven_jack_not_neighbours, "no-run-maximum": _no_run_maximum}


@cache
def _house(rule: str):
    melds = frozenset(HOUSE_RULES[rule](AA))
    return melds, solver_for(AA, sorted(melds))


def _partitionable(melds: frozenset[int], mask: int) -> bool:
    """C-ARR-1 over a given list: some subset of the cards holding the lowest one is in the
    list and the rest is partitionable too (every subset tried, not the list's melds)."""
    return _split(melds, mask)


@cache
def _split(melds: frozenset[int], mask: int) -> bool:
    if not mask:
        return True
    low, rest = mask & -mask, cards_of(mask & (mask - 1))
    return any(
        low | mask_of(others) in melds and _split(melds, mask & ~(low | mask_of(others)))
        for k in range(2, len(rest) + 1) for others in combinations(rest, k)
    )


@pytest.mark.parametrize("rule", sorted(HOUSE_RULES))
@settings(max_examples=settings().max_examples * 4)
@given(data=st.data())
def test_C_ARR_1_C_TURN_2_a_given_list_of_melds_is_searched_as_given(rule, data):
    melds, table = _house(rule)
    exposed, card, hand = data.draw(_deal(AA))
    e, c, h = _masks(AA, exposed, [card], hand)
    assert table.is_meld == melds
    assert table.arrangeable(e | c | h) == _partitionable(melds, e | c | h)
    assert table.fits(e, c) == (e != 0 and _partitionable(melds, e | c))
    expected = {s for s in map(mask_of, _subsets(cards_of(h))) if _partitionable(melds, e | c | s)}
    assert set(table.legal_uses(e, c, h)) == expected
    # RUL-22: some partition of the exposed cards has a meld that the card extends
    assert table.extends(e, c) == any(m | c in melds for p in _partitions(melds, e) for m in p)


def _partitions(melds: frozenset[int], mask: int):
    """Every partition of `mask` into melds of the list (blocks holding the lowest card first)."""
    if not mask:
        yield []
        return
    low, rest = mask & -mask, cards_of(mask & (mask - 1))
    for k in range(2, len(rest) + 1):
        for others in combinations(rest, k):
            block = low | mask_of(others)
            if block in melds:
                yield from ([block, *p] for p in _partitions(melds, mask & ~block))


def _subsets(cards):
    for k in range(len(cards) + 1):
        yield from combinations(cards, k)


def test_C_RUN_2_the_house_rule_without_the_seven_jack_step_is_searched_as_given():
    melds, table = _house("seven-jack-not-neighbours")
    assert not table.arrangeable(mask_of(AA.deck.parse_list(["6H", "7H", "JH"], "cards")))
    assert table.arrangeable(mask_of(AA.deck.parse_list(["5H", "6H", "7H"], "cards")))
    assert meld_table(AA).arrangeable(mask_of(AA.deck.parse_list(["6H", "7H", "JH"], "cards")))  # the rule itself


# -- the rule ids each meld rests on (rules_of reports them) ----------------------------------------
TC = BY_ID["torno-cisneros-v1"]


def _rules(profile, *names):
    return meldrules.meld_rules(profile, profile.deck.parse_list(list(names), "cards"))


def test_C_RUN_2_a_run_across_the_removed_ranks_rests_on_C_RUN_2():
    assert "C-RUN-2" in _rules(TC, "6O", "7O", "10O")  # "6-7-10 vale"
    assert "C-RUN-2" in _rules(AA, "7S", "JS", "QS")
    assert "C-RUN-2" not in _rules(AA, "4S", "5S", "6S")
    assert "C-RUN-2" not in _rules(BY_ID["spielanleitung-52-v1"], "6S", "7S", "8S")  # 8 stays in: no gap


def test_C_RUN_3_a_run_from_the_ace_rests_on_C_RUN_3_and_none_wraps():
    assert "C-RUN-3" in _rules(AA, "AH", "2H", "3H")
    assert _rules(AA, "QS", "KS", "AS") is None  # "Q-K-A no"
    assert _rules(TC, "11O", "12O", "1O") is None  # "11-12-1 no"


def test_C_SET_1_and_RUL_33_a_set_rests_on_its_rule():
    assert _rules(AA, "7H", "7S", "7D") == ("C-SET-1",)
    assert _rules(TD, "7H", "7H", "7S") == (TD.rule("set_suits"), "RUL-33")  # SATD-SET-1
    assert _rules(TD_DISTINCT, "7H", "7H", "7S") is None  # the same suit twice, sets of distinct suits
    assert _rules(TD, "4C", "4C", "5C", "6C") is None  # a run never holds two identical cards


def test_RUL_2_the_searches_leave_out_the_runs_of_twice_the_minimum():
    listed = meldrules.melds(AA)
    left_out = set(listed) - set(meldrules.searched(AA, listed))
    assert left_out and all(len(AA.deck.names(m)) >= 2 * AA.run_min and "C-RUN-1" in listed[m] for m in left_out)
    assert mask_of(AA.deck.parse_list(["AH", "2H", "3H", "4H", "5H"], "cards")) not in left_out
