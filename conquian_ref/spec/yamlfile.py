"""Read a YAML file as plain data, within limits, keeping the line of every field.

Every YAML file the project reads (scenarios, profiles given by path, known-failures files, and
the text `fmt` and `record` edit) goes through here, so that they all read the same data and
refuse the same hostile input, each time with one line (`YamlError`: a line and a message),
never a traceback, in bounded time and memory.

How a file is read:

1. only a regular file is read, at most MAX_BYTES + 1 bytes of it, never blocking on a FIFO or
   loading `/dev/zero` (spec/regularfile.py);
2. the event stream is scanned once, before anything is built, counting nesting depth, aliases
   and the size of the data once every alias is expanded (each anchor's size is counted once,
   so an alias bomb is refused in linear time); an alias inside its own anchor (`&r [*r]`,
   data containing itself) and every explicit tag are refused;
3. the data and the line of each path (a tuple of keys and indices) are built from the events
   the scan read (the text is parsed once); a file with an anchor, or one refused, is composed
   into a node tree and walked as PyYAML reads it, for the exact error. A node reached a second
   time through an alias is not walked again: its fields are reported at the alias's key. Keys
   must be strings, and unique;
4. the data is built with the YAML 1.2 core schema (spec/yamlcore.py; docs/authoring.md says
   why): `yes`, `no`, `on`, `off`, `1:20`, `2024-01-01` and the merge key `<<` are strings, as
   every editor and JSON Schema validator reads them.

The limits (docs/security.md; MAX_BYTES is regularfile's, MAX_INT_DIGITS yamlcore's, all read from here):

| constant        | value     | refuses                                                   |
|-----------------|-----------|-----------------------------------------------------------|
| MAX_BYTES       | 1,000,000 | a larger file (the largest shipped scenario is 9 kB)       |
| MAX_DEPTH       | 64        | collections nested deeper (the corpus nests 8 deep)        |
| MAX_ALIASES     | 100       | more alias uses (`*name`) in one file (the corpus has none) |
| MAX_NODES       | 100,000   | more values once every alias is expanded (the largest scenario: 1,433) |
| MAX_INT_DIGITS  | 100       | an integer with more digits (Python refuses 4,300 and more) |
"""

from __future__ import annotations

from pathlib import Path

import yaml

from .regularfile import MAX_BYTES, kind_of, read_text
from .yamlcore import MAX_INT_DIGITS, SCALARS, STR, Loader, YamlError

__all__ = [  # YamlError, Loader and read_text live in yamlcore and regularfile, read from here too
    "MAX_ALIASES", "MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_NODES", "Loader", "YamlError", "compose", "kind_of",
    "line_of", "load_with_lines", "loads", "loads_with_lines", "path_text", "read_text", "top_level_string",
]

Path_ = tuple  # a path into the data: keys and list indices

MAX_DEPTH = 64
"""The deepest nesting of mappings and lists."""
MAX_ALIASES = 100
"""The most alias uses (`*name`) in one file."""
MAX_NODES = 100_000
"""The most nodes (scalars, lists, mappings) in the data once every alias is expanded."""


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
                        scalars[text] = tag, SCALARS[tag](event.value, line)
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
                    if kind is not yaml.ScalarEvent or tag != STR or value in container:
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
            if key_node.tag != STR:  # `1:` or `null:` would be a number or None, which no field name is
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
