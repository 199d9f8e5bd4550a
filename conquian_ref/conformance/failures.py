"""How an implementation under test can fail on the wire: `AdapterFailure` and its kinds.

A rule disagreement is not an adapter failure (that is a `Failure` of conquian_ref.conformance.
steps: the adapter answered, wrongly). An `AdapterFailure` means the adapter did not answer as
the protocol (docs/protocol.md) says; the runner reports it against the scenario where it
happened, restarts the adapter and goes on. Each step of the protocol and the failure it raises:

| protocol step                                 | what went wrong                                   | kind       |
|-----------------------------------------------|---------------------------------------------------|------------|
| starting the adapter (`--impl CMD`)           | the command cannot be started                     | crash      |
| loading a direct adapter (`python:MOD:FACTORY`) | the module or factory cannot be imported        | crash      |
| writing a request (transport)                 | the pipe is closed: the process exited            | crash      |
|                                               | the adapter reads nothing within the timeout      | timeout    |
| any request (client)                          | the run deadline (`check --deadline`) has passed  | timeout    |
| reading an answer line (transport)            | no complete line within the per-message timeout   | timeout    |
|                                               | the output ended: the process exited              | crash      |
|                                               | the output ended in the middle of a line          | partial    |
|                                               | a line longer than the limit                      | too_large  |
|                                               | a line that is not a JSON object                  | garbage    |
| matching the answer to its request (client)   | its `seq` is not the request's                    | wrong_seq  |
|                                               | an error object instead of an answer              | error      |
| the handshake, `start` (client)               | the answer lacks implementation/profiles/capabilities, or cannot begin a run (protocol.HANDSHAKE_CHECKS) | bad_answer |
| reading the answer's fields (driver)          | the command's answer key is missing (`state`, `actions`, ...) or of the wrong shape (protocol.ANSWER_SHAPES: `setup` not ok, an `apply` result neither accepted nor refused, ...) | bad_answer |
| a direct adapter's `handle()` (client)        | it raises                                         | crash      |
|                                               | it returns something that is not a mapping        | garbage    |

The kinds, in a table for reports and tests: `KINDS`.
"""

from __future__ import annotations

KINDS = {
    "crash": "the process exited (its exit status and stderr tail are kept)",
    "timeout": "no complete answer line (or no reading of a request) within the per-message timeout, or the run deadline passed",
    "garbage": "a line that is not a JSON object",
    "partial": "the output ended in the middle of a line",
    "wrong_seq": "an answer whose `seq` is not the one of the request",
    "too_large": "an answer line longer than the limit",
    "bad_answer": "valid JSON but not an answer of the protocol (missing fields, or of the wrong shape)",
    "error": "the adapter answered with an error object (not a rule refusal)",
}


class AdapterFailure(Exception):
    """The implementation misbehaved on the wire (see the module table for `kind`)."""

    def __init__(self, kind: str, message: str, stderr: str = "", cmd: str = ""):
        assert kind in KINDS, kind
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.stderr = stderr
        self.cmd = cmd  # the request being answered
        # Where in the scenario it happened (steps.walk fills them in): the step, 1-based (None:
        # the setup or the final outcome), and the scenario file's line of that step.
        self.step: int | None = None
        self.line: int | None = None

    @property
    def signature(self) -> str:
        """What makes two failures "the same": the kind and the command, not the details
        (which may carry a sequence number or the adapter's output)."""
        return f"{self.kind} on {self.cmd or '?'}"
