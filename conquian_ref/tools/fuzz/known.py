"""The known failures a fuzz run applies: entries by cause signature or by rule id.

A known-failures file (conquian_ref.spec.known, `check --known-failures`) lists scenario ids,
and may list rule ids (`rule:`) and cause signatures (`cause:`, the text of causes.Cause). A
random game is no scenario, so for fuzz only the last two apply: a divergence whose cause is
listed, or whose cause names a listed rule, is counted as known and not shrunk. Entries by
scenario id are read (and so checked) but do not apply; the run says how many it left aside.

The file is read with the spec's loader. Where that loader does not read `rule:` and `cause:`
entries yet, a file it refuses is read here as a plain list of such entries (each a string and
a `reason`), and the loader's own complaint stands if that fails too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...engine.errors import ConquianError
from ...spec.ids import is_rule_id
from .causes import Cause

ENTRY_KINDS = ("cause", "rule")  # what applies to a random game, in the order of matching


@dataclass
class FuzzKnown:
    """The entries that apply to fuzzing, {value: reason} per kind, and the count of the others."""

    causes: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    by_id: int = 0  # entries by scenario id: they do not apply to random games

    def match(self, cause: Cause) -> str | None:
        """The reason of the entry covering `cause` (by its signature, else by a rule it names), or None."""
        text = str(cause)
        if text in self.causes:
            return self.causes[text]
        return next((self.rules[r] for r in cause.rules if r in self.rules), None)

    def __len__(self) -> int:
        return len(self.causes) + len(self.rules)


def read_known(paths: list[str | Path]) -> FuzzKnown:
    """The entries of the files, merged; ConquianError (file:line: field) on any problem, or
    for an entry listed twice."""
    from ...spec.known import load_known_failures

    known = FuzzKnown()
    for path in paths:
        try:
            loaded = load_known_failures(path)
        except ConquianError as refused:
            entries = _plain_entries(Path(path), refused)
        else:
            entries = _entries_of(loaded)
        for kind, value, reason, where in entries:
            if kind == "id":
                known.by_id += 1
                continue
            table = known.causes if kind == "cause" else known.rules
            if value in table:
                raise ConquianError(f"{where}: {kind}: {value} is listed twice")
            table[value] = reason
    return known


def _entries_of(loaded) -> list[tuple[str, str, str, str]]:
    """(kind, value, reason, where) of what the spec's loader read: {id: reason}, or entries."""
    if isinstance(loaded, dict):
        return [("id", sid, reason, "") for sid, reason in loaded.items()]
    return [(e.kind, e.value, e.reason, e.where) for e in loaded.entries]


def _plain_entries(path: Path, refused: ConquianError) -> list[tuple[str, str, str, str]]:
    """A list of `cause:` / `rule:` entries the spec's loader does not read; `refused` if not that."""
    from ...spec.yamlfile import YamlError, line_of, load_with_lines

    try:
        data, lines = load_with_lines(path)
    except (YamlError, OSError):
        raise refused from None
    if not isinstance(data, list) or not data:
        raise refused
    entries = []
    for i, item in enumerate(data):
        kinds = [k for k in ENTRY_KINDS if isinstance(item, dict) and k in item]
        if len(kinds) != 1 or set(item) - {kinds[0], "reason", "issue"} or not isinstance(item.get("reason"), str):
            raise refused
        kind, value = kinds[0], item[kinds[0]]
        if not isinstance(value, str) or (kind == "rule" and not is_rule_id(value)):
            raise ConquianError(f"{path}:{line_of(lines, (i, kind))}: [{i}].{kind}: not a {kind} signature: {value!r}")
        reason = item["reason"] + (f" ({item['issue']})" if item.get("issue") else "")
        entries.append((kind, value, reason, f"{path}:{line_of(lines, (i, kind))}"))
    return entries
