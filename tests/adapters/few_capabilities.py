"""An in-process adapter (`--impl python:few_capabilities:Adapter`, with tests/adapters on
sys.path): the reference adapter declaring only `state` and `setup_hands`, so that every match
scenario (which needs the `match` capability) is skipped whole (a run whose
every scenario is skipped tested nothing, and fails). Checks the capabilities do not allow are
skipped one by one (partial checking): they never skip a deal scenario whole."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        answer = super().cmd_start(request)
        answer["capabilities"] = ["state", "setup_hands"]
        return answer
