"""The known failures a fuzz run applies: entries by cause signature or by rule id.

A known-failures file (conquian_ref.spec.known, `check --known-failures`) lists scenario ids,
house rules (`house_rule:`), rule ids (`rule:`) and cause signatures (`cause:`, the text of a
diagnosis Cause). A random game is no scenario, so entries by scenario id are read (and so
checked) but do not apply; the run says how many it left aside. A house rule listed is played by
the reference itself (`variants`, lockstep.py), so the implementation is checked exactly
everywhere else; a divergence whose cause names a listed house rule, is listed, or names a
listed rule, is counted as known and not shrunk. The files are read, and
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
    house_rules: dict[str, str] = field(default_factory=dict)
    variants: tuple = ()  # the listed house rules, as the reference plays them
    by_id: int = 0  # entries by scenario id: they do not apply to random games

    def match(self, cause: Cause) -> str | None:
        """The reason of the entry covering `cause` (by its house rule, its text, else by the rule
        it names), or None."""
        if cause.house_rule in self.house_rules:
            return self.house_rules[cause.house_rule]
        text = str(cause)
        if text in self.causes:
            return self.causes[text]
        return self.rules.get(cause.rule) if cause.rule else None

    def __len__(self) -> int:
        return len(self.causes) + len(self.rules) + len(self.house_rules)


def read_known(paths: list[str | Path]) -> FuzzKnown:
    """The entries of the files, merged; ConquianError (file:line: field) on any problem."""
    from ...spec.known import load_known_failures
    from ..mutants import house_rules_named

    known = FuzzKnown()
    entries = load_known_failures(*paths)
    known.variants = house_rules_named(entries)
    kinds = {"cause": known.causes, "rule": known.rules, "house_rule": known.house_rules}
    for entry in entries.entries:
        if entry.kind == "id":
            known.by_id += 1
        else:
            kinds[entry.kind][entry.value] = entry.reason
    return known
