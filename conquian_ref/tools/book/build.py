"""`conquian-ref book [--out DIR] [--corpus DIR]`: build the book into a folder.

A rebuild overwrites the files it writes and removes the files an earlier build wrote and this
one does not (a withdrawn scenario), from the list it keeps in `.conquian-book-manifest`;
nothing else in the folder is touched.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..options import add_cache_option, add_corpus_option
from .contents import Book
from .pages import render

PAGES_MANIFEST = ".conquian-book-manifest"


@dataclass
class BuildResult:
    out: Path
    rules: int
    scenarios: int
    pages: list
    problems: list
    disagreements: list  # scenario ids whose replay does not agree with the file
    seconds: float

    def closing_line(self) -> str:
        return f"book: {self.rules} rules, {self.scenarios} scenarios -> {self.out / 'index.html'}"


def build(out: Path | str = "book", corpus: Path | str | None = None) -> BuildResult:
    """Render the book into `out`; returns what was written. Files written by an earlier build and
    not written again (a withdrawn scenario) are removed; nothing else in `out` is touched."""
    from ...spec.scenario import corpus_dir

    started = time.perf_counter()
    out = Path(out)
    book = Book(Path(corpus) if corpus else corpus_dir(), out, None if corpus is None else str(corpus))
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / PAGES_MANIFEST
    old = set(manifest.read_text(encoding="utf-8").split()) if manifest.is_file() else set()
    written = []  # the paths only: each page is written as soon as it is rendered, then dropped
    for rel, text in render(book):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(rel)
    for rel in sorted(old - set(written)):
        stale = out / rel
        if stale.is_file() and ".." not in Path(rel).parts:
            stale.unlink()
    manifest.write_text("\n".join(sorted(written)) + "\n", encoding="utf-8")
    return BuildResult(
        out=out,
        rules=len(book.rule_ids()),
        scenarios=len(book.entries),
        pages=sorted(written),
        problems=book.problems,
        disagreements=[e.id for e in book.entries if e.verdict],
        seconds=time.perf_counter() - started,
    )


def configure(parser):
    """Add the options of `conquian-ref book` to `parser`; return its runner (args -> exit status)."""
    parser.add_argument("--out", default="book", metavar="DIR", help="output folder (default: ./book/)")
    add_corpus_option(parser, "the scenario folder to render")
    add_cache_option(parser)

    def run(args) -> int:
        result = build(args.out, args.corpus)
        for problem in result.problems:
            print(f"book: skipped: {problem}", file=sys.stderr)
        for sid in result.disagreements:
            print(f"book: {sid} does not replay as written on the reference engine (shown on its page)", file=sys.stderr)
        print(result.closing_line())
        return 1 if result.problems else 0

    return run
