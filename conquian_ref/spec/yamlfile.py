"""Load a YAML file safely, keeping the line of every field, for one-line error reports.

PyYAML's composer gives every node its position; we walk the node tree once to record the
line of each path (a tuple of keys and indices), then build the data with the safe
constructor. Nothing but plain data (mappings, lists, strings, numbers, booleans, null) is
ever constructed.
"""

from __future__ import annotations

from pathlib import Path

import yaml

Path_ = tuple  # a path into the data: keys and list indices


class YamlError(Exception):
    """A file that is not YAML; `line` is 1-based (0 when unknown)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load_with_lines(path: Path) -> tuple[object, dict[Path_, int]]:
    """The data of a YAML file and a map from each path to its 1-based line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise YamlError(0, f"cannot read the file: {exc}") from None
    return loads_with_lines(text)


# libyaml's parser when PyYAML was built with it (it usually is): the same safe loading, faster.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def loads_with_lines(text: str) -> tuple[object, dict[Path_, int]]:
    """`load_with_lines` for text: the data and each path's line; YamlError with the line if not YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        lines: dict[Path_, int] = {}
        _record(node, (), lines)
        return loader.construct_document(node), lines
    except YamlError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        context = ""
        if exc.context and exc.context_mark and exc.context_mark.line + 1 != line:
            context = f" ({exc.context} started at line {exc.context_mark.line + 1})"
        raise YamlError(line, f"not valid YAML: {exc.problem or exc}{context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(0, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def _record(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:  # PyYAML would silently keep the last one; a scenario must not
                raise YamlError(key_node.start_mark.line + 1, f"duplicate key {key!r} in {path_text(path)}")
            seen.add(key)
            lines[path + (key,)] = key_node.start_mark.line + 1
            _record(value_node, path + (key,), lines)
            lines[path + (key,)] = key_node.start_mark.line + 1  # the key's line names the field
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _record(item, path + (i,), lines)


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
