"""The numbered rules, read from the rules documents (docs/rules/*.md).

Each rule or ruling is a Markdown section whose heading is exactly `### <ID> — <Title>`; its
text runs to the next heading. This module is how tools (lint, coverage, the book) know which
ids exist. The documents are the source; nothing here restates a rule.

The documents are `core.md`, one `<profile id>.md` per shipped profile (conquian_ref.spec.profiles
.PROFILE_IDS, in that order) and `rulings.md`. Which rules apply to a profile follows from its
`rule_prefix` in the profile file: the core (`C-`), the rulings (`RUL-`, unless limited to another
profile by an `Applies to:` line) and its own (`<rule_prefix>-`). The id grammar is spec/ids.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .ids import RULE_ID_BODY
from .profiles import PROFILE_IDS, rule_prefix
from .shipped import shipped_dir

HEADING = re.compile(rf"^### ({RULE_ID_BODY}) — (.+)$")
"""A rule's heading (docs/rules/README.md): three hashes, the id, an em dash, the title."""
DOCUMENTS = ("core.md", *(f"{profile_id}.md" for profile_id in PROFILE_IDS), "rulings.md")
SHARED_PREFIXES = ("C-", "RUL-")
"""The ids every profile shares: the common core and the rulings."""


@dataclass(frozen=True)
class Rule:
    """One rule or ruling as written: its id, title, document, text, and whether it is deprecated."""

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
    """Every rule and ruling of the documents, by id, in document order."""
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
    prefixes = SHARED_PREFIXES + ((rule_prefix(profile_id) + "-",) if profile_id in PROFILE_IDS else ())
    return {
        rid: r
        for rid, r in load_rules().items()
        if rid.startswith(prefixes) and not r.deprecated and r.applies_to in (None, profile_id)
    }
