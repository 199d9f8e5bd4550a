"""The known failures a fuzz run applies: entries by cause signature or by rule id.

A known-failures file (conquian_ref.spec.known, `check --known-failures`) lists scenario ids,
rule ids (`rule:`) and cause signatures (`cause:`, the text of a diagnosis Cause). A random game
is no scenario, so for fuzz only the last two apply: a divergence whose cause is listed, or whose
cause names a listed rule, is counted as known and not shrunk. Entries by scenario id are read
(and so checked) but do not apply; the run says how many it left aside. The files are read, and
merged, by the spec's own loader: an entry listed twice is its one-line error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .causes import Cause


@dataclass
class FuzzKnown:
    """The entries that apply to fuzzing, {value: reason} per kind, and the count of the others."""

    causes: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    by_id: int = 0  # entries by scenario id or house rule: they do not apply to random games (yet)

    def match(self, cause: Cause) -> str | None:
        """The reason of the entry covering `cause` (by its text, else by the rule it names), or None."""
        text = str(cause)
        if text in self.causes:
            return self.causes[text]
        return self.rules.get(cause.rule) if cause.rule else None

    def __len__(self) -> int:
        return len(self.causes) + len(self.rules)


def read_known(paths: list[str | Path]) -> FuzzKnown:
    """The entries of the files, merged; ConquianError (file:line: field) on any problem."""
    from ...spec.known import load_known_failures

    known = FuzzKnown()
    for entry in load_known_failures(*paths).entries:
        if entry.kind in ("id", "house_rule"):
            known.by_id += 1
        else:
            (known.causes if entry.kind == "cause" else known.rules)[entry.value] = entry.reason
    return known
