"""The one line splitter of both ends of the protocol's pipes (conquian_ref.conformance.lines):
the same lines whatever the chunk sizes, an over-long line handed back once as TooLong and never
held whole, the lines after it intact."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian_ref.conformance.lines import HEAD, LineSplitter, TooLong

STREAM = b'{"seq":1}\n\n \t\n' + b"y" * 50 + b"\n" + b"z" * 3 + b"\n" + b"tail without newline"


def _split(data: bytes, sizes, limit: int) -> list:
    splitter, out, at = LineSplitter(limit), [], 0
    for size in sizes:
        out += splitter.feed(data[at : at + size])
        at += size
        if at >= len(data):
            break
    return out + [("rest", splitter.rest())]


@pytest.mark.parametrize("seed", range(20))
def test_the_lines_are_the_same_whatever_the_chunk_sizes(seed):
    rng = random.Random(seed)
    sizes = [rng.randint(1, 12) for _ in range(len(STREAM))]
    assert _split(STREAM, sizes, 1000) == _split(STREAM, [len(STREAM)], 1000) == [
        b'{"seq":1}\n', b"\n", b" \t\n", b"y" * 50 + b"\n", b"zzz\n", ("rest", b"tail without newline")]


@pytest.mark.parametrize("chunk", [1, 7, 64, 10_000])
def test_a_line_over_the_limit_is_one_too_long_and_the_next_line_comes_out(chunk):
    data = b"a" * 30 + b"\n" + b"b" * 5000 + b"\n" + b"c" * 40 + b"\n"
    got = _split(data, [chunk] * len(data), 40)
    assert [type(line) for line in got] == [bytes, TooLong, bytes, tuple]
    assert got[0] == b"a" * 30 + b"\n" and got[2:] == [b"c" * 40 + b"\n", ("rest", b"")]
    assert 40 < len(got[1].head) <= HEAD and set(got[1].head) == {ord("b")}  # what it starts with, bounded


def test_the_limit_counts_a_line_without_its_newline():
    assert LineSplitter(3).feed(b"abc\nabcd\n") == [b"abc\n", TooLong(b"abcd\n")]


def test_an_over_long_line_is_never_held_whole():
    splitter, held = LineSplitter(1000), 0
    for _ in range(2000):  # 2000 chunks of 512 bytes: one line of 1 MB
        splitter.feed(b"x" * 512)
        held = max(held, sum(map(len, splitter._pieces)))
    assert held <= 1000 + 512 and splitter.rest() == b""


def test_an_unfinished_last_line_over_the_limit_is_not_handed_back():
    splitter = LineSplitter(10)
    assert splitter.feed(b"x" * 11) == [TooLong(b"x" * 11)] and splitter.rest() == b""


@given(
    data=st.lists(st.sampled_from([b"\n", b"a", b"bb", b"{}", b"x" * 9]), max_size=40).map(b"".join),
    cuts=st.lists(st.integers(1, 30), min_size=1, max_size=40),
    limit=st.integers(1, 40),
)
def test_the_lines_are_the_streams_lines_however_it_is_cut_and_whatever_the_limit(data, cuts, limit):
    """The whole-chunk split (a chunk of whole lines within the limit) and the piece-by-piece
    loop give the lines of the stream: each complete line with its newline, or TooLong for a
    line over the limit, beginning as the line does."""
    got = _split(data, cuts * (len(data) + 1), limit)
    *whole, tail = data.split(b"\n")
    lines = [line + b"\n" for line in whole] + ([tail] if len(tail) > limit else [])  # an unfinished line too, once too long
    assert len(got) == len(lines) + 1
    for line, out in zip(lines, got):
        if len(line.rstrip(b"\n")) > limit:
            assert isinstance(out, TooLong) and line.startswith(out.head) and len(out.head) > limit
        else:
            assert out == line
    assert got[-1] == ("rest", tail if len(tail) <= limit else b"")
