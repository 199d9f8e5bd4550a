"""Replaying a scenario on the reference engine to get the book's pictures.

`walk(scenario)` gives the verdict of conquian_ref.conformance.replay (does the scenario replay as
written?) and the position before and after every step, drawn from `Game.state_json()`, with what
each seat observes there (`Reference.observation`: what the seat may know, C-OBS-1). Exposed
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
    melds: list  # per seat (per team with partners): one valid arrangement of the exposed cards (names), RUL-13
    origin: tuple | None  # (event, seat) of the available card: ("reveal", s) / ("discard", s) / ("pass", s)
    # Per seat: its observation from the reference engine. A function of the position, so left
    # out of the comparison of two pictures.
    views: list = field(default_factory=list, compare=False)


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
    for exposed in game.exposed:  # one per seat, or per team with partners
        arrangement = game.table.arrangement(exposed) or []
        melds.append([game.deck.names(m) for m in arrangement])
    origin = None
    if state["available"]:
        card = state["available"]["card"]
        for event in reversed(game.history):
            if event.get("card") == card and event["event"] in ("reveal", "discard", "pass"):
                origin = (event["event"], event.get("seat"))
                break
    return Picture(state, melds, origin)


def _observed(driver) -> Picture:
    """The picture of the driver's position, with what each seat observes there."""
    picture = _picture(driver.game)
    picture.views = [driver.observation(seat) for seat in range(len(picture.state["hands"]))]
    return picture


def walk(scenario) -> Walk:
    """Walk `scenario` once on the reference engine with the step interpreter check uses
    (conquian_ref.conformance.steps): its verdict, and the position before and after every step."""
    from ...conformance.reference import Reference
    from ...conformance.steps import walk as walk_steps

    result = Walk()
    walked = walk_steps(scenario, Reference(), keep_going=True, observe=_observed)
    if walked.error is not None:
        result.verdict = f"the reference engine cannot replay it: {walked.error}"
    else:
        result.verdict, result.failure_step = _verdict(scenario, walked)
    if "match" in scenario.data:
        result.match = _walk_match(scenario)
        return result
    if walked.error is not None:
        return result
    result.start = current = walked.start
    for step in walked.steps:
        view = StepView(step.index, step.step, current, got=step.answer)
        if "action" in step.step:
            view.error = None if step.error is None else str(step.error)
            current = view.after = step.picture
        result.steps.append(view)
    result.final = walked.final_state
    return result


def _verdict(scenario, walked) -> tuple[str, int | None]:
    """What check would say: the first failure, or the engine's refusal of a step's input."""
    for step in walked.steps:
        if step.error is not None and (step.answer is None or not step.failures):
            return f"the reference engine cannot replay it: {step.error}", None
        if step.failures:
            return step.failure.describe(scenario), step.index
    failure = walked.failure
    return (failure.describe(scenario), failure.step) if failure else ("", None)


def _walk_match(scenario) -> dict:
    """The match deal by deal: the running score after each deal, from the one driver of the
    reference engine (a match is short, so asking for each prefix of its deals is cheap)."""
    from ...conformance.reference import Reference

    spec, reference = scenario.data["match"], Reference()
    score = reference.match(scenario.profile, spec["first_dealer"], [])  # before the first deal
    rows, dealer = [], spec["first_dealer"]
    for n, deal in enumerate(spec["deals"], 1):
        try:
            score = reference.match(scenario.profile, spec["first_dealer"], spec["deals"][:n])
        except (ConquianError, ValueError, TypeError) as exc:
            rows.append({"dealer": dealer, "deal": deal, "error": str(exc)})
            break
        row = {"dealer": dealer, "deal": deal, "points": score["points"], "winner": score["winner"]}
        if "pot" in score:  # a session with stakes: wins, net units and the pot instead of points
            row["points"] = f"wins {score['wins']}, net units {score['net']}, pot {score['pot']}"
        rows.append(row)
        dealer = score["next_dealer"]
    return {"rows": rows, "final": score}
