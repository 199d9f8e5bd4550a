"""Validating protocol messages against schema/protocol.schema.json (`check --validate-messages`).

Like bowtie's `-V`: every request the runner sends and every answer the adapter gives is
checked against the protocol schema, and the first message that does not conform fails the run
with the message and the schema's complaint. Implementers use it while wiring an adapter in.
"""

from __future__ import annotations

import json

from ..engine.errors import ConquianError
from ..spec.schemas import definition_validator


class MessageValidator:
    """A `trace` callable for impl.Connection that validates each message."""

    def __init__(self):
        self.pending: list[str] = []  # commands sent and not yet answered, oldest first (pipelining)
        self.last_cmd = None
        self.count = 0

    def __call__(self, direction: str, message: dict) -> None:
        if direction == "request":
            self.last_cmd = message.get("cmd")
            self.pending.append(self.last_cmd)
            pointer = f"/$defs/requests/{self.last_cmd}"
        else:
            self.last_cmd = self.pending.pop(0) if self.pending else self.last_cmd
            pointer = f"/$defs/answer_to/{self.last_cmd}"
        errors = sorted(definition_validator("protocol", pointer).iter_errors(message), key=lambda e: e.path)
        self.count += 1
        if errors:
            err = errors[0]
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            raise ConquianError(
                f"protocol violation in the {direction} for {self.last_cmd!r} at {where}: {err.message}; message: "
                + json.dumps(message)[:300]
            )
