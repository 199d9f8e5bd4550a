"""Replaying a scenario against an implementation: the verdict of the step interpreter.

`replay` walks the scenario once with conquian_ref.conformance.steps (stopping at the first
failure: after a divergence every later step would be measured against a different game) and
returns its verdict. A `Failure` names the step, the field, what was expected and what was got; the
runner adds the file, line and annotation. The driver is conquian_ref.conformance.reference.
Reference in-process, or conquian_ref.conformance.driver.ImplementationDriver over the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .steps import Failure, walk

__all__ = ["Failure", "ReplayResult", "replay"]


@dataclass
class ReplayResult:
    """The verdict of a walk, without its answers (a corpus of verdicts stays small)."""

    scenario: object
    failure: Failure | None
    rules_fired: set[str] = field(default_factory=set)
    skipped_checks: list[str] = field(default_factory=list)  # partial checking: what was not checked, and why

    @property
    def passed(self) -> bool:
        return self.failure is None


def replay(scenario, driver, reasons: bool = True, capabilities=None) -> ReplayResult:
    """Run `scenario` on `driver`; the result holds the first failure, if any, and the checks
    skipped. With `reasons=False` a refusal is compared without its reason code (for an
    implementation that does not declare the reason_codes capability); with `capabilities` (a
    handshake's), the checks needing one not declared are skipped (steps.walk)."""
    walked = walk(scenario, driver, reasons=reasons, capabilities=capabilities)
    return ReplayResult(scenario, walked.failure, walked.rules_fired, walked.skipped_checks)
