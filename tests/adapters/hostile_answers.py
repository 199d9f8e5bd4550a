"""In-process adapters whose answers carry every hostile string, with
tests/adapters on sys.path: `python:hostile_answers:Answers` refuses every action with a reason
full of control characters and U+FFFE, and puts such a string in the state (NaN and Infinity never reach a report: the runner refuses them as `garbage`);
`python:hostile_answers:Handshake` fails the handshake with such a message. The reports must
stay valid (strict JSON, well-formed XML) and the terminal text must show them escaped."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402
from conquian_ref.engine.errors import ConquianError  # noqa: E402

# No lone surrogate here: the runner refuses one in any answer as `garbage` before a report sees
# it (tests/test_nasty_adapters.py); the synthetic run of tests/test_diagnosis.py carries them.
HOSTILE = "\x1b[2J\x1b]0;owned\x07\x00\x08\x0b\x1f\x7f\x9b \ufffe\uffff\r"


class Answers(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        answer = super().cmd_start(request)
        answer["implementation"]["name"] = "hostile " + HOSTILE
        return answer

    def cmd_apply(self, request: dict) -> dict:
        return {"result": "refused", "reason": HOSTILE, "message": HOSTILE}

    def cmd_state(self, request: dict) -> dict:
        state = super().cmd_state(request)["state"]
        state["to_act"] = [HOSTILE]
        return {"state": state}


class Handshake(ReferenceAdapter):
    def cmd_start(self, request: dict) -> dict:
        raise ConquianError("cannot start " + HOSTILE)
