"""A draft scenario for `conquian-ref record`: its text, data and placeholders, and the shape it
must have before the reference engine walks it.

`Draft` reads the text (the same loader as lint) and names a problem in one line at a data
path; `check_placeholders` refuses a placeholder where no value can be recorded (or written as
an alias), `check_shape` and `check_deal` what the step interpreter could not walk: a schema
error involving no placeholder, a step without its seat, a check without its seat or depths.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.errors import ConquianError
from ..spec.yamlfile import YamlError, line_of, path_text
from .yamltext import json_text, load

PLACEHOLDER = "record"


class Draft:
    """A draft scenario's text, data and node positions, with one-line errors at a data path."""

    def __init__(self, path: Path, text: str):
        self.path, self.text = path, text
        self.seats: tuple[int, ...] = (0, 1)  # the profile's, once it is known
        try:
            self.data, self.lines, self.index = load(text)
        except YamlError as exc:
            raise ConquianError(f"{path}:{exc.line}: (file): {exc.message}") from None
        if not isinstance(self.data, dict):
            raise ConquianError(f"{path}:1: (top): a scenario is a YAML mapping")

    def error(self, where: tuple, message: str) -> ConquianError:
        return ConquianError(f"{self.path}:{line_of(self.lines, where)}: {path_text(where)}: {message}")


def find_placeholders(value: object, path: tuple = ()) -> list[tuple]:
    """The data paths whose value is the placeholder string, in document order."""
    if value == PLACEHOLDER:
        return [path]
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            found += find_placeholders(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += find_placeholders(v, path + (i,))
    return found


def has_placeholder(value: object) -> bool:
    return bool(find_placeholders(value))


def check_placeholders(draft: Draft) -> list[tuple]:
    """The draft's placeholders (data paths, in document order), each where a value can be
    recorded and written as the word itself; ConquianError (one line) at the first that is not.
    The profile must be known too: the seats of the checks are its own."""
    from ..spec.profiles import PROFILE_IDS, load_profile

    placeholders = find_placeholders(draft.data)
    for where in placeholders:
        if not _supported(where):
            raise draft.error(where, f"cannot record this value: {_HINT}")
        if draft.index.is_aliased(where):
            raise draft.error(where, f"cannot record a value written as an alias (*name): write {PLACEHOLDER} there")
    if placeholders:
        profile = draft.data.get("profile")
        if profile not in PROFILE_IDS:
            raise draft.error(("profile",), f"unknown profile {json_text(profile)} (known: {', '.join(PROFILE_IDS)})")
        draft.seats = load_profile(profile).seats  # (0, 1), or four seats for partnerships
    return placeholders


def _supported(path: tuple) -> bool:
    if path == ("outcome",) or path == ("match", "expect") or path[:2] == ("match", "expect") and len(path) == 3:
        return True
    if len(path) < 3 or path[0] != "steps" or not isinstance(path[1], int):
        return False
    rest = path[2:]
    return (
        rest == ("expect",)
        or rest[:2] == ("check", "state")
        or rest[:3] == ("check", "observation", "match")
        or rest == ("check", "legal", "actions")
        or (len(rest) == 3 and rest[:2] == ("check", "perft") and isinstance(rest[2], int))
    )


_HINT = (
    "a placeholder may stand for: expect, check.state (or keys in it), check.observation.match, "
    "check.legal.actions, each count of check.perft, outcome, match.expect (scenarios/README.md, docs/authoring.md)"
)


def check_shape(draft: Draft, data: dict) -> None:
    """The draft must be a scenario wherever it is not a placeholder: the step interpreter walks
    only well-formed scenarios (`check` and `lint` validate first). A schema error that involves no
    placeholder is refused in one line; one at or around a placeholder is what recording fills."""
    from ..spec.schemas import validator

    for error in sorted(validator("scenario").iter_errors(data), key=lambda e: list(e.absolute_path)):
        if not find_placeholders(error.instance):
            raise draft.error(tuple(error.absolute_path), f"not a scenario here, so nothing can be recorded: {error.message[:200]}")


def check_deal(draft: Draft) -> None:
    """What the walk needs of a draft deal before it can be walked: a setup, steps, and in each
    step a seat with an action, an expectation of a known form, and seats and depths for its checks."""
    setup, steps = draft.data.get("setup"), draft.data.get("steps")
    if not isinstance(setup, dict):
        raise draft.error(("setup",), "a deal scenario needs a setup: dealer, and hands + stock or deck")
    if not isinstance(steps, list):
        raise draft.error(("steps",), "steps must be a list (write `steps: []` for none)")
    for i, step in enumerate(steps):
        where = ("steps", i)
        if not isinstance(step, dict):
            raise draft.error(where, "a step is a mapping: seat + action, and/or check")
        if "action" in step:
            _check_action(draft, where, step)
        check = step.get("check")
        if check is not None and not isinstance(check, dict):
            raise draft.error(where + ("check",), "a check is a mapping: state, observation, legal and/or perft")
        _check_check(draft, where + ("check",), check or {})


def _check_action(draft: Draft, where: tuple, step: dict) -> None:
    seat = step.get("seat")
    if not _is_seat(seat, draft.seats):
        raise draft.error(where + ("seat",), f"a step with an action names its seat, {_seats_text(draft)} (got {json_text(seat)})")
    if has_placeholder(step["action"]):
        raise draft.error(where + ("action",), "the action itself cannot be recorded: write it out")
    expect = step.get("expect", "accepted")
    if expect not in ("accepted", PLACEHOLDER) and not (isinstance(expect, dict) and set(expect) == {"refused"}):
        raise draft.error(where + ("expect",), f"expect is accepted, {{refused: CODE}} or {PLACEHOLDER} (got {json_text(expect)})")


def _check_check(draft: Draft, where: tuple, check: dict) -> None:
    for kind, needed in (("observation", "match"), ("legal", "actions")):
        part = check.get(kind)
        if part is not None and not (isinstance(part, dict) and _is_seat(part.get("seat"), draft.seats)):
            seat = part.get("seat") if isinstance(part, dict) else None
            raise draft.error(where + (kind, "seat"), f"the seat must be written, {_seats_text(draft)} (got {json_text(seat)})")
        if part is not None and (needed not in part or kind == "legal" and part[needed] != PLACEHOLDER and not isinstance(part[needed], list)):
            raise draft.error(where + (kind,), f"{kind} needs {needed}: write it, or {PLACEHOLDER}")
    perft = check.get("perft")
    if perft is not None and not (isinstance(perft, list) and 1 <= len(perft) <= 4):
        raise draft.error(where + ("perft",), "perft lists 1 to 4 depths: [record, record] for depths 1 and 2")


def _is_seat(seat: object, seats: tuple[int, ...]) -> bool:
    return type(seat) is int and seat in seats  # not True, not 1.0


def _seats_text(draft: Draft) -> str:
    return ", ".join(map(str, draft.seats[:-1])) + f" or {draft.seats[-1]}"
