"""A scenario's seats and misdeal counts checked against its profile's table and deck.

The schema admits any seat a table can have (0 to 3) and any number of cards; a two-player
profile seats 0 and 1 only, and no deal hands out more cards than its deck holds. These are the
fields a replay sends to the implementation as a seat or a count: the reference adapter refuses
a seat its table does not have (`check: {legal: {seat: 3}}` in a two-player profile), while the
in-process replay `lint` runs would not ask it, so lint would pass a file that `check` then
errors on. Checked here, with the engine's own seat check (`check_seat`, the adapter's too), each
problem names its field; the setup's dealer is checked with the setup (spec/setup_check.py).
"""

from __future__ import annotations

from ..engine.errors import MalformedInput
from ..engine.profile import Profile
from ..engine.setup import check_seat


def table_problems(profile: Profile, data: dict) -> list[tuple[tuple, str]]:
    """(data path, message) for each seat of `data` (a schema-valid scenario) that is not a seat
    of `profile`, and each misdeal whose counts do not fit its table and deck."""
    problems = []
    for path, seat in _seats(data):
        try:
            check_seat(seat, path[-1], profile.seats)
        except MalformedInput as exc:
            problems.append((path, exc.message))
    for j, entry in enumerate(data.get("match", {}).get("deals", [])):
        if "misdeal" in entry:
            message = _counts_problem(profile, entry["misdeal"]["counts"])
            if message:
                problems.append((("match", "deals", j, "misdeal", "counts"), message))
    return problems


def _seats(data: dict):
    """(path, seat) of every seat a replay sends: the acting seat of each step, the seat of each
    `legal` and `observation` check, a match's first dealer and the winner of each deal."""
    for i, step in enumerate(data.get("steps", [])):
        if "seat" in step:
            yield ("steps", i, "seat"), step["seat"]
        check = step.get("check", {})
        for kind in ("legal", "observation"):
            if kind in check:
                yield ("steps", i, "check", kind, "seat"), check[kind]["seat"]
    match = data.get("match")
    if match is not None:
        yield ("match", "first_dealer"), match["first_dealer"]
        for j, entry in enumerate(match["deals"]):
            if entry.get("winner") is not None:
                yield ("match", "deals", j, "winner"), entry["winner"]


def _counts_problem(profile: Profile, counts: list[int]) -> str | None:
    seats = len(profile.seats)
    if len(counts) != seats:
        return f"{seats} card counts, one per seat (got {len(counts)})"
    if sum(counts) > profile.deck.size:
        return f"{sum(counts)} cards dealt in all, more than the {profile.deck.size} cards of the deck"
    return None
