"""`conquian-ref coverage`: which scenarios cite and exercise each rule, and each reason code.

For every profile it lists every rule id (docs/rules) with the scenarios that cite it, and
flags: a rule no scenario cites; a scenario citing a rule that the reference engine never
checked while replaying it (`Game.rules_fired`: the rules whose check ran); a reason code no
scenario produces. Two kinds of rule cannot be checked by a step, and are reported as such
rather than as checked: the rules that hold by construction (`Game.rules_by_construction`,
e.g. C-DECK-1: the deck is the profile's data), and the worked examples of the sources (area
EX), which are illustrations, not engine behaviour.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.trace import rules_by_construction
from ..engine.refusals import REASONS
from ..spec.profiles import PROFILE_IDS, load_profile
from ..spec.rulebook import rules_for
from ..spec.scenario import corpus_dir, load_corpus
from .options import emit


def _exempt_from_fired(rule_id: str) -> bool:
    return "-EX-" in rule_id


@dataclass
class Coverage:
    cited: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # profile -> rule -> scenario ids
    uncited: dict[str, list[str]] = field(default_factory=dict)
    not_fired: list[tuple[str, str]] = field(default_factory=list)  # (scenario id, rule id)
    by_construction: dict[str, list[str]] = field(default_factory=dict)  # profile -> cited rules that hold by construction
    reasons: dict[str, list[str]] = field(default_factory=dict)  # code -> scenario ids
    failing: list[str] = field(default_factory=list)

    @property
    def reasons_missing(self) -> list[str]:
        return [code for code, ids in self.reasons.items() if not ids]

    @property
    def ok(self) -> bool:
        return not (any(self.uncited.values()) or self.not_fired or self.reasons_missing or self.failing)

    def to_json(self) -> dict:
        return {
            "profiles": {
                p: {"rules": self.cited[p], "uncited": self.uncited[p]} for p in self.cited
            },
            "cited_but_not_fired": [{"scenario": s, "rule": r} for s, r in self.not_fired],
            "by_construction": self.by_construction,
            "reasons": self.reasons,
            "reasons_missing": self.reasons_missing,
            "failing_scenarios": self.failing,
        }


def measure(paths: list[Path | str]) -> Coverage:
    from ..conformance.reference import Reference
    from ..conformance.replay import replay

    scenarios, _ = load_corpus(paths)
    cov = Coverage(reasons={code: [] for code in REASONS})
    built = {profile: set(rules_by_construction(load_profile(profile))) for profile in PROFILE_IDS}
    for profile in PROFILE_IDS:
        cov.cited[profile] = {rid: [] for rid in rules_for(profile)}
    for scenario in scenarios:
        driver = Reference()
        result = replay(scenario, driver)
        if not result.passed:
            cov.failing.append(scenario.id)
        # What held by construction in this deal (a setup from explicit hands adds the deal rule).
        held = getattr(driver.game, "rules_by_construction", built[scenario.profile])
        for rid in scenario.rules:
            cov.cited[scenario.profile].setdefault(rid, []).append(scenario.id)
            if rid in held:
                built[scenario.profile].add(rid)
            if rid in held or _exempt_from_fired(rid) or not result.passed:
                continue
            if rid not in result.rules_fired:
                cov.not_fired.append((scenario.id, rid))
        for step in scenario.data.get("steps", []):
            expect = step.get("expect")
            if isinstance(expect, dict):
                cov.reasons[expect["refused"]].append(scenario.id)
    for profile, rules in cov.cited.items():
        cov.uncited[profile] = [rid for rid, ids in rules.items() if not ids]
        cov.by_construction[profile] = [rid for rid, ids in rules.items() if rid in built[profile] and ids]
    return cov


def _text_lines(cov: Coverage):
    """The coverage as text, one line per rule, reason code and finding."""
    for profile, rules in cov.cited.items():
        yield f"## {profile}"
        for rid, ids in rules.items():
            mark = "UNCITED" if not ids else f"{len(ids):3d}"
            yield f"  {rid:<12} {mark:>7}  {' '.join(sorted(set(ids))[:8])}{' ...' if len(set(ids)) > 8 else ''}"
    yield "## reason codes"
    for code, ids in cov.reasons.items():
        yield f"  {code:<28} {len(ids) if ids else 'NEVER PRODUCED':>3}"
    for profile, rids in cov.by_construction.items():
        yield f"held by construction under {profile} where cited (no step checks them there): {' '.join(rids)}"
    for sid, rid in cov.not_fired:
        yield f"cited but never checked: {sid} cites {rid}, which no check applied while replaying it"
    for sid in cov.failing:
        yield f"failing scenario (not counted as exercising its rules): {sid}"


def run(paths: list[str], json_path: str | None = None) -> int:
    cov = measure(paths or [corpus_dir()])
    emit(json_path, cov.to_json, lambda: "\n".join(_text_lines(cov)))
    uncited = sum(len(v) for v in cov.uncited.values())
    print(
        f"coverage: {uncited} uncited rule(s), {len(cov.not_fired)} citation(s) never checked, "
        f"{len(cov.reasons_missing)} reason code(s) never produced",
        file=sys.stderr,
    )
    return 0 if cov.ok else 1
