"""Bytes in, whole lines out: the one line splitter of both ends of the protocol's pipes.

`LineSplitter(limit)` is fed the chunks a pipe gives, in any sizes, and hands back the lines
they complete, each with its newline. It runs in time linear in the bytes fed: only the new
chunk is searched for a newline, and a line's pieces are joined once, when it is complete (the
former readers searched and copied the whole buffer for every chunk, so a 100 MB line took
minutes). A line longer than `limit` bytes is never held: as soon as it passes the limit the
splitter hands back `TooLong` with the line's first bytes, and drops the rest of that line up
to its newline; the lines after it come out as usual.

The reference adapter reads requests through it (MAX_REQUEST_LINE, docs/protocol.md
"Transport"); the runner's transport reads answers through it (transport.MAX_LINE).
"""

from __future__ import annotations

from dataclasses import dataclass

HEAD = 200  # bytes of an over-long line kept to show what it was


@dataclass(frozen=True)
class TooLong:
    """A line past the limit: its first bytes (the rest is dropped up to its newline)."""

    head: bytes


class LineSplitter:
    """Splits a stream of chunks into lines of at most `limit` bytes (see the module docstring)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._pieces: list[bytes] = []  # the pieces of the line not yet complete
        self._size = 0
        self._dropping = False  # inside the rest of a line already handed back as TooLong

    def feed(self, data: bytes) -> list[bytes | TooLong]:
        """The lines `data` completes (each ending in a newline), and a TooLong for a line as
        it passes the limit."""
        out: list[bytes | TooLong] = []
        start = 0
        while True:
            if not self._pieces and not self._dropping and len(data) - start <= self.limit:
                # The common case, the rest of the chunk whole lines within the limit (a
                # pipelined batch): split at once by bytes.split, a fifth of the cost per line
                # of the loop below.
                *lines, tail = data[start:].split(b"\n")
                out += [line + b"\n" for line in lines]
                if tail:
                    self._pieces, self._size = [tail], len(tail)
                return out
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._take(data[start : end + 1], out)
            if not self._dropping and self._pieces:
                out.append(b"".join(self._pieces))
            self._pieces, self._size, self._dropping = [], 0, False
            start = end + 1
        if start < len(data):
            self._take(data[start:], out)
        return out

    def rest(self) -> bytes:
        """What is left at the end of the stream: a last line without its newline (b"" if none,
        or if it was too long)."""
        rest = b"" if self._dropping else b"".join(self._pieces)
        self._pieces, self._size, self._dropping = [], 0, False
        return rest

    @property
    def holding(self) -> bool:
        """Whether part of a line is waiting for its end."""
        return bool(self._pieces)

    def _take(self, piece: bytes, out: list) -> None:
        """Add a piece of the current line; past the limit, hand back TooLong and drop the line."""
        if self._dropping:
            return
        self._pieces.append(piece)
        self._size += len(piece)
        if self._size - piece.endswith(b"\n") > self.limit:
            out.append(TooLong(b"".join(self._pieces)[:HEAD]))  # joined once per over-long line
            self._pieces, self._size, self._dropping = [], 0, True
