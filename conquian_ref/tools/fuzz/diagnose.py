"""Every cause of a diverging fuzzed game, named as `check` names a failing scenario's.

A game that differs is diagnosed as a scenario (conquian_ref.conformance.diagnosis): its actions,
each with the legal actions of every seat asked before it where the implementation lists them,
replayed side by side on the reference and on the implementation. So its divergence is named by
the house rule of the library whose replay answers as the implementation did (or by the rule that
governs what differs, unexplained), with the same `Cause` as in `check`; and where the
implementation can be put at a position (`setup_position`), it is put back at the reference's
after each divergence and the game goes on, so a known cause never hides a later one in the same
game (issue 21, "see past every deviation").

A divergence seen past the first comes back as the fuzzer's own `Divergence` (divergence.py), at
the action where it showed, so that it is told and drafted as a first one is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...conformance.diagnosis import Divergence as Diagnosed
from ...conformance.diagnosis import diagnose
from ...engine.errors import IllegalAction
from ...engine.game import Game
from ...engine.profile import Profile
from ...engine.ruleset import Variant
from .agent import GameSpec, ListSource, decode
from .causes import Cause
from .divergence import Divergence

# How many steps past a divergence a house rule's replay must agree with the implementation to
# explain it (a step: an action, or one seat's legal actions): about ten actions of a two-seat
# game, where a whole game is a few hundred steps. Measured on the zoo engines: the same house
# rules named as with no bound, at a fraction of the replays (docs/fuzzing.md, "Causes").
HORIZON = 30

@dataclass
class GameScenario:
    """A fuzzed game in the shape the diagnosis reads a scenario in (id, profile, data)."""

    id: str
    profile: str
    data: dict
    rules: tuple = ()
    actions_before: list[int] = field(default_factory=list)  # per step: the actions applied before it


def game_scenario(profile: Profile, spec: GameSpec, caps: set[str], variants: tuple[Variant, ...] = ()) -> GameScenario:
    """The game of `spec` as a scenario: every action its choices select on the reference (played
    with `variants`, the house rules the run knows, as the fuzzer played it), each after a step
    asking every seat's legal actions when the implementation lists them."""
    game = Game.from_deck(profile, spec.deck, spec.dealer, variants)
    source = ListSource(spec.choices)
    steps: list[dict] = []
    before: list[int] = []
    applied = 0
    for choice in iter(source.next, None):
        if "legal_actions" in caps:
            for seat in profile.seats:
                steps.append({"check": {"legal": {"seat": seat}}})
                before.append(applied)
        seat, action = decode(game, choice)
        steps.append({"seat": seat, "action": action})
        before.append(applied)
        try:
            game.apply(seat, action)
        except IllegalAction:
            pass
        applied += 1
    data = {"setup": {"deck": list(spec.deck), "dealer": spec.dealer}, "steps": steps}
    return GameScenario(f"fuzz game of {profile.id}", profile.id, data, (), before)


def game_causes(scenario: GameScenario, driver, caps: set[str], hypotheses: tuple[Variant, ...],
                found: tuple[Variant, ...], variants: tuple[Variant, ...] = ()) -> list[tuple[Cause, Divergence, Diagnosed]]:
    """Each divergence of the game, first and later ones, with its cause (the house rule that
    explains it when one does), the reference playing `variants` (the known house rules); [] when
    the replay agrees everywhere (an implementation whose answers depend on more than the game)."""
    first = diagnose(scenario, driver, caps, "reason_codes" in caps, hypotheses, found, variants, HORIZON)
    if first is None:
        return []
    return [(d.cause, as_fuzz_divergence(d, scenario), d) for d in first.every()]


def as_fuzz_divergence(diagnosed: Diagnosed, scenario: GameScenario) -> Divergence:
    """The diagnosis' divergence as the fuzzer tells and drafts one, at the action where it showed."""
    index = (diagnosed.step or 1) - 1
    step = scenario.data["steps"][index]
    before = scenario.actions_before[index]
    key, expected, got = diagnosed.differences[0]
    keys = tuple(diagnosed.keys)
    if "action" not in step:  # a step asking the legal actions of one seat
        seat = step["check"]["legal"]["seat"]
        missing = expected.get("missing", []) if isinstance(expected, dict) else expected
        extra = got.get("extra", []) if isinstance(got, dict) else got
        return Divergence("legal", "legal", before, seat, None, missing, extra, "legal", "", keys=keys)
    seat, action = step["seat"], step["action"]
    if keys == ("unsupported",):
        return Divergence("unsupported", "apply", before, seat, action, expected, {"error": got}, str(action.get("type")),
                          str(got), keys=keys)
    if diagnosed.request == "apply":
        answer = {k: (ours, theirs) for k, ours, theirs in diagnosed.differences if k in ("result", "reason")}
        kind = "result" if "result" in answer else "reason"
        return Divergence(kind, "apply", before, seat, action, _answer(answer, 0), _answer(answer, 1), "", "", keys=keys)
    kind = "outcome" if key == "outcome" else "state"
    return Divergence(kind, "state", before, seat, action, expected, got, key, "", keys=keys)


def _answer(answer: dict, side: int) -> object:
    """One side's answer to the action, as the fuzzer writes it: "accepted" or {"refused": reason},
    from the differing `result` and `reason` (a reason differs alone between two refusals)."""
    result = answer["result"][side] if "result" in answer else "refused"
    return "accepted" if result == "accepted" else {"refused": answer.get("reason", (None, None))[side]}
