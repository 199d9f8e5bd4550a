"""The partition helper for meld-based engines (conquian_ref.partition).

Checked against the hand-written table tests/partition_cases.yaml (the JavaScript template's
helper against the same table: tests/test_js_adapter.py), and for the input a caller can get
wrong: a card not of the deck, a card named more often than the deck holds it, a given meld that
is no meld. The profiles come from the table's data, never from this file.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

import conquian_ref
from conquian_ref import MalformedInput, load_profile, partition

CASES = yaml.safe_load((Path(__file__).parent / "partition_cases.yaml").read_text(encoding="utf-8"))


def normalised(found):
    """A partition as a multiset of melds, each a multiset of cards (order carries no meaning)."""
    if found is None:
        return None
    return Counter(tuple(sorted(meld)) for meld in found)


def acceptable(case) -> list | None:
    return None if case["expect"] is None else [normalised(p) for p in case["expect"]]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_partition_matches_the_hand_written_table(case):
    found = partition(load_profile(case["profile"]), case["cards"], case.get("melds", []), case.get("rearrange", True))
    wanted = acceptable(case)
    if wanted is None:
        assert found is None
    else:
        assert normalised(found) in wanted, found


def test_partition_is_public_and_standard_library_only():
    assert "partition" in conquian_ref.__all__
    import conquian_ref.engine.partition as module

    assert conquian_ref.partition is module.partition


def test_the_table_covers_both_modes_and_no_partition():
    assert {c.get("rearrange", True) for c in CASES} == {True, False}
    assert any(c["expect"] is None for c in CASES) and any(c["expect"] and len(c["expect"]) > 1 for c in CASES)


def _profile_with(copies: int):
    return next(p for p in map(load_profile, conquian_ref.PROFILE_IDS) if p.deck.copies == copies)


@pytest.mark.parametrize(
    "cards, melds, field",
    [
        (["QX"], [], "cards[0]"),  # not a card of any deck
        ("AS", [], "cards"),  # not a list
        ([], [["AS", "2S"], ["AS"]], "melds[1][0]"),  # one copy: named twice, across the melds
        ([], "AS", "melds"),
    ],
)
def test_partition_names_the_field_of_malformed_input(cards, melds, field):
    profile = _profile_with(1)
    cards = [profile.deck.name(0) if c == "AS" else c for c in cards] if isinstance(cards, list) else cards
    melds = [[profile.deck.name(0) if c == "AS" else profile.deck.name(1) for c in m] for m in melds] if isinstance(melds, list) else melds
    with pytest.raises(MalformedInput) as caught:
        partition(profile, cards, melds)
    assert caught.value.field == field


def test_partition_refuses_a_third_copy_with_two_decks():
    profile = _profile_with(2)
    card = profile.deck.name(0)
    with pytest.raises(MalformedInput, match="3 times"):
        partition(profile, [card, card, card])


def test_partition_refuses_a_given_meld_that_is_no_meld_when_melds_are_kept():
    profile = _profile_with(1)
    two = [profile.deck.name(0), profile.deck.name(1)]
    with pytest.raises(MalformedInput, match="melds\\[0\\].*is not a meld"):
        partition(profile, [], [two], rearrange=False)
    assert partition(profile, [], [two]) is None  # pooled, the two cards are simply no partition
