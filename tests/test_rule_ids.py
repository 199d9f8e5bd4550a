"""Every rule id lands on the row that enforces it.

A rules lawyer goes from an id to its enforcement with grep. So every id defined in docs/rules/
(the headings `### ID — Title`, read by conquian_ref.spec.rulebook) must be named by a row of the
engine's tables (what happens, `transitions.STEPS`; why an action is refused, `refusals.REFUSALS`;
the policy tables; the endings, `outcome.How`; what a seat may know; the rules held by
construction; the match's scoring rows; the rules each meld rests on) or, for a profile's own
rules, be the value of a profile file's `rules:` mapping, which the rows name by its key. A trace
call, a comment or a bare tuple beside a check counts for nothing: only the row objects are read.
The one exception is a rule marked in its text as `Documentary: ...` (a worked example, checked by
scenarios only). Ids are never assembled at run time, and no profile's rule id is chosen by
profile in code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from conquian_ref.engine import match, observation, outcome, policies, refusals, trace, transitions
from conquian_ref.engine.melds import meld_table
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.spec.rulebook import load_rules, rules_for

ENGINE = Path(__file__).resolve().parent.parent / "conquian_ref" / "engine"
PROFILES = ENGINE.parent / "spec" / "profiles"
RULE_ID = re.compile(r"\b(?:[A-Z]+-[A-Z]+-[1-9][0-9]*|RUL-[1-9][0-9]*)\b")
DOCUMENTARY = re.compile(r"^Documentary: .+", flags=re.M)


def rows() -> dict[str, tuple[str, ...]]:
    """{a row's name: the rules it names}, over every table of behaviour of the engine."""
    found: dict[str, tuple[str, ...]] = {}
    for name, step in transitions.STEPS.items():
        found[f"STEPS[{name}]"] = step.rules
    for row in refusals.REFUSALS:
        found[f"REFUSALS[{row.code}]"] = row.rules + row.concepts
    for table in ("FITS", "OWN_FITS", "OPENINGS", "TIMINGS", "EMPTY_HANDS"):
        for value, entry in getattr(policies, table).items():
            found[f"{table}[{value}]"] = entry.rules
    for how in outcome.How:
        found[f"How.{how.name}"] = (how.rule,)
    found["SEEN_DURING_EXCHANGE"] = observation.SEEN_DURING_EXCHANGE
    for i, (_, rules) in enumerate(trace.BY_CONSTRUCTION):
        found[f"BY_CONSTRUCTION[{i}]"] = rules
    for i, (_, rules) in enumerate(match.SCORE_RULES):
        found[f"SCORE_RULES[{i}]"] = rules
    for profile_id in PROFILE_IDS:  # the meld rule: the rules each meld of a profile rests on
        table = meld_table(load_profile(profile_id))
        found[f"melds[{profile_id}]"] = tuple(sorted({r for meld in table.melds for r in table.rules_of(meld)}))
    return found


def ids_on_rows() -> dict[str, set[str]]:
    """{rule id: the rows naming it} (rule ids only; the lowercase keys of `rules:` aside)."""
    found: dict[str, set[str]] = {}
    for row, rules in rows().items():
        for rid in rules:
            if RULE_ID.fullmatch(rid):
                found.setdefault(rid, set()).add(row)
    return found


def profile_rules(profile_id: str) -> dict:
    return yaml.safe_load((PROFILES / f"{profile_id}.yaml").read_text(encoding="utf-8"))["rules"]


def ids_in_profile_data() -> dict[str, set[str]]:
    """{rule id: profile files whose `rules:` map a concept to it} (the rulings list aside: a
    ruling is enforced in code)."""
    found: dict[str, set[str]] = {}
    for profile_id in PROFILE_IDS:
        for concept, rid in profile_rules(profile_id).items():
            if concept != "rulings":
                found.setdefault(rid, set()).add(f"{profile_id}.yaml")
    return found


def test_every_rule_id_is_named_by_a_row_or_the_profile_data():
    written = set(ids_on_rows()) | set(ids_in_profile_data())
    missing = [
        rid for rid, rule in load_rules().items()
        if rid not in written and not rule.deprecated and not DOCUMENTARY.search(rule.text)
    ]
    assert not missing, f"no row or profile data enforces {missing}: name the id on the row that applies it, or mark it Documentary"


def test_every_key_a_row_names_is_a_key_of_some_profile_s_rules():
    """A lowercase entry of a row stands for a profile's own rule: some profile must name it."""
    keys = {key for profile_id in PROFILE_IDS for key in profile_rules(profile_id)}
    for row, rules in rows().items():
        for key in rules:
            assert RULE_ID.fullmatch(key) or key in keys, f"{row} names {key!r}, neither a rule id nor a key of any profile's rules:"


@pytest.mark.parametrize("rid, row", [
    ("C-TURN-4", "STEPS[reject_card]"),  # a core rule
    ("RUL-17", "STEPS[play.force]"),  # a ruling
    ("RUL-40", "STEPS[pass_opening_card]"),  # a four-seat rule: the opening card goes round the table
    ("RUL-34", "STEPS[resolve_copies]"),  # a two-deck rule
    ("RUL-20", "OPENINGS[offered_to_both_then_draw]"),  # a policy's ruling
])
def test_grep_an_id_land_on_one_row(rid, row):
    assert ids_on_rows()[rid] == {row}


def test_a_profile_rule_lands_on_its_key_and_the_key_on_the_rows():
    """SA-FORCE-1 (the opponent's demand) is profile data under the key `force_option`, and the
    rows that apply it name that key."""
    assert profile_rules("spielanleitung-v1")["force_option"] == "SA-FORCE-1"
    naming = {row for row, rules in rows().items() if "force_option" in rules}
    assert {"STEPS[ask_next_seat]", "OWN_FITS[rival_option]", "REFUSALS[must_decide_force]"} <= naming


def test_no_rule_is_recorded_beside_a_check():
    """The rule trace is derived from the rows: no engine module but the interpreter writes it."""
    for path in sorted(ENGINE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        writes = text.count("rules_fired.add(") + text.count("fired_last.append(") + text.count("_fire(")
        assert writes == 0, f"{path.name} records rules beside a check"


def test_documentary_rules_are_the_worked_examples_only():
    documentary = [rid for rid, rule in load_rules().items() if DOCUMENTARY.search(rule.text)]
    assert documentary, "the worked example AA-EX-1 is documentary"
    assert all("-EX-" in rid for rid in documentary), documentary
    assert not set(documentary) & set(ids_on_rows()), "a documentary rule is enforced by a row after all"


def test_every_id_on_the_rows_and_in_the_profiles_is_a_defined_rule():
    known = load_rules()
    for rid, where in {**ids_on_rows(), **ids_in_profile_data()}.items():
        assert rid in known, f"{sorted(where)} cite {rid}, which docs/rules does not define"


def test_no_profile_rule_id_is_assembled_or_chosen_by_profile_in_code():
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "rule_prefix}" not in text and "rule_prefix +" not in text, f"{path.name} assembles a rule id"
        for profile_id in PROFILE_IDS:
            assert profile_id not in text, f"{path.name} names the profile {profile_id}"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_a_profile_maps_its_own_rules(profile_id):
    """Each own rule (not documentary) is named once in `rules:`; any other id named there is a
    defined rule of another document (a variation keeping a baseline rule), never a core rule
    or a ruling."""
    profile = load_profile(profile_id)
    known = load_rules()
    own = [rid for rid in rules_for(profile_id) if rid.startswith(profile.rule_prefix + "-")]
    for concept, rid in profile.rules.items():
        assert rid in known and not rid.startswith(("C-", "RUL-")), f"{profile_id}: rules.{concept} is {rid}"
    documentary = {rid for rid in own if DOCUMENTARY.search(known[rid].text)}
    mapped_own = {rid for rid in profile.rules.values() if rid.startswith(profile.rule_prefix + "-")}
    assert mapped_own == set(own) - documentary, f"{profile_id}: rules: does not list each own rule once"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_a_profile_follows_the_rulings_that_apply_to_it(profile_id):
    applying = {rid for rid in rules_for(profile_id) if rid.startswith("RUL-")}
    assert load_profile(profile_id).rulings == applying


def test_every_rulings_applies_to_line_lists_the_profiles_whose_rulings_list_it():
    """docs/rules/README.md ("Organisation"): a ruling's `Applies to:` line names exactly the
    profiles whose profile file lists it in `rules.rulings` (the profile data is the authority)."""
    followers: dict[str, set[str]] = {}
    for profile_id in PROFILE_IDS:
        for rid in profile_rules(profile_id)["rulings"]:
            followers.setdefault(rid, set()).add(profile_id)
    rulings = {rid: rule for rid, rule in load_rules().items() if rid.startswith("RUL-") and not rule.deprecated}
    assert set(followers) <= set(rulings), f"profiles list undefined rulings {sorted(set(followers) - set(rulings))}"
    wrong = {
        rid: (sorted(rule.applies_to), sorted(followers.get(rid, ())))
        for rid, rule in rulings.items()
        if len(set(rule.applies_to)) != len(rule.applies_to) or set(rule.applies_to) != followers.get(rid, set())
    }
    assert not wrong, f"Applies to: lines that are not the profiles listing the ruling (written, listed): {wrong}"
