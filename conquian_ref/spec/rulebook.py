"""The numbered rules, read from the rules documents (docs/rules/*.md).

Each rule or ruling is a Markdown section whose heading is exactly `### <ID> — <Title>`; its
text runs to the next heading. This module is how tools (lint, coverage, the book) know which
ids exist. The documents are the source; nothing here restates a rule.

The documents are `core.md`, one `<profile id>.md` per shipped profile (conquian_ref.spec.profiles
.PROFILE_IDS, in that order) and `rulings.md`. Which rules apply to a profile follows from its
profile file (conquian_ref.spec.profiles.profile_data), which is the authority: the core (`C-`), the
rulings its `rules.rulings` lists, its own rules (`<rule_prefix>-`), and every rule id its `rules:`
mapping names (so a variation keeps the baseline rules it maps). A ruling's `Applies to:` line
repeats, for readers, the profiles that list it; tests keep the two equal. The id grammar is
spec/ids.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .ids import RULE_ID_BODY
from .profiles import PROFILE_IDS, profile_data, rule_prefix
from .shipped import shipped_dir

HEADING = re.compile(rf"^### ({RULE_ID_BODY}) — (.+)$")
"""A rule's heading (docs/rules/README.md): three hashes, the id, an em dash, the title."""
DOCUMENTS = ("core.md", *(f"{profile_id}.md" for profile_id in PROFILE_IDS), "rulings.md")
CORE_PREFIX = "C-"
"""The ids every profile shares: the common core."""
APPLIES_TO = re.compile(r"^Applies to: (.+)$", flags=re.M)
"""A ruling's line naming the profiles that follow it, comma-separated (docs/rules/README.md)."""


@dataclass(frozen=True)
class Rule:
    """One rule or ruling as written: its id, title, document, text, and whether it is deprecated."""

    id: str
    title: str
    document: str
    text: str
    deprecated: bool

    @property
    def applies_to(self) -> tuple[str, ...]:
        """The profiles a ruling names on its line `Applies to: <profile>, <profile>, ...`, in the
        order written; the empty tuple when the text has no such line."""
        match = APPLIES_TO.search(self.text)
        if not match:
            return ()
        return tuple(p.strip() for p in match.group(1).split(",") if p.strip())


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


def named_by_profile(profile_id: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the rulings a shipped profile file lists in `rules.rulings`, the rule ids its other `rules:`
    entries name); both empty for an id that is no shipped profile."""
    if profile_id not in PROFILE_IDS:
        return frozenset(), frozenset()
    rules = dict(profile_data(profile_id).get("rules") or {})
    rulings = frozenset(rules.pop("rulings", None) or ())
    return rulings, frozenset(rules.values())


def rules_for(profile_id: str) -> dict[str, Rule]:
    """The rules that apply to a profile, not deprecated, in document order: the core, the rulings
    its profile file lists, its own rules (its `rule_prefix`) and every rule its `rules:` names.
    An id that is no shipped profile gets the core only."""
    rulings, named = named_by_profile(profile_id)
    own = (rule_prefix(profile_id) + "-",) if profile_id in PROFILE_IDS else ()
    return {
        rid: r
        for rid, r in load_rules().items()
        if not r.deprecated and (rid.startswith(CORE_PREFIX) or rid in rulings or rid in named or rid.startswith(own))
    }
