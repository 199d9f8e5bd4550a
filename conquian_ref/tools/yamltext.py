"""Editing YAML scenario files as text, so that every comment and every line break survives.

`record` and `fmt` change a few values or the order of a few keys, never anything else. They
do it by splicing the text at the exact positions of the YAML nodes (PyYAML's composer gives
each node its start and end offset), never by loading the file into objects and dumping them
again: a round-trip dumper re-lays the whole file. (Checked on this corpus with ruamel.yaml's
round-trip mode, `null` kept as `null`: a plain load and dump changed 98 of the 222 files. It
joined the deck orders wrapped ten cards to a line into one line in 12 of them, and turned
`[{type: pass}]` into `[type: pass]` in 85.)
The same loader as `lint` (conquian_ref.spec.yamlfile: YAML 1.2 core schema, bounded) reads the
values and composes the nodes, so every tool sees the same data and refuses the same files.
A node reached again through an alias (`*name`) has the position of its anchor, not of the
alias: `NodeIndex.aliased` lists those paths, and no edit is ever made at or below one.

What is here:

* `compose` / `NodeIndex`: the node tree of a text and the node of every data path;
* `flow` and `render_at`: a small emitter for the values `record` writes: card lists and short
  values in flow style (`[4O, 4C, 4E]`, `{card: 4C, revealed: true, offered_to: 1}`), longer
  ones as block mappings and lists of flow items, like the hand-written corpus;
* `Edit` / `apply_edits`: non-overlapping replacements of text spans;
* `unified_diff` and `confirm`: showing a change and asking before writing it;
* `json_text`: a value in messages, in JSON notation (`{"refused": "cannot_reject_revealed"}`).
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from dataclasses import dataclass

import yaml

from ..spec import yamlfile
from ..spec.yamlfile import YamlError, loads_with_lines

WIDTH = 96  # the longest line `record` writes in flow style before switching to block style

Path_ = tuple


# -- the node tree ----------------------------------------------------------------------------------
def compose(text: str) -> yaml.Node | None:
    """The node tree of `text`, within yamlfile's limits (YamlError with a line otherwise)."""
    return yamlfile.compose(text)


class NodeIndex:
    """Every node of a document by data path, with the key node and parent of each; `aliased`:
    the paths written as an alias (their node, and its position, is the anchor's), not walked."""

    def __init__(self, root: yaml.Node | None):
        self.root = root
        self.nodes: dict[Path_, yaml.Node] = {}
        self.keys: dict[Path_, yaml.Node] = {}  # path -> the key node naming it (mappings only)
        self.parents: dict[Path_, yaml.Node] = {}
        self.aliased: set[Path_] = set()
        self._seen: set[int] = set()
        if root is not None:
            self._walk(root, (), None)

    def is_aliased(self, path: Path_) -> bool:
        """True if `path` or one of its parents is written as an alias (an edit there would land
        on the anchor's text)."""
        return any(tuple(path[:depth]) in self.aliased for depth in range(len(path) + 1))

    def _walk(self, node: yaml.Node, path: Path_, parent: yaml.Node | None) -> None:
        if parent is not None:
            self.parents[path] = parent
        if id(node) in self._seen:  # an alias: walked once, at its anchor (no exponential walk)
            self.aliased.add(path)
            return
        self._seen.add(id(node))
        self.nodes[path] = node
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                self.keys[path + (key.value,)] = key
                self._walk(value, path + (key.value,), node)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, path + (i,), node)


def safe_load(text: str) -> object:
    """The data of a text, read as lint reads it (YamlError if it is not YAML within the limits)."""
    return yamlfile.loads(text)


def load(text: str) -> tuple[object, dict, NodeIndex]:
    """(data, lines, node index) of a text: the data as `lint` reads it (duplicate keys refused)."""
    data, lines = loads_with_lines(text)
    return data, lines, NodeIndex(compose(text))


def is_flow(node: yaml.Node) -> bool:
    return isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and bool(node.flow_style)


def content_end(text: str, node: yaml.Node) -> int:
    """Offset just past the last character of a node's own text (block collections and block
    scalars end, in PyYAML, where the next token starts; this steps back over the blank lines
    and comments in between)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return content_end(text, node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return content_end(text, node.value[-1])
    end = node.end_mark.index
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        while end > node.start_mark.index and text[end - 1] in " \t\r\n":
            end -= 1
    return end


def line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def line_end(text: str, index: int) -> int:
    """Offset of the end of the line holding `index`, past its newline (or the end of the text)."""
    nl = text.find("\n", index)
    return len(text) if nl < 0 else nl + 1


# -- emitting values --------------------------------------------------------------------------------
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


def scalar(value: object) -> str:
    """A scalar as YAML text: plain when it reads back as the same value, else double-quoted."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and _reads_as_itself(text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _reads_as_itself(text: str) -> bool:
    try:
        return yamlfile.loads(text) == text
    except YamlError:
        return False


def json_text(value: object, limit: int = 300) -> str:
    """A value for a message, in JSON notation (what a scenario author writes in YAML flow style
    reads the same), cut at `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def flow(value: object) -> str:
    """A value in flow style on one line."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def _prefers_block(value: object) -> bool:
    # One line per seat for hands and the like: a list of lists holding more than ten cards.
    return isinstance(value, list) and all(isinstance(v, list) for v in value) and sum(len(v) for v in value) > 10


def _after_key(value: object, indent: int, used: int) -> str:
    """The text following `key:` for a value of a block mapping whose keys are at `indent`,
    the line holding `used` characters so far."""
    if not isinstance(value, (dict, list)) or not value:
        return " " + flow(value)
    text = flow(value)
    if used + 1 + len(text) <= WIDTH and not _prefers_block(value):
        return " " + text
    if isinstance(value, dict):
        return "\n" + block_map(value, indent + 2)
    return "\n" + block_seq(value, indent + 2)


def block_map(value: dict, indent: int) -> str:
    lines = []
    for k, v in value.items():
        head = " " * indent + scalar(k) + ":"
        lines.append(head + _after_key(v, indent, len(head)))
    return "\n".join(lines)


def block_seq(value: list, indent: int) -> str:
    lines = []
    for item in value:
        head = " " * indent + "- "
        text = flow(item)
        if not isinstance(item, (dict, list)) or not item or (len(head) + len(text) <= WIDTH and not _prefers_block(item)):
            lines.append(head + text)
        else:
            inner = block_map(item, indent + 2) if isinstance(item, dict) else block_seq(item, indent + 2)
            lines.append(head + inner[indent + 2 :])
    return "\n".join(lines)


# -- editing ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] with `new`."""

    start: int
    end: int
    new: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (any order given)."""
    out, last = [], len(text)
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        if edit.end > last:
            raise AssertionError(f"overlapping edits at offset {edit.start}")
        out.append(text[edit.end : last])
        out.append(edit.new)
        last = edit.start
    out.append(text[:last])
    return "".join(reversed(out))


def render_at(text: str, index: NodeIndex, path: Path_, value: object) -> Edit:
    """An edit replacing the node at `path` with `value`, laid out for where the node stands:
    flow style on the same line when it fits (always inside a flow collection), else a block
    mapping or list below its key (or after its `- `). A comment after the node on its line
    stays on the key's line."""
    node = index.nodes[path]
    start, end = node.start_mark.index, content_end(text, node)
    parent = index.parents.get(path)
    col = node.start_mark.column
    used = start - line_start(text, start)
    one_line = flow(value)
    if parent is None or is_flow(parent) or not isinstance(value, (dict, list)) or not value:
        return _same_line(text, start, end, one_line)
    if isinstance(parent, yaml.MappingNode):
        key = index.keys[path]
        key_col = key.start_mark.column
        colon = text.index(":", key.end_mark.index)
        if used + len(one_line) <= WIDTH and not _prefers_block(value):
            if is_flow(node) or not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
                return _same_line(text, start, end, one_line)
            # A block list or mapping (`perft:` then `- record` below, maybe not indented):
            # the flow value goes on the key's line, from just after the colon; a comment on
            # the key's line follows it.
            comment = text[colon + 1 : line_end(text, colon)].strip()
            return Edit(colon + 1, end, " " + one_line + ("  " + comment if comment.startswith("#") else ""))
        body = block_map(value, key_col + 2) if isinstance(value, dict) else block_seq(value, key_col + 2)
        # Replace from just after the colon, so that the key's line keeps no trailing space.
        rest_end = line_end(text, end)
        rest = text[end:rest_end].rstrip("\r\n")
        if rest.strip().startswith("#"):
            return Edit(colon + 1, len(text[:rest_end].rstrip("\r\n")), rest + "\n" + body)
        return Edit(colon + 1, end, "\n" + body)
    # An item of a block list: the first line follows the "- ".
    if used + len(one_line) <= WIDTH and not _prefers_block(value):
        return _same_line(text, start, end, one_line)
    body = block_map(value, col) if isinstance(value, dict) else block_seq(value, col)
    return Edit(start, end, body[col:])


def _same_line(text: str, start: int, end: int, new: str) -> Edit:
    """Replace text[start:end] within its line; a comment after it keeps its column if it can."""
    rest = text[end : line_end(text, end)]
    match = re.match(r"( +)#", rest)
    if not match or "\n" in new:
        return Edit(start, end, new)
    comment_col = end - line_start(text, end) + len(match.group(1))
    new_end_col = start - line_start(text, start) + len(new)
    return Edit(start, end + len(match.group(1)), new + " " * max(2, comment_col - new_end_col))


# -- showing and confirming -------------------------------------------------------------------------
def unified_diff(old: str, new: str, name: str) -> str:
    """The change as a unified diff (both sides named by the file's path, so `patch -p0` applies it)."""
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), name, name))


def interactive() -> bool:
    """True when a person can answer a question (stdin is a terminal)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def confirm(question: str) -> bool:
    """Ask `question [y/N]` on stderr; only an explicit yes is a yes."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    return answer.strip().lower() in ("y", "yes")
