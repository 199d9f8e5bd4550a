"""Scenario files: loading, schema validation and the semantic checks of `conquian-ref lint`.

A scenario is one YAML file (schema/scenario.schema.json; authors' guide: scenarios/README.md).
Every problem is reported as a `Problem` naming the file, the line and the field, so a broken
file never produces a traceback; the walk of a corpus folder (`walk_corpus`, spec/corpus_walk.py)
reports every entry it cannot read instead of skipping it. The checks, in order:

1. the file is YAML (safe loading, no duplicate keys) and a mapping;
2. it validates against the scenario schema;
3. the profile is one of the discovered profiles (conquian_ref.spec.profiles.PROFILE_IDS) and the
   id starts with its rule prefix in lower case; every card exists in its deck, the deal is
   complete with no card twice, every action's cards exist (the engine's MalformedInput, mapped
   back to the field; spec/setup_check.py); every seat is one of the profile's table, and a
   misdeal deals no more cards than the deck (spec/table_check.py);
4. every cited rule id exists and applies to the profile, and no check names an
   implementation-defined key (`history`, docs/protocol.md);
5. (corpus-wide) ids are unique, and (`collisions`) not used by another file of the corpus the
   files belong to or of the shipped corpus;
6. (with replay) the steps replay on the reference engine exactly as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import ConquianError, MalformedInput
from .corpus_walk import SUFFIXES, find_scenario_files, walk_corpus
from .problem import Problem
from .regularfile import decode
from .yamlfile import YamlError, line_of, loads_with_lines, path_text, read_text, top_level_string

__all__ = [  # walk_corpus, find_scenario_files and Problem live in their own modules, read from here too
    "SUFFIXES", "Problem", "Scenario", "ScenarioInvalid", "collisions", "corpus_dir", "field_path", "find_scenario_files",
    "ids_elsewhere", "load_corpus", "load_scenario", "walk_corpus",
]


@dataclass(frozen=True)
class Scenario:
    """A loaded, schema-valid scenario. `lines` maps data paths to 1-based lines."""

    data: dict
    path: Path
    lines: dict = field(repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def profile(self) -> str:
        return self.data["profile"]

    @property
    def rules(self) -> list[str]:
        return self.data["rules"]

    @property
    def steps(self) -> list[dict]:
        return self.data["steps"]

    def line(self, *path) -> int:
        return line_of(self.lines, path)

    def problem(self, path: tuple, message: str) -> Problem:
        return Problem(str(self.path), self.line(*path), path_text(path), message)


class ScenarioInvalid(ConquianError):
    """A scenario file with problems; `problems` lists every one found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def load_scenario(path: Path | str, raw: bytes | None = None) -> Scenario:
    """Load and check one scenario file (checks 1-4); raise ScenarioInvalid listing its problems.
    `raw`: the file's bytes, already read (the corpus cache reads them to hash them)."""
    path = Path(path)
    try:
        data, lines = loads_with_lines(read_text(path) if raw is None else decode(raw))
    except YamlError as exc:
        raise ScenarioInvalid([Problem(str(path), exc.line, "(file)", exc.message)]) from None
    if not isinstance(data, dict):
        raise ScenarioInvalid([Problem(str(path), lines.get((), 1), "(top)", "a scenario is a YAML mapping")])
    scenario = Scenario(data, path, lines)
    problems = _schema_problems(scenario) or _profile_problems(scenario)
    if problems:
        raise ScenarioInvalid(problems)
    problems = (
        _id_problems(scenario) + _card_problems(scenario) + _table_problems(scenario) + _rule_problems(scenario)
        + _fragment_problems(scenario)
    )
    if problems:
        raise ScenarioInvalid(problems)
    return scenario


def _schema_problems(scenario: Scenario) -> list[Problem]:
    """Check 2: every place where the file leaves schema/scenario.schema.json, one line each."""
    from .schemas import validator

    found = []
    for err in validator("scenario.schema.json").iter_errors(scenario.data):
        # For oneOf/anyOf, the deepest sub-error usually names the real culprit.
        best = err
        while best.context:
            best = min(best.context, key=lambda e: (-len(e.absolute_path), str(e.message)))
        path = tuple(best.absolute_path)
        found.append(scenario.problem(path, _short(best.message + _did_you_mean(best))))
    return sorted(set(found), key=lambda p: (p.line, p.field))


def _did_you_mean(err) -> str:
    """For a field the schema does not admit (a typo such as `phse` in a state check), the
    admitted field it is closest to, so the message names the fix."""
    if err.validator != "additionalProperties" or not isinstance(err.instance, dict):
        return ""
    import difflib

    known = list(err.schema.get("properties", {}))
    hints = []
    for name in err.instance:
        close = difflib.get_close_matches(str(name), known, n=1) if name not in known else []
        hints += [f"{close[0]!r} (for {name!r})"] if close else []
    return f"; did you mean {', '.join(hints)}?" if hints else ""


def _short(message: str) -> str:
    return message if len(message) <= 160 else message[:157] + "..."


_FIELD = re.compile(r"(\w+)|\[(\d+)\]")


def field_path(field_name: str) -> tuple:
    """The engine's field names ("hands[0][3]", "action.cards[1]") as a data path."""
    return tuple(name if name else int(index) for name, index in _FIELD.findall(field_name))


def _profile_problems(scenario: Scenario) -> list[Problem]:
    """The profile is one of the shipped profiles (discovered from the files)."""
    from .profiles import PROFILE_IDS

    if scenario.profile in PROFILE_IDS:
        return []
    known = ", ".join(PROFILE_IDS)
    return [scenario.problem(("profile",), f"unknown profile {scenario.profile!r} (known: {known})")]


def _id_problems(scenario: Scenario) -> list[Problem]:
    """The id starts with the profile's rule prefix in lower case (spec/ids.py): tc-0001 for TC."""
    from .ids import scenario_prefix
    from .profiles import rule_prefix

    prefix = rule_prefix(scenario.profile)
    if scenario.id.startswith(scenario_prefix(prefix)):
        return []
    return [
        scenario.problem(
            ("id",),
            f"id {scenario.id!r} does not start with {scenario_prefix(prefix)!r}: the ids of "
            f"{scenario.profile} start with its rule_prefix {prefix} in lower case",
        )
    ]


def _card_problems(scenario: Scenario) -> list[Problem]:
    """Cards exist, the deal is complete and has no card twice, every action's cards exist.

    Checked with the engine's notation and input checks only (spec/setup_check.py says why no
    deal is started here)."""
    from .profiles import load_profile
    from .setup_check import check_setup

    if "match" in scenario.data:
        return []  # a match scenario names no cards
    profile = load_profile(scenario.profile)
    problems = []
    try:
        check_setup(profile, scenario.data["setup"])
    except MalformedInput as exc:
        problems.append(scenario.problem(("setup",) + field_path(exc.field), exc.message))
    for i, step in enumerate(scenario.steps):
        problems += _step_card_problems(scenario, profile, i, step)
    return problems


def _table_problems(scenario: Scenario) -> list[Problem]:
    """Every seat a replay sends is a seat of the profile's table; misdeal counts fit the deck."""
    from .profiles import load_profile
    from .table_check import table_problems

    return [scenario.problem(path, message) for path, message in table_problems(load_profile(scenario.profile), scenario.data)]


def _step_card_problems(scenario: Scenario, profile, i: int, step: dict) -> list[Problem]:
    """The cards of step i: its action, the actions its `legal` check lists, its `absent` cards."""
    from ..engine.actions import parse_action

    check = step.get("check", {})
    actions = [(("action",), step["action"])] if "action" in step else []
    if check.get("legal"):
        actions += [(("check", "legal", "actions", j), a) for j, a in enumerate(check["legal"]["actions"])]
    problems = []
    for where, action in actions:
        try:
            parse_action(profile.deck, action, "")
        except MalformedInput as exc:
            problems.append(scenario.problem(("steps", i) + where + field_path(exc.field), exc.message))
    for j, card in enumerate(check.get("observation", {}).get("absent", [])):
        try:
            profile.deck.parse(card)
        except MalformedInput as exc:
            problems.append(scenario.problem(("steps", i, "check", "observation", "absent", j), exc.message))
    return problems


# Keys whose content is implementation-defined (docs/protocol.md): a scenario may not check them.
IMPLEMENTATION_DEFINED = ("history",)


def _fragment_problems(scenario: Scenario) -> list[Problem]:
    """No `check.state` or `check.observation.match` fragment names an implementation-defined key."""
    problems = []
    for i, step in enumerate(scenario.data.get("steps", [])):
        check = step.get("check", {})
        fragments = [(("check", "state"), check.get("state", {}))]
        fragments.append((("check", "observation", "match"), check.get("observation", {}).get("match", {})))
        for where, fragment in fragments:
            for key in IMPLEMENTATION_DEFINED:
                if key in fragment:
                    problems.append(
                        scenario.problem(("steps", i) + where + (key,), f"{key!r} is implementation-defined (docs/protocol.md) and cannot be checked")
                    )
    return problems


def _rule_problems(scenario: Scenario) -> list[Problem]:
    """Check 4: every cited id is a rule of docs/rules that applies to the scenario's profile."""
    from .rulebook import load_rules, rules_for

    known = load_rules()
    applicable = rules_for(scenario.profile)
    problems = []
    for i, rid in enumerate(scenario.rules):
        if rid not in known:
            problems.append(scenario.problem(("rules", i), f"no rule {rid} in docs/rules"))
        elif rid not in applicable:
            problems.append(scenario.problem(("rules", i), f"rule {rid} does not apply to {scenario.profile} (or is deprecated)"))
    return problems


def load_corpus(paths: list[Path | str]) -> tuple[list[Scenario], list[Problem]]:
    """Load every scenario under `paths`: the valid ones, and every problem found (check 5 included)."""
    from .corpus_cache import open_cache

    scenarios: list[Scenario] = []
    files, problems = walk_corpus(paths)
    cache = open_cache(paths)  # None when off, or when a path given is a file
    for file in files:
        try:
            scenarios.append(cache.load(file) if cache else load_scenario(file))
        except ScenarioInvalid as exc:
            problems += exc.problems
    if cache:
        cache.save()
    first: dict[str, Scenario] = {}
    for s in scenarios:
        if s.id in first:
            problems.append(s.problem(("id",), f"id {s.id} is already used by {first[s.id].path}"))
        else:
            first[s.id] = s
    return scenarios, problems


def ids_elsewhere(folders: list[Path | str], exclude: list[Path]) -> dict[str, tuple[Path, str]]:
    """{id: (file, text)} of the scenario files under `folders` other than `exclude`: only the
    id is read (no schema, no replay: a broken file there is that folder's own lint's business)."""
    skip = {p.resolve() for p in exclude}
    found: dict[str, tuple[Path, str]] = {}
    for file in walk_corpus(folders)[0]:
        if file.resolve() in skip:
            continue
        scenario_id, text = _id_of(file)
        if scenario_id is not None:
            found.setdefault(scenario_id, (file, text))
    return found


_IDS: dict[tuple, tuple[str | None, str]] = {}  # (file, mtime, size) -> (id, text): each file parsed once per process


def _id_of(file: Path) -> tuple[str | None, str]:
    try:
        info = file.stat()
    except OSError:
        return None, ""
    key = (str(file.resolve()), info.st_mtime_ns, info.st_size)
    if key not in _IDS:
        try:
            text = read_text(file)
        except YamlError:
            text = ""
        _IDS[key] = (top_level_string(text, "id"), text)
    return _IDS[key]


def collisions(scenarios: list[Scenario], folders: list[Path | str]) -> list[Problem]:
    """Check 5 against other folders: an id of `scenarios` that a file under `folders` (the
    shipped corpus, the corpus the files belong to) already uses. A byte-identical copy of that
    file is the same scenario, not a collision."""
    if not folders or not scenarios:
        return []
    taken = ids_elsewhere(folders, [s.path for s in scenarios])
    problems = []
    for s in scenarios:
        if s.id in taken:
            other, text = taken[s.id]
            try:
                same = read_text(s.path) == text
            except YamlError:
                same = False
            if not same:
                problems.append(s.problem(("id",), f"id {s.id} is already used by {other}"))
    return problems


def corpus_dir() -> Path:
    """The bundled corpus: scenarios/ of a source checkout, or the copy shipped in the package."""
    from .shipped import shipped_dir

    return shipped_dir("_corpus", "scenarios")
