"""An in-process adapter (`--impl python:few_capabilities:Adapter`, with tests/adapters on
sys.path): the reference adapter declaring only the `state` capability, so that every scenario
checking legal actions, observations or perft is skipped (issue 11 item 5: a run whose every
scenario is skipped tested nothing, and fails)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        answer = super().cmd_start(request)
        answer["capabilities"] = ["state"]
        return answer
