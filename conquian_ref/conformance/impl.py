"""Talking to an implementation under test over the conformance protocol (docs/protocol.md).

`Connection` runs one long-lived adapter process (or, in `direct` mode, calls a Python adapter
in-process), sends one JSON request per line and reads one answer per line. Everything that
can go wrong on the wire becomes an `AdapterFailure` with a short `kind`, so the runner can
report it against the scenario where it happened, restart the adapter and go on:

| kind        | what happened                                                        |
|-------------|----------------------------------------------------------------------|
| crash       | the process exited (its exit status and stderr tail are kept)        |
| timeout     | no complete answer line within the per-message timeout               |
| garbage     | a line that is not a JSON object                                     |
| partial     | the output ended in the middle of a line                             |
| wrong_seq   | an answer whose `seq` is not the one of the request                  |
| too_large   | an answer line longer than the limit                                 |
| bad_answer  | valid JSON but not an answer of the protocol (missing fields)        |
| error       | the adapter answered with an error object (not a rule refusal)       |

`ImplementationDriver` turns a connection into the driver interface of conquian_ref.conformance.replay.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 10.0  # seconds per message: generous for perft, short enough to bound a run
MAX_LINE = 8 * 1024 * 1024  # bytes in one answer line
PIPELINE_BYTES = 16 * 1024  # requests written at once before their answers are read (a pipe holds 64 KiB)
STDERR_TAIL = 4000  # characters of the adapter's stderr kept for reports

REFERENCE = "reference"  # --impl value for the bundled reference adapter, in-process


class AdapterFailure(Exception):
    """The implementation misbehaved on the wire (see the module table for `kind`)."""

    def __init__(self, kind: str, message: str, stderr: str = "", cmd: str = ""):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.stderr = stderr
        self.cmd = cmd  # the request being answered

    @property
    def signature(self) -> str:
        """What makes two failures "the same": the kind and the command, not the details
        (which may carry a sequence number or the adapter's output)."""
        return f"{self.kind} on {self.cmd or '?'}"


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
        return f"{impl.get('name', '?')} {impl.get('version', '')}".strip()


class _Process:
    """A subprocess speaking JSON lines. Answers are read in the calling thread with select(),
    so every read can time out without a thread hand-off on the hot path (one round trip costs
    about half as much as with a reader thread and a queue). Stderr is drained by a thread."""

    def __init__(self, command: str, cwd: str | None = None):
        self.command = command
        self.proc = subprocess.Popen(
            ["/bin/sh", "-c", "exec " + command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,  # its own process group, so a kill reaches its children
        )
        self._fd = self.proc.stdout.fileno()
        self._buffer = b""
        self._skipping = False  # inside the rest of a line that was too large
        self._stderr: list[str] = []
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def read_line(self, timeout: float) -> tuple[str, bytes]:
        """("line", bytes) for a line (without a newline only if the output ended inside it),
        ("eof", b"") at the end of the output, ("too_large", its start), or ("timeout", b"")."""
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[: end + 1], self._buffer[end + 1 :]
                if self._skipping:  # the tail of a line already reported as too large
                    self._skipping = False
                    continue
                return "line", line
            if len(self._buffer) > MAX_LINE:
                start, self._buffer, self._skipping = self._buffer[:200], b"", True
                return "too_large", start
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._fd], [], [], remaining)[0]:
                return "timeout", b""
            try:
                data = os.read(self._fd, 1 << 16)
            except OSError:
                data = b""
            if not data:
                line, self._buffer = self._buffer, b""
                return ("line", line) if line and not self._skipping else ("eof", b"")
            self._buffer += data

    def _read_stderr(self) -> None:
        try:
            for raw in self.proc.stderr:
                self._stderr.append(raw.decode("utf-8", "replace"))
                if sum(map(len, self._stderr)) > 4 * STDERR_TAIL:
                    self._stderr[:] = ["".join(self._stderr)[-STDERR_TAIL:]]
        except (OSError, ValueError):  # closed by kill()
            pass

    @property
    def stderr_tail(self) -> str:
        if self.proc.poll() is not None:
            # The process has exited: let the reader drain what it wrote last (its last words
            # are usually the ones that explain the failure).
            self._stderr_reader.join(timeout=1.0)
        return "".join(self._stderr)[-STDERR_TAIL:]

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


class Connection:
    """One implementation under test: `request(cmd, **fields)` returns its answer object."""

    def __init__(self, impl: str = REFERENCE, timeout: float = DEFAULT_TIMEOUT, trace=None):
        self.impl = impl
        self.timeout = timeout
        self.trace = trace  # a callable(direction, message) for `--validate-messages` and logs
        self.seq = 0
        self._process: _Process | None = None
        self._direct = None
        self.handshake: Handshake | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> Handshake:
        """Start the adapter and do the handshake; AdapterFailure if it cannot."""
        self.close()
        if self.impl == REFERENCE:
            from .adapter import ReferenceAdapter

            self._direct = ReferenceAdapter()
        elif self.impl.startswith("python:"):
            self._direct = _load_python_adapter(self.impl[len("python:") :])
        else:
            try:
                self._process = _Process(self.impl)
            except OSError as exc:
                raise AdapterFailure("crash", f"cannot start {self.impl!r}: {exc}") from None
        answer = self.request("start", version=PROTOCOL_VERSION)
        for key in ("implementation", "profiles", "capabilities"):
            if key not in answer:
                raise AdapterFailure("bad_answer", f"the start answer lacks {key!r}", self.stderr_tail)
        self.handshake = Handshake(answer["implementation"], list(answer["profiles"]), set(answer["capabilities"]), answer)
        return self.handshake

    def close(self) -> None:
        if self._process is not None:
            try:
                if self._process.proc.poll() is None:
                    self.seq += 1
                    self._process.send(json.dumps({"seq": self.seq, "cmd": "stop"}).encode() + b"\n")
            except OSError:
                pass
            self._process.kill()
        self._process = None
        self._direct = None

    def restart(self) -> Handshake:
        return self.start()

    @property
    def stderr_tail(self) -> str:
        return self._process.stderr_tail if self._process else ""

    # -- messages ------------------------------------------------------------------------------
    def request_many(self, requests: list[tuple[str, dict]]) -> list:
        """Several requests, pipelined over a process: all written at once, then the answers
        read in order with the same checks as `request` (in direct mode, one after the other).
        A failure ends the list: the answers read before it, then the AdapterFailure itself."""
        if self._process is None:
            answers: list = []
            for cmd, fields in requests:
                try:
                    answers.append(self.request(cmd, **fields))
                except AdapterFailure as exc:
                    return answers + [exc]
            return answers
        answers: list = []
        pending = list(reversed(requests))
        while pending:
            # Written in chunks small enough for the pipe to hold while the adapter is busy
            # answering: reading the answers of one chunk before writing the next rules out a
            # deadlock of both sides writing into full pipes.
            chunk, size = [], 0
            while pending and size < PIPELINE_BYTES:
                cmd, fields = pending.pop()
                self.seq += 1
                message = {"seq": self.seq, "cmd": cmd, **fields}
                if self.trace:
                    self.trace("request", message)
                line = json.dumps(message, separators=(",", ":")).encode() + b"\n"
                chunk.append((message, line))
                size += len(line)
            try:
                self._process.send(b"".join(line for _, line in chunk))
            except (BrokenPipeError, OSError):
                return answers + [AdapterFailure("crash", self._exit_text(), self._process.stderr_tail, chunk[0][0]["cmd"])]
            for message, _ in chunk:
                try:
                    answers.append(self._checked(self._read_answer(message), message["cmd"], message["seq"]))
                except AdapterFailure as exc:
                    exc.cmd = message["cmd"]
                    return answers + [exc]  # the answers before the failure, then the failure
        return answers

    def request(self, cmd: str, **fields) -> dict:
        self.seq += 1
        message = {"seq": self.seq, "cmd": cmd, **fields}
        if self.trace:
            self.trace("request", message)
        try:
            answer = self._direct_exchange(message) if self._direct is not None else self._exchange(message)
        except AdapterFailure as exc:
            exc.cmd = cmd
            raise
        return self._checked(answer, cmd, self.seq)

    def _checked(self, answer: dict, cmd: str, seq: int) -> dict:
        """The answer to request `seq`, or AdapterFailure (wrong seq, or an error answer)."""
        if self.trace:
            self.trace("answer", answer)
        if answer.get("seq") != seq:
            raise AdapterFailure("wrong_seq", f"answer to seq {seq} carries seq {answer.get('seq')!r}", self.stderr_tail, cmd)
        if "error" in answer:
            error = answer["error"]
            text = error.get("message", error) if isinstance(error, dict) else error
            raise AdapterFailure("error", f"{cmd}: {text}", self.stderr_tail, cmd)
        return answer

    def _direct_exchange(self, message: dict) -> dict:
        """An in-process adapter: the same messages as dicts (copied through JSON, so that
        nothing is shared by reference and only JSON values pass)."""
        import traceback

        try:
            answer = json.loads(json.dumps(self._direct.handle(json.loads(json.dumps(message)))))
        except Exception as exc:  # the adapter's own bug: report it against this scenario
            raise AdapterFailure("crash", f"handle() raised {type(exc).__name__}: {exc}", traceback.format_exc()) from None
        if not isinstance(answer, dict):
            raise AdapterFailure("garbage", f"handle() returned {type(answer).__name__}, not an object")
        return answer

    def _exchange(self, message: dict) -> dict:
        process = self._process
        try:
            process.send(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        except (BrokenPipeError, OSError):
            raise AdapterFailure("crash", self._exit_text(), process.stderr_tail) from None
        return self._read_answer(message)

    def _read_answer(self, message: dict) -> dict:
        """Read and parse the next answer line (the answer to `message`)."""
        process = self._process
        kind, line = process.read_line(self.timeout)
        if kind == "timeout":
            raise AdapterFailure("timeout", f"no answer to {message['cmd']!r} within {self.timeout:g} s", process.stderr_tail)
        if kind == "too_large":
            raise AdapterFailure("too_large", f"an answer line over {MAX_LINE} bytes (starts {line[:60]!r})", process.stderr_tail)
        if kind == "eof":
            raise AdapterFailure("crash", self._exit_text(), process.stderr_tail)
        if not line.endswith(b"\n"):
            raise AdapterFailure("partial", f"output ended inside a line: {line[:120]!r}", process.stderr_tail)
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise AdapterFailure("garbage", f"not JSON: {line[:120]!r}", process.stderr_tail) from None
        if not isinstance(answer, dict):
            raise AdapterFailure("garbage", f"not a JSON object: {line[:120]!r}", process.stderr_tail)
        return answer

    def _exit_text(self) -> str:
        proc = self._process.proc
        try:
            code = proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "the adapter closed its output"
        return f"the adapter exited with status {code}"


def _load_python_adapter(spec: str):
    """`module:factory` -> an object with `handle(request) -> answer` (the direct mode)."""
    import importlib

    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        factory = getattr(module, attr or "Adapter")
    except (ImportError, AttributeError) as exc:
        raise AdapterFailure("crash", f"cannot load python:{spec}: {exc}") from None
    return factory()


class ImplementationDriver:
    """The replay driver interface (see conquian_ref.conformance.replay) over a Connection."""

    def __init__(self, connection: Connection):
        self.conn = connection
        self.name = connection.handshake.name if connection.handshake else connection.impl

    def setup(self, profile_id: str, setup: dict) -> None:
        caps = self.conn.handshake.capabilities
        fields = {"profile": profile_id, "dealer": setup["dealer"]}
        if "deck" in setup and "setup_deck" not in caps:
            fields.update(hands_and_stock(profile_id, setup))
        elif "deck" not in setup and "setup_hands" not in caps:
            fields["deck"] = deck_order(profile_id, setup)
        else:
            fields.update({k: setup[k] for k in ("hands", "stock", "deck") if k in setup})
        self._answer("setup", fields, "ok")

    def apply(self, seat: int, action: dict) -> tuple[str, str | None]:
        return self._result(self._answer("apply", {"seat": seat, "action": action}, "result"))

    # The request and the key of the answer for each replay call (see replay._Pipeline).
    _BATCHABLE = {
        "state": ("state", lambda: {}, "state"),
        "apply": ("apply", lambda seat, action: {"seat": seat, "action": action}, "result"),
        "observation": ("observation", lambda seat: {"seat": seat}, "observation"),
        "legal": ("legal", lambda seat: {"seat": seat}, "actions"),
        "perft": ("perft", lambda depth: {"depth": depth}, "counts"),
    }

    def batch(self, calls: list[tuple]) -> list:
        """Several replay calls sent together (pipelined: the requests are written at once and
        the answers read in order), each answer checked and unpacked as the single call does."""
        requests = [(self._BATCHABLE[name][0], self._BATCHABLE[name][1](*args)) for name, *args in calls]
        answers = self.conn.request_many(requests)
        results: list = []
        for (name, *_), answer in zip(calls, answers):
            if isinstance(answer, AdapterFailure):
                return results + [answer]  # the answers before it still count
            cmd, _, key = self._BATCHABLE[name]
            try:
                if key not in answer:
                    raise AdapterFailure("bad_answer", f"the {cmd!r} answer lacks {key!r}", self.conn.stderr_tail, cmd)
                results.append(self._result(answer) if name == "apply" else answer[key])
            except AdapterFailure as exc:
                return results + [exc]
        return results

    @staticmethod
    def _result(answer: dict) -> tuple[str, str | None]:
        result = answer["result"]
        if result == "accepted":
            return "accepted", None
        if result == "refused":
            return "refused", answer.get("reason")
        raise AdapterFailure("bad_answer", f"apply: result {result!r} is neither 'accepted' nor 'refused'")

    def state(self) -> dict:
        return self._answer("state", {}, "state")["state"]

    def observation(self, seat: int) -> dict:
        return self._answer("observation", {"seat": seat}, "observation")["observation"]

    def legal(self, seat: int) -> list[dict]:
        return self._answer("legal", {"seat": seat}, "actions")["actions"]

    def perft(self, depth: int) -> list[int]:
        return self._answer("perft", {"depth": depth}, "counts")["counts"]

    def divide(self, depth: int) -> dict:
        return self._answer("perft", {"depth": depth, "divide": True}, "counts").get("divide", {})

    def match(self, profile_id: str, first_dealer: int, outcomes: list[dict]) -> dict:
        fields = {"profile": profile_id, "first_dealer": first_dealer, "deals": outcomes}
        return self._answer("match", fields, "match")["match"]

    def _answer(self, cmd: str, fields: dict, key: str) -> dict:
        answer = self.conn.request(cmd, **fields)
        if key not in answer:
            raise AdapterFailure("bad_answer", f"the {cmd!r} answer lacks {key!r}", self.conn.stderr_tail)
        return answer


def deck_order(profile_id: str, setup: dict) -> list[str]:
    """The deck order that deals `setup`'s hands and stock (for an implementation without setup_hands)."""
    from ..engine.dealing import undeal
    from ..spec.profiles import load_profile

    return undeal(load_profile(profile_id), setup["hands"], setup["stock"], setup["dealer"])


def hands_and_stock(profile_id: str, setup: dict) -> dict:
    """The hands and stock dealt from `setup`'s deck order (for an implementation without setup_deck)."""
    from ..engine.dealing import deal
    from ..spec.profiles import load_profile

    hands, stock = deal(load_profile(profile_id), setup["deck"], setup["dealer"])
    return {"hands": hands, "stock": stock}


def describe_command(impl: str) -> str:
    return "the bundled reference adapter (in-process)" if impl == REFERENCE else impl

