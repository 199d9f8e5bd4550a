"""Every rule id is written literally where it is enforced (issue 9, "rule ids literal").

A rules lawyer goes from an id to its enforcement with grep. So every id defined in docs/rules/
(the headings `### ID — Title`, read by conquian_ref.spec.rulebook) must occur as a literal in
the engine's code (`conquian_ref/engine/*.py`, string literals other than docstrings: a comment
or a docstring enforces nothing) or, for a profile's own rules, as a value of a profile file's
`rules:` mapping, which the engine reads. The one exception is a rule marked in its text as
`Documentary: ...` (a worked example, checked by scenarios only). Ids are never assembled at
run time, and no profile's rule id is chosen by profile in code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.spec.rulebook import load_rules, rules_for

ENGINE = Path(__file__).resolve().parent.parent / "conquian_ref" / "engine"
PROFILES = ENGINE.parent / "spec" / "profiles"
RULE_ID = re.compile(r"\b(?:[A-Z]+-[A-Z]+-[1-9][0-9]*|RUL-[1-9][0-9]*)\b")
DOCUMENTARY = re.compile(r"^Documentary: .+", flags=re.M)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def ids_in_engine_code() -> dict[str, set[str]]:
    """{rule id: engine modules with a string literal (not a docstring) that contains it}."""
    found: dict[str, set[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                for rid in RULE_ID.findall(node.value):
                    found.setdefault(rid, set()).add(path.name)
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


def test_every_rule_id_is_written_literally_in_the_engine_or_the_profile_data():
    written = set(ids_in_engine_code()) | set(ids_in_profile_data())
    missing = [
        rid for rid, rule in load_rules().items()
        if rid not in written and not rule.deprecated and not DOCUMENTARY.search(rule.text)
    ]
    assert not missing, f"no code or profile data enforces {missing}: write the id where it is checked, or mark it Documentary"


def test_documentary_rules_are_the_worked_examples_only():
    documentary = [rid for rid, rule in load_rules().items() if DOCUMENTARY.search(rule.text)]
    assert documentary, "the worked example AA-EX-1 is documentary"
    assert all("-EX-" in rid for rid in documentary), documentary
    assert not set(documentary) & set(ids_in_engine_code()), "a documentary rule is enforced in code after all"


def test_every_id_in_the_engine_and_the_profiles_is_a_defined_rule():
    known = load_rules()
    for rid, where in {**ids_in_engine_code(), **ids_in_profile_data()}.items():
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
