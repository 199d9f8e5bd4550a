"""The corpus cache: a folder's scenario files as loaded and checked, kept between runs.

Parsing the YAML and checking every file against the schema, the profiles and the rules is about
half of what `conquian-ref check` does before its first scenario (issue 23). A file that has not
changed since the last run gives the same scenario, or the same problems, again: this module
keeps them, and `load_corpus` (spec/scenario.py) asks it first.

**Never stale.** An entry is used only when all of these are what they were when it was written:

- the file's bytes (their SHA-256; a file read, hashed and, on a miss, parsed from the same bytes);
- the environment: the package version, the bytes of the schemas, the profiles and the rules
  documents, the source of the spec and engine floors (the code that does the checking: in a
  source checkout the version stays the same while that code changes), and the versions of PyYAML
  and jsonschema. Any change there rebuilds every entry.

**Never a hand-edited or damaged entry.** The cache file is one header line (the format, the
environment key and the SHA-256 of the rest) and then the entries. A file whose digest does not
match, that is truncated, not JSON or of any other shape is ignored whole and rebuilt from the
scenario files. The digest is no secret: it catches corruption and edits, not someone who
recomputes it on purpose; whoever can write this user's cache folder can also write the corpus
(docs/security.md).

**Plain data.** The entries are JSON: scenario data (what YAML's core schema gives: strings,
numbers, booleans, null, lists and mappings with string keys) round-trips exactly. Never pickle
(loading a pickle runs code, and the folder is writable by anything running as the user) nor
marshal (documented as unsafe on data it did not write itself).

**Where.** `$XDG_CACHE_HOME/conquian-ref/` (else `~/.cache/conquian-ref/`), one file per set of
corpus folders, never inside the installed package. `CONQUIAN_REF_NO_CACHE=1` (or a command's
`--no-cache`) turns it off. A folder that cannot be created or written means no cache, silently:
the run is what it would have been without one. The folder holds at most `KEEP` cache files:
writing one removes the least recently written beyond that (each corpus folder a user has ever
checked, a temporary one included, would otherwise leave its file for good).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from .problem import Problem
from .regularfile import read_bytes
from .scenario import Scenario, ScenarioInvalid, load_scenario
from .yamlcore import YamlError

FORMAT = 1
"""The layout of a cache file; a new layout changes it (and so the key)."""
NO_CACHE = "CONQUIAN_REF_NO_CACHE"
"""The environment variable that turns the cache off (any value but empty or 0)."""
MAX_BYTES = 1 << 28
"""The largest cache file read (today's corpus gives 4 MB, one ten times its size some 40 MB)."""
KEEP = 16
"""The most cache files the folder keeps (some 4 MB each for today's corpus)."""
_PACKAGE = Path(__file__).resolve().parents[1]  # conquian_ref/


def cache_folder() -> Path | None:
    """Where the cache files go, or None when the cache is off (CONQUIAN_REF_NO_CACHE) or no
    user cache folder is known. A relative $XDG_CACHE_HOME is ignored, as the XDG spec says."""
    if os.environ.get(NO_CACHE, "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    folder = Path(base, "conquian-ref")
    if Path(os.path.realpath(folder)).is_relative_to(_PACKAGE):
        return None  # never write inside the package, however the variable is set
    return folder


def open_cache(paths: list[Path | str]) -> CorpusCache | None:
    """The cache of the corpus folders `paths`, or None when
    the cache is off or a path given is not a folder (a few files named on a command line are
    quick to read, and would each leave a cache file behind)."""
    folder = cache_folder()
    if folder is None or not paths or not all(Path(p).is_dir() for p in paths):
        return None
    roots = "\0".join(sorted(os.path.realpath(p) for p in paths))
    name = hashlib.sha256(roots.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return CorpusCache(folder / f"corpus-{name}.json")


class CorpusCache:
    """The entries of one cache file: `load` a scenario file through it, then `save` it once.

    The file: a header line (JSON: the format, the environment key, the SHA-256 of the rest),
    a line of entries (JSON: {file: entry}) and the line maps, each entry naming the bytes of its
    own (`"lines": [start, end]`), so that a map is decoded only if a line is asked for."""

    def __init__(self, path: Path):
        self.path = path
        self.old, self.blob = _read(path)
        self.new: dict[str, tuple[dict, bytes | None]] = {}  # this run's entries, and their line maps
        self.changed = False

    def load(self, file: Path) -> Scenario:
        """`load_scenario(file)`, from the cache when its entry is for these very bytes."""
        try:
            raw = read_bytes(file)
        except YamlError:
            return load_scenario(file)  # it cannot be read: load says why, nothing is kept
        key, digest = str(file), hashlib.sha256(raw).hexdigest()
        entry = self.old.get(key)
        if isinstance(entry, dict) and entry.get("sha256") == digest:
            found = self._from_entry(file, entry)
            if found is not None:
                if isinstance(found, ScenarioInvalid):
                    self.new[key] = (entry, None)
                    raise found
                self.new[key] = (entry, found.lines.text)
                return found
        self.changed = True
        try:
            scenario = load_scenario(file, raw)
        except ScenarioInvalid as exc:
            self.new[key] = ({"sha256": digest, "problems": [[p.file, p.line, p.field, p.message] for p in exc.problems]}, None)
            raise
        self.new[key] = ({"sha256": digest, "data": scenario.data}, _lines_text(scenario.lines))
        return scenario

    def _from_entry(self, file: Path, entry: dict) -> Scenario | ScenarioInvalid | None:
        """The scenario or the problems an entry holds, or None if it is of no known shape."""
        data, lines, problems = entry.get("data"), entry.get("lines"), entry.get("problems")
        if isinstance(data, dict) and _is_span(lines, len(self.blob)):
            return Scenario(data, file, _Lines(self.blob[lines[0]:lines[1]]))
        if isinstance(problems, list) and problems and all(_is_problem(p) for p in problems):
            return ScenarioInvalid([Problem(*p) for p in problems])
        return None

    def save(self) -> None:
        """Write the entries of this run, if any differs from the file's (a file gone from the
        corpus drops its entry). Written to a temporary file and renamed over the old one, so a
        reader sees the old file or the new, whole; any failure leaves no cache, silently."""
        if not self.changed and self.new.keys() == self.old.keys():
            return
        entries, maps, offset = {}, [], 0
        for key, (entry, lines) in self.new.items():
            if lines is not None:
                entry = {**entry, "lines": [offset, offset + len(lines)]}
                maps.append(lines)
                offset += len(lines)
            entries[key] = entry
        try:
            body = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n" + b"".join(maps)
        except (TypeError, ValueError):
            return  # data JSON cannot hold (YAML's core schema gives none): no cache rather than a wrong one
        header = {"format": FORMAT, "key": environment_key(), "sha256": hashlib.sha256(body).hexdigest()}
        text = json.dumps(header).encode("ascii") + b"\n" + body
        import tempfile  # only when writing: it costs a warm run more than its use

        temporary = None
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".corpus-", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(text)
            os.replace(temporary, self.path)
            temporary = None
            _prune(self.path.parent)
        except OSError:
            pass  # a read-only or full disk, a file where the folder should be: no cache
        finally:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)


def _prune(folder: Path) -> None:
    """Remove the cache files of `folder` beyond the `KEEP` most recently written."""
    def written(file: Path) -> float:
        try:
            return file.stat().st_mtime
        except OSError:  # removed meanwhile (another run pruning)
            return 0.0

    for file in sorted(folder.glob("corpus-*.json"), key=written, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            file.unlink()


def _read(path: Path) -> tuple[dict, bytes]:
    """The entries and the line maps of the cache file at `path`, or ({}, b"") when there is
    none usable: missing, too large, not a regular file, made for another environment, damaged
    or edited."""
    try:
        size = os.stat(path).st_size
        if size > MAX_BYTES:
            return {}, b""
        raw = read_bytes(path, size)  # refused if it is not a regular file, or grew meanwhile
    except (OSError, YamlError):
        return {}, b""
    end = raw.find(b"\n")
    try:
        head = json.loads(raw[:end])
        if not (isinstance(head, dict) and head.get("format") == FORMAT and head.get("key") == environment_key()):
            return {}, b""
        if end < 0 or head.get("sha256") != hashlib.sha256(memoryview(raw)[end + 1:]).hexdigest():
            return {}, b""
        split = raw.find(b"\n", end + 1)
        entries = json.loads(raw[end + 1:split]) if split > 0 else None
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError)
        return {}, b""
    return (entries, raw[split + 1:]) if isinstance(entries, dict) else ({}, b"")


def _is_span(lines: object, size: int) -> bool:
    return (isinstance(lines, list) and len(lines) == 2 and all(type(n) is int for n in lines)
            and 0 <= lines[0] <= lines[1] <= size)


def _is_problem(p: object) -> bool:
    return (isinstance(p, list) and len(p) == 4 and isinstance(p[0], str) and type(p[1]) is int
            and isinstance(p[2], str) and isinstance(p[3], str))


def _lines_text(lines: Mapping) -> bytes:
    """A scenario's line map as JSON: one [key or index, ..., line] list per path."""
    if isinstance(lines, _Lines):
        return lines.text
    return json.dumps([[*path, line] for path, line in lines.items()], ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class _Lines(Mapping):
    """A line map read from the cache only when a line is asked for (a failure's report, an
    export): most runs ask for none, and decoding every map costs more than the rest of the cache."""

    def __init__(self, text: bytes):
        self.text = text
        self._map: dict | None = None

    def _decoded(self) -> dict:
        if self._map is None:
            try:
                pairs = json.loads(self.text)
                self._map = {tuple(p[:-1]): p[-1] for p in pairs if isinstance(p, list) and p and type(p[-1]) is int}
            except (ValueError, TypeError, RecursionError):
                self._map = {}  # the digest matched, yet the text is no line map: lines unknown (0)
        return self._map

    def __getitem__(self, path):
        return self._decoded()[path]

    def __iter__(self):
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())

    def __repr__(self) -> str:
        return repr(self._decoded())


@cache
def environment_key() -> str:
    """The SHA-256 of everything besides a file's bytes that its entry depends on (module
    docstring); once per process, as the rules and the profiles it covers are read once too."""
    digest = hashlib.sha256(f"format {FORMAT}\n".encode())
    for name, value in _versions():
        digest.update(f"{name} {value}\n".encode())
    for folder, pattern in _inputs():
        for file in sorted(Path(folder).glob(pattern)):
            data = file.read_bytes()
            digest.update(b"%s %d\n" % (file.name.encode("utf-8", "surrogateescape"), len(data)) + data)
    return digest.hexdigest()


def _versions() -> list[tuple[str, str]]:
    """The package's version and those of the libraries that read and check a file (jsonschema
    by its metadata: importing it would cost more than the cache saves on a small corpus)."""
    import yaml

    from .. import __version__
    from .installed import version_of

    return [("conquian-ref", __version__), ("pyyaml", yaml.__version__), ("jsonschema", version_of("jsonschema") or "none")]


def _inputs() -> list[tuple[Path, str]]:
    """The folders (and file patterns) whose files decide what loading a scenario gives."""
    from .rulebook import rules_dir
    from .shipped import shipped_dir

    return [
        (shipped_dir("_schema", "schema"), "*.json"),
        (_PACKAGE / "spec" / "profiles", "*.yaml"),
        (rules_dir(), "*.md"),
        (_PACKAGE / "spec", "*.py"),
        (_PACKAGE / "engine", "*.py"),
    ]
