"""schema/profile.schema.json (with schema/common.schema.json): what a rule profile may say.

Pins that the shipped profiles are valid, that the schema is closed (no unknown fields, no
values outside the policy enums, no missing fields) and that it already admits the
"Spielanleitung" variations. Imports only conquian_ref.spec.schemas, yaml and jsonschema.
"""

from __future__ import annotations

import copy
import re
from importlib import resources

import pytest
import yaml
from jsonschema import Draft202012Validator

from conquian_ref.spec.schemas import load_schema, registry, schema_names, validator

SHIPPED = ["anglo-american-v1", "torno-cisneros-v1"]
COMMON = "common.schema.json"  # schemas carry no $id: each is registered under its file name


def shipped_profile_files():
    return sorted(p.name for p in (resources.files("conquian_ref.spec") / "profiles").iterdir() if p.name.endswith(".yaml"))


def load(profile_id: str) -> dict:
    text = (resources.files("conquian_ref.spec") / "profiles" / f"{profile_id}.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def errors(data) -> list:
    return list(validator("profile").iter_errors(data))


def setting(data: dict, path: tuple, value) -> dict:
    """A deep copy of `data` with the field at `path` set to `value`."""
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def deleting(data: dict, path: tuple) -> dict:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return data


def assert_rejected_at(data: dict, path: tuple) -> None:
    """The profile is invalid, and some error points at `path` (or its parent, for required/additional)."""
    found = errors(data)
    assert found, "expected the profile to be rejected"
    locations = {tuple(e.absolute_path) for e in found}
    assert path in locations or path[:-1] in locations, f"no error at {path}: {[(tuple(e.absolute_path), e.message) for e in found]}"


# --- the schemas themselves ---------------------------------------------------------------


def test_schemas_are_valid_2020_12_and_carry_no_id():
    # Every shipped schema (load_schema itself does not meta-validate, to keep start-up fast).
    # No $id: a relative $ref then resolves beside the file, wherever it is read.
    for name in [n.removesuffix(".schema.json") for n in schema_names()]:
        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        assert "$id" not in schema, name


def test_load_schema_accepts_short_and_file_names_and_caches():
    assert load_schema("profile") is load_schema("profile.schema.json")
    assert validator("profile") is validator("profile.schema.json")


def test_unknown_schema_name_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="unknown schema"):
        load_schema("no-such")


# --- the shipped profiles -------------------------------------------------------------------


@pytest.mark.parametrize("profile_id", SHIPPED)
def test_shipped_profile_validates(profile_id):
    data = load(profile_id)
    assert errors(data) == []
    assert data["id"] == profile_id


def test_every_profile_file_in_the_package_validates_and_is_named_by_its_id():
    files = shipped_profile_files()
    assert {f"{p}.yaml" for p in SHIPPED} <= set(files)
    for name in files:
        data = yaml.safe_load((resources.files("conquian_ref.spec") / "profiles" / name).read_text(encoding="utf-8"))
        assert errors(data) == [], name
        assert f"{data['id']}.yaml" == name


# --- closed: unknown fields ---------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        ("colour",),
        ("deck", "shuffle"),
        ("deck", "suits", 0, "colour"),
        ("deal", "cut"),
        ("melds", "jokers_wild"),
        ("opening", "cards"),
        ("forcing", "penalty"),
        ("sources", 0, "url"),
    ],
    ids=lambda p: ".".join(map(str, p)),
)
@pytest.mark.parametrize("profile_id", SHIPPED)
def test_unknown_field_is_rejected(profile_id, path):
    assert_rejected_at(setting(load(profile_id), path, "x"), path)


def test_unknown_field_inside_exchange_and_match_is_rejected():
    torno = load("torno-cisneros-v1")
    assert_rejected_at(setting(torno, ("exchange", "face_up"), True), ("exchange", "face_up"))
    anglo = load("anglo-american-v1")
    assert_rejected_at(setting(anglo, ("match", "stake"), 1), ("match", "stake"))


# --- closed: enum values ------------------------------------------------------------------


WRONG_VALUES = [
    (("deck", "notation"), "german"),
    (("deck", "copies"), 3),
    (("deck", "copies"), True),
    (("deck", "jokers"), 2),
    (("players",), 3),
    (("partnerships",), "no"),
    (("deal", "packet_size"), 5),
    (("deal", "first_to"), "dealer"),
    (("deal", "first_dealer"), "youngest"),
    (("deal", "dealer_rotation"), "winner_deals"),
    (("melds", "ace"), "high"),
    (("melds", "wrap"), True),
    (("melds", "run_min"), 2),
    (("melds", "set_sizes"), [2, 3]),
    (("rearrangement",), "partial"),
    (("meld_timing",), "meld_then_discard"),
    (("exchange",), {"cards": 0, "simultaneous": True}),
    (("exchange",), 1),
    (("opening", "style"), "no_starter"),
    (("forcing", "own_fit"), "always"),
    (("forcing", "onto_rival"), "yes"),
    (("forcing", "forced_take_hand_cards"), None),
    (("stock_exhaustion",), "reshuffle"),
    (("rejected_cards",), "recycled"),
    (("match",), {"points_per_win": 0, "points_per_draw": 0, "points_to_win": 3}),
    (("id",), "Torno_Cisneros"),
    (("version",), 0),
    (("rule_prefix",), "C"),
    # Any prefix of the id grammar is admitted (profiles are data); whether it is unique and has its
    # rules document is checked against the shipped profiles in tests/test_spec.py.
    (("rule_prefix",), "tc"),
    (("rule_prefix",), "RUL"),
    (("rule_prefix",), "TCXYZ"),
    (("rule_prefix",), 7),
]


@pytest.mark.parametrize(("path", "value"), WRONG_VALUES, ids=lambda v: ".".join(map(str, v)) if isinstance(v, tuple) else repr(v))
@pytest.mark.parametrize("profile_id", SHIPPED)
def test_value_outside_the_policy_enum_or_range_is_rejected(profile_id, path, value):
    data = setting(load(profile_id), path, value)
    assert errors(data), f"{'.'.join(map(str, path))} = {value!r} was accepted"


@pytest.mark.parametrize("profile_id", SHIPPED)
def test_rank_or_suit_of_the_other_notation_is_rejected(profile_id):
    data = load(profile_id)
    other_rank = "Q" if data["deck"]["notation"] == "spanish" else "11"
    other_suit = "S" if data["deck"]["notation"] == "spanish" else "O"
    ranks = data["deck"]["ranks"][:-1] + [other_rank]
    assert_rejected_at(setting(data, ("deck", "ranks"), ranks), ("deck", "ranks", len(ranks) - 1))
    assert_rejected_at(setting(data, ("deck", "suits", 0, "id"), other_suit), ("deck", "suits", 0, "id"))


def test_partnerships_need_four_players():
    assert errors(setting(load("anglo-american-v1"), ("partnerships",), True))


# --- closed: required fields --------------------------------------------------------------


REQUIRED = [
    ("id",), ("title",), ("version",), ("rule_prefix",), ("sources",), ("deck",), ("players",),
    ("partnerships",), ("deal",), ("target",), ("melds",), ("rearrangement",), ("meld_timing",), ("exchange",),
    ("opening",), ("forcing",), ("stock_exhaustion",), ("rejected_cards",), ("match",),
    ("deck", "notation"), ("deck", "suits"), ("deck", "ranks"), ("deck", "copies"), ("deck", "jokers"),
    ("deck", "suits", 0, "glyph"),
    ("deal", "hand_size"), ("deal", "packet_size"), ("deal", "first_to"), ("deal", "first_dealer"),
    ("deal", "dealer_rotation"),
    ("melds", "set_sizes"), ("melds", "run_min"), ("melds", "run_max"), ("melds", "ace"), ("melds", "wrap"),
    ("opening", "style"),
    ("forcing", "own_fit"), ("forcing", "onto_rival"), ("forcing", "forced_take_hand_cards"),
]


@pytest.mark.parametrize("path", REQUIRED, ids=lambda p: ".".join(map(str, p)))
@pytest.mark.parametrize("profile_id", SHIPPED)
def test_missing_required_field_is_rejected(profile_id, path):
    assert_rejected_at(deleting(load(profile_id), path), path)


def test_missing_field_inside_exchange_and_match_is_rejected():
    assert_rejected_at(deleting(load("torno-cisneros-v1"), ("exchange", "simultaneous")), ("exchange", "simultaneous"))
    assert_rejected_at(deleting(load("anglo-american-v1"), ("match", "points_to_win")), ("match", "points_to_win"))


# --- open where the Spielanleitung variations need it ---------------------------------------


FRENCH_52 = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

VARIATIONS = {
    "52-card deck": [(("deck", "ranks"), FRENCH_52)],
    "two decks": [(("deck", "copies"), 2), (("melds", "set_sizes"), [3, 4, 5, 6, 7, 8])],
    "twice around": [(("deal", "hand_size"), 13), (("target",), 15)],
    "four players in partnerships": [(("players",), 4), (("partnerships",), True)],
    "packets of two": [(("deal", "packet_size"), 2)],
    "no forced melding": [(("forcing", "own_fit"), "none")],
    "automatic forcing onto the rival": [(("forcing", "own_fit"), "automatic"), (("forcing", "onto_rival"), True)],
    "forced take with hand cards": [(("forcing", "forced_take_hand_cards"), True)],
    "discard then meld": [(("meld_timing",), "discard_then_meld")],
    "extend-only rearrangement": [(("rearrangement",), "extend_only")],
    "no rearrangement": [(("rearrangement",), "none")],
    "starter offered to both": [(("opening", "style"), "offered_to_both_then_draw")],
    "an exchange of two cards in turn": [(("exchange",), {"cards": 2, "simultaneous": False})],
    "no match": [(("match",), None)],
    "match of ten wins": [(("match",), {"points_per_win": 1, "points_per_draw": 1, "points_to_win": 10})],
    "run maximum": [(("melds", "run_max"), None)],
}


@pytest.mark.parametrize("changes", list(VARIATIONS.values()), ids=list(VARIATIONS))
def test_spielanleitung_variation_is_admitted(changes):
    data = load("anglo-american-v1")
    for path, value in changes:
        data = setting(data, path, value)
    assert errors(data) == []


# --- shared definitions in common.schema.json, reached by file name through the registry ----------


def common(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"{COMMON}#/$defs/{name}"}, registry=registry())


@pytest.mark.parametrize("good", ["C-RUN-2", "TC-FORCE-1", "AA-MELD-1", "RUL-10", "SPA-DEAL-12", "ABCD-EX-1"])
def test_rule_id_pattern_accepts(good):
    assert common("rule_id").is_valid(good)


@pytest.mark.parametrize(
    "bad",
    ["RUN-2", "X-RUN-2", "C-run-2", "C-RUN-", "RUL-", "RUL-1a", "C-RUN-2 ", "C-RUN-02", "RUL-0", "RUL-RUN-1", "ABCDE-RUN-1"],
)
def test_rule_id_pattern_rejects(bad):
    assert not common("rule_id").is_valid(bad)


@pytest.mark.parametrize("good", ["torno-cisneros-v1", "anglo-american-v1", "house-v12", "a1-b2-v3"])
def test_profile_id_pattern_accepts(good):
    assert common("profile_id").is_valid(good)


@pytest.mark.parametrize("bad", ["Torno-v1", "torno", "torno-v", "-torno-v1", "torno--x-v1", "torno_cisneros-v1"])
def test_profile_id_pattern_rejects(bad):
    assert not common("profile_id").is_valid(bad)


@pytest.mark.parametrize("good", ["tc-0001", "aa-9000", "spa-0042", "abcd-1234"])
def test_scenario_id_pattern_accepts(good):
    assert common("scenario_id").is_valid(good)


@pytest.mark.parametrize("bad", ["TC-0001", "tc-001", "tc-00001", "t-0001", "abcde-0001", "tc0001", "tc-0001 "])
def test_scenario_id_pattern_rejects(bad):
    assert not common("scenario_id").is_valid(bad)


@pytest.mark.parametrize("good", ["7O", "12B", "1C", "QS", "10H", "AD", "8C"])
def test_card_notation_accepts(good):
    assert common("card").is_valid(good)


@pytest.mark.parametrize("bad", ["7", "O7", "13O", "7X", "7o", "Q♠", "", 7])
def test_card_notation_rejects(bad):
    assert not common("card").is_valid(bad)


def test_seat_is_one_of_four_at_most():
    # The schema admits any seat a profile can have; the profile's own seats are checked by the
    # engine (engine.setup.check_seat), so seat 2 is malformed in a two-player profile only.
    assert all(common("seat").is_valid(s) for s in (0, 1, 2, 3))
    assert not any(common("seat").is_valid(s) for s in (4, -1, True, "0"))


# --- stakes and targets are bounded ---------------------------------------------------------
# Each score must stay an exact integer in any JSON reader (a JavaScript number included) over any
# session a file can hold: a stake or a target of 10^40 is refused, in one line naming the field.
BOUNDED = {  # the match field -> its largest admitted value
    "stake": 1_000_000,
    "wins_to_win": 1_000_000,
    "units_to_win": 1_000_000_000,
    "points_per_win": 1_000_000,
    "points_per_draw": 1_000_000,
    "points_to_win": 1_000_000_000,
}


def _profiles_scoring_with(name: str) -> list[str]:
    """The shipped profiles whose match scoring has the field `name` (stakes, or points)."""
    return [p for p in (f.removesuffix(".yaml") for f in shipped_profile_files()) if name in (load(p).get("match") or {})]


@pytest.mark.parametrize("name", BOUNDED)
def test_a_stake_or_match_target_beyond_its_bound_is_refused_at_its_field(name):
    profiles = _profiles_scoring_with(name)
    assert profiles, f"no shipped profile scores with {name}"
    data = load(profiles[0])
    assert not errors(setting(data, ("match", name), BOUNDED[name]))
    assert_rejected_at(setting(data, ("match", name), BOUNDED[name] + 1), ("match", name))
    assert_rejected_at(setting(data, ("match", name), 10**40), ("match", name))


def test_a_profile_file_with_a_stake_of_ten_to_the_forty_is_one_line(tmp_path, capsys):
    from conquian_ref.cli import main

    stakes = _profiles_scoring_with("stake")[0]
    text = (resources.files("conquian_ref.spec") / "profiles" / f"{stakes}.yaml").read_text(encoding="utf-8")
    changed, replaced = re.subn(r"(?m)^(  stake: )\d+", r"\g<1>" + str(10**40), text)
    assert replaced == 1
    path = tmp_path / "huge-stake.yaml"
    path.write_text(changed, encoding="utf-8")
    line = changed[: changed.index(str(10**40))].count("\n") + 1
    assert main(["simulate", "--profile", str(path), "--games", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"conquian-ref: error: {path}:{line}: match.stake: {10**40} is greater than the maximum of 1000000\n"
