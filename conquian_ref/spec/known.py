"""Known-failures files: what an implementation is known to fail, each entry with its reason.

A YAML list validated by schema/known-failures.schema.json. Each entry names exactly one of a
scenario id, a rule id or a cause signature (the text of conquian_ref.conformance.diagnosis.
Cause, as the report prints it), with a reason:

    - id: tc-0104
      reason: "house rule: a forced card never wins for the receiver (deviates from RUL-6)"
      issue: https://example.org/my-engine/issues/12     # optional
    - rule: TC-XCH-1          # every failing scenario citing the rule (or whose cause names it)
      reason: "no private exchange"
    - cause: "pass: available, hands [C-TURN-5]"   # every failing scenario with this first divergence
      reason: "house rule: a usable card is taken automatically"

A listed scenario that fails is reported as `xfail` and does not fail the run; one listed by id
that passes is an unexpected pass (`xpass`) and fails the run, so a fixed deviation is noticed
and the entry removed (the idea of toml-test's -skip-must-err and jsonschema's known failures).
An entry that matched no failure is reported as stale. Several files may be given: they are
merged; an entry listed twice (in one file or two) is an error, as is an id or rule id the
corpus does not know (`KnownFailures.check_names`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import ConquianError
from .yamlfile import YamlError, line_of, load_with_lines, path_text

KINDS = ("id", "house_rule", "cause", "rule")  # what an entry names; a failure matches the first kind that fits


@dataclass(frozen=True)
class Entry:
    kind: str  # one of KINDS
    value: str
    reason: str
    where: str  # "file:line", for the errors and the stale list

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


@dataclass
class KnownFailures:
    """The merged entries of one or more known-failures files."""

    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def of_ids(cls, reasons: dict[str, str]) -> "KnownFailures":
        """Entries by scenario id from a plain {id: reason} mapping (the Python API's older form)."""
        return cls([Entry("id", sid, reason, "(given)") for sid, reason in reasons.items()])

    def __bool__(self) -> bool:
        return bool(self.entries)

    # By scenario id, as the {id: reason} mapping this once was (the pytest plugin reads it so:
    # entries by rule or cause need the runner's diagnosis, which the plugin does not make).
    def __contains__(self, scenario_id: object) -> bool:
        return self.by_id(scenario_id) is not None

    def __getitem__(self, scenario_id: str) -> str:
        entry = self.by_id(scenario_id)
        if entry is None:
            raise KeyError(scenario_id)
        return entry.reason

    def match(self, scenario_id: str, rules: tuple[str, ...], cause: object = None) -> Entry | None:
        """The entry covering a failure: by id, else by the house rule its cause names, else by
        its cause, else by a rule its cause names or it cites."""
        wanted = {
            "id": {scenario_id},
            "house_rule": {getattr(cause, "house_rule", None)} - {None},
            "cause": {str(cause)} if cause is not None else set(),
            "rule": set(rules) | ({getattr(cause, "rule", None)} - {None}),
        }
        for kind in KINDS:
            for entry in self.entries:
                if entry.kind == kind and entry.value in wanted[kind]:
                    return entry
        return None

    def by_id(self, scenario_id: str) -> Entry | None:
        return next((e for e in self.entries if e.kind == "id" and e.value == scenario_id), None)

    def check_names(self, scenario_ids: set[str], rule_ids: set[str]) -> None:
        """ConquianError (file:line) for the first id or rule id that names nothing known."""
        known = {"id": scenario_ids, "rule": rule_ids}
        for entry in self.entries:
            if entry.kind in known and entry.value not in known[entry.kind]:
                what = "scenario" if entry.kind == "id" else "rule"
                raise ConquianError(f"{entry.where}: {entry.kind}: no {what} {entry.value} in the corpus")


def load_known_failures(*paths: str | Path) -> KnownFailures:
    """The entries of the files, merged; ConquianError naming file:line: field on any problem."""
    merged = KnownFailures()
    seen: dict[tuple[str, str], str] = {}
    for path in paths:
        for entry in _load_one(Path(path)):
            key = (entry.kind, entry.value)
            if key in seen:
                raise ConquianError(f"{entry.where}: {entry.kind}: {entry.value} is listed twice (first at {seen[key]})")
            seen[key] = entry.where
            merged.entries.append(entry)
    return merged


def _load_one(path: Path) -> list[Entry]:
    from .schemas import validator

    if not path.exists():
        raise ConquianError(f"{path}: no such known-failures file")
    try:
        data, lines = load_with_lines(path)
    except YamlError as exc:
        raise ConquianError(f"{path}:{exc.line}: (file): {exc.message}") from None
    data = [] if data is None else data
    for err in sorted(validator("known-failures.schema.json").iter_errors(data), key=lambda e: list(e.absolute_path)):
        where = tuple(err.absolute_path)
        raise ConquianError(f"{path}:{line_of(lines, where)}: {path_text(where) or '(top)'}: {err.message}")
    entries = []
    for i, item in enumerate(data):
        kind = next(k for k in KINDS if k in item)
        reason = item["reason"] + (f" ({item['issue']})" if item.get("issue") else "")
        entries.append(Entry(kind, item[kind], reason, f"{path}:{line_of(lines, (i, kind))}"))
    return entries


def known_failures_text(groups: list[tuple[str, str, list[str]]]) -> str:
    """A known-failures file listing today's failures: each group is (kind, value, scenario ids),
    written with a reason to fill in and the scenarios it covers as a comment."""
    out = ["# Known failures written by `conquian-ref check --write-known-failures`.",
           "# Replace each reason with the house rule or bug it stands for (docs/implementers.md)."]
    for kind, value, ids in groups:
        out.append(f"- {kind}: {_quoted(value)}")
        out.append("  reason: \"to explain: first seen in " + " ".join(ids[:1]) + "\"")
        if len(ids) > 1 or kind != "id":
            out.append(f"  # covers {len(ids)}: {' '.join(ids)}")
    return "\n".join(out) + "\n"


def _quoted(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML string
