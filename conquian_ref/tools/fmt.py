"""`conquian-ref fmt [PATHS] [--check] [--diff]`: one layout for every scenario file.

What it normalises, and nothing else:

1. card lists whose order means nothing are written in deck order (the profile's canonical
   order, the order of the engine's state, conquian_ref/engine/cards.py) in the steps: each seat's
   hand in `hands`, each seat's `exposed` cards, an observation's `hand`, the `cards` of a use
   (in actions and in legal-action lists). The setup keeps the author's order (hands as dealt,
   often with the cards that matter first; the stock and the deck order mean something), and
   so do the out-of-play cards and `absent`;
2. every card list is in flow style, `[4O, 4C, 4E]` (a block list of cards becomes one; a long
   one, such as a deck, is wrapped ten cards to a line);
3. top-level keys in the order id, title, profile, rules, tags, annotation, setup, steps,
   outcome, match; the keys of each step in the order seat, action, expect, note, check (keys
   it does not know keep their order, after the known ones).

Everything else is left exactly as written: comments (a comment line just above a key moves
with it), blank lines, quoting, the card spellings, flow or block style of the rest. The file
is edited as text at the nodes' positions (conquian_ref.tools.yamltext), and each change is kept
only if the result reads back as the original data (with the sorted lists sorted): a card list
with a comment, an anchor or an alias among its items stays as written, and so does a key order
whose change would put an alias before its anchor. The whole result is checked once more before
anything is written (FormatBug: never expected). fmt reads files as lint does
(conquian_ref.spec.yamlfile) and refuses the same files, in one line. Running fmt twice changes
nothing the second time.

`--check` changes no file: it lists the files that would change and exits 1 if there are any
(for pre-commit and CI); `--diff` shows the changes.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..engine.errors import ConquianError
from ..spec.scenario import Problem, walk_corpus
from ..spec.yamlfile import YamlError, loads_with_lines, read_text
from .yamltext import Edit, NodeIndex, apply_edits, compose, content_end, line_start, unified_diff

TOP_ORDER = ("id", "title", "profile", "rules", "tags", "annotation", "setup", "steps", "outcome", "match")
STEP_ORDER = ("seat", "action", "expect", "note", "check")
ORDERED_LISTS = ("stock", "deck", "out_of_play", "absent")  # card lists whose order is kept
SET_LISTS = ("hand", "cards")  # card lists sorted into deck order
PER_SEAT_SET_LISTS = ("hands", "exposed")  # lists of per-seat card lists, each sorted
WRAP = 10  # cards per line when a long block list of cards becomes a flow list
LONG = 20  # a list of more cards than this is long: wrapped WRAP to a line


class FormatBug(Exception):
    """The formatted text does not read back as the same scenario (never expected)."""


@dataclass
class Formatted:
    path: Path
    old: str
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


def format_text(text: str) -> str:
    """The normalised text of a scenario file (YamlError if it is not YAML within the limits).

    Each stage's edits are kept only if the text still reads back as the expected data (the
    same, with the lists fmt sorted in deck order); where a stage as a whole does not (moving a
    key would put an alias before its anchor), its edits are tried one at a time and only those
    that do are kept. So fmt never writes a file that reads back differently."""
    before, _ = loads_with_lines(text)  # the same checks as lint: a hostile file stops here
    root = compose(text)
    if not isinstance(root, yaml.MappingNode) or not isinstance(before, dict):
        return text  # not a scenario: lint says why
    deck = _deck_of(before)
    sorted_paths: set[tuple] = set()
    new = text
    if deck is not None:
        new, root = _keep_what_reads_back(new, _card_list_edits(new, NodeIndex(root), deck), before, deck, sorted_paths)
    steps = next((value for key, value in root.value if key.value == "steps"), None)
    if isinstance(steps, yaml.SequenceNode):
        edits = [_reorder(new, item, STEP_ORDER) for item in steps.value if isinstance(item, yaml.MappingNode)]
        new, root = _keep_what_reads_back(new, [(e, None) for e in edits if e], before, deck, sorted_paths)
    edit = _reorder(new, root, TOP_ORDER)
    if edit:
        new, root = _keep_what_reads_back(new, [(edit, None)], before, deck, sorted_paths)
    if new != text and _reads_back(new) != _normalised(before, deck, sorted_paths):
        raise FormatBug("the formatted file does not read back as the same scenario")
    return new


def _reads_back(text: str) -> object:
    """The data of a formatted text, or a marker that never equals data if it is not YAML."""
    try:
        return loads_with_lines(text)[0]
    except YamlError:
        return _NOT_YAML


_NOT_YAML = object()


def _keep_what_reads_back(text: str, edits: list, before: object, deck, sorted_paths: set) -> tuple:
    """(text, its root node) after the edits that keep the meaning: all of them if together they
    do, else each one that does, in turn. `edits`: (Edit, path of the list it sorts or None)."""
    if not edits:
        return text, compose(text)

    def attempt(chosen: list) -> str | None:
        paths = sorted_paths | {p for _, p in chosen if p is not None}
        new = apply_edits(text, [e for e, _ in chosen])
        return new if _reads_back(new) == _normalised(before, deck, paths) else None

    kept = edits if attempt(edits) is not None else []
    if not kept:
        for edit in edits:
            if attempt(kept + [edit]) is not None:
                kept.append(edit)
    sorted_paths |= {p for _, p in kept if p is not None}
    new = apply_edits(text, [e for e, _ in kept])
    return new, compose(new)


def _deck_of(data: object):
    from ..spec.profiles import PROFILE_IDS, load_profile

    if isinstance(data, dict) and data.get("profile") in PROFILE_IDS:
        return load_profile(data["profile"]).deck
    return None


def _kind(path: tuple) -> str | None:
    """'set' for a card list sorted into deck order, 'ordered' for one whose order is kept."""
    if not path or path[0] not in ("setup", "steps"):
        return None
    if path[0] == "setup":
        return "ordered"  # hands as dealt, the stock, the deck: the author's order is kept
    last = path[-1]
    if isinstance(last, int) and len(path) >= 2 and path[-2] in PER_SEAT_SET_LISTS:
        return "set"
    if last in SET_LISTS:
        return "set"
    if last in ORDERED_LISTS:
        return "ordered"
    return None


def _card_order(deck, items: list) -> list[int] | None:
    """The deck index of each item, or None if any item is not a card of this deck."""
    order = []
    for item in items:
        if not isinstance(item, yaml.ScalarNode) or item.style not in (None, "", "'", '"'):
            return None
        try:
            order.append(deck.parse(item.value))
        except Exception:  # noqa: BLE001 - anything that is not a card: not a card list
            return None
    return order


def _card_list_edits(text: str, index: NodeIndex, deck) -> list[tuple[Edit, tuple | None]]:
    """(edit, the path it sorts or None) for each card list to lay out. A list written with an
    alias, an anchor or a comment among its items is left as written: its items' text cannot be
    moved without changing what the file means or losing the comment."""
    edits = []
    for path, node in index.nodes.items():
        kind = _kind(path)
        if kind is None or not isinstance(node, yaml.SequenceNode) or not node.value or index.is_aliased(path):
            continue
        if any(index.is_aliased(path + (i,)) for i in range(len(node.value))):
            continue
        order = _card_order(deck, node.value)
        if order is None:
            continue
        items = [text[item.start_mark.index : item.end_mark.index] for item in node.value]
        if any(item[:1] in ("&", "*", "!") for item in items):
            continue
        sorts = path if kind == "set" else None
        if kind == "set":
            items = [item for _, item in sorted(zip(order, items), key=lambda pair: pair[0])]
        if node.flow_style:
            current = [text[item.start_mark.index : item.end_mark.index] for item in node.value]
            if items != current and "#" not in text[node.start_mark.index : node.end_mark.index]:
                edits.append((Edit(node.start_mark.index, node.end_mark.index, "[" + ", ".join(items) + "]"), sorts))
            continue
        # A block list of cards becomes a flow list, unless comments sit among its items.
        end = content_end(text, node)
        parent = index.parents.get(path)
        if isinstance(parent, yaml.MappingNode):
            key = index.keys[path]
            start = text.index(":", key.end_mark.index) + 1
            column = start - line_start(text, start) + 1
            lead = " "
        else:  # an item of a block list: "- - 4O" or a dash alone on its line
            start = node.start_mark.index
            lead = ""
            before = text[:start].rstrip(" \t\r\n")
            if "\n" in text[len(before) : start] and before.endswith("-"):
                start, lead = len(before), " "
            column = start - line_start(text, start) + len(lead)
        if "#" in text[start:end]:
            continue
        edits.append((Edit(start, end, lead + _flow_cards(items, column + 1)), sorts))
    return edits


def _flow_cards(items: list[str], column: int) -> str:
    """A flow list of cards; a long one is wrapped ten to a line, aligned after the bracket."""
    if len(items) <= LONG:
        return "[" + ", ".join(items) + "]"
    rows = [", ".join(items[i : i + WRAP]) for i in range(0, len(items), WRAP)]
    return "[" + (",\n" + " " * column).join(rows) + "]"


def _is_comment_or_blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _reorder(text: str, node: yaml.Node | None, order: tuple) -> Edit | None:
    """An edit putting a mapping's keys in `order` (unknown keys after, in their own order), or
    None if they already are. A block mapping is cut into one chunk of lines per key, the comment
    lines just above a key belonging to its chunk."""
    if not isinstance(node, yaml.MappingNode) or len(node.value) < 2:
        return None
    pairs = node.value
    rank = {key: i for i, key in enumerate(order)}
    names = [k.value for k, _ in pairs]
    wanted = sorted(range(len(pairs)), key=lambda i: (rank.get(names[i], len(order)), i))
    if wanted == list(range(len(pairs))):
        return None
    if node.flow_style:
        if node.start_mark.line != node.end_mark.line:
            return None  # a flow mapping over several lines may hold comments: left as written
        parts = [text[k.start_mark.index : content_end(text, v)] for k, v in pairs]
        return Edit(node.start_mark.index, node.end_mark.index, "{" + ", ".join(parts[i] for i in wanted) + "}")
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def line_of(index: int) -> int:
        return text.count("\n", 0, index)

    starts = []
    for i, (key, _) in enumerate(pairs):
        first = key.start_mark.line
        if i:
            previous_end = line_of(content_end(text, pairs[i - 1][1]) - 1)
            while first - 1 > previous_end and _is_comment_or_blank(lines[first - 1]):
                first -= 1
        starts.append(first)
    end = line_of(content_end(text, pairs[-1][1]) - 1) + 1
    bounds = starts + [end]
    if any(b >= e for b, e in zip(bounds, bounds[1:])):
        # An alias's node has its anchor's position, earlier in the file: the chunks cannot be
        # cut from the nodes' positions, so the keys stay in their order.
        return None
    chunks = [list(lines[bounds[i] : bounds[i + 1]]) for i in range(len(pairs))]
    for chunk in chunks:
        if not chunk[-1].endswith("\n"):
            chunk[-1] += "\n"
    column = pairs[0][0].start_mark.column
    lead = chunks[0][0][:column]
    if lead.strip():  # the mapping is an item of a block list: "  - seat: 0"
        chunks[0][0] = " " * column + chunks[0][0][column:]
    reordered = [chunks[i] for i in wanted]
    if lead.strip():
        first = reordered[0]
        at = next(j for j, line in enumerate(first) if not _is_comment_or_blank(line))
        first[at] = lead + first[at][column:]
    new = "".join("".join(chunk) for chunk in reordered)
    old_end = offsets[end]
    if not text[offsets[starts[0]] : old_end].endswith("\n"):
        new = new[:-1]
    return Edit(offsets[starts[0]], old_end, new)


def _normalised(data: object, deck, sorted_paths: set, path: tuple = ()) -> object:
    """The data as fmt should leave it: the same, with the card lists it sorted in deck order."""
    if isinstance(data, dict):
        return {k: _normalised(v, deck, sorted_paths, path + (k,)) for k, v in data.items()}
    if isinstance(data, list):
        if path in sorted_paths:
            return sorted(data, key=deck.parse)
        return [_normalised(v, deck, sorted_paths, path + (i,)) for i, v in enumerate(data)]
    return data


def format_file(path: Path) -> Formatted:
    text = read_text(path)  # a regular file within the size limit, or YamlError
    return Formatted(path, text, format_text(text))


def run(paths: list[str], check: bool = False, diff: bool = False) -> int:
    if not paths:
        if not Path("scenarios").is_dir():
            raise ConquianError("fmt: name the scenario files or folders to format (no ./scenarios folder here)")
        paths = ["scenarios"]
    for p in paths:
        if not Path(p).exists():
            raise ConquianError(f"{p}: no such file or folder")
    changed: list[Formatted] = []
    files, problems = walk_corpus(paths)
    for file in files:
        try:
            result = format_file(file)
        except YamlError as exc:
            problems.append(Problem(str(file), exc.line, "(file)", exc.message))
            continue
        except FormatBug as exc:
            problems.append(Problem(str(file), 1, "(file)", f"not formatted: {exc} (a bug in fmt: please report it)"))
            continue
        if result.changed:
            changed.append(result)
    for problem in problems:
        print(problem)
    for result in changed:
        if diff:
            sys.stdout.write(unified_diff(result.old, result.new, str(result.path)))
        if check:
            print(f"would reformat {result.path}")
        else:
            result.path.write_text(result.new, encoding="utf-8")
            print(f"reformatted {result.path}", file=sys.stderr)
    verb = "would be reformatted" if check else "reformatted"
    print(f"fmt: {len(files)} file(s), {len(changed)} {verb}, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems or (check and changed) else 0


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref fmt`; returns its runner (args -> exit status)."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default: ./scenarios)")
    parser.add_argument("--check", action="store_true", help="change nothing; list the files that would change and exit 1 if any")
    parser.add_argument("--diff", action="store_true", help="also print the changes as a unified diff")
    return lambda args: run(args.paths, check=args.check, diff=args.diff)
