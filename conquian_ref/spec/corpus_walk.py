"""The walk of a corpus folder: every scenario file under the paths given, and every entry that
cannot be one reported, never skipped in silence.

A symbolic link is followed only where it stays inside the folder given: `lint DIR` reads DIR,
never its siblings through a link `up -> ..` (one line says which link was not followed).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .problem import Problem
from .yamlfile import kind_of

SUFFIXES = (".yaml", ".yml")


def walk_corpus(paths: list[Path | str]) -> tuple[list[Path], list[Problem]]:
    """Every scenario file under the given files and folders, sorted, and a Problem for every
    entry that cannot be one but would otherwise be skipped in silence: a dangling symbolic link,
    a symbolic link loop or one leading out of the folder given, a FIFO, device or folder named
    `*.yaml`, a folder that cannot be listed. Symbolic links to folders inside the folder given
    are followed, each real folder once (a link to a parent is no loop)."""
    files: set[Path] = set()
    problems: list[Problem] = []
    seen_dirs: set[tuple[int, int]] = set()

    def problem(entry: Path, message: str) -> None:
        problems.append(Problem(str(entry), 0, "(file)", message))

    def visit_dir(folder: Path, root: Path) -> None:
        try:
            info = folder.stat()
            if (info.st_dev, info.st_ino) in seen_dirs:
                return
            seen_dirs.add((info.st_dev, info.st_ino))
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problem(folder, f"cannot read the folder: {exc.strerror}")
            return
        for entry in entries:
            # The common case, from the folder listing alone (no system call): a regular file
            # that is no symbolic link. Everything else takes the careful way below.
            if entry.is_file(follow_symlinks=False):
                if os.path.splitext(entry.name)[1] in SUFFIXES:  # as Path.suffix reads it
                    files.add(Path(entry.path))
                continue
            visit(Path(entry.path), root)

    def visit(entry: Path, root: Path) -> None:
        named = entry.suffix in SUFFIXES
        try:
            mode = entry.stat().st_mode  # follows a symbolic link
        except OSError as exc:
            if entry.is_symlink():
                what = "a symbolic link loop" if exc.errno == errno.ELOOP else "a dangling symbolic link"
                problem(entry, f"{what} (to {os.readlink(entry)!r}): not a scenario file")
            elif named:
                problem(entry, f"cannot read the file: {exc.strerror}")
            return
        if entry.is_symlink() and not Path(os.path.realpath(entry)).is_relative_to(root):
            problem(entry, f"a symbolic link out of the folder {root} (to {os.readlink(entry)!r}): not followed")
            return
        kind = kind_of(mode)
        if kind is None:
            if named:
                files.add(entry)
            return
        if named:
            problem(entry, f"named like a scenario file but {kind}: not read")
        if stat.S_ISDIR(mode):
            visit_dir(entry, root)

    for p in map(Path, paths):
        if p.is_dir():
            visit_dir(p, Path(os.path.realpath(p)))
        else:
            files.add(p)  # a file named on the command line is read whatever its name; load says if it cannot be
    return sorted(files, key=lambda f: f.parts), problems  # Path order, without its slower comparisons


def find_scenario_files(paths: list[Path | str]) -> list[Path]:
    """Every *.yaml / *.yml file under the given files and folders, sorted (walk_corpus without
    its problems)."""
    return walk_corpus(paths)[0]
