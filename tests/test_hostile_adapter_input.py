"""The reference adapter never dies and never lies about JSON, even when its process is fed
garbage: every line gets exactly one answer, each a strict JSON object; a profile
is a shipped id unless file access is asked for; a seat is the integer 0 or 1; a long match is
scored in linear time."""

from __future__ import annotations

import io
import json
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian_ref import PROFILE_IDS
from conquian_ref.conformance.adapter import ReferenceAdapter, serve


def _strict(text: str):
    def refuse(name):
        raise AssertionError(f"{name} in an answer")

    return json.loads(text, parse_constant=refuse)


def _answers(lines: list[bytes], **options) -> list[dict]:
    out = io.BytesIO()
    serve(io.BytesIO(b"\n".join(lines) + b"\n"), out, **options)
    return [_strict(line.decode("utf-8")) for line in out.getvalue().splitlines()]


HOSTILE_LINES = [
    rb'{"seq":"\ud800","cmd":"x"}',  # a lone surrogate: the answer could not be written as UTF-8
    b'{"seq":' + b"9" * 5000 + b',"cmd":"x"}',  # an integer past Python's conversion limit
    b"[" * 1000 + b"]" * 1000,  # nesting past the recursion limit
    b'{"seq":NaN,"cmd":"x"}',  # NaN is not JSON: refused, never echoed
    b'{"seq":1,"cmd":"x","v":Infinity}',
    b'{"seq":2,"cmd":["start"]}',  # an unhashable command
    b'{"seq":3,"cmd":"setup","profile":{"a":1},"dealer":0,"deck":[]}',  # a non-string profile
    b'{"seq":4,"cmd":"setup","profile":"/etc/hostname","dealer":0,"deck":[]}',  # a path
    b'{"seq":5,"cmd":"match","profile":"' + PROFILE_IDS[0].encode() + b'","first_dealer":0.0,"deals":[]}',
    b"\xff\xfe not utf-8",
]


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=lambda b: b[:30].decode("latin-1"))
def test_every_hostile_line_gets_one_error_answer(line):
    answers = _answers([line, b'{"seq":99,"cmd":"stop"}'])
    assert len(answers) == 2 and "error" in answers[0] and answers[1] == {"seq": 99, "ok": True}


def test_a_lone_surrogate_seq_is_echoed_as_an_escape():
    assert _answers([rb'{"seq":"\ud800","cmd":"x"}'])[0]["seq"] == "\ud800"


def test_a_profile_file_needs_the_explicit_option(tmp_path):
    from conquian_ref.spec.profiles import _PROFILES

    copy = tmp_path / "mine.yaml"
    copy.write_text((_PROFILES / f"{PROFILE_IDS[0]}.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    request = {"seq": 1, "cmd": "match", "profile": str(copy), "first_dealer": 0, "deals": []}
    assert "a profile file only with --allow-profile-files" in ReferenceAdapter().handle(request)["error"]["message"]
    assert "match" in ReferenceAdapter(allow_profile_files=True).handle(request)


def test_a_seat_is_an_integer_not_a_float():
    adapter = ReferenceAdapter()
    adapter.handle({"seq": 1, "cmd": "setup", "profile": PROFILE_IDS[0], "dealer": 0,
                    "deck": None})  # refused; the next request still answers
    for seat in (0.0, True, "0", None, [0]):
        answer = adapter.handle({"seq": 2, "cmd": "match", "profile": PROFILE_IDS[0], "first_dealer": seat, "deals": []})
        assert "a seat is 0 or 1" in answer["error"]["message"]


def test_a_long_match_is_scored_in_linear_time():
    # Structural, not timed: count how often the score reads a deal's result. Before, every deal
    # re-read every deal before it (about n*n/2 reads); now each result is read once by the score.
    from conquian_ref.engine.match import Match
    from conquian_ref.engine.outcome import How, Outcome
    from conquian_ref.spec.profiles import load_profile

    reads = 0

    class Counted(Outcome):
        def __getattribute__(self, name):
            nonlocal reads
            if name == "result":
                reads += 1
            return super().__getattribute__(name)

    scored = next(p for p in PROFILE_IDS if load_profile(p).match is not None)
    match, n = Match(load_profile(scored), 0), 2000
    for _ in range(n):
        match.record(Counted(How.STOCK_EXHAUSTED))
    match.to_json()
    assert reads <= 3 * n  # scoring reads each once, to_json once more; before: about 2,000,000


def test_a_match_of_many_deals_gets_its_answer():
    draw = {"result": "draw", "winner": None, "how": "stock_exhausted"}
    for profile in PROFILE_IDS:
        answer = ReferenceAdapter().handle({"seq": 1, "cmd": "match", "profile": profile, "first_dealer": 0, "deals": [draw] * 2000})
        assert "match" in answer or "error" in answer


# -- a bounded line reader: every line answered once, an over-long one in linear time ----------
class _Chunks(io.RawIOBase):
    """Stdin giving `total` bytes of one line of padding in 64 KiB reads, then `tail`; nothing is
    held in memory but one chunk (a 64 MB line is never built)."""

    def __init__(self, head: bytes, total: int, tail: bytes):
        self.head, self.left, self.tail = head, total, tail

    def read1(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        if self.left > 0:
            n = min(1 << 16, self.left)
            self.left -= n
            return b"x" * n
        out, self.tail = self.tail, b""
        return out


def test_a_request_line_over_the_limit_gets_one_error_answer_and_the_next_line_is_answered():
    from conquian_ref.conformance.adapter import MAX_REQUEST_LINE

    # A valid request padded past the limit: answered with the limit, never parsed.
    line = b'{"seq": 1, "cmd": "stop", "pad": "' + b"x" * MAX_REQUEST_LINE + b'"}'
    answers = _answers([line, b'{"seq":2,"cmd":"start","version":1}', b'{"seq":3,"cmd":"stop"}'])
    assert len(answers) == 3
    assert answers[0]["seq"] is None and f"over {MAX_REQUEST_LINE} bytes" in answers[0]["error"]["message"]
    assert answers[1]["seq"] == 2 and "capabilities" in answers[1] and answers[2] == {"seq": 3, "ok": True}


def test_docs_protocol_states_the_request_line_limit():
    from pathlib import Path

    from conquian_ref.conformance.adapter import MAX_REQUEST_LINE

    text = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert MAX_REQUEST_LINE == 1 << 20 and "1 MiB" in text


def test_a_64_mb_request_line_is_read_in_linear_time():
    import time

    out = io.BytesIO()
    started = time.perf_counter()
    serve(_Chunks(b'{"seq": 1, "pad": "', 64 << 20, b'"}\n{"seq":2,"cmd":"stop"}\n'), out)
    took = time.perf_counter() - started
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 2 and "error" in answers[0] and answers[1] == {"seq": 2, "ok": True}
    assert took < 10, took  # seconds; the quadratic reader took minutes (100 MB: 122-209 s)


@pytest.mark.parametrize("blank", [b"", b" \t", b"\r", b"   "], ids=repr)
def test_every_line_is_answered_exactly_once_a_blank_one_too(blank):
    answers = _answers([blank, b'{"seq":7,"cmd":"stop"}'])
    assert len(answers) == 2 and answers[0]["seq"] is None and "blank line" in answers[0]["error"]["message"]
    assert answers[1] == {"seq": 7, "ok": True}


@pytest.mark.parametrize("profile", PROFILE_IDS)
@pytest.mark.parametrize("entry, field", [
    ({"result": "win", "winner": None, "how": "target_reached"}, "deals[0].winner"),
    ({"result": "win", "winner": None, "how": "rummy"}, "deals[0]"),  # rummy: the field, or a profile without rummy wins
    ({"result": "draw", "winner": 1, "how": "stock_exhausted"}, "deals[0].winner"),
    ({"result": "win", "winner": True, "how": "target_reached"}, "deals[0].winner"),
])
def test_a_match_entry_whose_winner_does_not_fit_its_result_is_one_error_naming_the_field(profile, entry, field):
    answer = ReferenceAdapter().handle({"seq": 1, "cmd": "match", "profile": profile, "first_dealer": 0, "deals": [entry]})
    message = answer["error"]["message"]
    assert message.startswith(field) and "internal error" not in message and "\n" not in message


class _Unbuffered:
    """A standard output with no buffer of its own (PYTHONUNBUFFERED=1): every write is seen."""

    def __init__(self):
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass


class _Batches:
    """Standard input arriving in these chunks, one per read; `out` records what had been
    written when each chunk was read."""

    def __init__(self, chunks: list[bytes], out: _Unbuffered):
        self.chunks, self.out, self.written_before = list(chunks), out, []

    def read1(self, n: int) -> bytes:
        self.written_before.append(b"".join(self.out.writes))
        return self.chunks.pop(0) if self.chunks else b""


def test_a_pipelined_batch_is_answered_with_one_write_even_on_an_unbuffered_output():
    requests = [b'{"seq":%d,"cmd":"start","version":"1"}' % i for i in range(5)]
    out = _Unbuffered()
    stdin = _Batches([b"\n".join(requests[:3]) + b"\n", b"\n".join(requests[3:]) + b"\n"], out)
    serve(stdin, out)
    assert len(out.writes) == 2  # one per batch read, not one per answer
    assert [len(w.splitlines()) for w in out.writes] == [3, 2]
    # the first batch's answers were written before the adapter waited for more
    assert stdin.written_before[1] == out.writes[0] and stdin.written_before[0] == b""


@given(seq=st.one_of(st.integers(), st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5), st.none()),
       result=st.sampled_from(["accepted", "refused", "Accepted"]), extra=st.booleans())
def test_an_answer_is_written_as_the_encoder_writes_it_an_accepted_one_too(seq, result, extra):
    from conquian_ref.conformance.adapter import ANSWER_ENCODER, _encode

    answer = {"seq": seq, "result": result, **({"reason": "x"} if extra else {})}
    try:
        want = ANSWER_ENCODER.encode(answer).encode()
    except ValueError:  # an integer too long to write: both give the error answer
        want = None
    got = _encode(answer)
    assert got == want if want is not None else b"could not be written" in got
