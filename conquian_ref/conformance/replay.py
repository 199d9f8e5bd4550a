"""Replaying a scenario against an implementation: the verdict of the step interpreter.

`replay` walks the scenario once with conquian_ref.conformance.steps (stopping at the first
failure: after a divergence every later step would be measured against a different game) and
returns the walk. A `Failure` names the step, the field, what was expected and what was got; the
runner adds the file, line and annotation. The driver is conquian_ref.conformance.reference.
Reference in-process, or conquian_ref.conformance.driver.ImplementationDriver over the protocol.
"""

from __future__ import annotations

from .reference import Reference
from .steps import Failure, Walk, walk

__all__ = ["Failure", "ReplayResult", "replay"]

ReplayResult = Walk  # what replay returns: the walk, with .failure, .passed and .rules_fired

# Kept for the importers outside this floor (tools/book.py, tools/coverage.py,
# tests/test_authoring.py) until merge; new code uses Reference.
ReferenceDriver = Reference


def replay(scenario, driver, reasons: bool = True) -> ReplayResult:
    """Run `scenario` on `driver`; the result holds the first failure, if any.
    With `reasons=False` a refusal is compared without its reason code (for an implementation
    that does not declare the reason_codes capability)."""
    return walk(scenario, driver, reasons=reasons)
