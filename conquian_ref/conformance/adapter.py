"""The reference adapter: the reference engine behind the conformance protocol (docs/protocol.md).

Run as `python -m conquian_ref.adapter [--allow-profile-files]`: it reads one JSON request per
line on stdin and writes one JSON answer per line on stdout, until `stop` or the end of input. `ReferenceAdapter`
is also used in-process (the runner's `direct` mode), so both paths share one handler.

Every answer echoes the request's `seq`. A rule refusal is an ordinary answer
(`{"result": "refused", "reason": ...}`); anything else that goes wrong (an unknown command,
malformed input, no deal set up) is an error answer `{"error": {"message": ...}}`.
"""

from __future__ import annotations

import json
import sys

from .. import __version__
from ..engine.errors import ConquianError, shown
from ..engine.setup import check_seat
from .collector import set_collector
from .lines import LineSplitter, TooLong
from .protocol import CAPABILITIES, COMMANDS, PROTOCOL_VERSION, Command, match_answer
from .reference import Reference

# The longest request line read, in bytes (docs/protocol.md, "Transport"): the runner's longest
# request, a long session's `match`, is a few kilobytes; a longer line is answered with an error.
MAX_REQUEST_LINE = 1 << 20


class ReferenceAdapter:
    """Answers protocol requests (dicts) with the reference engine."""

    def __init__(self, reference: Reference | None = None, allow_profile_files: bool = False):
        # The protocol carries no rule trace, so the deal is played without one (its bookkeeping
        # would be work for nothing): `coverage` traces the rules a scenario checks by playing
        # the reference directly (conquian_ref.tools.coverage).
        self.reference = reference or Reference(trace=False)
        # A `profile` is a shipped profile id. A path would let any client make this process read
        # any YAML file on the machine and echo its keys, so files need an explicit opt-in
        # (`python -m conquian_ref.adapter --allow-profile-files`).
        self.allow_profile_files = allow_profile_files

    @property
    def game(self):
        """The deal being played (None before the first setup)."""
        return self.reference.game

    def handle(self, request: object) -> dict:
        """The answer to one request: by the handler of its command (`cmd_<name>`), or, for a
        plain query with none (state, observation, legal), by the Reference method of its name
        with the request fields its protocol.Command declares."""
        seq = request.get("seq") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise ConquianError("a request is a JSON object")
            cmd = request.get("cmd")
            command = COMMANDS.get(cmd) if isinstance(cmd, str) else None
            if command is None:
                raise ConquianError(f"unknown command {shown(cmd)}")
            handler = getattr(self, f"cmd_{cmd}", None)
            answer = handler(request) if handler is not None else self._query(command, request)
        except ConquianError as exc:
            answer = {"error": {"message": str(exc)}}
        except Exception as exc:  # a bug of this adapter: still an answer, never a dead process
            import traceback

            answer = {"error": {"message": f"internal error: {type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}}
        return {"seq": seq, **answer}

    def _query(self, command: Command, request: dict) -> dict:
        """A query of the deal: its declared fields read (a seat checked against the table), the
        Reference method of the command's name asked, its value under the answer's key."""
        seats = self._game().profile.seats
        args = [_seat(request, name, seats) if name == "seat" else _field(request, name) for name in command.request]
        return {command.answer[0]: getattr(self.reference, command.name)(*args)}

    def cmd_start(self, request: dict) -> dict:
        from ..spec.profiles import PROFILE_IDS

        if request.get("version") != PROTOCOL_VERSION:
            raise ConquianError(f"protocol version {request.get('version')!r} is not supported (this adapter speaks {PROTOCOL_VERSION})")
        return {
            "version": PROTOCOL_VERSION,
            "implementation": {
                "name": "conquian-ref",
                "version": __version__,
                "language": "python",
                "homepage": None,  # no public home yet
            },
            "profiles": list(PROFILE_IDS),
            "capabilities": list(CAPABILITIES),
        }

    def cmd_setup(self, request: dict) -> dict:
        setup = {"dealer": _field(request, "dealer")}
        if "deck" in request:
            setup["deck"] = request["deck"]
        else:
            setup["hands"], setup["stock"] = _field(request, "hands"), _field(request, "stock")
        self.reference.setup(self._profile(request), setup)
        return {"ok": True}

    def cmd_setup_position(self, request: dict) -> dict:
        self.reference.setup_position(self._profile(request), _field(request, "position"))
        return {"ok": True}

    def cmd_apply(self, request: dict) -> dict:
        self._game()
        refusal = self.reference.try_apply(_field(request, "seat"), _field(request, "action"))
        if refusal is not None:
            return {"result": "refused", "reason": refusal.reason, "message": refusal.message}
        return {"result": "accepted"}

    # The plain queries, answered from their declarations alone; written out as handlers so that
    # an adapter wrapping this one (tests/adapters, the mutants) can override and call them.
    def cmd_state(self, request: dict) -> dict:
        return self._query(COMMANDS["state"], request)

    def cmd_observation(self, request: dict) -> dict:
        return self._query(COMMANDS["observation"], request)

    def cmd_legal(self, request: dict) -> dict:
        return self._query(COMMANDS["legal"], request)

    def cmd_perft(self, request: dict) -> dict:
        self._game()
        depth = _field(request, "depth")
        if not isinstance(depth, int) or not 1 <= depth <= 4:
            raise ConquianError("depth is a whole number from 1 to 4")
        answer = {"counts": self.reference.perft(depth)}
        if request.get("divide"):
            answer["divide"] = self.reference.divide(depth)
        return answer

    def cmd_match(self, request: dict) -> dict:
        profile_id = self._profile(request)
        first_dealer = _seat(request, "first_dealer", self.reference.profile_loader(profile_id).seats)
        deals = _field(request, "deals")
        if not isinstance(deals, list):
            raise ConquianError(f"deals: a list of deal outcomes, got {shown(deals)}")
        for i, entry in enumerate(deals):
            problem = _deal_problem(entry)
            if problem is not None:
                raise ConquianError(f"deals[{i}]{problem}")
        # A deal after the match is won is an error, not a score (the engine's Match refuses it).
        return {"match": match_answer(self.reference.match(profile_id, first_dealer, deals))}

    def cmd_stop(self, request: dict) -> dict:
        return {"ok": True}

    def _profile(self, request: dict) -> str:
        from ..spec.profiles import PROFILE_IDS

        profile = _field(request, "profile")
        if not isinstance(profile, str):
            raise ConquianError(f"a profile is a profile id (a string), got {shown(profile)}")
        if profile not in PROFILE_IDS and not self.allow_profile_files:
            raise ConquianError(
                f"unknown profile {shown(profile)} (known: {', '.join(PROFILE_IDS)}; a profile file only with --allow-profile-files)"
            )
        return profile

    def _game(self):
        if self.game is None:
            raise ConquianError("no deal is set up: send setup first")
        return self.game


def _field(request: dict, name: str):
    if name not in request:
        raise ConquianError(f"the request lacks {name!r}")
    return request[name]


def _deal_problem(entry: object) -> str | None:
    """What is wrong with one entry of a match's `deals` ("<where>: <message>"), or None. It is
    checked against the one form it claims (a misdeal, or an outcome), so that the error names
    the field at fault, not only "valid under none of the forms". A valid entry is found valid
    by the form's compiled check (spec/schema_check.py: valid exactly where jsonschema finds no
    error), without importing jsonschema, which was a twelfth of the main job; jsonschema judges
    the rest and words the error."""
    return None if _holds(entry) else _entry_problem(entry)


def _form(entry: object) -> str:
    return "/$defs/misdeal" if isinstance(entry, dict) and "misdeal" in entry else "/$defs/outcome"


def _holds(entry: object) -> bool:
    from ..spec.schema_check import Unsure, check_of
    from ..spec.schema_files import definition

    check = check_of(definition("scenario", _form(entry)))
    try:
        return check is not None and check(entry)
    except Unsure:
        return False


def _entry_problem(entry: object) -> str | None:
    from ..spec.schemas import definition_validator

    form = _form(entry)
    for err in sorted(definition_validator("scenario", form).iter_errors(entry), key=lambda e: list(map(str, e.absolute_path))):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        return f"{where}: {err.message}"
    return None


def _seat(request: dict, name: str, seats: tuple[int, ...]) -> int:
    """A seat of the profile's table: an integer (not True, not 0.0) among `seats`, checked as
    the engine checks it (a MalformedInput is an error answer)."""
    seat = _field(request, name)
    check_seat(seat, name, seats)
    return seat


def serve(stdin=None, stdout=None, allow_profile_files: bool = False) -> int:
    """The protocol loop: one request per line in, one answer per line out (UTF-8 bytes). Every
    line gets exactly one answer, whatever it holds: a blank line and a line over
    MAX_REQUEST_LINE bytes an error answer (the rest of an over-long line is skipped unread)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    adapter = ReferenceAdapter(allow_profile_files=allow_profile_files)
    # The answers are gathered here and written together whenever no whole request is waiting
    # (_lines): one write for a pipelined batch, whatever buffering the standard output has
    # (under PYTHONUNBUFFERED=1 it has none, and a write per answer made the fuzzer's games
    # against this adapter about 12 % slower: docs/performance.md).
    answers: list[bytes] = []

    def send() -> None:
        if answers:
            stdout.write(b"".join(answers))
            answers.clear()
        stdout.flush()

    for line in _lines(stdin, send):
        request, answer = None, _unreadable(line)
        if answer is None:
            try:
                request = _DECODER.decode(line.decode("utf-8"))
            except RecursionError:
                answer = _error_answer("not JSON this adapter reads: nested too deeply")
            except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
                answer = _error_answer(f"not JSON: {str(exc)[:200]}")
            else:
                answer = adapter.handle(request)
        answers.append(_encode(answer) + b"\n")
        if isinstance(request, dict) and request.get("cmd") == "stop":
            break
    send()
    return 0


def _unreadable(line: bytes | TooLong) -> dict | None:
    """The error answer of a line that cannot hold a request (over-long, or blank), or None."""
    if isinstance(line, TooLong):
        return _error_answer(f"a request line over {MAX_REQUEST_LINE} bytes (it starts {line.head[:60]!r}); skipped")
    if not line.strip():
        return _error_answer("not JSON: a blank line (a request is one JSON object per line)")
    return None


def _error_answer(message: str) -> dict:
    return {"seq": None, "error": {"message": message}}


def _lines(stdin, send):
    """The request lines (the last one without a newline if the input ends inside it), and a
    TooLong for each line over MAX_REQUEST_LINE bytes, read in linear time (lines.LineSplitter).
    `send()` writes the answers so far whenever no whole request is waiting, before reading
    more: a pipelined batch of requests is answered with one write, not one per answer, and an
    answer is never held back while its requester waits for it."""
    splitter = LineSplitter(MAX_REQUEST_LINE)
    while True:
        send()
        data = stdin.read1(1 << 16)
        if not data:
            rest = splitter.rest()
            if rest:
                yield rest
            return
        yield from splitter.feed(data)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity, -Infinity: Python accepts them, JSON does not


# Built once: json.loads and json.dumps with options build a new decoder and encoder per call,
# a tenth of this adapter's time when the fuzzer streams it tens of thousands of requests.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
ANSWER_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))  # the fuzzer writes the answers it expects with it
ACCEPTED = ',"result":"accepted"}'  # the answer to an accepted action after its seq, as the encoder writes it (the fuzzer expects it too)
_ACCEPTED_BYTES = ACCEPTED.encode()


def _encode(answer: dict) -> bytes:
    """One answer line: strict JSON (no NaN), UTF-8. A lone surrogate echoed from a request (a
    `seq` such as "\\ud800") cannot be UTF-8: that answer is written with \\u escapes instead."""
    try:
        seq = answer.get("seq")
        if type(seq) is int and len(answer) == 2 and answer.get("result") == "accepted":
            # The answer to every accepted action, most of what a fuzzer asks: written here, for
            # the encoder builds its C encoder afresh at every call (2 µs of the 15 this adapter
            # spends on an action). The encoder's bytes (tests/test_hostile_adapter_input.py).
            return b'{"seq":%d' % seq + _ACCEPTED_BYTES
        return ANSWER_ENCODER.encode(answer).encode()
    except UnicodeEncodeError:
        return json.dumps(answer, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()
    except (ValueError, RecursionError) as exc:
        return json.dumps({"seq": None, "error": {"message": f"the answer could not be written: {exc}"}}).encode()


def main(argv: list[str] | None = None) -> int:
    """`python -m conquian_ref.adapter [--allow-profile-files]`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m conquian_ref.adapter", description=__doc__.splitlines()[0])
    parser.add_argument("--allow-profile-files", action="store_true",
                        help="let `setup` and `match` name a profile YAML file by its path (off: shipped ids only)")
    args = parser.parse_args(argv)
    set_collector()
    return serve(allow_profile_files=args.allow_profile_files)


if __name__ == "__main__":
    sys.exit(main())
