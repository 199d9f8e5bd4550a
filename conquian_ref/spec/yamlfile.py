"""Read a YAML file as plain data, within limits, keeping the line of every field.

Every YAML file the project reads (scenarios, profiles given by path, known-failures files, and
the text `fmt` and `record` edit) goes through here, so that they all read the same data and
refuse the same hostile input, each time with one line (`YamlError`: a line and a message),
never a traceback, in bounded time and memory.

How a file is read:

1. only a regular file is read: anything else is refused from its stat, before it is opened (a
   FIFO would block an open); the file is opened without blocking and checked again with fstat, and at most MAX_BYTES + 1 bytes are read (so `/dev/zero` or a
   huge file is refused, never loaded);
2. the event stream is scanned once, before anything is built, counting nesting depth, aliases
   and the size of the data once every alias is expanded (each anchor's size is counted once,
   so an alias bomb is refused in linear time); an alias inside its own anchor (`&r [*r]`,
   data containing itself) and every explicit tag are refused;
3. the data and the line of each path (a tuple of keys and indices) are built from the events
   the scan read (the text is parsed once); a file with an anchor, or one refused, is composed
   into a node tree and walked as PyYAML reads it, for the exact error. A node reached a second
   time through an alias is not walked again: its fields are reported at the alias's key. Keys
   must be strings, and unique;
4. the data is built with the YAML 1.2 core schema (docs/authoring.md says why): booleans are
   only true/false (any case of those), null is null/~/empty, integers are decimal, 0o octal
   or 0x hex; `yes`, `no`, `on`, `off`, `1:20`, `2024-01-01` and the merge key `<<` are strings,
   as every editor and JSON Schema validator reads them.

The limits (docs/security.md):

| constant        | value     | refuses                                                   |
|-----------------|-----------|-----------------------------------------------------------|
| MAX_BYTES       | 1,000,000 | a larger file (the largest shipped scenario is 9 kB)       |
| MAX_DEPTH       | 64        | collections nested deeper (the corpus nests 8 deep)        |
| MAX_ALIASES     | 100       | more alias uses (`*name`) in one file (the corpus has none) |
| MAX_NODES       | 100,000   | more values once every alias is expanded (the largest scenario: 1,433) |
| MAX_INT_DIGITS  | 100       | an integer with more digits (Python refuses 4,300 and more) |
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

import yaml

Path_ = tuple  # a path into the data: keys and list indices

MAX_BYTES = 1_000_000
"""The largest file read, in bytes."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and lists."""
MAX_ALIASES = 100
"""The most alias uses (`*name`) in one file."""
MAX_NODES = 100_000
"""The most nodes (scalars, lists, mappings) in the data once every alias is expanded."""
MAX_INT_DIGITS = 100
"""The most digits in an integer."""


class YamlError(Exception):
    """A file that is not YAML; `line` is 1-based (0 when unknown)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


# -- reading the bytes -----------------------------------------------------------------------------
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
        while size <= MAX_BYTES:  # read at most MAX_BYTES + 1 bytes: enough to know it is too big
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise YamlError(0, f"cannot read the file: {exc.strerror}") from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise YamlError(0, f"the file is larger than {MAX_BYTES:,} bytes (docs/security.md)")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        line = b"".join(chunks)[: exc.start].count(b"\n") + 1
        raise YamlError(line, f"not UTF-8: byte 0x{b''.join(chunks)[exc.start]:02x} at offset {exc.start}") from None


# -- the YAML 1.2 core schema ----------------------------------------------------------------------
# libyaml's parser when PyYAML was built with it (it usually is): the same safe loading, faster.
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_NULL = re.compile(r"~|null|Null|NULL|")

# The implicit resolvers of the YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution),
# with the first characters each can start with (PyYAML's lookup key).
_CORE = (
    ("tag:yaml.org,2002:bool", _BOOL, "tTfF"),
    ("tag:yaml.org,2002:int", _INT, "-+0123456789"),
    ("tag:yaml.org,2002:float", _FLOAT, "-+.0123456789"),
    ("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""]),
)


class Loader(_Base):
    """PyYAML's safe loader with the YAML 1.2 core schema's resolvers and bounded integers."""

    yaml_implicit_resolvers: dict = {}


for _tag, _regexp, _first in _CORE:
    # PyYAML calls regexp.match: anchor the end, so that `12ab` is a string.
    Loader.add_implicit_resolver(_tag, re.compile(f"(?:{_regexp.pattern})\\Z"), list(_first))


def _int(text: str, line: int) -> int:
    digits = text.lstrip("+-")
    if len(digits) > MAX_INT_DIGITS:
        raise YamlError(line, f"an integer of {len(digits):,} digits (at most {MAX_INT_DIGITS})")
    base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
    return int(text if base == 10 else text[2:], base)


def _float(text: str) -> float:
    text = text.lower()
    if text.endswith("inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    return float("nan") if text == ".nan" else float(text)


def _bool(text: str) -> bool:
    return text.lower() == "true"


Loader.add_constructor("tag:yaml.org,2002:int", lambda loader, node: _int(node.value, node.start_mark.line + 1))
Loader.add_constructor("tag:yaml.org,2002:float", lambda loader, node: _float(node.value))
Loader.add_constructor("tag:yaml.org,2002:bool", lambda loader, node: _bool(node.value))


# -- the scan: limits before anything is built -----------------------------------------------------
def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1


def _scan(loader: Loader) -> list[yaml.Event]:
    """Walk the event stream once; YamlError at the first limit passed, else the events read (the
    data is built from them, so the text is parsed once). Each anchor's expanded size is recorded
    when it closes, so an alias costs one lookup, however big its target."""
    events: list[yaml.Event] = []
    expanded = aliases = 0
    open_: list[tuple[str | None, int]] = []  # (anchor, `expanded` when it opened) per open collection
    sizes: dict[str, int] = {}
    # The events' own classes are compared (the parser makes no subclasses): an isinstance chain
    # for every event was most of the scan's time. The line is only worked out for a message.
    for event in iter(loader.get_event, None):  # None once the stream has ended
        events.append(event)
        kind = type(event)
        if kind is yaml.ScalarEvent or kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if event.tag is not None:
                raise YamlError(_line(event), f"a tag ({event.tag}) is not allowed: a file holds plain data only (docs/security.md)")
            expanded += 1
            if kind is not yaml.ScalarEvent:
                open_.append((event.anchor, expanded))
                if len(open_) > MAX_DEPTH:
                    raise YamlError(_line(event), f"nested more than {MAX_DEPTH} deep (docs/security.md)")
            elif event.anchor is not None:
                sizes[event.anchor] = 1
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            anchor, start = open_.pop()
            if anchor is not None:
                sizes[anchor] = expanded - start + 1
            continue
        elif kind is yaml.AliasEvent:
            aliases += 1
            if aliases > MAX_ALIASES:
                raise YamlError(_line(event), f"more than {MAX_ALIASES} aliases (docs/security.md)")
            if any(anchor == event.anchor for anchor, _ in open_):
                raise YamlError(_line(event), f"the alias *{event.anchor} is inside its own anchor: the data would contain itself")
            expanded += sizes.get(event.anchor, 1)  # an undefined alias: the composer says so
        else:
            continue  # the stream's and documents' starts and ends
        if expanded > MAX_NODES:
            raise YamlError(_line(event), f"more than {MAX_NODES:,} values once its aliases are expanded (docs/security.md)")
    return events


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _yaml_error(exc: yaml.YAMLError, text: str) -> YamlError:
    """A PyYAML error as one line with its line number."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        if exc.problem == "second occurrence" and exc.context_mark:  # the composer's duplicate anchor
            first = exc.context_mark.line + 1
            return YamlError(line, f"not valid YAML: {exc.context.split(';')[0]} (first occurrence at line {first})")
        context = ""
        if exc.context and exc.context_mark and exc.context_mark.line + 1 != line:
            context = f" ({exc.context} started at line {exc.context_mark.line + 1})"
        return YamlError(line, f"not valid YAML: {_one_line(exc.problem or exc)}{context}")
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
        line = text[: exc.position].count("\n") + 1
        return YamlError(line, f"not valid YAML: {_one_line(exc.reason)} (character #x{exc.character:04x})")
    return YamlError(0, f"not valid YAML: {_one_line(exc)}")


def _guarded(text: str, work):
    """`work(loader, events)` once the scan of `text` has passed its events (`loader` the scan's:
    its resolver and constructors are the file's schema); every failure a YamlError."""
    try:
        loader = Loader(text)  # the scan first: nothing is built before the limits hold
        try:
            return work(loader, _scan(loader))
        finally:
            loader.dispose()
    except YamlError:
        raise
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text) from None
    except RecursionError:  # not expected within MAX_DEPTH; a line rather than a traceback
        raise YamlError(0, "nested too deep (docs/security.md)") from None


def _composed(text: str) -> yaml.Node | None:
    # A second parse, by libyaml's composer: composing in Python from the scan's events took
    # half as long again (the C composer still calls the resolver in Python for every scalar).
    loader = Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def compose(text: str) -> yaml.Node | None:
    """The node tree of `text`, within the limits (YamlError with a line otherwise)."""
    return _guarded(text, lambda loader, events: _composed(text))


def load_with_lines(path: Path | str) -> tuple[object, dict[Path_, int]]:
    """The data of a YAML file and a map from each path to its 1-based line."""
    return loads_with_lines(read_text(path))


def loads_with_lines(text: str) -> tuple[object, dict[Path_, int]]:
    """`load_with_lines` for text: the data and each path's line; YamlError with the line if not YAML."""

    def work(loader: Loader, events: list[yaml.Event]):
        built = _built(loader, events)
        if built is not None:
            return built
        # The file has an anchor, or it is refused: compose, check and construct it as PyYAML
        # does, which gives the exact error (the first the composer, then `_record`, then the
        # constructor meets).
        node = _composed(text)
        if node is None:
            return None, {}
        lines: dict[Path_, int] = {}
        _record(node, (), lines, set())
        return loader.construct_document(node), lines

    return _guarded(text, work)


_STR = "tag:yaml.org,2002:str"
_SCALARS = {  # a resolved tag of the core schema -> its value from the text and line
    _STR: lambda text, line: text,
    "tag:yaml.org,2002:int": _int,
    "tag:yaml.org,2002:float": lambda text, line: _float(text),
    "tag:yaml.org,2002:bool": lambda text, line: _bool(text),
    "tag:yaml.org,2002:null": lambda text, line: None,
}


def _built(loader: Loader, events: list[yaml.Event]) -> tuple[object, dict[Path_, int]] | None:
    """The data and line map that composing, `_record` and constructing give, built in one pass
    over the scanned events (about half the time, the corpus having no anchors). None where that
    reading would refuse the file (a key that is not a string or comes twice, an integer too
    long, a second document) and for any anchor or alias: then that reading runs instead."""
    root: list = []  # the document's value, once there is one
    lines: dict[Path_, int] = {}
    open_: list[list] = []  # per open collection: [container, its path, a mapping's pending key, the key's line]
    scalars: dict[tuple, tuple[str, object]] = {}  # (text, implicit) -> (tag, value)
    for event in events:
        kind = type(event)
        if kind is yaml.ScalarEvent or kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if event.anchor is not None:
                return None
            line = event.start_mark.line + 1
            if kind is yaml.ScalarEvent:  # the scan refused every explicit tag, so each is resolved
                text = (event.value, event.implicit)
                if text not in scalars:  # a file repeats its cards and its words: each is read once
                    tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                    try:
                        scalars[text] = tag, _SCALARS[tag](event.value, line)
                    except YamlError:
                        return None
                tag, value = scalars[text]
            else:  # no path resolvers: every collection is a map or a seq
                value = {} if kind is yaml.MappingStartEvent else []
            if not open_:
                path = ()
                root.append(value)
            else:
                parent = open_[-1]
                container, parent_path, key, key_line = parent
                if type(container) is list:
                    path = parent_path + (len(container),)
                    container.append(value)
                elif key is _NO_KEY:  # this is a key
                    if kind is not yaml.ScalarEvent or tag != _STR or value in container:
                        return None
                    parent[2:] = value, line
                    continue
                else:
                    path, line = parent_path + (key,), key_line  # a field's line is its key's
                    container[key] = value
                    parent[2] = _NO_KEY
            lines[path] = line
            if kind is not yaml.ScalarEvent:
                open_.append([value, path, _NO_KEY, 0])
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            open_.pop()
        elif kind is yaml.AliasEvent or (kind is yaml.DocumentStartEvent and root):
            return None
    return (root[0], lines) if root else (None, {})


_NO_KEY = object()  # a mapping's next event is a key


def loads(text: str) -> object:
    """The data of a text, read exactly as `loads_with_lines` reads it."""
    return loads_with_lines(text)[0]


def top_level_string(text: str, key: str) -> str | None:
    """The text of a top-level `key`'s scalar value in a mapping document, read from the event
    stream and stopping there (a scenario's id without building the whole file); None if there
    is none or the text is not YAML."""
    loader = Loader(text)
    try:
        depth, item, wanted = 0, 0, False  # item: index of the current entry of the root mapping
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                continue
            if depth == 0 and isinstance(event, yaml.CollectionStartEvent) and not isinstance(event, yaml.MappingStartEvent):
                return None  # not a mapping
            if depth == 1:  # a key or a value of the root mapping (keys at even items)
                if wanted:  # only a plain string is an id: loading refuses a tag (and an alias is no text)
                    return event.value if isinstance(event, yaml.ScalarEvent) and event.tag is None else None
                wanted = item % 2 == 0 and isinstance(event, yaml.ScalarEvent) and event.value == key
                item += 1
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
        return None
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()


def _record(node: yaml.Node, path: Path_, lines: dict[Path_, int], seen_nodes: set[int]) -> None:
    if id(node) in seen_nodes:
        return  # an alias: its fields are reported at the alias's own key (walked once, not per use)
    seen_nodes.add(id(node))
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError(key_node.start_mark.line + 1, f"a key in {path_text(path)} is a list or a mapping: keys are plain values")
            key = key_node.value
            if key_node.tag != _STR:  # `1:` or `null:` would be a number or None, which no field name is
                raise YamlError(key_node.start_mark.line + 1, f"the key {key!r} in {path_text(path)} is not a string: quote it")
            if key in seen:  # PyYAML would silently keep the last one; a scenario must not
                raise YamlError(key_node.start_mark.line + 1, f"duplicate key {key!r} in {path_text(path)}")
            seen.add(key)
            _record(value_node, path + (key,), lines, seen_nodes)
            lines[path + (key,)] = key_node.start_mark.line + 1  # the key's line names the field
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _record(item, path + (i,), lines, seen_nodes)


def line_of(lines: dict[Path_, int], path: Path_) -> int:
    """The line of `path`, or of its nearest recorded parent."""
    path = tuple(path)
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 0)


def path_text(path: Path_) -> str:
    """A path as a field name: ("steps", 3, "action", "card") -> "steps[3].action.card"."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top)"
