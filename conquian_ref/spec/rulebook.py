"""The numbered rules, read from the rules documents (docs/rules/*.md).

Each rule or ruling is a Markdown section whose heading is exactly `### <ID> — <Title>`; its
text runs to the next heading. This module is how tools (lint, coverage, the book) know which
ids exist. The documents are the source; nothing here restates a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .shipped import shipped_dir

HEADING = re.compile(r"^### ((?:C|TC|AA)-[A-Z]+-[0-9]+|RUL-[0-9]+) — (.+)$")
DOCUMENTS = ("core.md", "torno-cisneros-v1.md", "anglo-american-v1.md", "rulings.md")
# Which ids belong to which profile: the common core and the rulings apply to both.
PREFIXES = {"torno-cisneros-v1": ("C-", "TC-", "RUL-"), "anglo-american-v1": ("C-", "AA-", "RUL-")}


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    document: str
    text: str
    deprecated: bool

    @property
    def applies_to(self) -> str | None:
        """The one profile a ruling is limited to (its line `Applies to: <profile>`), or None."""
        match = re.search(r"^Applies to: (\S+)$", self.text, flags=re.M)
        return match.group(1) if match else None


def rules_dir() -> Path:
    """docs/rules of a source checkout, or the copy shipped in the package."""
    return shipped_dir("_rules", "docs/rules")


@cache
def load_rules() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for name in DOCUMENTS:
        path = rules_dir() / name
        if not path.is_file():
            continue
        current = None
        body: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines() + ["### END"]:
            if line.startswith("#"):
                if current is not None:
                    rid, title = current
                    rules[rid] = Rule(rid, title, name, "\n".join(body).strip(), "(deprecated)" in title)
                    current, body = None, []
                match = HEADING.match(line)
                if match:
                    current = (match.group(1), match.group(2).strip())
                continue
            if current is not None:
                body.append(line)
    return rules


def rules_for(profile_id: str) -> dict[str, Rule]:
    """The rules that apply to a profile (its own, the core and the rulings), not deprecated."""
    prefixes = PREFIXES.get(profile_id, ("C-", "RUL-"))
    return {
        rid: r
        for rid, r in load_rules().items()
        if rid.startswith(prefixes) and not r.deprecated and r.applies_to in (None, profile_id)
    }
