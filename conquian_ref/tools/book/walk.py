"""Replaying a scenario on the reference engine to get the book's pictures.

`walk(scenario)` gives the verdict of conquian_ref.conformance.replay (does the scenario replay as
written?) and the position before and after every step, drawn from `Game.state_json()`. Exposed
cards are grouped in one valid arrangement (RUL-13: only the set of exposed cards is normative).
A match scenario deals no cards: its walk is the running score of its deals.

Kept as one function on purpose: the shared step interpreter of conquian_ref.conformance will
replace the body of `walk` and keep these data classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.errors import ConquianError


@dataclass
class Picture:
    """A position drawn from the reference engine: state_json plus what makes it readable."""

    state: dict
    melds: list  # per seat: one valid arrangement of the exposed cards (names), RUL-13
    origin: tuple | None  # (event, seat) of the available card: ("reveal", s) / ("discard", s) / ("pass", s)


@dataclass
class StepView:
    index: int
    step: dict
    before: Picture
    after: Picture | None = None  # None when the step has no action
    got: tuple | None = None  # ("accepted", None) / ("refused", code) from the engine
    error: str | None = None


@dataclass
class Walk:
    """One scenario replayed: the starting picture and every step."""

    start: Picture | None = None
    steps: list = field(default_factory=list)
    final: dict | None = None  # state_json after the last step
    match: dict | None = None  # for a match scenario: the engine's score, and running points
    verdict: str = ""  # empty when the replay agrees with every step and check
    failure_step: int | None = None


def _picture(game) -> Picture:
    state = game.state_json()
    melds = []
    for seat in (0, 1):
        arrangement = game.table.arrangement(game.exposed[seat]) or []
        melds.append([game.deck.names(m) for m in arrangement])
    origin = None
    if state["available"]:
        card = state["available"]["card"]
        for event in reversed(game.history):
            if event.get("card") == card and event["event"] in ("reveal", "discard", "pass"):
                origin = (event["event"], event.get("seat"))
                break
    return Picture(state, melds, origin)


def walk(scenario) -> Walk:
    """Replay `scenario` on the reference engine: the verdict of conquian_ref.conformance.replay, and the
    position before and after every step."""
    from ...conformance.replay import ReferenceDriver, replay

    result = Walk()
    try:
        outcome = replay(scenario, ReferenceDriver())
        if outcome.failure is not None:
            result.verdict = outcome.failure.describe(scenario)
            result.failure_step = outcome.failure.step
    except ConquianError as exc:
        result.verdict = f"the reference engine cannot replay it: {exc}"
    data = scenario.data
    if "match" in data:
        result.match = _walk_match(scenario)
        return result
    driver = ReferenceDriver()
    try:
        driver.setup(scenario.profile, data["setup"])
    except ConquianError as exc:
        result.verdict = result.verdict or f"setup refused by the reference engine: {exc}"
        return result
    game = driver.game
    current = _picture(game)
    result.start = current
    for i, step in enumerate(scenario.steps):
        view = StepView(i, step, current)
        if "action" in step:
            try:
                view.got = tuple(driver.apply(step["seat"], step["action"]))
            except ConquianError as exc:
                view.error = str(exc)
            current = _picture(game)
            view.after = current
        result.steps.append(view)
    result.final = game.state_json()
    return result


def _walk_match(scenario) -> dict:
    from ...engine.match import Match
    from ...engine.outcome import Outcome
    from ...spec.profiles import load_profile

    spec = scenario.data["match"]
    match = Match(load_profile(scenario.profile), spec["first_dealer"])
    rows = []
    for deal in spec["deals"]:
        dealer = match.dealer
        try:
            match.record(Outcome(**deal))
        except (ValueError, TypeError) as exc:
            rows.append({"dealer": dealer, "deal": deal, "error": str(exc)})
            break
        rows.append({"dealer": dealer, "deal": deal, "points": match.points, "winner": match.winner})
    return {"rows": rows, "final": match.to_json()}
