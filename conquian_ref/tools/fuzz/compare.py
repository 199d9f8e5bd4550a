"""The comparison of one step, per capability the implementation declared (docs/fuzzing.md).

* `legal_actions`: a seat's legal actions, as sets (conformance.compare.compare_actions);
* always: accepted or refused; with `reason_codes`, the reason code of a refusal too;
* `state`: the reference's full canonical state against the implementation's, with the official
  comparator (conformance.compare.mismatches), which also compares the final outcome.

Each function returns the Divergence it finds, or None.
"""

from __future__ import annotations

import re

from ...conformance.compare import compare_actions, mismatches
from .divergence import Divergence, short


def legal_divergence(want: list[dict], got: list[dict], step: int, seat: int) -> Divergence | None:
    """The legal actions of `seat` before action `step`: the reference's `want`, the implementation's `got`."""
    missing, extra = compare_actions(want, got)
    if missing or extra:
        return Divergence("legal", "legal", step, seat, None, missing, extra, "", f"reference: {short(want)}", keys=("actions",))
    return None


def result_divergence(want: object, got: object, reasons: bool, step: int, seat: int, action: dict) -> Divergence | None:
    """The answer to an action: "accepted" or {"refused": reason}; the reason counts if `reasons`."""
    if (want == "accepted") != (got == "accepted"):
        return Divergence("result", "apply", step, seat, action, want, got, keys=("result",))
    if reasons and want != got:
        return Divergence("reason", "apply", step, seat, action, want, got, keys=("reason",))
    return None


def state_divergence(want: dict, got: object, where: str, step: int, seat: int | None, action: dict | None) -> Divergence | None:
    """The state after the setup (`where` "setup") or after an action ("state"); the first
    difference is reported, with the count of the others."""
    found = mismatches(want, got)
    if not found:
        return None
    path, expected, value = found[0]
    kind = "outcome" if path.startswith("outcome") else "state"
    more = f" ({len(found) - 1} more difference(s))" if len(found) > 1 else ""
    keys = tuple(sorted({re.split(r"[.\[]", p)[0] for p, _, _ in found}))
    return Divergence(kind, where, step, seat, action, expected, value, path, more, keys=keys)
