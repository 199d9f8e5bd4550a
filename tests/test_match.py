"""The match of a profile with stakes and a pot (spielanleitung-v1: SA-MATCH-1..4, SA-END-2,
SA-DEAL-1; rulings RUL-24..RUL-27), and the old points form unchanged.

Every expectation is worked out by hand from the rule text (the comment above it shows the sum),
never read back from the engine."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings, strategies as st

from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.conformance.reference import Reference
from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.match import Match
from conquian_ref.engine.outcome import How, Outcome
from conquian_ref.engine.profile import profile_from_data
from conquian_ref.spec.profiles import load_profile, profile_data

SA = "spielanleitung-v1"
DRAW = {"result": "draw", "winner": None, "how": "stock_exhausted"}


def win(seat: int, how: str = "target_reached") -> dict:
    return {"result": "win", "winner": seat, "how": how}


def misdeal(c0: int, c1: int) -> dict:
    return {"misdeal": {"counts": [c0, c1]}}


def score(deals: list[dict], first_dealer: int = 0, profile: str = SA) -> dict:
    return Reference().match(profile, first_dealer, deals)


def stakes(**match):
    """A copy of spielanleitung-v1 with other match values (a Profile, written to no file)."""
    data = copy.deepcopy(profile_data(SA))
    data["match"].update(match)
    return profile_from_data(data, "test copy")


def score_with(profile, deals: list[dict], first_dealer: int = 0) -> dict:
    return Reference(profile_loader=lambda _id: profile).match(profile.id, first_dealer, deals)


# -- SA-MATCH-1: stakes and the pot ---------------------------------------------------------------
def test_sa_match_1_before_any_deal_nothing_is_paid():
    got = score([], first_dealer=1)
    assert (got["points"], got["wins"], got["net"], got["pot"]) == (None, [0, 0], [0, 0], 0)
    assert (got["next_dealer"], got["winner"]) == (1, None)


def test_sa_match_1_the_winner_takes_the_pot():
    # Each pays 1, the pot holds 2, seat 1 takes it: seat 1 is 2 - 1 = +1, seat 0 is -1.
    got = score([win(1)])
    assert (got["wins"], got["net"], got["pot"], got["winner"]) == ([0, 1], [-1, 1], 0, None)


# -- SA-MATCH-2: a drawn deal carries the pot over ------------------------------------------------
def test_sa_match_2_draw_carries_the_pot():
    # Deal 1: both pay 1, pot 2, drawn: pot stays 2, each is -1.
    got = score([DRAW])
    assert (got["wins"], got["net"], got["pot"]) == ([0, 0], [-1, -1], 2)


def test_sa_match_2_two_draws_carry_the_pot_twice():
    # Deal 1: pot 2; deal 2: 2 + 1 + 1 = 4, drawn again: pot 4, each has paid 2.
    got = score([DRAW, DRAW])
    assert (got["wins"], got["net"], got["pot"]) == ([0, 0], [-2, -2], 4)


def test_sa_match_2_a_win_after_two_draws_takes_the_carried_pot():
    # Deal 3: 4 + 1 + 1 = 6, seat 0 takes 6 having paid 3: +3; seat 1 paid 3: -3; pot empty.
    got = score([DRAW, DRAW, win(0)])
    assert (got["wins"], got["net"], got["pot"]) == ([1, 0], [3, -3], 0)


def test_sa_match_2_the_rules_example():
    # "deal 1 is drawn with 2 in the pot; deal 2 starts with 4, seat 0 wins: +2 and -2".
    got = score([DRAW, win(0)])
    assert (got["net"], got["pot"]) == ([2, -2], 0)


def test_sa_match_2_pot_carry_cited_only_when_a_draw_carried_the_pot():
    reference = Reference()
    reference.match(SA, 0, [win(0), win(1)])
    assert "SA-MATCH-2" not in reference.rules_fired
    reference.match(SA, 0, [DRAW, win(1)])
    assert "SA-MATCH-2" in reference.rules_fired and "RUL-25" in reference.rules_fired


# -- SA-MATCH-3: the session, 10 wins or 100 units ------------------------------------------------
def test_sa_match_3_session_won_at_ten_wins():
    # The rule's example: seat 0 wins ten, seat 1 four, two draws; at seat 0's tenth win it has the
    # session. Two draws first (pot 4), then seat 1 wins four (takes 6 + 2 + 2 + 2 = 12), seat 0
    # wins ten (2 each = 20); 16 deals, each seat paid 16: seat 0 20 - 16 = +4, seat 1 12 - 16 = -4.
    deals = [DRAW, DRAW] + [win(1)] * 4 + [win(0)] * 9
    before = score(deals)
    assert (before["wins"], before["winner"]) == ([9, 4], None)
    got = score(deals + [win(0)])
    assert (got["wins"], got["net"], got["pot"], got["winner"]) == ([10, 4], [4, -4], 0, 0)


def test_sa_match_3_session_won_by_units_with_a_larger_stake():
    # Stake 30: each deal puts 60 in the pot. Two draws carry 120; deal 3 makes 180, seat 1 takes it
    # having paid 90: +90, not yet 100. Deal 4: seat 1 wins 60, paid 30: +30 -> +120 >= 100.
    profile = stakes(stake=30)
    got = score_with(profile, [DRAW, DRAW, win(1)])
    assert (got["net"], got["winner"]) == ([-90, 90], None)
    got = score_with(profile, [DRAW, DRAW, win(1), win(1)])
    assert (got["wins"], got["net"], got["pot"], got["winner"]) == ([0, 2], [-120, 120], 0, 1)


def test_sa_match_3_the_goal_is_checked_at_the_end_of_a_deal_with_wins_or_units():
    # Stake 50: one win takes 100, paid 50: +50; two wins +100 = units_to_win, long before 10 wins.
    got = score_with(stakes(stake=50), [win(0), win(0)])
    assert (got["wins"], got["net"], got["winner"]) == ([2, 0], [100, -100], 0)


def test_sa_match_3_a_deal_after_the_session_is_won_is_refused():
    with pytest.raises(MalformedInput) as caught:
        score([win(1)] * 10 + [DRAW])
    assert caught.value.field == "deals[10]"
    with pytest.raises(MalformedInput):
        score([win(1)] * 10 + [misdeal(11, 9)])


# -- SA-MATCH-4 and SA-END-3: going rummy scores like any win -------------------------------------
def test_sa_match_4_rummy_scores_like_any_win():
    # "seat 1 goes rummy with 2 units in the pot and receives 2": +1 and -1, one win.
    got = score([win(1, "rummy")])
    assert (got["wins"], got["net"], got["pot"]) == ([0, 1], [-1, 1], 0)
    reference = Reference()
    reference.match(SA, 0, [win(1, "rummy")])
    assert {"SA-MATCH-4", "SA-END-3", "RUL-24"} <= reference.rules_fired
    reference.match(SA, 0, [win(1)])
    assert not {"SA-MATCH-4", "SA-END-3"} & reference.rules_fired


def test_sa_end_3_rummy_is_malformed_in_a_profile_without_going_rummy():
    with pytest.raises(MalformedInput):
        score([win(1, "rummy")], profile="anglo-american-v1")


# -- SA-END-2 and SA-DEAL-1: a misdeal keeps the dealer and the pot -------------------------------
def test_sa_deal_1_the_dealer_alternates_every_deal_draws_included():
    # Seat 0 deals deal 1 (drawn), seat 1 deal 2, seat 0 deal 3.
    assert score([DRAW])["next_dealer"] == 1
    assert score([DRAW, win(0)])["next_dealer"] == 0


def test_sa_end_2_misdeal_keeps_the_dealer_and_the_pot():
    # Deal 1 (seat 0 deals) is drawn: pot 2, seat 1 deals next. A misdeal: no stake, still seat 1
    # to deal, pot 2, each still -1, no win counted.
    got = score([DRAW, misdeal(10, 11)])
    assert (got["next_dealer"], got["wins"], got["net"], got["pot"]) == (1, [0, 0], [-1, -1], 2)
    # The deal dealt again is won by seat 1: pot 2 + 2 = 4, seat 1 paid 2: +2; seat 0 -2.
    got = score([DRAW, misdeal(10, 11), win(1)])
    assert (got["next_dealer"], got["wins"], got["net"], got["pot"]) == (0, [0, 1], [-2, 2], 0)


def test_sa_end_2_misdeal_first_of_all_leaves_the_first_dealer():
    got = score([misdeal(9, 11), misdeal(11, 10)], first_dealer=1)
    assert (got["next_dealer"], got["net"], got["pot"], got["wins"]) == (1, [0, 0], 0, [0, 0])


def test_sa_end_2_misdeal_with_the_right_counts_is_malformed():
    with pytest.raises(MalformedInput) as caught:
        score([DRAW, misdeal(10, 10)])
    assert caught.value.field.startswith("deals[1]")


def test_sa_end_2_misdeal_cited_only_when_there_was_one():
    reference = Reference()
    reference.match(SA, 0, [win(0)])
    assert not {"SA-END-2", "RUL-26"} & reference.rules_fired
    reference.match(SA, 0, [misdeal(11, 9)])
    assert {"SA-END-2", "RUL-26", "SA-DEAL-1"} <= reference.rules_fired


def test_a_misdeal_is_malformed_in_a_profile_without_stakes():
    with pytest.raises(MalformedInput):
        score([misdeal(11, 9)], profile="anglo-american-v1")


# -- the protocol answer ---------------------------------------------------------------------------
def test_the_stakes_answer_carries_wins_net_and_pot():
    answer = ReferenceAdapter().handle({"seq": 3, "cmd": "match", "profile": SA, "first_dealer": 0, "deals": [DRAW, misdeal(11, 9)]})
    assert answer == {"seq": 3, "match": {"points": None, "next_dealer": 1, "winner": None, "wins": [0, 0], "net": [-1, -1], "pot": 2}}


def test_the_old_profiles_answers_are_unchanged():
    # AA-MATCH-1: 1 a win, 0 a draw; seat 1 wins one and one deal is drawn: 0-1, seat 1 dealt
    # first, then seat 0, so seat 1 deals next. TC-MATCH-1: no points.
    adapter = ReferenceAdapter()
    answer = adapter.handle({"seq": 1, "cmd": "match", "profile": "anglo-american-v1", "first_dealer": 1, "deals": [DRAW, win(1)]})
    assert answer == {"seq": 1, "match": {"points": [0, 1], "next_dealer": 1, "winner": None}}
    answer = adapter.handle({"seq": 2, "cmd": "match", "profile": "torno-cisneros-v1", "first_dealer": 0, "deals": [win(0)]})
    assert answer == {"seq": 2, "match": {"points": None, "next_dealer": 1, "winner": None}}
    full = Match(load_profile("anglo-american-v1"), 0).to_json()
    assert set(full) == {"profile", "first_dealer", "results", "points", "next_dealer", "winner"}


def test_scoring_is_linear_in_the_number_of_deals():
    # Reading the score after each of many deals adds only the new deal to the running tally.
    match = Match(load_profile(SA), 0)
    for _ in range(2000):
        match.record(Outcome(How("stock_exhausted")))
        assert match.pot is not None
    assert match._tally.counted == 2000 and match.pot == 4000 and match.net == [-2000, -2000]


def test_a_stakes_match_scenario_needs_the_stakes_capability():
    from pathlib import Path

    from conquian_ref.conformance.check import needs
    from conquian_ref.spec.scenario import Scenario

    def scenario(profile):
        data = {"id": "x-0001", "profile": profile, "match": {"first_dealer": 0, "deals": [], "expect": {"winner": None}}}
        return Scenario(data, Path("x.yaml"), {})

    assert needs(scenario(SA)) == {"match", "stakes"}
    assert needs(scenario("anglo-american-v1")) == needs(scenario("torno-cisneros-v1")) == {"match"}


def test_the_stakes_messages_conform_to_the_protocol_schema():
    from conquian_ref.conformance.protocol import MessageValidator

    validate = MessageValidator()
    request = {"seq": 5, "cmd": "match", "profile": SA, "first_dealer": 0, "deals": [win(0, "rummy"), misdeal(11, 9), DRAW]}
    validate("request", request)
    validate("answer", ReferenceAdapter().handle(request))
    validate("request", {**request, "seq": 6, "profile": "anglo-american-v1", "deals": [DRAW]})
    validate("answer", {"seq": 6, "match": {"points": [0, 0], "next_dealer": 1, "winner": None}})


_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-1, 5), st.sampled_from([0.0, 1.5, "win", "draw", "rummy", "target_reached", "x"]))
_ENTRY = st.one_of(
    st.fixed_dictionaries({"result": _SCALAR, "winner": _SCALAR, "how": _SCALAR}, optional={"extra": _SCALAR}),
    st.fixed_dictionaries({"misdeal": st.one_of(_SCALAR, st.fixed_dictionaries({"counts": st.lists(_SCALAR, max_size=5)}))}),
    st.dictionaries(st.sampled_from(["result", "winner", "how", "misdeal"]), _SCALAR, max_size=3),
    _SCALAR,
)


@settings(max_examples=300)
@given(_ENTRY)
def test_a_deal_entry_found_valid_without_jsonschema_is_valid_for_jsonschema(entry):
    """The adapter judges a match's deal entry by the compiled check of its form first (no
    jsonschema import for a valid session): it must find valid exactly what jsonschema does."""
    from conquian_ref.conformance import adapter
    from conquian_ref.spec.schemas import definition_validator

    form = adapter._form(entry)
    assert adapter._holds(entry) == definition_validator("scenario", form).is_valid(entry), entry
