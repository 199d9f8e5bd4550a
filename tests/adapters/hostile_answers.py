"""In-process adapters whose answers carry every hostile string (issue 12 item 4), with
tests/adapters on sys.path: `python:hostile_answers:Answers` refuses every action with a reason
full of control characters, lone surrogates and U+FFFE, and puts NaN and Infinity in the state;
`python:hostile_answers:Handshake` fails the handshake with such a message. The reports must
stay valid (strict JSON, well-formed XML) and the terminal text must show them escaped."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402
from conquian_ref.engine.errors import ConquianError  # noqa: E402

HOSTILE = "\x1b[2J\x1b]0;owned\x07\x00\x08\x0b\x1f\x7f\x9b\udfff \ud800\ufffe\uffff\r"


class Answers(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        answer = super().cmd_start(request)
        answer["implementation"]["name"] = "hostile " + HOSTILE
        return answer

    def cmd_apply(self, request: dict) -> dict:
        return {"result": "refused", "reason": HOSTILE, "message": HOSTILE}

    def cmd_state(self, request: dict) -> dict:
        state = super().cmd_state(request)["state"]
        state["to_act"] = [math.nan, math.inf, HOSTILE]
        return {"state": state}


class Handshake(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        raise ConquianError("cannot start " + HOSTILE)
