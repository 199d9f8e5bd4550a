"""`conquian-ref record FILE [--write]`: fill in what a draft scenario leaves open.

An author writes the setup and the actions, and marks with the word `record` the values the
reference engine should write down:

| placeholder                                   | filled with                                        |
|-----------------------------------------------|----------------------------------------------------|
| `expect: record`                              | `accepted`, or `{refused: CODE}`                   |
| `check: {legal: {seat: S, actions: record}}`  | every legal action of seat S, in canonical order   |
| `check: {state: record}`                      | the STATE_KEYS fragment of the state (below)       |
| `check: {state: {phase: record, ...}}`        | those keys only (any depth: `available: {card: record}`) |
| `check: {observation: {seat: S, match: record}}` | the OBSERVATION_KEYS fragment of seat S's view  |
| `check: {perft: [record, record]}`            | the perft counts of that many depths               |
| `outcome: record`                             | null, or the outcome after the last step           |
| `match: {..., expect: record}` (match scenarios) | points, next dealer, winner (stakes: wins, net, pot) |

The draft is walked on the reference engine by the step interpreter `check` uses
(conquian_ref.conformance.steps, with the placeholders left unjudged); each placeholder is filled
with what the engine gave at that point (after the step's action, like every check). An explicit
`expect` that the engine does not agree with stops the recording at that line: the steps after
it would replay a different game. The result is shown as a unified diff of the file; it is
written only with --write, or after a yes on a terminal, and only if the recorded text reads back
as the draft with its placeholders filled (nothing else changed) and passes `conquian-ref lint`.
A placeholder written as an alias (`*name`) is refused: its position is its anchor's. Nothing else in the file changes: the values are spliced into the text at
the placeholders' positions (conquian_ref.tools.yamltext), so comments and layout stay as they were.

What a draft must be before it is walked (its placeholders where a value can be recorded, its
steps with their seats) is tools/record_draft.py.

Recording is a convenience, not an oracle: read the diff. Each recorded value must agree with
your own reading of the rules; where it does not, the engine or the rule text is wrong, and
that is an issue to open, not a value to accept.
"""

from __future__ import annotations

import copy
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import ConquianError, MalformedInput
from ..spec.scenario import Problem, field_path
from ..spec.yamlfile import YamlError, line_of, read_text
from .record_draft import PLACEHOLDER, Draft, check_deal, check_placeholders, check_shape, find_placeholders, has_placeholder
from .yamltext import apply_edits, confirm, interactive, is_flow, json_text, render_at, safe_load, unified_diff

__all__ = ["OBSERVATION_KEYS", "PLACEHOLDER", "STATE_KEYS", "Recording", "find_placeholders", "lint_text", "record_text", "run"]

# What `state: record` writes: enough to see the position, not the whole state. The stock is left
# out (it is long and follows from the setup, the out-of-play cards and the available card), and
# so are the profile and the dealer (they are in the setup). Keys whose value says nothing (an
# empty out_of_play, no pending decision, no outcome yet, the exchange once it is over) are
# dropped.
STATE_KEYS = ("phase", "to_act", "available", "hands", "exposed", "out_of_play", "pending", "exchange", "outcome")
# What `observation: {seat: S, match: record}` writes: the seat's view without its history
# (implementation-defined, never checked) and without the fields repeated from the setup.
OBSERVATION_KEYS = (
    "phase", "to_act", "hand", "hand_counts", "exposed", "available", "stock_count", "out_of_play",
    "pending", "exchange", "outcome",
)
_DROP_WHEN_EMPTY = ("out_of_play", "pending", "outcome")


@dataclass
class Recording:
    """The outcome of recording one file."""

    path: Path
    old: str
    new: str
    filled: int  # placeholders filled
    problems: list[Problem] = field(default_factory=list)  # lint problems of the recorded file
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.old != self.new

    def diff(self) -> str:
        return unified_diff(self.old, self.new, str(self.path))


def _fragment(full: dict, keys: tuple) -> dict:
    out = {}
    for key in keys:
        if key not in full:
            continue
        value = full[key]
        if key in _DROP_WHEN_EMPTY and not value:
            continue
        if key == "exchange" and (value is None or full.get("phase") != "exchange"):
            continue
        out[key] = value
    return out


def _fill(expected: object, got: object, whole: tuple) -> object:
    """`expected` with every placeholder replaced by the matching part of `got`; `whole` is the
    fragment keys used when the placeholder stands for the whole of `got`."""
    if expected == PLACEHOLDER:
        return _fragment(got, whole) if whole and isinstance(got, dict) else copy.deepcopy(got)
    if isinstance(expected, dict) and isinstance(got, dict):
        return {k: _fill(v, got.get(k), ()) if k in got else v for k, v in expected.items()}
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [_fill(e, g, ()) for e, g in zip(expected, got)]
    return expected


def record_text(path: Path, text: str) -> Recording:
    """Fill the placeholders of one draft (its text given); the result is checked with lint."""
    draft = Draft(path, text)
    data = draft.data
    placeholders = check_placeholders(draft)
    if not placeholders:
        return Recording(path, text, text, 0, notes=[f"{path}: nothing to record (no value is '{PLACEHOLDER}')"])
    check_shape(draft, data)

    fills: dict[tuple, object] = {}  # data path of a placeholder's container -> filled value
    if "match" in data:
        _record_match(draft, fills)
    else:
        _record_deal(draft, fills)

    edits = _edits(draft, fills)
    new = apply_edits(text, edits)
    # The recorded text must read back as the draft with its placeholders filled, and nothing
    # else changed; if not (an anchor inside a re-laid-out value, or a bug), nothing is written.
    try:
        same = safe_load(new) == _apply_fills(copy.deepcopy(data), (), fills)
    except YamlError:
        same = False
    if not same:
        raise draft.error(placeholders[0], "cannot record this file: the filled text would not read back as the "
                          "draft with its values filled (an anchor or alias near a placeholder?); fill it by hand")
    recording = Recording(path, text, new, len(placeholders))
    recording.problems = lint_text(path, new)
    annotation = data.get("annotation")
    if isinstance(annotation, str) and "TODO" in annotation:
        recording.notes.append(
            f"{path}:{line_of(draft.lines, ('annotation',))}: annotation: still a TODO - say why each expectation follows from the rules"
        )
    return recording


def _walk(draft: Draft):
    """The draft walked on the reference engine by the step interpreter (the one `check` uses):
    every step, its placeholders not judged but answered."""
    from ..conformance.reference import Reference
    from ..conformance.steps import walk
    from ..spec.scenario import Scenario

    return walk(Scenario(draft.data, draft.path, draft.lines), Reference(), keep_going=True, open_word=PLACEHOLDER)


def _record_match(draft: Draft, fills: dict) -> None:
    match = draft.data["match"]
    if not isinstance(match, dict) or has_placeholder({k: v for k, v in match.items() if k != "expect"}):
        raise draft.error(("match",), "only match.expect can be recorded")
    try:
        walked = _walk(draft)
    except (KeyError, TypeError, ValueError) as exc:
        raise draft.error(("match",), f"cannot replay the match: {exc}") from None
    if walked.error is not None:
        raise draft.error(("match",), f"cannot replay the match: {walked.error}")
    from ..conformance.protocol import MATCH_ANSWER_KEYS, STAKES_ANSWER_KEYS

    keys = tuple(k for k in MATCH_ANSWER_KEYS + STAKES_ANSWER_KEYS if k in walked.match)  # stakes: wins, net, pot
    fills[("match", "expect")] = _fill(match["expect"], walked.match, keys)


def _record_deal(draft: Draft, fills: dict) -> None:
    data = draft.data
    check_deal(draft)
    try:
        walked = _walk(draft)
    except (KeyError, TypeError) as exc:
        raise draft.error(("setup",), f"incomplete setup ({exc})") from None
    if walked.error is not None:
        raise _engine_error(draft, ("setup",), walked.error)
    for result in walked.steps:
        where = ("steps", result.index)
        if result.error is not None:
            raise _engine_error(draft, where, result.error)
        if "action" in result.step:
            _record_action(draft, result, fills)
        check = result.step.get("check") or {}
        _record_check(draft, where + ("check",), check, result.got, fills)
    if data.get("outcome") == PLACEHOLDER:
        fills[("outcome",)] = walked.final_state.get("outcome")


def _engine_error(draft: Draft, where: tuple, exc: ConquianError) -> ConquianError:
    if isinstance(exc, MalformedInput):
        return draft.error(where + field_path(exc.field), exc.message)
    return draft.error(where, str(exc))


def _record_action(draft: Draft, result, fills: dict) -> None:
    """The action's answer fills `expect: record`; an explicit expect the engine does not give
    stops the recording (the steps after it would replay a different game)."""
    where = ("steps", result.index, "expect")
    answer = result.answer
    got = "accepted" if answer[0] == "accepted" else {"refused": answer[1]}
    expect = result.step.get("expect", "accepted")
    if expect == PLACEHOLDER:
        fills[where] = got
    elif any(f.field == "expect" for f in result.failures):
        raise draft.error(
            where,
            f"the draft expects {json_text(expect)}, the reference engine gives {json_text(got)}; recording stops here "
            "(if your reading of the rules is right, this is an issue to open)",
        )


def _record_check(draft: Draft, where: tuple, check: dict, got: dict, fills: dict) -> None:
    """Each check kind holding a placeholder is filled from what the walk got for it."""
    if has_placeholder(check.get("state")):
        fills[where + ("state",)] = _fill(check["state"], got["state"], STATE_KEYS)
    observation = check.get("observation")
    if observation is not None and has_placeholder(observation.get("match")):
        fills[where + ("observation", "match")] = _fill(observation["match"], got["observation"], OBSERVATION_KEYS)
    legal = check.get("legal")
    if legal is not None and legal.get("actions") == PLACEHOLDER:
        fills[where + ("legal", "actions")] = got["legal"]
    perft = check.get("perft")
    if perft is not None and PLACEHOLDER in perft:
        fills[where + ("perft",)] = [c if v == PLACEHOLDER else v for v, c in zip(perft, got["perft"])]


def _edits(draft: Draft, fills: dict) -> list:
    """One edit per anchor: the outermost flow collection holding a filled value (re-laid out
    as a whole, since a block value cannot sit inside a flow collection), else the value itself."""
    index, text = draft.index, draft.text
    anchors: list[tuple] = []
    for path in fills:
        anchor = path
        for depth in range(1, len(path)):  # the proper prefixes, outermost first
            if is_flow(index.nodes.get(path[:depth])):
                anchor = path[:depth]
                break
        if anchor not in anchors:
            anchors.append(anchor)
    # An anchor inside another one is re-laid out with it.
    anchors = [a for a in anchors if not any(b != a and a[: len(b)] == b for b in anchors)]
    edits = []
    for anchor in anchors:
        value = _get(draft.data, anchor)
        value = _apply_fills(copy.deepcopy(value), anchor, fills)
        edits.append(render_at(text, index, anchor, value))
    return edits


def _get(data: object, path: tuple) -> object:
    for part in path:
        data = data[part]
    return data


def _apply_fills(value: object, at: tuple, fills: dict) -> object:
    if at in fills:
        return fills[at]
    if isinstance(value, dict):
        return {k: _apply_fills(v, at + (k,), fills) for k, v in value.items()}
    if isinstance(value, list):
        return [_apply_fills(v, at + (i,), fills) for i, v in enumerate(value)]
    return value


def lint_text(path: Path, text: str) -> list[Problem]:
    """The lint problems of `text` as the content of `path` (checked in a temporary copy)."""
    from .lint import lint

    with tempfile.TemporaryDirectory(prefix="conquian-record-") as tmp:
        copy_path = Path(tmp) / path.name
        copy_path.write_text(text, encoding="utf-8")
        _, problems = lint([copy_path], drafts_done=False)
    return [Problem(str(path), p.line, p.field, p.message) for p in problems]


def run(file: str, write: bool) -> int:
    path = Path(file)
    if not path.exists():
        raise ConquianError(f"{file}: no such file")
    try:
        text = read_text(path)  # a regular file within yamlfile's size limit
    except YamlError as exc:
        raise ConquianError(f"{file}:{exc.line}: (file): {exc.message}") from None
    recording = record_text(path, text)
    for note in recording.notes:
        print(note, file=sys.stderr)
    if not recording.changed:
        return 0
    sys.stdout.write(recording.diff())
    sys.stdout.flush()
    if recording.problems:
        for problem in recording.problems:
            print(problem)
        print(f"record: {path}: the recorded file does not pass lint; not written", file=sys.stderr)
        return 1
    print(f"record: {recording.filled} value(s) recorded in {path}; check each against the rules", file=sys.stderr)
    if not write:
        if interactive() and confirm("apply?"):
            write = True
        else:
            print("record: not written (use --write to write it)", file=sys.stderr)
            return 0
    path.write_text(recording.new, encoding="utf-8")
    print(f"record: wrote {path}", file=sys.stderr)
    return 0
