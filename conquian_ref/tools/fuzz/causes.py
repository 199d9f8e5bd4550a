"""The cause of a divergence the fuzzer finds, named as `check` names one (one definition).

A cause names the one rule the implementation breaks (conquian_ref.conformance.attribution): here
the rule that governs what differs (the rule of the refusal row when the reference refused the
action, else the action type's rule: a reject by C-TURN-4, ...), and the
signature of the divergence (the diverging action or request and the differing keys), so that
unrelated deviations do not merge. `check` and `fuzz` build the same `Cause`, so one
known-failures file, by rule or by cause, serves both.
"""

from __future__ import annotations

from ...conformance.attribution import Cause, governing_rule, unsupported_cause  # one definition of a cause, for check and fuzz alike
from .divergence import Divergence

__all__ = ["Cause", "cause_of"]


def cause_of(divergence: Divergence, profile_id: str) -> Cause:
    """The cause of a divergence found by the fuzzer (lockstep.py) in a game of `profile_id`."""
    action = divergence.action["type"] if isinstance(divergence.action, dict) else divergence.where
    if divergence.kind == "unsupported":  # an action the engine cannot express: named as check names it
        return unsupported_cause(profile_id, str(action))
    request = "apply" if isinstance(divergence.action, dict) else divergence.where
    signature = f"{action}: {', '.join(sorted(divergence.keys))}"
    expected = divergence.expected
    refused_by = expected.get("refused") if isinstance(expected, dict) else None  # the reference's refusal code
    return Cause(governing_rule(profile_id, request, divergence.action, refused_by), None, signature)
