"""The grammar of the project's ids, written once: rule ids, profile ids, rule prefixes, scenario ids.

docs/rules/README.md ("Id grammar") describes them in words; this module is the one regular
expression of each. The JSON Schemas cannot import Python, so `schema/common.schema.json` repeats
each pattern in `$defs` (rule_id, profile_id, rule_prefix, scenario_id); tests/test_spec.py checks
that every copy there is character for character the pattern here.

- a **rule id** is `C-<AREA>-<n>` (common core), `<PREFIX>-<AREA>-<n>` (a profile's own rule) or
  `RUL-<n>` (a ruling); `<AREA>` is upper-case letters, `<n>` a positive integer without leading
  zeros;
- a **rule prefix** (a profile's `rule_prefix`) is two to four upper-case letters, other than `RUL`,
  which belongs to the rulings (and `C`, the core, is one letter, so it cannot be one);
- a **profile id** is lower-case words joined by `-`, ending in `-v<version>`;
- a **scenario id** is the lower-cased rule prefix of its profile, a dash and four digits.

No profile is named here: which prefixes and profiles exist is the profile files' business
(conquian_ref.spec.profiles), and a scenario's prefix is checked against its profile there.
"""

from __future__ import annotations

import re

RULE_ID_BODY = r"(?:C|(?!RUL-)[A-Z]{2,4})-[A-Z]+-[1-9][0-9]*|RUL-[1-9][0-9]*"
"""A rule id without anchors, for use inside other expressions (rule headings, links in text)."""

RULE_ID = re.compile(rf"^(?:{RULE_ID_BODY})$")
RULE_ID_IN_TEXT = re.compile(rf"\b(?:{RULE_ID_BODY})\b")
"""Rule ids where they occur in running text, e.g. in a scenario annotation."""

RULE_PREFIX = re.compile(r"^(?!RUL$)[A-Z]{2,4}$")
PROFILE_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-v[0-9]+$")
SCENARIO_ID = re.compile(r"^[a-z]{2,4}-[0-9]{4}$")
SCENARIO_ID_IN_TEXT = re.compile(r"\b([a-z]{2,4})-([0-9]{4})\b")
"""Scenario ids in a file name or a list of retired ids; the groups are the prefix and the number."""


def is_rule_id(text: object) -> bool:
    """Whether `text` is a rule id of the grammar (which rules exist is docs/rules' business)."""
    return isinstance(text, str) and RULE_ID.fullmatch(text) is not None


def scenario_prefix(rule_prefix: str) -> str:
    """The start of the scenario ids of a profile with this rule prefix: "TC" -> "tc-"."""
    return rule_prefix.lower() + "-"


__all__ = [
    "PROFILE_ID", "RULE_ID", "RULE_ID_BODY", "RULE_ID_IN_TEXT", "RULE_PREFIX", "SCENARIO_ID", "SCENARIO_ID_IN_TEXT",
    "is_rule_id", "scenario_prefix",
]
