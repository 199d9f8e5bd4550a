"""`conquian-ref smoke --impl CMD`: check a new adapter's protocol basics before the corpus.

Like bowtie's `smoke`: each item of `CHECKS` is tried on a fresh adapter process (so one failure
cannot hide the next), and a checklist says what passed; the exit status is 1 if any item
failed. The items are what every adapter must do before any scenario means anything
(docs/protocol.md, "Transport" and "The handshake"): answer the handshake, refuse a protocol
version it does not speak, answer an unknown command and a line that is not JSON with an error
and keep going, echo each request's `seq` in order, and answer `stop` and exit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

from ..conformance.client import DEFAULT_TIMEOUT
from ..conformance.failures import AdapterFailure
from ..conformance.protocol import COMMANDS, PROTOCOL_VERSION, handshake_problem
from .options import add_json_option, add_timeout_option, emit
from ..conformance.transport import AdapterProcess, safe_text

UNSPOKEN_VERSION = 999  # a protocol version no adapter speaks


class SmokeFailure(Exception):
    """An item of the checklist failed: the message says how."""


class Probe:
    """One fresh adapter process, spoken to a line at a time."""

    def __init__(self, command: str, timeout: float):
        self.process, self.timeout = AdapterProcess(command), timeout

    def send(self, *messages: object) -> list[dict]:
        """Write the messages at once (a dict as JSON, bytes as they are), then read one answer each."""
        lines = [m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n" for m in messages]
        self.process.send(b"".join(lines), "smoke", self.timeout)
        return [self.process.read_answer("smoke", self.timeout) for _ in messages]

    def handshake(self) -> dict:
        (answer,) = self.send({"seq": 1, "cmd": "start", "version": PROTOCOL_VERSION})
        if "error" in answer:
            raise SmokeFailure(f"start (version {PROTOCOL_VERSION}) answered with an error: {_short(answer['error'])}")
        missing = [key for key in COMMANDS["start"].answer if key not in answer]
        if missing:
            raise SmokeFailure(f"the start answer lacks {', '.join(missing)}")
        problem = handshake_problem(answer)
        if problem:
            raise SmokeFailure(f"the start answer cannot begin a run: {problem}")
        _echoes(answer, 1)
        return answer


def _short(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)[:120]


def _echoes(answer: dict, seq: int) -> None:
    if answer.get("seq") != seq:
        raise SmokeFailure(f"the answer to seq {seq} carries seq {_short(answer.get('seq'))}")


def _is_error(answer: dict, what: str) -> str:
    if "error" not in answer:
        raise SmokeFailure(f"{what} was answered without an error: {_short(answer)}")
    return f"error: {_short(answer['error'])}"


def check_handshake(probe: Probe) -> str:
    answer = probe.handshake()
    impl = answer["implementation"]
    return (f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
            + f"; profiles {', '.join(answer['profiles'])}; capabilities {', '.join(answer['capabilities'])}")


def check_version(probe: Probe) -> str:
    (answer,) = probe.send({"seq": 1, "cmd": "start", "version": UNSPOKEN_VERSION})
    _echoes(answer, 1)
    return _is_error(answer, f"start with version {UNSPOKEN_VERSION}")


def check_unknown_command(probe: Probe) -> str:
    probe.handshake()
    (answer,) = probe.send({"seq": 2, "cmd": "no-such-command"})
    _echoes(answer, 2)
    return _is_error(answer, "an unknown command")


def check_non_json(probe: Probe) -> str:
    probe.handshake()
    answer, after = probe.send(b"this line is not JSON\n", {"seq": 3, "cmd": "stop"})
    detail = _is_error(answer, "a line that is not JSON")
    _echoes(after, 3)
    return detail + "; the next request was answered"


def check_seq_echo(probe: Probe) -> str:
    probe.handshake()
    seqs = [1001, 7, 1002]
    answers = probe.send(*({"seq": seq, "cmd": "no-such-command"} for seq in seqs))
    for seq, answer in zip(seqs, answers):
        _echoes(answer, seq)
    return f"seq {', '.join(map(str, seqs))} written at once, echoed in order"


def check_stop(probe: Probe) -> str:
    probe.handshake()
    (answer,) = probe.send({"seq": 2, "cmd": "stop"})
    _echoes(answer, 2)
    if answer.get("ok") is not True:
        raise SmokeFailure(f"stop was answered without ok: true: {_short(answer)}")
    try:
        probe.process.proc.wait(timeout=probe.timeout)
    except subprocess.TimeoutExpired:
        raise SmokeFailure(f"the adapter answered stop but had not exited after {probe.timeout:g} s") from None
    return f"answered ok and exited with status {probe.process.proc.returncode}"


# The checklist, in order: (item, what it checks, the check: a fresh Probe -> its detail).
CHECKS = (
    ("handshake", f"start (version {PROTOCOL_VERSION}) is answered with a usable handshake", check_handshake),
    ("version refusal", f"start with version {UNSPOKEN_VERSION} is answered with an error", check_version),
    ("unknown command", "an unknown command is answered with an error", check_unknown_command),
    ("non-JSON line", "a line that is not JSON is answered with an error, and the adapter goes on", check_non_json),
    ("seq echo", "each answer echoes its request's seq, in order", check_seq_echo),
    ("stop", "stop is answered with ok, and the adapter exits", check_stop),
)


def run_smoke(command: str, timeout: float = DEFAULT_TIMEOUT) -> list[tuple[str, bool, str]]:
    """Each item of CHECKS tried on a fresh process, the processes side by side (each item waits
    on its own adapter): [(item, passed, detail or what went wrong)] in CHECKS order."""
    with ThreadPoolExecutor(max_workers=len(CHECKS)) as pool:
        return list(pool.map(lambda entry: _try(command, timeout, entry[0], entry[2]), CHECKS))


def _try(command: str, timeout: float, item: str, check) -> tuple[str, bool, str]:
    try:
        probe = Probe(command, timeout)
    except OSError as exc:
        return item, False, f"cannot start {command!r}: {exc}"
    try:
        return item, True, check(probe)
    except SmokeFailure as exc:
        return item, False, str(exc)
    except AdapterFailure as exc:
        tail = exc.stderr.strip().splitlines()[-1:] if exc.stderr else []
        return item, False, str(exc) + (f" (stderr: {tail[0][:200]})" if tail else "")
    finally:
        probe.process.kill()


def checklist(command: str, results: list[tuple[str, bool, str]]) -> str:
    """The text of the checklist (control characters from the adapter shown escaped)."""
    lines = [f"smoke test of {command}"]
    for (item, what, _), (_, passed, detail) in zip(CHECKS, results):
        lines.append(f"  {'ok  ' if passed else 'FAIL'}  {item}: {what}")
        lines.append(f"        {safe_text(detail)}")
    passed = sum(ok for _, ok, _ in results)
    lines.append(f"{passed} of {len(results)} passed" + ("" if passed == len(results) else "; fix the items marked FAIL first"))
    return "\n".join(lines)


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref smoke`; returns its runner."""
    parser.add_argument("--impl", required=True, metavar="CMD",
                        help="the adapter command to check (a shell command line, run as written)")
    add_timeout_option(parser, DEFAULT_TIMEOUT)
    add_json_option(parser, "the checklist")
    return run


def smoke_json(command: str, results: list[tuple[str, bool, str]]) -> dict:
    """The checklist as data: each item, whether it passed, and what was seen; with the version
    and the fingerprint of the bundled corpus, which name the specification the checklist comes
    with (smoke replays no scenario)."""
    from .. import __version__
    from ..spec.fingerprint import corpus_fingerprint
    from ..spec.scenario import corpus_dir

    items = [{"item": item, "requirement": what, "passed": passed, "detail": detail}
             for (item, what, _), (_, passed, detail) in zip(CHECKS, results)]
    return {"tool": "smoke", "version": __version__, "corpus_fingerprint": corpus_fingerprint(corpus_dir()),
            "impl": command, "items": items,
            "passed": sum(ok for _, ok, _ in results), "ok": all(ok for _, ok, _ in results)}


def run(args: argparse.Namespace) -> int:
    """Print the checklist (or its JSON, --json); 0 only if every item passed."""
    results = run_smoke(args.impl, args.timeout)
    emit(args.json_path, lambda: smoke_json(args.impl, results), lambda: checklist(args.impl, results))
    return 0 if all(ok for _, ok, _ in results) else 1
