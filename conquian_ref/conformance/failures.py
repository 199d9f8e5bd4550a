"""How an implementation under test can fail on the wire: one exception class per failure.

A rule disagreement is not an adapter failure (that is a `Failure` of conquian_ref.conformance.
judges: the adapter answered, wrongly). An `AdapterFailure` means the adapter did not answer as
the protocol (docs/protocol.md) says; the runner reports it against the scenario where it
happened, restarts the adapter and goes on. Each step of the protocol and the exception raised
when it fails (its `kind`, a `FailureKind`, is what the reports show):

| protocol step                                   | what went wrong                                   | raised       |
|-------------------------------------------------|---------------------------------------------------|--------------|
| starting the adapter (`--impl CMD`)             | the command cannot be started                     | `Crash`      |
| loading a direct adapter (`python:MOD:FACTORY`) | the module or factory cannot be imported          | `Crash`      |
| writing a request (transport)                   | the pipe is closed: the process exited            | `Crash`      |
|                                                 | the adapter reads nothing within the timeout      | `Timeout`    |
| any request (client)                            | the run deadline (`check --deadline`) has passed  | `Timeout`    |
| reading an answer line (transport)              | no complete line within the per-message timeout   | `Timeout`    |
|                                                 | the output ended: the process exited              | `Crash`      |
|                                                 | the output ended in the middle of a line          | `Partial`    |
|                                                 | a line longer than the limit (transport.MAX_LINE) | `TooLarge`   |
|                                                 | a line that is not a JSON object                  | `Garbage`    |
| matching the answer to its request (client)     | its `seq` is not the request's                    | `WrongSeq`   |
|                                                 | an error object instead of an answer              | `ErrorAnswer`|
|                                                 | ... to an `apply` (an action it cannot express)   | `Unsupported`|
| the handshake, `start` (client)                 | the answer lacks implementation/profiles/capabilities, or cannot begin a run (protocol.HANDSHAKE_CHECKS) | `BadAnswer` |
| reading the answer's fields (driver)            | the command's answer key is missing (`state`, `actions`, ...) or of the wrong shape (its protocol.Command: `setup` not ok, an `apply` result neither accepted nor refused, ...) | `BadAnswer` |
| a direct adapter's `handle()` (client)          | it raises                                         | `Crash`      |
|                                                 | it returns something that is not a mapping        | `Garbage`    |

`FAILURES` maps each kind to its class; `KINDS` each kind to its one-line meaning.

`Unsupported` is the one exception that is no fault of the adapter: an error answer to `apply`
is how an adapter says its engine cannot express that action (docs/implementers.md, section 10).
It is an `ErrorAnswer` for whatever reads it as one, but the step interpreter and the fuzzer
turn it into a deviation of kind `unsupported` naming the action type (a failed scenario, a
divergence), with no restart: the answer was in order, so the connection is still in step.
"""

from __future__ import annotations

from enum import StrEnum


class FailureKind(StrEnum):
    """What went wrong on the wire; the value is what the JSON and JUnit reports carry."""

    CRASH = "crash"
    TIMEOUT = "timeout"
    GARBAGE = "garbage"
    PARTIAL = "partial"
    WRONG_SEQ = "wrong_seq"
    TOO_LARGE = "too_large"
    BAD_ANSWER = "bad_answer"
    ERROR = "error"


class AdapterFailure(Exception):
    """The implementation misbehaved on the wire; each subclass is one kind (module table)."""

    kind: FailureKind
    meaning: str

    def __init__(self, message: str, stderr: str = "", cmd: str = ""):
        super().__init__(f"{self.kind}: {message}")
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


class Crash(AdapterFailure):
    kind, meaning = FailureKind.CRASH, "the process exited (its exit status and stderr tail are kept)"


class Timeout(AdapterFailure):
    kind, meaning = FailureKind.TIMEOUT, (
        "no complete answer line (or no reading of a request) within the per-message timeout, or the run deadline passed")


class Garbage(AdapterFailure):
    kind, meaning = FailureKind.GARBAGE, "a line that is not a JSON object"


class Partial(AdapterFailure):
    kind, meaning = FailureKind.PARTIAL, "the output ended in the middle of a line"


class WrongSeq(AdapterFailure):
    kind, meaning = FailureKind.WRONG_SEQ, "an answer whose `seq` is not the one of the request"


class TooLarge(AdapterFailure):
    kind, meaning = FailureKind.TOO_LARGE, "an answer line longer than the limit"


class BadAnswer(AdapterFailure):
    kind, meaning = FailureKind.BAD_ANSWER, "valid JSON but not an answer of the protocol (missing fields, or of the wrong shape)"


class ErrorAnswer(AdapterFailure):
    kind, meaning = FailureKind.ERROR, "the adapter answered with an error object (not a rule refusal)"


class Unsupported(ErrorAnswer):
    """An error answer to `apply`: the engine cannot express an action of `action_type`."""

    def __init__(self, text: str, action_type: str, stderr: str = ""):
        super().__init__(f"apply: {text}", stderr, "apply")
        self.text = text  # the adapter's own error message
        self.action_type = action_type

    @property
    def deviation(self) -> str:
        """The deviation in plain words, as the reports show it."""
        return f"your engine cannot express `{self.action_type}` (its error answer: {self.text})"


FAILURES: dict[FailureKind, type[AdapterFailure]] = {
    cls.kind: cls for cls in (Crash, Timeout, Garbage, Partial, WrongSeq, TooLarge, BadAnswer, ErrorAnswer)
}
KINDS: dict[FailureKind, str] = {kind: cls.meaning for kind, cls in FAILURES.items()}
