"""The emptied hand of the literal twice-around (`empty_hand: turn_passes`, SATL-TURN-1, RUL-43).

The profile loader's RUL-1 check (target = hand size + 1, or + 2 only under the field), the
field's default, and what the rest of the engine does with a seat whose hand a take emptied:
the position of such a deal is taken up again exactly (conquian_ref.engine.position), the seat's
observation shows an empty hand, and the legal actions of a seat with an empty hand are those
of the rules: a card fitting alone may be used, nothing may be discarded. The scenarios of
scenarios/spielanleitung-twice-around-literal-v1/ pin the play itself.
"""

from __future__ import annotations

import copy

import pytest
import yaml

from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.game import Game
from conquian_ref.engine.policies import EmptyHand
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile

from helpers import SATA, SATL, assert_refused, deal

# The empty-hand deal of the corpus (satl-0003): seat 1 uses the starter KC with its whole hand.
SEAT1 = "AS 2S 3S 4S 5S 6S 7S AH 2H 3H KS KH KD".split()
SEAT0 = "JS QS 5H 6H 7H AD 2D 4D 6D AC 3C 5C 7C".split()
STOCK = "KC QD 4H JH QH 3D 5D 7D JD 2C 4C 6C JC QC".split()


def load_changed(tmp_path, profile, **fields):
    data = copy.deepcopy(profile.data)
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        elif key == "hand_size":
            data["deal"]["hand_size"] = value
        else:
            data[key] = value
    path = tmp_path / "changed.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_profile(str(path))


def emptied() -> Game:
    game = Game.from_deal(SATL, [SEAT0, SEAT1], STOCK, 0)
    game.apply(1, {"type": "use", "cards": SEAT1})
    return game


def test_rul_1_a_target_of_hand_size_plus_two_needs_the_emptied_hand_rule(tmp_path):
    # RUL-1: without a turn that ends with no discard, 13 dealt can never reach 15
    with pytest.raises(MalformedInput, match="RUL-1"):
        load_changed(tmp_path, SATL, empty_hand=None)
    with pytest.raises(MalformedInput, match="RUL-1"):
        load_changed(tmp_path, SATL, empty_hand="discard")
    # RUL-43: under the rule the target is exactly hand size + 2, never + 1 or + 3
    with pytest.raises(MalformedInput, match="RUL-43"):
        load_changed(tmp_path, SATL, target=14)
    with pytest.raises(MalformedInput, match="RUL-43"):
        load_changed(tmp_path, SATL, target=16)
    with pytest.raises(MalformedInput, match="RUL-43"):
        load_changed(tmp_path, SATA, empty_hand="turn_passes")  # 14 dealt, 15 to win is + 1


def test_rul_43_the_emptied_hand_rule_is_for_two_players_only(tmp_path):
    partnership = load_profile("spielanleitung-partnership-v1")
    with pytest.raises(MalformedInput, match="empty_hand"):
        load_changed(tmp_path, partnership, empty_hand="turn_passes", target=16)


def test_rul_19_every_other_profile_keeps_the_discard_by_default():
    # the field is optional: absent, a take short of the target is followed by a discard
    for profile_id in PROFILE_IDS:
        profile = load_profile(profile_id)
        expected = EmptyHand.TURN_PASSES if profile is SATL else EmptyHand.DISCARD
        assert profile.empty_hand is expected, profile_id
        assert ("empty_hand" in profile.data) == (profile is SATL), profile_id


def test_satl_turn_1_a_seat_with_an_empty_hand_may_use_a_card_that_fits_alone_and_never_discard():
    game = emptied()
    game.apply(0, {"type": "pass"})  # QD: it fits nothing of seat 1 alone
    assert game.legal_actions(1) == [{"type": "reject"}]
    assert_refused(game, 1, {"type": "discard", "card": "AS"}, "no_discard_now")
    assert_refused(game, 1, {"type": "use", "cards": ["QD"]}, "card_not_in_hand")
    game.apply(1, {"type": "reject"})  # 4H is drawn for seat 1 and extends AH 2H 3H (C-ARR-4)
    assert game.legal_actions(1) == [{"type": "pass"}, {"type": "use", "cards": []}]


def test_satl_turn_1_the_turn_passed_with_an_empty_hand_is_taken_up_again_exactly():
    game = emptied()
    assert [e["event"] for e in game.history][-3:] == ["use", "turn_passes", "reveal"]
    again = Game.from_position(SATL, game.position())
    assert again.state_json() == game.state_json()
    assert again.legal_actions(0) == game.legal_actions(0) == [{"type": "pass"}]
    # C-OBS-1: the emptied hand is shown as such, to its seat and as a count to the other
    assert game.observation(1)["hand"] == [] and game.observation(0)["hand_counts"] == [13, 0]


def test_satl_turn_1_an_emptying_take_in_the_default_profile_cannot_happen():
    # RUL-1 with two players: exposed and hand cards add up to the hand size, so a use of the
    # whole hand reaches the target and wins; the turn never passes with no discard there
    game = deal(SATA, [SEAT0 + ["JC"], SEAT1 + ["4H"]], top=["KC"])
    game.apply(1, {"type": "use", "cards": SEAT1 + ["4H"]})
    assert game.outcome is not None and game.outcome.how == "rummy"
    assert "turn_passes" not in [e["event"] for e in game.history]
