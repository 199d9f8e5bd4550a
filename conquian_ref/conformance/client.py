"""The client of the conformance protocol: `Connection` to one implementation under test.

A connection runs one long-lived adapter (conquian_ref.conformance.transport) or, in `direct`
mode, calls a Python adapter in-process (`--impl python:MODULE:FACTORY`, and `--impl reference`,
the bundled reference adapter). It numbers each request (`seq`), sends one JSON object per line,
matches each answer to its request, and pipelines a list of requests (`request_many`). Whatever
goes wrong is an AdapterFailure (conquian_ref.conformance.failures says which kind where); an
error answer to `apply` is `Unsupported`, an action the engine cannot express.

No answer is ever left for a later request to read: after an error answer (the adapter answered
in order) the answers still in flight are read and dropped by their `seq`; after any other
failure (a timeout, garbage, a wrong `seq`, ...) the connection is out of step (`in_sync` is
False) and the runner restarts it before anything else is asked.
`Handshake` is what the implementation said of itself in answer to `start`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field

from .failures import AdapterFailure, BadAnswer, Crash, ErrorAnswer, Garbage, Timeout, Unsupported, WrongSeq
from .protocol import COMMANDS, PROTOCOL_VERSION, handshake_problem
from .transport import AdapterProcess, parse_answer, safe_text

# The handshake waits at least START_TIMEOUT: starting a process (a JVM, node, a Python engine's
# imports, on a loaded machine) may take longer than answering one request; the run deadline still bounds it.
START_TIMEOUT = 10.0
DEFAULT_TIMEOUT = 10.0  # seconds per message (read or write): generous for perft, short enough to bound a run
# The run deadline when none is given: proportionate to the corpus. The reference answers a whole
# scenario in a few milliseconds; 2 s each is room for a slow engine on a loaded machine, and the
# 30 s cover starting (and restarting) a slow interpreter.
DEADLINE_PER_SCENARIO = 2.0
DEADLINE_BASE = 30.0


def default_deadline(scenarios: int) -> float:
    """The run deadline, in seconds, of a run of `scenarios` scenarios (`check --deadline`)."""
    return DEADLINE_BASE + DEADLINE_PER_SCENARIO * scenarios


STOP_GRACE = 0.2  # seconds an adapter has to exit after `stop` before it is killed
PIPELINE_BYTES = 16 * 1024  # requests written at once before their answers are read (a pipe holds 64 KiB)

REFERENCE = "reference"  # --impl value for the bundled reference adapter, in-process


@dataclass
class Handshake:
    """What the implementation said of itself in answer to `start`."""

    implementation: dict
    profiles: list[str]
    capabilities: set[str]
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def name(self) -> str:
        impl = self.implementation
        return safe_text(f"{impl.get('name', '?')} {impl.get('version', '')}".strip())


class Connection:
    """One implementation under test: `request(cmd, **fields)` returns its answer object."""

    def __init__(self, impl: str = REFERENCE, timeout: float = DEFAULT_TIMEOUT, on_message=None, deadline: float | None = None):
        self.impl = impl
        self.timeout = timeout
        # The run deadline (time.monotonic()), or None: no read or write waits past it, and once
        # it has passed every request is a `timeout` failure (the runner stops the run).
        self.deadline = deadline
        # Told of every message: a callable(direction, message), direction "request", "answer" or
        # "restart" (message None); `--validate-messages` passes a protocol.MessageValidator.
        self.on_message = on_message
        self.seq = 0
        self._process: AdapterProcess | None = None
        self._direct = None
        # Whether a direct adapter's messages are copied through JSON (see _direct_exchange).
        self._copied = True
        self.handshake: Handshake | None = None
        # False once an answer may still be on its way that no request will read (a failure other
        # than an error answer): the runner restarts the adapter before its next scenario or game.
        self.in_sync = True

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> Handshake:
        """Start the adapter and do the handshake; AdapterFailure if it cannot."""
        self.close()
        self.in_sync = True
        if self.on_message:
            self.on_message("restart", None)
        if self.impl == REFERENCE:
            from .adapter import ReferenceAdapter

            self._direct, self._copied = ReferenceAdapter(), False
        elif self.impl.startswith("python:"):
            self._direct, self._copied = _load_python_adapter(self.impl[len("python:") :]), True
        else:
            try:
                self._process = AdapterProcess(self.impl)
            except OSError as exc:
                raise Crash(f"cannot start {self.impl!r}: {exc}") from None
        per_message, self.timeout = self.timeout, max(self.timeout, START_TIMEOUT)
        try:
            answer = self.request("start", version=PROTOCOL_VERSION)
        finally:
            self.timeout = per_message
        for key in COMMANDS["start"].answer:
            if key not in answer:
                raise BadAnswer(f"the start answer lacks {key!r}", self.stderr_tail, "start")
        problem = handshake_problem(answer)
        if problem:
            raise BadAnswer(f"the start answer cannot begin a run: {problem}", self.stderr_tail, "start")
        self.handshake = Handshake(answer["implementation"], list(answer["profiles"]), set(answer["capabilities"]), answer)
        return self.handshake

    def close(self) -> None:
        if self._process is not None:
            try:
                if self._process.proc.poll() is None:
                    self.seq += 1
                    self._process.write(json.dumps({"seq": self.seq, "cmd": "stop"}).encode() + b"\n", timeout=0.5)
                    # A moment to exit on its own (its CPU time is then accounted to this process,
                    # which bench reads); whatever is left is killed.
                    self._process.proc.wait(timeout=STOP_GRACE)
            except (OSError, subprocess.TimeoutExpired):  # TimeoutError included: it is killed anyway
                pass
            self._process.kill()
        self._process = None
        self._direct = None

    def restart(self) -> Handshake:
        return self.start()

    @property
    def stderr_tail(self) -> str:
        return self._process.stderr_tail if self._process else ""

    @property
    def past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _wait(self) -> float:
        """The time a read or write may wait: the per-message timeout, cut at the run deadline;
        AdapterFailure "timeout" once it has passed."""
        if self.deadline is None:
            return self.timeout
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Timeout("the run deadline has passed", self.stderr_tail)
        return min(self.timeout, left)

    def _read(self, cmd: str) -> dict:
        wait = self._wait()
        try:
            return self._process.read_answer(cmd, wait)
        except Timeout as exc:
            if self.past_deadline:
                raise Timeout(f"the run deadline passed waiting for the answer to {cmd!r}", exc.stderr, cmd) from None
            raise

    # -- messages ------------------------------------------------------------------------------
    def request(self, cmd: str, **fields) -> dict:
        message = self._message(cmd, fields)
        try:
            if self._direct is not None:
                answer = self._direct_exchange(message)
            else:
                self._process.send(_line(message), cmd, self._wait())
                answer = self._read(cmd)
        except AdapterFailure as exc:
            exc.cmd = cmd
            self.in_sync = False
            raise
        return self._checked(answer, message)

    def request_many(self, requests: list[tuple[str, dict]]) -> list:
        """Several requests, pipelined over a process: all written at once, then the answers
        read in order with the same checks as `request` (in direct mode, one after the other).
        A failure ends the list: the answers read before it, then the AdapterFailure itself."""
        answers: list = []
        if self._process is None:
            for cmd, fields in requests:
                try:
                    answers.append(self.request(cmd, **fields))
                except AdapterFailure as exc:
                    return answers + [exc]
            return answers
        pending = list(reversed(requests))
        while pending:
            # Written in chunks small enough for the pipe to hold while the adapter is busy
            # answering: reading the answers of one chunk before writing the next rules out a
            # deadlock of both sides writing into full pipes.
            chunk, lines, size = [], [], 0
            while pending and size < PIPELINE_BYTES:
                chunk.append(self._message(*pending.pop()))
                lines.append(_line(chunk[-1]))
                size += len(lines[-1])
            try:
                self._process.send(b"".join(lines), chunk[0]["cmd"], self._wait())
            except AdapterFailure as exc:
                exc.cmd = exc.cmd or chunk[0]["cmd"]
                self.in_sync = False
                return answers + [exc]
            answers += self._answers_to(chunk)
            if answers and isinstance(answers[-1], AdapterFailure):
                return answers  # the answers before the failure, then the failure; the rest unsent
        return answers

    def send_ahead(self, requests: list[tuple[str, dict]], members: list[str] | None = None) -> "Ahead":
        """Write requests now and read their answers later (`read_ahead`), so that the caller
        works while the adapter answers (the fuzzer plans its next game meanwhile). Only a batch
        that fits in a pipe (PIPELINE_BYTES) is written ahead, and the caller keeps one batch
        outstanding at a time, so neither side can block the other; a larger batch is sent by
        read_ahead as request_many sends it. In direct mode nothing is sent before read_ahead.
        `members`: each request's fields already written as the JSON members `_line` writes for
        them (`"seat":0,"action":{"type":"draw"}`), by a caller that writes them for less than
        the encoder (the fuzzer: an action's text is written once per run); the same bytes."""
        if self._process is None:
            return Ahead(requests)
        if members is None:
            data = b"".join([_line({"seq": self.seq + i + 1, "cmd": cmd, **fields}) for i, (cmd, fields) in enumerate(requests)])
        else:  # the lines written as one text, encoded once
            data = "".join([f'{{"seq":{self.seq + i + 1},"cmd":"{cmd}"{"," if text else ""}{text}}}\n'
                            for i, ((cmd, _), text) in enumerate(zip(requests, members))]).encode()
        if len(data) > PIPELINE_BYTES:
            return Ahead(requests)
        ahead = Ahead(requests, self.seq + 1)
        if self.on_message:
            for cmd, fields in requests:
                self._message(cmd, fields)
        else:  # numbered alone: the messages are only made if an answer must be read one by one
            self.seq += len(requests)
        try:
            self._process.send(data, requests[0][0] if requests else "", self._wait())
        except AdapterFailure as exc:
            ahead.failure = exc
            self.in_sync = False
        return ahead

    def read_ahead(self, ahead: "Ahead", expected: bytes | None = None) -> list | None:
        """The answers to what send_ahead wrote, checked as request_many checks them: the
        answers read before a failure, then the AdapterFailure. `expected`: the answer lines the
        caller expects, as bytes (seq numbers included); None when the adapter wrote exactly
        those bytes (nothing parsed: the fuzzer's common case, docs/performance.md), else the
        answers as without it. Only over a process, with no message observer and no run deadline."""
        if ahead.first_seq is None:
            return self.request_many(ahead.requests)
        if ahead.failure is not None:
            return [ahead.failure]
        if expected is not None and self.on_message is None and self.deadline is None:
            if self._process.read_expected(expected, self.timeout):
                return None
        return self._answers_to(ahead.messages)

    def _answers_to(self, messages: list[dict]) -> list:
        """The answers to `messages` (written already), read in order and checked: the answers
        read before a failure, then the AdapterFailure. After an error answer the answers still
        in flight are read and dropped (`_drop`); after any other failure the connection is out
        of step."""
        answers: list = []
        for i, message in enumerate(messages):
            try:
                answers.append(self._checked(self._read(message["cmd"]), message))
            except ErrorAnswer as exc:  # answered in order: the stream is still in step
                self._drop(messages[i + 1 :])
                return answers + [exc]
            except AdapterFailure as exc:
                exc.cmd = exc.cmd or message["cmd"]
                self.in_sync = False
                return answers + [exc]
        return answers

    def _drop(self, messages: list[dict]) -> None:
        """Read the answers to `messages`, which nobody will ask for, and drop them, each matched
        by its `seq`, so that the next request reads its own answer and not one of these. An
        answer that does not come, or does not match, leaves the connection out of step."""
        for message in messages:
            try:
                answer = self._read(message["cmd"])
            except AdapterFailure:
                self.in_sync = False
                return
            if self.on_message:
                self.on_message("answer", answer)
            if answer.get("seq") != message["seq"]:
                self.in_sync = False
                return

    def _message(self, cmd: str, fields: dict) -> dict:
        self.seq += 1
        message = {"seq": self.seq, "cmd": cmd, **fields}
        if self.on_message:
            self.on_message("request", message)
        return message

    def _checked(self, answer: dict, message: dict) -> dict:
        """The answer to request `message`, or AdapterFailure (wrong seq, or an error answer:
        Unsupported when the request is an `apply`)."""
        cmd, seq = message["cmd"], message["seq"]
        if self.on_message:
            self.on_message("answer", answer)
        if answer.get("seq") != seq:
            self.in_sync = False
            raise WrongSeq(f"answer to seq {seq} carries seq {_shown(answer.get('seq'))}", self.stderr_tail, cmd)
        if "error" in answer:
            error = answer["error"]
            text = error.get("message", error) if isinstance(error, dict) else error
            text = _shown(text if isinstance(text, str) else json.dumps(text), 300)
            if cmd == "apply":
                raise Unsupported(text, _action_type(message), self.stderr_tail)
            raise ErrorAnswer(f"{cmd}: {text}", self.stderr_tail, cmd)
        return answer

    def _direct_exchange(self, message: dict) -> dict:
        """An in-process adapter: the same messages as dicts. A stranger's (`python:module:factory`)
        are copied through JSON, so that nothing is shared by reference and only JSON values
        pass. The bundled reference's are not: the copies were a fifth of the main job's
        instructions, and that the reference answers only fresh JSON values and leaves the
        request alone is a test of its own (tests/test_protocol.py: the whole corpus over the
        adapter process gives the in-process run's results, scenario by scenario)."""
        self._wait()  # the deadline: an in-process call cannot be interrupted, but none starts after it
        try:
            answer = self._direct.handle(json.loads(json.dumps(message)) if self._copied else message)
        except Exception as exc:  # the adapter's own bug: report it against this scenario
            raise Crash(f"handle() raised {type(exc).__name__}: {exc}", traceback.format_exc()) from None
        if not self._copied:
            return answer
        if not isinstance(answer, dict):
            raise Garbage(f"handle() returned {type(answer).__name__}, not an object")
        try:  # the same checks as an answer line: JSON values only, no NaN, not too deep, UTF-8 text
            return parse_answer(json.dumps(answer, ensure_ascii=True).encode())
        except (TypeError, ValueError, RecursionError) as exc:
            raise Garbage(f"handle() returned {str(exc)[:120]}") from None


def _action_type(message: dict) -> str:
    """The type of the action an `apply` request sends, as shown in a report."""
    action = message.get("action")
    kind = action.get("type") if isinstance(action, dict) else None
    return _shown(kind, 40) if isinstance(kind, str) else "?"


def _shown(value: object, limit: int = 60) -> str:
    """An adapter's value in a one-line message: bounded, control characters escaped."""
    text = value if isinstance(value, str) else repr(value)
    text = text if len(text) <= limit else text[:limit] + "..."
    return safe_text(text).replace("\n", "\\n")


@dataclass
class Ahead:
    """Requests given to send_ahead: written, numbered from `first_seq`, or kept for read_ahead
    (`first_seq` None)."""

    requests: list[tuple[str, dict]]
    first_seq: int | None = None
    failure: AdapterFailure | None = None  # the write failed (the adapter has exited)

    @property
    def messages(self) -> list[dict]:
        """The requests written, as the messages sent (made when asked: most batches never need them)."""
        if self.first_seq is None:
            return []
        return [{"seq": seq, "cmd": cmd, **fields} for seq, (cmd, fields) in enumerate(self.requests, self.first_seq)]


def _line(message: dict) -> bytes:
    return REQUEST_ENCODER.encode(message).encode() + b"\n"


REQUEST_ENCODER = json.JSONEncoder(separators=(",", ":"))  # one for every request (json.dumps with an option makes one per call)


def _load_python_adapter(spec: str):
    """`module:factory` -> an object with `handle(request) -> answer` (the direct mode)."""
    import importlib

    module_name, _, attr = spec.partition(":")
    # Like `python -m`: the working directory is importable, so `python:my_engine.adapter:Adapter`
    # finds ./my_engine without PYTHONPATH (issue 13).
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
        factory = getattr(module, attr or "Adapter")
    except ModuleNotFoundError as exc:
        hint = (f"; run from the folder that holds {exc.name.split('.')[0]!r}, or put that folder on PYTHONPATH"
                if exc.name and module_name.startswith(exc.name) else "")
        raise Crash(f"cannot load python:{spec}: {exc}{hint}") from None
    except Exception as exc:  # the module itself fails to import: its own error, one line
        raise Crash(f"cannot load python:{spec}: {type(exc).__name__}: {exc}", traceback.format_exc()) from None
    try:
        return factory()
    except Exception as exc:
        raise Crash(f"python:{spec}: {attr or 'Adapter'}() raised {type(exc).__name__}: {exc}", traceback.format_exc()) from None


def describe_command(impl: str) -> str:
    return "the bundled reference adapter (in-process)" if impl == REFERENCE else impl
