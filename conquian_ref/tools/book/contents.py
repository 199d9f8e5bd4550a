"""What the book holds: the profiles, their rules, the scenarios replayed, and who cites what.

Everything here is read from the files: the profiles from conquian_ref.spec.profiles (PROFILE_IDS
and each profile's data: its title, its `rule_prefix`), the rules from the rules documents through
conquian_ref.spec.rulebook, the scenarios from the corpus, each replayed by `walk`. A scenario's
file, area and neighbours come from where it lies: the file as the user named the corpus (or
`scenarios/…` for the shipped one), the area its folder within the profile's folder (what `check -k`
matches, conquian_ref.conformance.check.corpus_path), the previous and next scenario of that area.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ...conformance.check import corpus_path
from ...engine.refusals import REASONS
from ...spec.ids import RULE_ID_IN_TEXT
from .cards import Cards
from .markdown import cells
from .urls import profile_index, scenario_page
from .walk import Walk, walk

STATIC_DOC_PAGES = {
    "README.md": "about.html",
    "reasons.md": "reasons.html",
    "glossary.md": "glossary.html",
    "core.md": "rules.html",
    "rulings.md": "rules.html#rulings",
}


@dataclass
class Entry:
    """One rendered scenario."""

    # The scenario's id, title, profile, rules, tags and annotation (`brief`); the whole file
    # (setup, steps) only while its page is rendered: see Book.replay and Book.release.
    scenario: object
    area: str  # the folder within its profile's folder (within the corpus when not in one); TOP_AREA at the top
    file: str  # the file as a reader finds it: under the corpus as the user named it
    source: Path  # the file itself, resolved
    # The replay on the reference engine: set only while the scenario's page is rendered (a walk
    # holds every position with every seat's observation; keeping them all would make the book's
    # memory grow with the corpus), then only its verdict is kept.
    walk: Walk | None = None
    verdict: str = ""  # empty when the replay agrees with the file
    command: str = ""  # the `conquian-ref check` command that replays this scenario alone
    source_link: str = ""  # the file, relative to the scenario's page in the output folder
    prev: "Entry | None" = None  # the neighbours within the same profile and area, by id
    next: "Entry | None" = None

    @property
    def id(self) -> str:
        return self.scenario.id

    @property
    def title(self) -> str:
        return self.scenario.data["title"]

    @property
    def profile(self) -> str:
        return self.scenario.profile

    @property
    def page(self) -> str:
        return scenario_page(self.profile, self.id)


REFUSALS = "refusals"  # in a brief: the reason codes its steps expect, in order, once each
KEPT = ("id", "title", "profile", "rules", "tags", "annotation")  # what a brief keeps of the file


def brief(s):
    """The scenario `s` without its setup and steps: what the contents and the search need of it."""
    from ...spec.scenario import Scenario

    codes = []
    for step in s.data.get("steps", []):
        expect = step.get("expect")
        if isinstance(expect, dict) and expect.get("refused") not in codes:
            codes.append(expect.get("refused"))
    return Scenario({**{k: s.data[k] for k in KEPT if k in s.data}, REFUSALS: codes}, s.path, {})


def _load_briefly(corpus: Path):
    """load_corpus, one file at a time, each scenario kept as its brief: the corpus is never
    held in memory whole (spec.scenario.load_corpus holds every file)."""
    from ...spec.corpus_walk import walk_corpus
    from ...spec.scenario import ScenarioInvalid, load_scenario

    files, problems = walk_corpus([corpus])
    scenarios, first = [], {}
    for file in files:
        try:
            s = load_scenario(file)
        except ScenarioInvalid as exc:
            problems += exc.problems
            continue
        if s.id in first:
            problems.append(s.problem(("id",), f"id {s.id} is already used by {first[s.id]}"))
        else:
            first[s.id] = s.path
        scenarios.append(brief(s))
    return scenarios, problems


TOP_AREA = "top"  # the area of a file lying directly in its profile's folder or the corpus


class Book:
    """The profiles, rules, documents and replayed scenarios one build renders: the corpus
    `corpus`, named `given` by the user (None: the shipped corpus), into the folder `out`."""

    def __init__(self, corpus: Path, out: Path = Path("book"), given: str | None = None):
        from ...spec.profiles import PROFILE_IDS, load_profile
        from ...spec.rulebook import load_rules, rules_dir, rules_for

        self.profiles = list(PROFILE_IDS)
        self.profile_objs = {p: load_profile(p) for p in self.profiles}
        self.cards = {p: Cards(self.profile_objs[p]) for p in self.profiles}
        self.all_rules = load_rules()
        self.rules = {p: rules_for(p) for p in self.profiles}
        self.rules_dir = rules_dir()
        # The one grammar of rule ids (spec/ids.py); an id that names no rule stays plain text.
        self.rule_id = RULE_ID_IN_TEXT
        self.doc_pages = dict(STATIC_DOC_PAGES, **{f"{p}.md": profile_index(p) for p in self.profiles})
        self.sections = self._sections()
        self.corpus = Path(corpus)
        self.out = Path(out)
        self.given = given
        scenarios, self.problems = _load_briefly(self.corpus)
        self.entries = self._entries(scenarios)
        self._neighbours()
        self.cited: dict[str, dict[str, list[Entry]]] = {p: {} for p in self.profiles}
        self.reasons: dict[str, list[Entry]] = {code: [] for code in REASONS}
        for e in self.entries:
            for rid in e.scenario.rules:
                self.cited.setdefault(e.profile, {}).setdefault(rid, []).append(e)
            for code in e.scenario.data[REFUSALS]:
                if code in self.reasons:
                    self.reasons[code].append(e)
        self.reason_rows = self._reason_rows()

    def _entries(self, scenarios) -> list[Entry]:
        entries: list[Entry] = []
        seen: set[str] = set()
        for s in sorted(scenarios, key=lambda s: (s.id, str(s.path))):
            if s.id in seen:  # a duplicate id is a problem load_corpus reports; render the first file only
                continue
            seen.add(s.id)
            source = s.path.resolve()
            try:
                rel = source.relative_to(self.corpus.resolve()).as_posix()
            except ValueError:
                rel = s.path.name
            e = Entry(s, self._area(s, rel), self._shown(rel), source)
            e.command = self._command(s.id)
            e.source_link = self._source_link(e)
            entries.append(e)
        return entries

    @staticmethod
    def _area(s, rel: str) -> str:
        """The folder between the profile's folder and the file; without a profile folder, the
        folder within the corpus."""
        inside = corpus_path(s).split("/")
        folders = inside[1:-1] if len(inside) > 1 else rel.split("/")[:-1]
        return "/".join(folders) or TOP_AREA

    def _shown(self, rel: str) -> str:
        if self.given is None:
            return f"scenarios/{rel}"
        return (Path(self.given) / rel).as_posix()

    def _command(self, sid: str) -> str:
        # -k matches ids (tests/test_book.py checks each selects its scenario alone in the corpus).
        words = ["conquian-ref", "check", "-k", sid] + (["--corpus", self.given] if self.given is not None else [])
        return " ".join(shlex.quote(w) for w in words)

    def _source_link(self, e: Entry) -> str:
        """The scenario file, relative to its page in the output folder (a file: URL when no
        relative path exists, on another drive)."""
        page_dir = (self.out / e.page).parent.resolve()
        try:
            return quote(Path(os.path.relpath(e.source, page_dir)).as_posix())
        except ValueError:
            return e.source.as_uri()

    def _neighbours(self) -> None:
        areas: dict[tuple[str, str], list[Entry]] = {}
        for e in self.entries:  # already in id order
            areas.setdefault((e.profile, e.area), []).append(e)
        for listed in areas.values():
            for before, after in zip(listed, listed[1:]):
                before.next, after.prev = after, before

    # -- rules documents ---------------------------------------------------------------------------
    def doc(self, name: str) -> str:
        path = self.rules_dir / name
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def _sections(self) -> dict[str, str]:
        """The `## ` section each rule heading stands under, per document."""
        from ...spec.rulebook import DOCUMENTS, HEADING

        found = {}
        for name in DOCUMENTS:
            section = ""
            for line in self.doc(name).splitlines():
                if line.startswith("## "):
                    section = line[3:].strip()
                match = HEADING.match(line)
                if match:
                    found[match.group(1)] = section
        return found

    def _reason_rows(self) -> dict[str, tuple[str, str]]:
        """code -> (given when, rules), from the table of docs/rules/reasons.md."""
        rows = {}
        for line in self.doc("reasons.md").splitlines():
            row = cells(line) if line.startswith("|") else []
            if len(row) >= 3:
                code = row[0].strip("`")
                if code in REASONS:
                    rows[code] = (row[1], row[2])
        return rows

    # -- rules -------------------------------------------------------------------------------------
    def owners(self, rid: str) -> list[str]:
        return [p for p in self.profiles if rid in self.rules[p]]

    def rule_target(self, rid: str, profile: str | None) -> str | None:
        """Where a rule id links to, from the root: the profile page's anchor when the rule applies
        to `profile` (or to a single profile), else the all-rules page."""
        if profile and rid in self.rules.get(profile, {}):
            return f"{profile_index(profile)}#{rid}"
        owners = self.owners(rid)
        if len(owners) == 1:
            return f"{profile_index(owners[0])}#{rid}"
        if rid in self.all_rules:
            return f"rules.html#{rid}"
        return None

    def rule_ids(self) -> list[str]:
        """Every rule of some profile, once, in the profiles' order."""
        seen = []
        for p in self.profiles:
            for rid in self.rules[p]:
                if rid not in seen:
                    seen.append(rid)
        return seen

    def groups(self, profile: str | None) -> list[tuple[str, list]]:
        """Rules grouped as in the documents: core sections, the profile's rules, the rulings."""
        rules = self.rules[profile] if profile else self.all_rules
        groups: dict[str, list] = {}
        for rid, rule in rules.items():
            if rule.document == "core.md":
                name = f"Core: {self.sections.get(rid, '')}".rstrip(": ")
            elif rule.document == "rulings.md":
                name = "Rulings"
            else:
                name = f"Profile {rule.document[:-3]}"
            groups.setdefault(name, []).append(rule)
        return list(groups.items())

    def replay(self, e: Entry) -> Walk:
        """Load `e`'s whole file again and walk it on the reference engine, for its page; its
        verdict stays on the entry after `release`."""
        from ...spec.scenario import load_scenario

        e.scenario = load_scenario(e.scenario.path)
        e.walk = walk(e.scenario)
        e.verdict = e.walk.verdict
        return e.walk

    def release(self, e: Entry) -> None:
        """Forget what `e`'s page needed: the whole file, the walk, the card pictures drawn."""
        e.scenario = brief(e.scenario)
        e.walk = None
        self.cards[e.profile].forget()

    def entries_of(self, profile: str) -> list[Entry]:
        return [e for e in self.entries if e.profile == profile]
