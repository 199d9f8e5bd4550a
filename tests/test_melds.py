"""Melds and the arrangement solver: C-MELD-1, C-SET-1, C-RUN-1..3, TC-RUN-1, AA-RUN-1,
C-ARR-1/2/4, RUL-2, RUL-3, and the use options of C-TURN-2 / RUL-16.

Examples come from the rule text and the sources ("6-7-10 vale, 11-12-1 no"; "A-2-3 y 6-7-J
son válidas; Q-K-A no"); the solver is also cross-checked against a plain partition search
written in tests/helpers.py from the rule text.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine.cards import cards_of, mask_of
from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.melds import meld_table

from helpers import AA, TC, all_cards, is_meld, naive_arrangeable, naive_use_options, ranks, suits


def m(profile, *names) -> int:
    return mask_of(profile.deck.parse_list(list(names), "cards"))


def names(profile, mask) -> list[str]:
    return [profile.deck.name(c) for c in cards_of(mask)]


def meld(profile, *cards) -> bool:
    """`cards` form one single meld."""
    return m(profile, *cards) in meld_table(profile).is_meld


def arrangeable(profile, *cards) -> bool:
    return meld_table(profile).arrangeable(m(profile, *cards))


def fits(profile, exposed, card) -> bool:
    return meld_table(profile).fits(m(profile, *exposed), m(profile, card))


def use_options(profile, exposed, card, hand) -> set[frozenset]:
    table = meld_table(profile)
    options = table.use_options(m(profile, *exposed, card), m(profile, *hand))
    return {frozenset(names(profile, s)) for s in options}


BOTH = pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)


# --- C-SET-1 ------------------------------------------------------------------------------------


def test_C_SET_1_three_of_a_rank_in_different_suits():
    assert meld(TC, "7O", "7C", "7E")
    assert meld(TC, "12C", "12E", "12B")
    assert meld(AA, "QS", "QH", "QC")
    assert arrangeable(AA, "AS", "AH", "AD")


def test_C_SET_1_four_of_a_rank():
    assert meld(TC, "1O", "1C", "1E", "1B")
    assert meld(AA, "KS", "KH", "KD", "KC")


def test_C_SET_1_two_of_a_rank_is_not_a_set():
    assert not meld(TC, "7O", "7C")
    assert not arrangeable(TC, "7O", "7C")
    assert not arrangeable(AA, "QS", "QH")


def test_C_SET_1_mixed_ranks_are_not_a_set():
    assert not arrangeable(TC, "7O", "7C", "6E")
    assert not arrangeable(AA, "QS", "QH", "KD")


@BOTH
def test_C_SET_1_every_set_in_the_table_has_3_or_4_cards_of_one_rank_in_different_suits(profile):
    # With one copy of each card (C-DECK-1) a set of 5 cannot exist, and "the same suit twice"
    # would be the same card twice; the table holds exactly the 10 x (4 + 1) sets.
    deck = profile.deck
    sets = [meld for meld in meld_table(profile).melds if len({deck.suit_of(c) for c in cards_of(meld)}) > 1]
    assert len(sets) == len(ranks(profile)) * (4 + 1)
    for meld in sets:
        cards = cards_of(meld)
        assert len(cards) in (3, 4)
        assert len({deck.rank_of(c) for c in cards}) == 1
        assert len({deck.suit_of(c) for c in cards}) == len(cards)


def test_C_SET_1_the_same_card_twice_is_malformed_not_a_set():
    with pytest.raises(MalformedInput):
        m(TC, "7O", "7C", "7O")


# --- C-RUN-1..3, TC-RUN-1, AA-RUN-1 ----------------------------------------------------------------


def test_C_RUN_1_three_consecutive_of_one_suit():
    assert meld(TC, "3O", "4O", "5O")
    assert meld(AA, "4H", "5H", "6H")
    assert meld(TC, "2B", "3B", "4B", "5B")


def test_C_RUN_1_two_cards_are_not_a_run():
    assert not arrangeable(TC, "3O", "4O")
    assert not arrangeable(AA, "4H", "5H")


def test_C_RUN_1_gaps_and_mixed_suits_are_not_runs():
    assert not arrangeable(TC, "3O", "4O", "6O")
    assert not arrangeable(TC, "3O", "5O", "6O")
    assert not arrangeable(TC, "3O", "4O", "5C")
    assert not arrangeable(AA, "4H", "5H", "7H")
    assert not arrangeable(AA, "4H", "5S", "6H")


def test_C_RUN_2_seven_is_next_to_ten():
    # "6-7-10 vale" (torno contract)
    assert meld(TC, "6O", "7O", "10O")
    assert meld(TC, "7C", "10C", "11C")
    assert meld(TC, "5E", "6E", "7E", "10E", "11E", "12E")


def test_C_RUN_2_seven_is_next_to_jack():
    # "6-7-J son válidas" (Conquián §03); "7 es vecino de J" (§01)
    assert meld(AA, "6H", "7H", "JH")
    assert meld(AA, "7S", "JS", "QS")
    assert meld(AA, "5D", "6D", "7D", "JD", "QD", "KD")


def test_C_RUN_2_seven_is_not_next_to_eleven_or_queen():
    assert not arrangeable(TC, "6O", "7O", "11O")
    assert not arrangeable(AA, "6H", "7H", "QH")


def test_C_RUN_3_ace_is_low():
    assert meld(TC, "1O", "2O", "3O")
    assert meld(AA, "AH", "2H", "3H")


def test_C_RUN_3_no_wrap_eleven_twelve_one():
    # "11-12-1 no" (torno contract)
    assert not arrangeable(TC, "11O", "12O", "1O")
    assert not arrangeable(TC, "12O", "1O", "2O")
    assert not arrangeable(TC, "11O", "12O", "1O", "2O")


def test_C_RUN_3_no_wrap_queen_king_ace():
    # "Q-K-A no" (Conquián §03)
    assert not arrangeable(AA, "QS", "KS", "AS")
    assert not arrangeable(AA, "KS", "AS", "2S")
    assert not arrangeable(AA, "JS", "QS", "KS", "AS")


def test_C_RUN_3_twelve_and_king_end_a_run():
    assert meld(TC, "10O", "11O", "12O")
    assert meld(AA, "JS", "QS", "KS")


def test_TC_RUN_1_a_whole_ten_card_suit_is_one_meld_in_torno():
    # RUL-2: torno states only a minimum, so a full suit is a single legal run.
    for suit in suits(TC):
        assert meld(TC, *[r + suit for r in ranks(TC)])


def test_AA_RUN_1_eight_card_run_is_one_meld_nine_is_not():
    assert meld(AA, "AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH")
    assert meld(AA, "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS")
    assert not meld(AA, "AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH")
    assert not meld(AA, "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS")
    assert not meld(AA, *[r + "D" for r in ranks(AA)])


def test_AA_RUN_1_nine_consecutive_cards_are_still_arrangeable_as_two_runs():
    # Not one meld, but C-ARR-1 only asks for a partition: 4 + 5 (or 3 + 6) is valid. So under full
    # rearrangement the 8-card maximum never changes what can be exposed.
    nine = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH"]
    assert arrangeable(AA, *nine)
    assert arrangeable(AA, *[r + "D" for r in ranks(AA)])


@BOTH
def test_C_MELD_1_the_meld_table_is_exactly_the_melds_of_the_rule_text(profile):
    # Every meld is one suit (a run) or one rank (a set): scan all such card groups with the
    # independent rule reading and compare with the engine's table.
    expected = set()
    groups = [[r + s for r in ranks(profile)] for s in suits(profile)]
    groups += [[r + s for s in suits(profile)] for r in ranks(profile)]
    for group in groups:
        for size in range(1, len(group) + 1):
            for cards in combinations(group, size):
                if is_meld(profile, cards):
                    expected.add(frozenset(cards))
    table = {frozenset(names(profile, meld)) for meld in meld_table(profile).melds}
    assert table == expected


# --- C-ARR-1/2: arrangement with rearrangement ------------------------------------------------------


def test_C_ARR_2_moving_the_seven_from_a_run_into_a_set():
    # Exposed 5O-6O-7O; taking 7C with 4O and 7E from hand is valid only as 4O-5O-6O + 7O-7C-7E.
    exposed, taken, chosen = ["5O", "6O", "7O"], "7C", ["4O", "7E"]
    assert arrangeable(TC, *exposed)
    assert arrangeable(TC, *exposed, taken, *chosen)
    # the run cannot stay as it was
    assert not naive_arrangeable(TC, {taken, *chosen})
    # without 4O the 7O cannot leave the run, without 7E the set is short
    assert not arrangeable(TC, *exposed, taken, "7E")
    assert not arrangeable(TC, *exposed, taken, "4O")
    # and with 7E and 7B the run may stay: no rearrangement needed
    assert arrangeable(TC, *exposed, taken, "7E", "7B")


def test_C_ARR_2_the_same_in_french_labels():
    assert arrangeable(AA, "5H", "6H", "7H", "7S", "4H", "7D")
    assert not arrangeable(AA, "5H", "6H", "7H", "7S", "7D")


def test_C_ARR_2_one_card_of_a_set_of_four_goes_into_a_run():
    exposed = ["5O", "5C", "5E", "5B"]
    assert arrangeable(TC, *exposed, "4O", "3O")  # 3O-4O-5O + 5C-5E-5B
    assert not naive_arrangeable(TC, {"4O", "3O"})


def test_C_ARR_2_a_set_of_four_split_entirely_into_run_pieces():
    # Exposed: 5O 5C 5E 5B (a set of four) and 6O-7O-10O. Taking 4O with 3C 4C 6E 7E 3B 4B:
    # 4O-5O-6O-7O-10O, 3C-4C-5C, 5E-6E-7E, 3B-4B-5B. No partition keeps three or four fives together.
    exposed = ["5O", "5C", "5E", "5B", "6O", "7O", "10O"]
    chosen = ["3C", "4C", "6E", "7E", "3B", "4B"]
    everything = {*exposed, "4O", *chosen}
    assert arrangeable(TC, *exposed)
    assert arrangeable(TC, *everything)
    fives = ["5O", "5C", "5E", "5B"]
    for size in (3, 4):
        for kept in combinations(fives, size):
            assert not naive_arrangeable(TC, everything - set(kept))


def test_C_ARR_1_every_card_in_exactly_one_meld():
    # 5O-6O-7O and 7O-7C-7E would share 7O: five cards cannot be arranged.
    assert not arrangeable(TC, "5O", "6O", "7O", "7C", "7E")
    assert not arrangeable(AA, "5H", "6H", "7H", "7S", "7D")


def test_C_ARR_1_the_empty_exposure_is_arranged():
    assert meld_table(TC).arrangeable(0)


def test_C_MELD_1_a_card_never_counts_in_two_melds_example_of_the_rules():
    assert not arrangeable(TC, "3O", "4O", "5O", "5C", "5E")
    assert arrangeable(TC, "3O", "4O", "5O", "5C", "5E", "5B")


def test_C_ARR_2_example_of_the_rules_seven_moves_from_run_to_set():
    assert use_options(TC, ["4C", "5C", "6C", "7C"], "7O", ["7E"]) == {frozenset({"7E"})}


# --- C-ARR-4 / RUL-3: fits --------------------------------------------------------------------------


def test_C_ARR_4_a_card_extending_a_meld_fits():
    assert fits(TC, ["1O", "2O", "3O"], "4O")
    assert fits(TC, ["7O", "7C", "7E"], "7B")
    assert fits(AA, ["4H", "5H", "6H"], "3H")


def test_C_ARR_4_example_of_the_rules_three_runs_become_three_sets():
    # 5H 6H 7H, 5S 6S 7S, 5D 6D 7D plus 5C: 5H 5S 5D 5C, 6H 6S 6D, 7H 7S 7D
    exposed = ["5H", "6H", "7H", "5S", "6S", "7S", "5D", "6D", "7D"]
    assert fits(AA, exposed, "5C")
    assert not any(meld(AA, *exposed[i:i + 3], "5C") for i in (0, 3, 6))


def test_C_ARR_4_a_card_needing_hand_cards_does_not_fit():
    assert not fits(TC, ["1O", "2O", "3O"], "5O")
    assert not fits(AA, ["4H", "5H", "6H"], "JH")


def test_C_ARR_4_nothing_fits_an_empty_exposure():
    assert not meld_table(TC).fits(0, m(TC, "1O"))


@pytest.mark.parametrize(
    ("profile", "exposed", "card"),
    [
        (TC, ["4O", "5O", "6O", "7O", "7E", "10E", "11E", "12E"], "7C"),
        (AA, ["4H", "5H", "6H", "7H", "7S", "JS", "QS", "KS"], "7D"),
    ],
    ids=["torno", "anglo"],
)
def test_RUL_3_a_card_fits_through_repartition_only(profile, exposed, card):
    # 7C extends neither 4O-7O nor 7E-12E, but 4O-5O-6O + 7O-7C-7E + 10E-11E-12E is valid.
    assert arrangeable(profile, *exposed)
    assert not any(meld(profile, *exposed[i:i + 4], card) for i in (0, 4))
    assert fits(profile, exposed, card)


# --- C-TURN-2 / RUL-16: use options ------------------------------------------------------------------


def test_C_TURN_2_use_options_example_of_the_conquian_page():
    # 4♥ 5♥ Q♠ in hand, 6♥ taken: expose 4♥-5♥-6♥ (AA-EX-1)
    assert use_options(AA, [], "6H", ["4H", "5H", "QS"]) == {frozenset({"4H", "5H"})}


def test_C_TURN_2_use_options_include_extra_melds_of_hand_cards_only():
    options = use_options(AA, [], "6H", ["4H", "5H", "QS", "AC", "2C", "3C"])
    assert options == {frozenset({"4H", "5H"}), frozenset({"4H", "5H", "AC", "2C", "3C"})}
    # a hand-only meld alone does not take the card
    assert frozenset({"AC", "2C", "3C"}) not in options


def test_C_TURN_2_use_options_with_rearrangement_and_alone():
    exposed = ["5O", "6O", "7O"]
    options = use_options(TC, exposed, "7C", ["4O", "7E", "7B", "12B"])
    assert options == {
        frozenset({"7E", "7B"}),  # a new set, the run untouched
        frozenset({"4O", "7E"}),  # 4O-5O-6O + 7O-7C-7E
        frozenset({"4O", "7B"}),  # 4O-5O-6O + 7O-7C-7B
        frozenset({"4O", "7E", "7B"}),  # 4O-5O-6O + 7O-7C-7E-7B, or 4O-..-7O + 7C-7E-7B
    }
    # a fitting card can be taken alone
    assert frozenset() in use_options(TC, exposed, "4O", ["7E", "12B"])


def test_C_TURN_2_no_use_option_when_nothing_makes_a_meld():
    assert use_options(TC, [], "12B", ["1O", "5C", "7E"]) == set()
    assert use_options(AA, ["4H", "5H", "6H"], "QS", ["KC", "2D"]) == set()


# --- the solver against the rule text (Hypothesis) -----------------------------------------------------


def _dense_cards(profile):
    """Card lists from a small window of the deck (a few suits, a few consecutive ranks), where
    sets and runs are common."""
    rank_list, suit_list = ranks(profile), suits(profile)

    @st.composite
    def window_cards(draw):
        n_ranks = draw(st.integers(3, 6))
        start = draw(st.integers(0, len(rank_list) - n_ranks))
        chosen_suits = draw(st.lists(st.sampled_from(suit_list), min_size=1, max_size=4, unique=True))
        window = [r + s for r in rank_list[start:start + n_ranks] for s in chosen_suits]
        return draw(st.lists(st.sampled_from(window), max_size=9, unique=True))

    return window_cards()


def _cards(profile):
    return st.one_of(
        st.lists(st.sampled_from(all_cards(profile)), max_size=9, unique=True),
        _dense_cards(profile),
    )


BY_ID = {TC.id: TC, AA.id: AA}
# drawn as the profile id, so a failing example prints readably
PROFILE_AND_CARDS = st.sampled_from(sorted(BY_ID)).flatmap(lambda pid: st.tuples(st.just(pid), _cards(BY_ID[pid])))


@settings(max_examples=settings().max_examples * 12)
@given(PROFILE_AND_CARDS)
def test_C_ARR_1_solver_agrees_with_a_naive_partition_search(profile_and_cards):
    profile_id, cards = profile_and_cards
    profile = BY_ID[profile_id]
    table = meld_table(profile)
    assert table.arrangeable(m(profile, *cards)) == naive_arrangeable(profile, cards)
    arrangement = table.arrangement(m(profile, *cards))
    if arrangement is not None:  # the partition shown is a real partition into melds (RUL-13)
        union = 0
        for part in arrangement:
            assert part & union == 0
            union |= part
            assert is_meld(profile, names(profile, part))
        assert union == m(profile, *cards)


@settings(max_examples=settings().max_examples * 8)
@given(PROFILE_AND_CARDS, st.data())
def test_C_ARR_4_and_C_TURN_2_fits_and_use_options_agree_with_the_rule_text(profile_and_cards, data):
    profile_id, cards = profile_and_cards
    profile = BY_ID[profile_id]
    if not cards:
        return
    card = data.draw(st.sampled_from(cards))
    rest = [c for c in cards if c != card]
    hand = data.draw(st.lists(st.sampled_from(rest), max_size=6, unique=True)) if rest else []
    exposed = [c for c in rest if c not in hand]
    table = meld_table(profile)
    expected_fit = bool(exposed) and naive_arrangeable(profile, {*exposed, card})
    assert table.fits(m(profile, *exposed), m(profile, card)) == expected_fit
    assert use_options(profile, exposed, card, hand) == naive_use_options(profile, exposed, card, hand)


@pytest.mark.parametrize("profile_id", ["anglo-american-v1", "spielanleitung-two-decks-v1"])
def test_the_memoised_use_options_leave_the_garbage_collectors_lists(profile_id):
    """The use searches' memos held a frozenset per question, which the garbage collector never
    stops tracking: its full passes walked all of them (a fifth of a two-deck fuzz run's CPU).
    An option list is a tuple of ints, untracked at its first collection."""
    import gc

    from conquian_ref.spec.profiles import load_profile

    profile = load_profile(profile_id)
    table = meld_table(profile)
    card = lambda suit, rank: 1 << profile.deck.card(suit, rank)  # noqa: E731
    # the ace to four of the first suit and the aces of two more: a run, a set, or both
    hand = card(0, 0) | card(0, 1) | card(0, 2) | card(0, 3) | card(1, 0) | card(2, 0)
    options = table.use_options(card(0, 4), hand)
    alone = table.use_options(0, hand)  # the melds of hand cards alone
    gc.collect()
    assert options and alone
    assert not gc.is_tracked(options) and not gc.is_tracked(alone)
