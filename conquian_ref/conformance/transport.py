"""The transport of the conformance protocol: one adapter process and its three pipes.

`AdapterProcess` starts the adapter command as a shell command line, as written (docs/protocol.md,
"Running the command"), in a session of its own; writes request bytes to its stdin and reads
answer lines from its stdout, both with a timeout; keeps the tail of its stderr for reports; and
on `kill` ends everything it started. `read_answer` turns one answer line into a JSON object or
the AdapterFailure that says why it is not one (conquian_ref.conformance.failures). What the
messages mean is the client's business (conquian_ref.conformance.client).

No thread: the three pipes are non-blocking and one select() loop serves them, draining stderr
whenever it waits on stdout or stdin, so neither side can block the other and a read or write
never outlives its timeout (a thread blocked in a read of a pipe that a grandchild holds open
would hold the run for that grandchild's lifetime).

What is contained, and the limit (docs/protocol.md, "Timeouts and containment"): the adapter
runs in a new session (`start_new_session`), so `kill` reaches its process group, even after
the adapter itself has exited; a process that left the group (setsid) is found by the pipes
it still holds (/proc, where there is one) and killed too. A process that left the group and
closed every pipe of the runner is out of reach.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
from collections import deque

from .failures import Crash, Garbage, Partial, Timeout, TooLarge
from .lines import LineSplitter, TooLong

MAX_LINE = 8 * 1024 * 1024  # bytes in one answer line
MAX_DEPTH = 64  # nesting of an answer: the deepest protocol answer is 6 deep
STDERR_TAIL = 8192  # characters of the adapter's stderr kept for reports (well over 20 lines)
SHELL = "/bin/sh"
# A JSON escape of a UTF-16 surrogate: a lone one decodes to a str that cannot be UTF-8.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


class AdapterProcess:
    """A subprocess speaking JSON lines over non-blocking pipes (see the module docstring)."""

    def __init__(self, command: str, cwd: str | None = None):
        self.command = command
        self.proc = subprocess.Popen(
            [SHELL, "-c", command],  # as written: `cd dir && node x.js` and `VAR=1 cmd` work
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,  # its own session and process group: kill() reaches its children
        )
        self._in, self._out, self._err = (s.fileno() for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr))
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._pipes = {_inode(fd) for fd in (self._in, self._out, self._err)}
        self._lines = LineSplitter(MAX_LINE)
        self._ready: deque[bytes | TooLong] = deque()  # lines read and not yet asked for
        self._late = False  # read_expected waited out a timeout: the next answer not read is late
        self._stderr = b""
        self._stderr_open = True

    # -- the one wait ----------------------------------------------------------------------------
    def _wait(self, fd: int, writing: bool, deadline: float) -> bool:
        """Wait until `fd` is ready (draining stderr meanwhile); False when the deadline passes."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            readers = [self._err] if self._stderr_open else []
            readers += [] if writing else [fd]
            ready_r, ready_w, _ = select.select(readers, [fd] if writing else [], [], remaining)
            if self._err in ready_r:
                self._drain_stderr()
            if fd in ready_r or fd in ready_w:
                return True

    # -- stdout --------------------------------------------------------------------------------
    def read_line(self, timeout: float) -> tuple[str, bytes]:
        """("line", bytes) for a line (without a newline only if the output ended inside it),
        ("eof", b"") at the end of the output, ("too_large", its start), or ("timeout", b"").
        Lines are split in linear time, and no more than MAX_LINE bytes of one are held
        (lines.LineSplitter)."""
        deadline = time.monotonic() + timeout
        while not self._ready:
            if self._late or not self._wait(self._out, False, deadline):
                self._late = False
                return "timeout", b""
            data = _read_available(self._out)
            if data is None:
                continue
            if not data:
                rest = self._lines.rest()
                return ("line", rest) if rest else ("eof", b"")
            self._ready.extend(self._lines.feed(data))
        line = self._ready.popleft()
        return ("too_large", line.head) if isinstance(line, TooLong) else ("line", line)

    def read_expected(self, expected: bytes, timeout: float) -> bool:
        """Read answer bytes while they are `expected`'s: True once all of them are read (the
        caller then needs no line parsed: it knows what they say). False at the first chunk that
        differs, at the end of the output, or after `timeout` s without data: what was read is
        then handed to the line reader, and `read_answer` goes on from there as usual (after a
        timeout, the next answer not yet read is late at once rather than after another wait)."""
        if self._ready or self._lines.holding:
            return False
        read, deadline = 0, time.monotonic() + timeout
        chunks = []
        while read < len(expected):
            if not self._wait(self._out, False, deadline):
                self._late = True
                break
            data = _read_available(self._out)
            if data is None:
                continue
            if not data:  # the end of the output: read_line finds it again
                break
            chunks.append(data)
            if expected[read : read + len(data)] != data:
                break
            read += len(data)
            deadline = time.monotonic() + timeout
        else:
            return True
        for data in chunks:
            self._ready.extend(self._lines.feed(data))
        return False

    def read_answer(self, cmd: str, timeout: float) -> dict:
        """The next answer line as a JSON object (the answer to a `cmd` request), or AdapterFailure."""
        kind, line = self.read_line(timeout)
        if kind == "timeout":
            raise Timeout(f"no answer to {cmd!r} within {timeout:g} s", self.stderr_tail)
        if kind == "too_large":
            raise TooLarge(f"an answer line over {MAX_LINE} bytes (starts {line[:60]!r})", self.stderr_tail)
        if kind == "eof":
            raise Crash(self.exit_text(), self.stderr_tail)
        if not line.endswith(b"\n"):
            raise Partial(f"output ended inside a line: {line[:120]!r}", self.stderr_tail)
        try:
            return parse_answer(line)
        except ValueError as exc:
            raise Garbage(f"{exc}: {line[:120]!r}", self.stderr_tail) from None

    # -- stdin ---------------------------------------------------------------------------------
    def write(self, data: bytes, timeout: float = 10.0) -> None:
        """Write request bytes within `timeout` seconds: OSError (BrokenPipeError) if the process
        has closed its input, TimeoutError if it stopped reading."""
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            if not self._wait(self._in, True, deadline):
                raise TimeoutError(f"the adapter read no input for {timeout:g} s")
            try:
                view = view[os.write(self._in, view) :]
            except BlockingIOError:
                continue

    def send(self, data: bytes, cmd: str = "", timeout: float = 10.0) -> None:
        """Write request bytes; AdapterFailure "crash" if the process has closed its input,
        "timeout" if it stopped reading."""
        try:
            self.write(data, timeout)
        except TimeoutError as exc:
            raise Timeout(f"{exc} (a {cmd!r} request)", self.stderr_tail, cmd) from None
        except OSError:
            raise Crash(self.exit_text(), self.stderr_tail, cmd) from None

    # -- stderr --------------------------------------------------------------------------------
    def _drain_stderr(self) -> None:
        while True:
            data = _read_available(self._err)
            if data is None:
                return
            if not data:
                self._stderr_open = False
                return
            self._stderr = (self._stderr + data)[-4 * STDERR_TAIL :]

    @property
    def stderr_tail(self) -> str:
        if self._stderr_open:
            if self.proc.poll() is not None:
                # The process has exited: its last words are usually the ones that explain the
                # failure; wait briefly for them (a child may still hold the pipe open).
                self._wait(self._err, False, time.monotonic() + 0.5)
            self._drain_stderr()
        return safe_text(self._stderr.decode("utf-8", "replace")[-STDERR_TAIL:])

    # -- the end -------------------------------------------------------------------------------
    def exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "the adapter closed its output"
        return f"the adapter exited with status {code}"

    def kill(self) -> None:
        """End the adapter and everything it started: its process group (which outlives the
        adapter while a child is in it), and any process still holding one of its pipes."""
        _kill_group(self.proc.pid)
        for pid in _pipe_holders(self._pipes):
            _kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


# What is never written raw to a terminal or a report, so that no ESC, OSC, BEL or NUL byte of an
# adapter's text reaches one: C0 controls but newline (a tab too: a report line keeps its
# columns), DEL, C1, lone surrogates, and the noncharacters U+FFFE and U+FFFF (they break XML).
_UNSAFE_TEXT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def safe_text(text: object) -> str:
    """`text` for a terminal or a report: every character of _UNSAFE_TEXT shown as an escape
    (\\x1b, \\x09, \\ud800); newlines kept. The one escaper of the runner's output: adapter
    names and stderr, reports, the smoke checklist."""
    return _UNSAFE_TEXT.sub(escaped, str(text))


def escaped(match: re.Match) -> str:
    """The escape shown for one matched character: \\xNN below U+0100, else \\uNNNN."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def parse_answer(line: bytes) -> dict:
    """An answer line as a JSON object the runner can safely hold, or ValueError saying why not
    (not JSON, NaN or Infinity, an integer past Python's digit limit, nested too deep, a lone
    surrogate, not an object)."""
    try:
        answer = _DECODER.decode(line.decode("utf-8"))
    except RecursionError:
        raise ValueError("not JSON the runner reads: nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ValueError("not JSON") from None
    except ValueError as exc:  # an integer past the digit limit, NaN, Infinity
        raise ValueError(f"not JSON the runner reads ({str(exc)[:80]})") from None
    if not isinstance(answer, dict):
        raise ValueError("not a JSON object")
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(answer) > MAX_DEPTH:
        raise ValueError(f"an answer nested more than {MAX_DEPTH} deep")
    if _SURROGATE.search(line):
        try:
            json.dumps(answer, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a lone surrogate in a string (not UTF-8 text)") from None
    return answer


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # one decoder for every answer (json.loads with an option makes one per call)


def _read_available(fd: int) -> bytes | None:
    """What a non-blocking pipe holds now (up to 64 KiB): b"" once it is closed (or unreadable),
    None when nothing is there yet."""
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _depth(value: object) -> int:
    """The nesting depth of a JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return deepest


def _inode(fd: int) -> int:
    return os.fstat(fd).st_ino


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)  # the group of the session leader `pid`
    except OSError:  # gone already, or not ours
        pass


def _pipe_holders(pipes: set[int]) -> list[int]:
    """Processes of this user holding one of the pipes (inodes) open: children that left the
    adapter's group. Never this process, nor a child of it: another connection's adapter,
    caught between fork and exec, holds every pipe this process had open for an instant (runs
    in threads, as the tests make them, would otherwise kill each other's adapters). Linux
    /proc; elsewhere, none are found."""
    names = {f"pipe:[{inode}]" for inode in pipes}
    me, found = os.getpid(), []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
            if any(os.readlink(f"/proc/{entry}/fd/{fd}") in names for fd in fds) and _parent(entry) != me:
                found.append(int(entry))
        except OSError:  # gone, or another user's
            continue
    return found


def _parent(pid: str) -> int:
    """The parent process id of a process, from /proc/PID/stat (the field after the state; the
    command name before them, in parentheses, may hold spaces)."""
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])
