"""A fuzz game as the reference plays it (lockstep.py sends it to the implementation).

The agent (agent.py) chooses every action from the reference's position alone, so a whole game
is played on the reference first: `plan` gives its steps (each action, the answer the reference
gave and, when every step is checked, the legal actions before it and the state after it) and
what is compared at the end. The reference plays the house rules a known-failures file names
(`variants`), so that everything else is checked exactly (docs/fuzzing.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.actions import Action
from ...engine.errors import IllegalAction
from ...engine.game import Game
from ...engine.profile import Profile
from ...engine.ruleset import Variant
from .agent import choose

MAX_STEPS = 10_000  # per game: a deal always ends (see simulate.py); a guard only


@dataclass(slots=True)  # one per action of every game: slots make it cheaper to create
class Step:
    """One action as the reference played it: what was asked before it and what it came to."""

    seat: int
    action: dict
    want: object  # "accepted" or {"refused": reason}
    legal: list[list[dict]] | None = None  # per seat, before the action (every_step only)
    state: dict | None = None  # after the action (every_step only)
    message: str = ""  # the refusal's message (for the answer line the reference adapter writes)
    act: Action | None = None  # the engine's Action of a legal choice (a key for its request text)


@dataclass
class Plan:
    """A game as the reference played it: what `Lockstep.send` asks of the implementation, and the answers expected."""

    setup_state: dict | None
    steps: list[Step] = field(default_factory=list)
    last_legal: list[list[dict]] | None = None  # before the action the source did not choose
    final_state: dict | None = None
    every_step: bool = False


def plan(profile: Profile, deck: list[str], dealer: int, source, every_step: bool, caps: set[str],
         variants: tuple[Variant, ...] = ()) -> Plan:
    """Play the whole game on the reference (with `variants`: the house rules the run knows the
    implementation plays), its steps chosen by `source` (agent.py)."""
    game = Game.from_deck(profile, deck, dealer, variants)
    result = Plan(None, every_step=every_step)
    if every_step and "state" in caps:
        result.setup_state = game.state_json()
    for step in reference_steps(game, source, every_step, caps):
        if step.action is None:
            result.last_legal = step.legal
        else:
            result.steps.append(step)
    if "state" in caps and not every_step:
        result.final_state = game.state_json()
    return result


def reference_steps(game: Game, source, every_step: bool, caps: set[str]):
    """The steps of the game on the reference, one at a time (drawn from `source` only as they
    are needed). After the deal ends one more action is tried, which both must refuse. The
    per-step legal lists and states are only worked out when every step is checked, and the
    rules' trace never (a cause names its rule from the diagnosis, not from the trace: docs/
    fuzzing.md, "Causes"). When the source stops, a last Step without an action carries the
    legal lists asked before it."""
    game.trace = False
    seats = game.profile.seats
    probed = False
    listed: dict = {}  # the legal actions of this position, per seat, as far as listed (agent.choose)
    for _ in range(MAX_STEPS):
        if game.is_over and probed:
            return
        legal = [game.legal_actions(s) for s in seats] if every_step and "legal_actions" in caps else None
        choice = source.next()
        if choice is None:
            if legal is not None:
                yield Step(None, None, None, legal)
            return
        probed = game.is_over
        seat, action, parsed = choose(game, choice, listed)
        message = ""
        try:
            game.apply(seat, action if parsed is None else parsed)
            want: object = "accepted"
            listed = {}  # a new position
        except IllegalAction as exc:  # the state is unchanged (docs/rules/reasons.md), and so are its listings
            want, message = {"refused": exc.reason}, exc.message
        state = game.state_json() if every_step and "state" in caps else None
        yield Step(seat, action, want, legal, state, message, parsed)


