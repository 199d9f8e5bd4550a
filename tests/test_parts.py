"""engine/parts.py against the naive reading of the rules in tests/helpers.py, on decks of one
copy and of two: the parts of a pool hold exactly its cards in some meld of it, no meld of the
pool crosses two parts (C-MELD-1, C-SET-1, C-RUN-1, RUL-33), so the pool is arrangeable exactly
when each part is (C-ARR-1); and the use search answered part by part lists exactly the naive
uses (C-TURN-2, C-ARR-2, RUL-34), on pools drawn to fall into several parts."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine.cards import canonical, mask_of
from conquian_ref.engine.melds import meld_table
from conquian_ref.engine.parts import Parts

from helpers import BY_ID, copies, is_meld, minus, naive_arrangeable, ranks, suits

# one profile per kind of deck and rule: French 40 cards (runs up to 8), 52 cards, Spanish 40
# cards with twice-around's 14-card hands, two decks (RUL-33: sets of any suits)
PROFILE_IDS = ["anglo-american-v1", "spielanleitung-52-v1", "spielanleitung-twice-around-v1", "torno-cisneros-v1",
               "spielanleitung-two-decks-v1"]


def _mask(profile, names) -> int:
    mask = mask_of(profile.deck.parse_list(list(names), "cards"))
    return canonical(mask, profile.deck.low) if profile.deck.copies == 2 else mask


def _parts(profile, names) -> list[list[str]]:
    """The parts of the pool `names`, as sorted name lists (engine/parts.py, through the
    solver's filter of the cards in runs and in melds)."""
    table, pool = meld_table(profile), _mask(profile, names)
    return [sorted(profile.deck.names(p)) for p in Parts(profile).split(pool, *table._links(pool))]


def _melds_of_three(profile, pool):
    """Every meld of three cards of the multiset `pool`: every meld of the pool holds one
    through any two of its cards next to each other (a set's three, a run's window of three),
    so two cards in no common part share no meld at all when these lie within parts."""
    seen = set()
    for trio in combinations(sorted(pool), 3):
        if trio not in seen and is_meld(profile, trio):
            seen.add(trio)
            yield trio


@st.composite
def _pool(draw, profile, most=12):
    """Cards from one to three small windows of the deck (a few ranks, a few suits, each card
    at most `copies` times), so that pools of several parts and crossing runs are common."""
    rank_list, suit_list = ranks(profile), suits(profile)
    window = []
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 4))
        start = draw(st.integers(0, len(rank_list) - n))
        chosen = draw(st.lists(st.sampled_from(suit_list), min_size=1, max_size=4, unique=True))
        window += [r + s for r in rank_list[start:start + n] for s in chosen]
    window = sorted(set(window)) * copies(profile)  # windows may overlap: each card `copies` times
    indices = draw(st.lists(st.integers(0, len(window) - 1), min_size=1, max_size=min(most, len(window)), unique=True))
    return [window[i] for i in indices]


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@settings(max_examples=settings().max_examples * 2)
@given(data=st.data())
def test_C_ARR_1_the_parts_of_a_pool_hold_its_melds_whole(profile_id, data):
    profile = BY_ID[profile_id]
    pool = data.draw(_pool(profile))
    parts = _parts(profile, pool)
    in_parts = [card for part in parts for card in part]
    # the parts hold each card of the pool in some meld of it, once, and no other card
    in_melds = Counter(c for c in pool if any(c in trio for trio in _melds_of_three(profile, pool)))
    assert Counter(in_parts) == Counter({c: n for c, n in Counter(pool).items() if c in in_melds})
    # no meld of the pool crosses two parts
    part_of = {card: i for i, part in enumerate(parts) for card in part}
    for trio in _melds_of_three(profile, pool):
        assert len({part_of[c] for c in trio}) == 1, (trio, parts)
    # C-ARR-1: the cards in melds are arrangeable exactly when each part is
    assert naive_arrangeable(profile, in_parts) == all(naive_arrangeable(profile, part) for part in parts)


def _sub_multisets(cards):
    distinct = sorted(set(cards))
    for counts in product(*(range(cards.count(c) + 1) for c in distinct)):
        yield tuple(c for c, k in zip(distinct, counts) for _ in range(k))


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@settings(max_examples=settings().max_examples * 2)
@given(data=st.data())
def test_C_TURN_2_the_uses_answered_part_by_part_are_the_naive_uses(profile_id, data):
    profile = BY_ID[profile_id]
    cards = data.draw(_pool(profile, most=14))
    card, rest = cards[0], cards[1:]
    in_hand = data.draw(st.integers(0, min(8, len(rest))))
    exposed, hand = rest[in_hand:], rest[:in_hand]
    physical = profile.deck.parse_list([*exposed, card, *hand], "cards")
    e, c, h = mask_of(physical[:len(exposed)]), 1 << physical[len(exposed)], mask_of(physical[len(exposed) + 1:])
    uses = meld_table(profile).legal_uses(e, c, h)
    expected = {s for s in _sub_multisets(hand) if naive_arrangeable(profile, [*exposed, card, *s])}
    assert {tuple(sorted(profile.deck.names(s))) for s in uses} == expected
    assert len(uses) == len(expected) and all(s & h == s for s in uses)  # once each, the copies held


def test_C_RUN_1_C_SET_1_a_pool_splits_where_no_run_crosses_to_the_next_rank():
    aa = BY_ID["anglo-american-v1"]
    # a run and a set apart, a card in no meld: two parts, the lone card in none
    assert _parts(aa, ["3H", "4H", "5H", "QS", "QD", "QC", "7H"]) == [["3H", "4H", "5H"], ["QC", "QD", "QS"]]
    # a set on a run's rank joins them; two runs of different suits over the same ranks stay one
    # part (the split is by ranks, coarser than the cards sharing a meld)
    assert _parts(aa, ["3H", "4H", "5H", "5S", "5D"]) == [["3H", "4H", "5D", "5H", "5S"]]
    assert _parts(aa, ["3H", "4H", "5H", "4S", "5S", "6S"]) == [["3H", "4H", "4S", "5H", "5S", "6S"]]
    # runs end to end, not overlapping: no run crosses from 5 to 6
    assert _parts(aa, ["3H", "4H", "5H", "6S", "7S", "JS"]) == [["3H", "4H", "5H"], ["6S", "7S", "JS"]]
    td = BY_ID["spielanleitung-two-decks-v1"]
    # RUL-33: three cards of a rank are a set whatever their suits, two copies included
    assert _parts(td, ["7H", "7H", "7S", "JC", "QC", "KC", "KC"]) == [["7H", "7H", "7S"], ["JC", "KC", "KC", "QC"]]


@pytest.mark.parametrize("profile_id", ["anglo-american-v1", "spielanleitung-two-decks-v1"])
def test_C_ARR_1_a_part_of_exposed_cards_alone_must_still_be_arranged(profile_id):
    """Exposed cards that cannot be arranged (3H 4H 5H 3S 4S 5S 5D: the 5s as a set leave two
    pairs, the runs leave 5D) are a part with no hand card: no use is legal, however the taken
    card's part could go down (QS with QD and QC, more than `few_candidates` candidates)."""
    profile = BY_ID[profile_id]
    exposed, card, hand = ["3H", "4H", "5H", "3S", "4S", "5S", "5D"], "QS", ["QD", "QC", "KS"]
    physical = profile.deck.parse_list([*exposed, card, *hand], "cards")
    e, c, h = mask_of(physical[:7]), 1 << physical[7], mask_of(physical[8:])
    assert not naive_arrangeable(profile, exposed)
    assert meld_table(profile).legal_uses(e, c, h) == frozenset()
    # and with the exposed cards arrangeable (5D gone) the same question has its uses
    e &= ~(1 << physical[6])
    assert {tuple(sorted(profile.deck.names(s))) for s in meld_table(profile).legal_uses(e, c, h)} == {("QC", "QD")}
