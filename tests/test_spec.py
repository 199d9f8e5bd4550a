"""The spec floor: one id grammar, profiles discovered from their files, setup checks like the engine's.

Pins that
- the id patterns of conquian_ref/spec/ids.py are the ones the schemas repeat (JSON Schema cannot
  import Python), and every rule heading of docs/rules/ follows them;
- the profiles are data: PROFILE_IDS is the set of profile files, each names its rule prefix and
  has its rules document, and no profile id is written in the package's code or schema patterns;
- a scenario names a discovered profile and an id of its prefix, each in one problem line;
- spec/setup_check.py refuses a broken setup exactly as the engine's Game.from_deck/from_deal do.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

import conquian_ref
from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.game import Game
from conquian_ref.spec import ids
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile, profile_data, rule_prefix
from conquian_ref.spec.rulebook import DOCUMENTS, HEADING, load_rules, rules_dir, rules_for
from conquian_ref.spec.scenario import ScenarioInvalid, load_scenario
from conquian_ref.spec.schemas import load_schema, schema_names
from conquian_ref.spec.setup_check import check_setup

PACKAGE = Path(conquian_ref.__file__).parent
PROFILE_FILES = PACKAGE / "spec" / "profiles"
BASE = Path(__file__).parent / "samples" / "valid" / "tc-9000-base.yaml"


# -- one grammar: the Python patterns and their copies in the schemas ------------------------------
@pytest.mark.parametrize(
    ("definition", "pattern"),
    [("rule_id", ids.RULE_ID), ("rule_prefix", ids.RULE_PREFIX), ("profile_id", ids.PROFILE_ID), ("scenario_id", ids.SCENARIO_ID)],
)
def test_schema_pattern_is_the_python_pattern(definition, pattern):
    assert load_schema("common")["$defs"][definition]["pattern"] == pattern.pattern


def test_schemas_refer_to_the_shared_id_definitions():
    def ref(node):
        return node["$ref"].rsplit("/", 1)[-1]

    assert ref(load_schema("scenario")["properties"]["id"]) == "scenario_id"
    assert ref(load_schema("known-failures")["items"]["properties"]["id"]) == "scenario_id"
    assert ref(load_schema("profile")["properties"]["rule_prefix"]) == "rule_prefix"
    assert ref(load_schema("profile")["properties"]["id"]) == "profile_id"


def test_the_rule_headings_are_built_from_the_rule_id_grammar():
    assert ids.RULE_ID_BODY in HEADING.pattern
    for rid in load_rules():
        assert ids.is_rule_id(rid), rid


@pytest.mark.parametrize("text", ["C-RUN-2", "TC-FORCE-1", "RUL-14", "SPA-DEAL-3"])
def test_rule_ids_are_found_in_running_text(text):
    assert ids.RULE_ID_IN_TEXT.findall(f"see {text}, then ({text}).") == [text, text]


@pytest.mark.parametrize("text", ["aC-RUN-2", "C-RUN-2a", "RUL-1x", "RUL-RUN-1"])
def test_no_rule_id_is_found_inside_a_longer_word(text):
    assert ids.RULE_ID_IN_TEXT.findall(text) == []


def test_scenario_ids_are_found_in_file_names_and_lists():
    text = "tc-0042-a-set.yaml aa-0001 spa-1234, not TC-0001 nor tc-12345 nor abcde-0001 nor tc-0001x"
    assert ids.SCENARIO_ID_IN_TEXT.findall(text) == [("tc", "0042"), ("aa", "0001"), ("spa", "1234")]
    assert all(ids.SCENARIO_ID.fullmatch(f"{p}-{n}") for p, n in ids.SCENARIO_ID_IN_TEXT.findall(text))


def test_is_rule_id_refuses_a_trailing_newline_and_non_strings():
    assert ids.is_rule_id("C-RUN-2")
    assert not ids.is_rule_id("C-RUN-2\n") and not ids.is_rule_id(None)


# -- profiles are data -------------------------------------------------------------------------
def test_profile_ids_are_the_stems_of_the_profile_files():
    assert PROFILE_IDS == tuple(sorted(p.stem for p in PROFILE_FILES.glob("*.yaml")))
    assert len(PROFILE_IDS) >= 2


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_a_profile_file_names_itself_and_its_rule_prefix_in_the_id_grammar(profile_id):
    data = yaml.safe_load((PROFILE_FILES / f"{profile_id}.yaml").read_text(encoding="utf-8"))
    assert data == profile_data(profile_id)
    assert data["id"] == profile_id and ids.PROFILE_ID.fullmatch(profile_id)
    assert ids.RULE_PREFIX.fullmatch(rule_prefix(profile_id))
    assert load_profile(profile_id).rule_prefix == rule_prefix(profile_id)


def test_rule_prefixes_are_unique():
    prefixes = [rule_prefix(p) for p in PROFILE_IDS]
    assert len(set(prefixes)) == len(prefixes), prefixes


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_each_profile_has_its_rules_document_holding_its_own_rules_only(profile_id):
    assert f"{profile_id}.md" in DOCUMENTS and (rules_dir() / f"{profile_id}.md").is_file()
    own = [r.id for r in load_rules().values() if r.document == f"{profile_id}.md"]
    assert own and all(rid.startswith(rule_prefix(profile_id) + "-") for rid in own), own


def test_every_rule_id_belongs_to_the_core_the_rulings_or_a_shipped_profile():
    prefixes = ("C-", "RUL-") + tuple(rule_prefix(p) + "-" for p in PROFILE_IDS)
    assert [rid for rid in load_rules() if not rid.startswith(prefixes)] == []


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_rules_for_a_profile_are_the_core_its_rulings_its_own_and_the_rules_it_maps(profile_id):
    data = dict(profile_data(profile_id)["rules"])
    rulings, named = set(data.pop("rulings")), set(data.values())
    own = rule_prefix(profile_id) + "-"
    applicable = rules_for(profile_id)
    assert any(rid.startswith(own) for rid in applicable)
    assert {rid for rid in applicable if rid.startswith("RUL-")} == rulings
    assert {rid for rid in applicable if not rid.startswith(("C-", "RUL-", own))} == {rid for rid in named if not rid.startswith(own)}
    assert not any(r.deprecated for r in applicable.values())


def test_an_unknown_profile_has_only_the_core_rules():
    assert set(rules_for("no-such-v1")) == {rid for rid, r in load_rules().items() if rid.startswith("C-") and not r.deprecated}
    with pytest.raises(MalformedInput, match="unknown profile 'no-such-v1'"):
        profile_data("no-such-v1")


def _files_naming_a_profile(root: Path, pattern: str) -> list[str]:
    names = re.compile("|".join(re.escape(p) for p in PROFILE_IDS))
    return sorted(str(f.relative_to(root)) for f in root.rglob(pattern) if names.search(f.read_text(encoding="utf-8")))


def test_no_module_of_the_spec_floor_names_a_profile():
    assert _files_naming_a_profile(PACKAGE / "spec", "*.py") == []


def test_no_python_module_in_the_package_names_a_profile():
    # Profiles are data: a profile id written in code is a profile the next one cannot replace.
    assert _files_naming_a_profile(PACKAGE, "*.py") == []


def _schema_strings(node):
    """Every pattern and enum value of a schema, where an id grammar could name a profile."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern":
                yield value
            elif key == "enum":
                yield from (v for v in value if isinstance(v, str))
            else:
                yield from _schema_strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_strings(value)


@pytest.mark.parametrize("name", schema_names())
def test_no_schema_pattern_or_enum_names_a_profile_or_its_prefix(name):
    shipped = [(p, rule_prefix(p)) for p in PROFILE_IDS]
    for text in _schema_strings(load_schema(name)):
        for profile_id, prefix in shipped:
            assert profile_id not in text, (name, text)
            assert not re.search(rf"(?<![A-Za-z]){prefix}(?![A-Za-z])", text, flags=re.I), (name, text)
    assert not any(p in json.dumps(load_schema(name)) for p in PROFILE_IDS), name


# -- a scenario names a discovered profile and an id of its prefix --------------------------------
def _scenario_with(tmp_path: Path, **fields) -> Path:
    lines = BASE.read_text(encoding="utf-8").splitlines()
    for key, value in fields.items():
        lines = [f"{key}: {value}" if line.startswith(f"{key}: ") else line for line in lines]
    path = tmp_path / "s.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioInvalid) as info:
        load_scenario(path)
    return [str(p) for p in info.value.problems]


def test_unknown_profile_is_one_line_naming_it_and_the_known_ones(tmp_path):
    path = _scenario_with(tmp_path, profile="house-rules-v1")
    assert _problems(path) == [f"{path}:4: profile: unknown profile 'house-rules-v1' (known: {', '.join(PROFILE_IDS)})"]


def test_an_id_of_another_prefix_is_one_line(tmp_path):
    other = next(p for p in PROFILE_IDS if p != "torno-cisneros-v1")
    wrong = ids.scenario_prefix(rule_prefix(other)) + "9000"
    path = _scenario_with(tmp_path, id=wrong)
    assert _problems(path) == [
        f"{path}:2: id: id {wrong!r} does not start with 'tc-': the ids of torno-cisneros-v1 start with its rule_prefix TC in lower case"
    ]


def test_the_base_sample_loads(tmp_path):
    assert load_scenario(_scenario_with(tmp_path)).id == "tc-9000"


# -- setup checks: the engine's, without starting a deal -------------------------------------------
def _engine_refusal(profile, setup) -> tuple[str, str] | None:
    try:
        if "deck" in setup:
            Game.from_deck(profile, setup["deck"], setup["dealer"])
        else:
            Game.from_deal(profile, setup["hands"], setup["stock"], setup["dealer"])
    except MalformedInput as exc:
        return exc.field, exc.message
    return None


def _spec_refusal(profile, setup) -> tuple[str, str] | None:
    try:
        check_setup(profile, setup)
    except MalformedInput as exc:
        return exc.field, exc.message
    return None


def _broken_setups(profile):
    """A valid deal and deck order, and each broken in one way a scenario file can be."""
    names = [profile.deck.name(c) for c in profile.deck.ordered()]
    size, seats = profile.hand_size, len(profile.seats)
    hands, stock = [names[s * size : (s + 1) * size] for s in range(seats)], names[seats * size :]
    deal = {"dealer": 0, "hands": hands, "stock": stock}
    yield "valid deal", deal
    yield "valid deck", {"dealer": 1, "deck": names}
    yield "unknown card", {**deal, "hands": [hands[0][:-1] + ["13X"], *hands[1:]]}
    yield "card twice in a hand", {**deal, "hands": [hands[0][:-1] + [hands[0][0]], *hands[1:]]}
    yield "card in a hand and the stock", {**deal, "stock": stock[:-1] + [hands[1][2]]}
    yield "card in both hands", {**deal, "hands": [hands[0], hands[1][:-1] + [hands[0][3]], *hands[2:]]}
    yield "card missing", {**deal, "stock": stock[:-2]}
    yield "short hand", {**deal, "hands": [hands[0][:-1], *hands[1:]], "stock": stock + [hands[0][-1]]}
    yield "long hand", {**deal, "hands": [hands[0] + [stock[0]], *hands[1:]], "stock": stock[1:]}
    yield "one hand too many", {**deal, "hands": hands + [[]]}
    yield "dealer not a seat of the table", {**deal, "dealer": seats}
    yield "stock not a list", {**deal, "stock": "7O"}
    yield "card not a string", {**deal, "stock": stock[:-1] + [7]}
    yield "short deck", {"dealer": 0, "deck": names[:-1]}
    yield "card twice in the deck", {"dealer": 0, "deck": names[:-1] + [names[0]]}
    yield "unknown card in the deck", {"dealer": 0, "deck": names[:-1] + ["13X"]}


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_setup_check_refuses_as_the_engine_does(profile_id):
    profile = load_profile(profile_id)
    for name, setup in _broken_setups(profile):
        expected = _engine_refusal(profile, setup)
        assert _spec_refusal(profile, setup) == expected, name
        assert (expected is None) == name.startswith("valid"), (name, expected)
