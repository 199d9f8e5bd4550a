"""Replaying a scenario against an implementation: the verdict of the step interpreter.

`replay` walks the scenario once with conquian_ref.conformance.steps, stopping at the first
failure (after a divergence every later step would be measured against a different game), and
returns the `Walk`: its `failure` (a judges.Failure naming the step, the field, what was
expected and what was got; the runner adds the file, line and annotation), `passed`,
`skipped_checks` and `rules_fired`. The driver is conquian_ref.conformance.reference.Reference
in-process, or conquian_ref.conformance.driver.ImplementationDriver over the protocol.
"""

from __future__ import annotations

from .steps import Walk, walk

__all__ = ["Walk", "replay"]


def replay(scenario, driver, reasons: bool = True, capabilities=None) -> Walk:
    """Run `scenario` on `driver`; the walk holds the first failure, if any, and the checks
    skipped. With `reasons=False` a refusal is compared without its reason code (for an
    implementation that does not declare the reason_codes capability); with `capabilities` (a
    handshake's), the checks needing one not declared are skipped (steps.walk)."""
    return walk(scenario, driver, reasons=reasons, capabilities=capabilities)
