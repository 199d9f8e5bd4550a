"""The transport of the conformance protocol: one adapter process and its three pipes.

`AdapterProcess` starts the adapter command (docs/protocol.md, "Transport"), writes request
bytes to its stdin, reads answer lines from its stdout with a timeout, and keeps the tail of its
stderr for reports. `read_answer` turns one answer line into a JSON object or the AdapterFailure
that says why it is not one (conquian_ref.conformance.failures). What the messages mean is the
client's business (conquian_ref.conformance.client).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time

from .failures import AdapterFailure

MAX_LINE = 8 * 1024 * 1024  # bytes in one answer line
STDERR_TAIL = 4000  # characters of the adapter's stderr kept for reports


class AdapterProcess:
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

    # -- stdout --------------------------------------------------------------------------------
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

    def read_answer(self, cmd: str, timeout: float) -> dict:
        """The next answer line as a JSON object (the answer to a `cmd` request), or AdapterFailure."""
        kind, line = self.read_line(timeout)
        if kind == "timeout":
            raise AdapterFailure("timeout", f"no answer to {cmd!r} within {timeout:g} s", self.stderr_tail)
        if kind == "too_large":
            raise AdapterFailure("too_large", f"an answer line over {MAX_LINE} bytes (starts {line[:60]!r})", self.stderr_tail)
        if kind == "eof":
            raise AdapterFailure("crash", self.exit_text(), self.stderr_tail)
        if not line.endswith(b"\n"):
            raise AdapterFailure("partial", f"output ended inside a line: {line[:120]!r}", self.stderr_tail)
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise AdapterFailure("garbage", f"not JSON: {line[:120]!r}", self.stderr_tail) from None
        if not isinstance(answer, dict):
            raise AdapterFailure("garbage", f"not a JSON object: {line[:120]!r}", self.stderr_tail)
        return answer

    # -- stdin ---------------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Write request bytes; OSError (BrokenPipeError) if the process has closed its input."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, data: bytes, cmd: str = "") -> None:
        """Write request bytes; AdapterFailure("crash") if the process has closed its input."""
        try:
            self.write(data)
        except OSError:
            raise AdapterFailure("crash", self.exit_text(), self.stderr_tail, cmd) from None

    # -- stderr --------------------------------------------------------------------------------
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

    # -- the end -------------------------------------------------------------------------------
    def exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "the adapter closed its output"
        return f"the adapter exited with status {code}"

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
