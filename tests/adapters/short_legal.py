"""An in-process adapter (`--impl python:short_legal:Adapter`, with tests/adapters on sys.path):
the reference adapter whose legal-action lists leave out their last action, and nothing else
wrong. Its first divergence is at a step's `legal` answer; on a step without an action the
cause is named after that request."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_legal(self, request: dict) -> dict:
        answer = super().cmd_legal(request)
        return {"actions": answer["actions"][:-1]}
