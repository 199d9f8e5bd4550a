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
the action where it showed, so that it is told and drafted as a first one is. `causes_of_game`
is what the campaign asks of a game that differs; `look_again` diagnoses again, once the run has
found more house rules, the games it left with an unexplained divergence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...conformance.diagnosis import Divergence as Diagnosed
from ...conformance.diagnosis import diagnose
from ...conformance.failures import AdapterFailure
from ...engine.errors import ConquianError, IllegalAction
from ...engine.game import Game
from ...engine.profile import Profile
from ...engine.ruleset import Variant
from .agent import GameSpec, ListSource, decode
from .causes import cause_of
from .divergence import Divergence
from .naming import Seen

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


def causes_of_game(run, lockstep, spec: GameSpec, first: Divergence, hypotheses: tuple[Variant, ...]) -> list:
    """The (cause, divergence, house rules explaining it) of each divergence of a game that
    differs, diagnosed as `check` diagnoses a scenario, every divergence past the first as well,
    the reference playing the run's known house rules; the lockstep's own first divergence
    (shrunk, drafted) stands for the first. An adapter that failed, a diagnosis the answers
    defeat, or one that finds no divergence (an implementation whose answers depend on more than
    the game) leaves the lockstep's divergence and its cause alone."""
    from ...spec.profiles import load_profile

    alone = [(cause_of(first, spec.profile_id), first, ())]
    if first.kind == "adapter":
        return alone
    scenario = game_scenario(load_profile(spec.profile_id), spec, lockstep.caps, lockstep.variants)
    caps = lockstep.caps
    try:
        diagnosed = diagnose(scenario, lockstep.driver_in_step(), caps, "reason_codes" in caps, hypotheses, tuple(run.house_rules),
                             lockstep.variants, HORIZON)
    except (AdapterFailure, ConquianError, TypeError, ValueError, KeyError, AttributeError, RecursionError):
        lockstep.broken = True  # restarted before the next game
        return alone
    if diagnosed is None:
        return alone
    for d in diagnosed.every():
        if d.house_rule is not None and d.house_rule not in run.house_rules:
            run.house_rules.append(d.house_rule)
    return [(d.cause, first if n == 0 else as_fuzz_divergence(d, scenario), d.explained_by) for n, d in enumerate(diagnosed.every())]


def seen_in_game(run, lockstep, spec: GameSpec, whole: GameSpec, g: int, first: Divergence,
                 hypotheses: tuple[Variant, ...]) -> list[Seen]:
    """Every divergence of game `g` with its cause (causes_of_game), as the run keeps them: the
    first with `spec`, the game up to it (what is shrunk), those past it with the `whole` game."""
    finds = len(run.house_rules)
    return [Seen(cause, explained_by, whole.profile_id, g, divergence, spec if n == 0 else whole, n > 0, whole, finds)
            for n, (cause, divergence, explained_by) in enumerate(causes_of_game(run, lockstep, whole, first, hypotheses))]


def look_again(run, lockstep, hypotheses: tuple[Variant, ...]) -> None:
    """Diagnose again, with every house rule the run found, the games with an unexplained
    divergence that were diagnosed before some of them were found (as check does: two house rules
    in one answer are explained only once both are found), keeping the new diagnosis where it
    leaves fewer divergences unexplained."""
    def unexplained(seen: list[Seen]) -> int:
        return sum(s.cause.unexplained for s in seen)

    games: dict[tuple[str, int], list[Seen]] = {}
    for seen in run.seen:
        games.setdefault((seen.profile_id, seen.game), []).append(seen)
    for (_, g), seen in games.items():
        if not unexplained(seen) or seen[0].finds >= len(run.house_rules) or seen[0].whole is None:
            continue
        again = seen_in_game(run, lockstep, seen[0].spec, seen[0].whole, g, seen[0].divergence, hypotheses)
        if unexplained(again) < unexplained(seen):
            at = run.seen.index(seen[0])
            run.seen[at:at + len(seen)] = again


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
