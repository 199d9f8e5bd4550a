"""The text of a regular file, read within a size limit, never blocking.

Only a regular file is read: anything else is refused from its stat, before it is opened (a FIFO
would block an open); the file is opened without blocking and checked again with fstat, and at
most MAX_BYTES + 1 bytes are read (so `/dev/zero` or a huge file is refused, never loaded). Each
refusal is a YamlError at line 0 (the files read are YAML files: one error type for the callers).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .yamlcore import YamlError

MAX_BYTES = 1_000_000
"""The largest file read, in bytes."""


# What a path that is not a regular file is, for the message.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_OPEN_ERRORS = {
    errno.ENOENT: "no such file (or a dangling symbolic link)",
    errno.ELOOP: "a symbolic link loop",
    errno.EACCES: "permission denied",
    errno.EISDIR: "not a regular file: a folder",
}


def kind_of(mode: int) -> str | None:
    """None for a regular file, else what it is ("a FIFO (named pipe)")."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_text(path: Path | str) -> str:
    """The text of a regular file of at most MAX_BYTES bytes, as UTF-8; YamlError(0, ...) if not."""
    return decode(read_bytes(path))


def read_bytes(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; YamlError(0, ...) if not."""
    try:
        # What is plainly not a regular file is refused before it is opened (opening a FIFO for
        # reading waits for a writer, forever); O_NONBLOCK and fstat below cover a file swapped
        # in between.
        kind = kind_of(os.stat(path).st_mode)
    except OSError as exc:
        raise YamlError(0, f"cannot read the file: {_OPEN_ERRORS.get(exc.errno, exc.strerror)}") from None
    if kind is not None:
        raise YamlError(0, f"cannot read the file: not a regular file: {kind}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise YamlError(0, f"cannot read the file: {_OPEN_ERRORS.get(exc.errno, exc.strerror)}") from None
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise YamlError(0, f"cannot read the file: not a regular file: {kind}")
        chunks, size = [], 0
        while size <= limit:  # read at most limit + 1 bytes: enough to know it is too big
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise YamlError(0, f"cannot read the file: {exc.strerror}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise YamlError(0, f"the file is larger than {limit:,} bytes (docs/security.md)")
    return b"".join(chunks)


def decode(raw: bytes) -> str:
    """A file's bytes as UTF-8 text; YamlError at the line of the first byte that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlError(line, f"not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}") from None
