"""The corpus's fingerprint: which scenarios, byte for byte, a report or an export was made from.

`corpus_fingerprint(folder)` is `sha256:` and the first 16 hex digits of a SHA-256 over every
scenario file under `folder` (found as every command finds them, corpus_walk), each as its path
relative to the folder and its bytes, in path order. Two corpora have the same fingerprint exactly
when they hold the same files with the same bytes; where the folder sits does not matter.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .corpus_walk import walk_corpus

DIGITS = 16


def corpus_fingerprint(folder: Path | str) -> str:
    """The fingerprint of the scenario files under `folder` (see the module docstring)."""
    root = Path(folder)
    files, _ = walk_corpus([root])
    digest = hashlib.sha256()
    for name, file in sorted((file.relative_to(root).as_posix(), file) for file in files):
        name = name.encode("utf-8")
        data = file.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)) + data)
    return f"sha256:{digest.hexdigest()[:DIGITS]}"
