"""An engine without forcing, as docs/implementers.md section 10 advises an adapter to say so:
the reference adapter, except that every `apply` of a `force` or a `decline` is answered with an
error answer ("unsupported action type: force"), the state left as it was.

For the runner that is a deviation, not a crash: the scenario fails at that step, naming the
action type, the adapter is not restarted and the run goes on; the answers pipelined after the
error are read and dropped, never read by the next scenario (tests/test_unsupported.py).

Run as a process (`python tests/adapters/unsupported_force.py`, the answers pipelined) or
in-process (`--impl python:unsupported_force:Adapter`, with tests/adapters on sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import conquian_ref.conformance.adapter as reference_adapter  # noqa: E402

UNSUPPORTED = frozenset({"force", "decline"})  # the action types this engine cannot express


class Adapter(reference_adapter.ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        action = request.get("action")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind in UNSUPPORTED:
            return {"error": {"message": f"unsupported action type: {kind}"}}
        return super().cmd_apply(request)


if __name__ == "__main__":
    reference_adapter.ReferenceAdapter = Adapter  # serve() builds its adapter from this name
    sys.exit(reference_adapter.serve())
