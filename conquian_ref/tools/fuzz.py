"""`conquian-ref fuzz`: differential fuzzing of an implementation against the reference engine.

Random deals are played in lockstep on the reference engine (an in-process `Game`) and on the
implementation under test (a `Connection` over the conformance protocol, docs/protocol.md),
using only the capabilities the implementation declared in its handshake. At every step:

* `legal_actions`: the legal actions of both seats are compared as sets (compare.compare_actions);
* an action is chosen by a seeded random agent: mostly one of the reference's legal actions,
  sometimes (15 %) a plausible illegal one (another action type, a card the seat does not hold,
  the wrong seat, a use that forms no arrangement); it is applied to both;
* accepted / refused is compared, and the reason code with `reason_codes`;
* `state`: the reference's full canonical state is compared with the implementation's
  (compare.mismatches: hands and exposed cards as sets, the stock and out-of-play in order),
  which also compares the final outcome.

A failure of the adapter itself (crash, timeout, garbage, error answer, ...) is a divergence
of kind `adapter`.

At the first divergence the run stops and the game is **shrunk with Hypothesis**: a game is
data drawn by a strategy (a deck choice, a dealer flip, and a list of small integers that each
choose among the candidate actions of a step, see `decode`); the failing game is fed to
Hypothesis as a known example and `hypothesis.find` shrinks it to a minimal game with the same
kind of divergence, the one with the fewest steps. The shrink is bounded in time
(`--shrink-time`). The minimal game is written as a scenario YAML draft in `--out`, its
expectations recorded from the reference engine, tagged `needs-review`: a person must check
each expectation against the rules before it may join the corpus.

Reproducibility: game `g` of a run seeded with `S` under profile `P` is dealt from
`deck.shuffled(game_seed(S, g, "fuzz-deck/P"))` with dealer `g % 2`, and its agent draws from
`random.Random(game_seed(S, g, "fuzz-agent/P"))`; `--game G --games 1` replays game G alone.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import secrets
import shlex
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..engine.actions import FIELDS
from ..engine.cards import cards_of
from ..conformance.compare import compare_actions, mismatches
from ..engine.errors import ConquianError, IllegalAction
from ..engine.game import Game
from ..conformance.impl import DEFAULT_TIMEOUT, REFERENCE, AdapterFailure, Connection, ImplementationDriver, describe_command
from ..engine.profile import Profile
from ..conformance.progress import progress_bar
from .simulate import game_seed
from .yamltext import flow

CHOICE_MAX = 2**16 - 1  # a step choice is an integer 0..CHOICE_MAX (see decode)
SLOTS, ILLEGAL_SLOTS = 20, 3  # choice % 20 in 17..19: a plausible illegal action (15 %)
MAX_STEPS = 10_000  # per game: a deal always ends (see simulate.py); a guard only
DEFAULT_OUT = "fuzz-out"
DEFAULT_SHRINK_SECONDS = 60.0
ID_RANGE = range(9900, 10000)  # scenario ids of fuzz drafts: <prefix>-99NN
DATABASE_KEY = b"conquian-ref-fuzz"
STUB = (
    "NEEDS REVIEW: recorded from the reference engine by conquian-ref fuzz (seed {seed}, game {game}); "
    "a person must check each expectation against the rules before this scenario joins the corpus."
)


# -- what a game is ----------------------------------------------------------------------------
@dataclass
class GameSpec:
    """One fuzzed game: a deck order (top first), a dealer, and the step choices (see decode)."""

    profile: str
    deck: list[str]
    dealer: int
    choices: list[int] = field(default_factory=list)


@dataclass
class Divergence:
    """The first point where the implementation and the reference disagree.

    `kind`: legal, result (accepted vs refused), reason, state, outcome, adapter.
    `where`: setup, legal (before an action), apply, state (after an action).
    `actions_before`: how many actions were applied before it (the diverging action's index)."""

    kind: str
    where: str
    actions_before: int
    seat: int | None = None
    action: dict | None = None
    expected: object = None
    got: object = None
    path: str = ""  # the state path, or the adapter failure kind
    message: str = ""

    @property
    def signature(self) -> tuple:
        """What must stay the same while shrinking: the kind, and for a state divergence the
        top-level state key, for an adapter failure its kind, for a result the reference's answer."""
        if self.kind in ("state", "outcome"):
            return (self.kind, re.split(r"[.\[]", self.path)[0])
        if self.kind == "adapter":
            return (self.kind, self.path)
        if self.kind in ("result", "reason"):
            return (self.kind, _short(self.expected))
        return (self.kind,)

    def describe(self) -> str:
        act = f"seat {self.seat} plays {_short(self.action)}" if self.action is not None else ""
        at = f"action {self.actions_before + 1} ({act})" if act else ""
        if self.kind == "legal":
            return (
                f"legal actions of seat {self.seat} after {self.actions_before} action(s): "
                f"missing {_short(self.expected)}, extra {_short(self.got)}"
            )
        if self.kind in ("result", "reason"):
            return f"{at}: expected {_short(self.expected)}, got {_short(self.got)}"
        if self.kind in ("state", "outcome"):
            after = "setup" if self.where == "setup" else at
            return f"state after {after}: {self.path}: expected {_short(self.expected)}, got {_short(self.got)}"
        where = {"setup": "setup", "legal": f"the legal request after {self.actions_before} action(s)"}.get(self.where, at)
        return f"the adapter failed ({self.path}) at {where}: {self.message}"

    def title(self) -> str:
        act = _action_text(self.action) if self.action is not None else ""
        if self.kind == "legal":
            missing, extra = self.expected or [], self.got or []
            text = f"legal actions of seat {self.seat} differ ({len(missing)} missing, {len(extra)} extra)"
        elif self.kind == "result":
            text = f"seat {self.seat} {act} {_result_text(self.expected)} by the reference, {_result_text(self.got)} by the implementation"
        elif self.kind == "reason":
            text = f"seat {self.seat} {act} refused as {self.expected['refused']}, the implementation says {self.got['refused']}"
        elif self.kind in ("state", "outcome"):
            text = f"{self.path} differs after {'setup' if self.where == 'setup' else f'seat {self.seat} {act}'}"
        else:
            text = f"the adapter fails ({self.path}) at {self.where} after {self.actions_before} action(s)"
        text = "Fuzz: " + text
        return text if len(text) <= 120 else text[:117] + "..."


@dataclass
class Trace:
    """What one lockstep game came to."""

    divergence: Divergence | None
    applied: int  # actions applied (sent to both)


def _short(value: object, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _action_text(action: dict) -> str:
    if "cards" in action:
        return f"{action['type']} [{' '.join(action['cards'])}]"
    if "card" in action:
        return f"{action['type']} {action['card']}"
    return action["type"]


def _result_text(result: object) -> str:
    return "accepted" if result == "accepted" else f"refused ({result['refused']})"


# -- choosing actions ------------------------------------------------------------------------------
def legal_candidates(game: Game) -> list[tuple[int, dict]]:
    """Every legal (seat, action) now: the seats that may act, in seat order; the engine's order."""
    return [(seat, action) for seat in game.to_act for action in game.legal_actions(seat)]


def illegal_groups(game: Game) -> tuple[list[tuple[int, dict]], ...]:
    """Plausible illegal (seat, action) pairs, deterministic from the position, in three groups:
    (every action type the acting seat may not play now), (cards it does not hold), (the wrong
    seat; a use of two hand cards, which usually forms no arrangement). Always well formed, never
    malformed input; an occasional one may turn out legal, which is harmless."""
    name = game.deck.name
    to_act = game.to_act
    seat = to_act[0] if to_act else game.active
    rival = 1 - seat
    hand = cards_of(game.hands[seat])
    held = set(hand)
    legal = game.legal_actions(seat)
    legal_types = {a["type"] for a in legal}
    pool = game.stock[:1] + cards_of(game.hands[rival])[:1] + game.out_of_play[:1] + cards_of(game.exposed[seat])[:1]
    foreign = list(dict.fromkeys(c for c in pool if c not in held)) or [c for c in game.deck.ordered() if c not in held][:1]
    own = hand[0] if hand else foreign[0]
    other_type: list[tuple[int, dict]] = []
    for kind, fields in FIELDS.items():
        if kind in legal_types:
            continue
        if fields == ("card",):
            other_type.append((seat, {"type": kind, "card": name(own)}))
        elif fields == ("cards",):
            other_type.append((seat, {"type": kind, "cards": [name(own)]}))
        else:
            other_type.append((seat, {"type": kind}))
    not_held = []
    for card in foreign:
        if game.phase == "exchange":
            not_held.append((seat, {"type": "exchange", "card": name(card)}))
        elif game.phase == "play":
            not_held.append((seat, {"type": "use", "cards": [name(card)]}))
        else:
            not_held.append((seat, {"type": "discard", "card": name(card)}))
    misplaced = []
    if rival not in to_act and legal:
        misplaced.append((rival, legal[0]))
    if game.phase == "play" and len(hand) >= 2:
        misplaced.append((seat, {"type": "use", "cards": [name(hand[0]), name(hand[-1])]}))
    return other_type, not_held, misplaced


def illegal_candidates(game: Game) -> list[tuple[int, dict]]:
    """Every plausible illegal (seat, action) of illegal_groups, in one list."""
    return [pair for group in illegal_groups(game) for pair in group]


def decode(game: Game, choice: int) -> tuple[int, dict]:
    """The (seat, action) a step choice selects in this position. `choice % 20` in 17, 18, 19
    picks a plausible illegal action (15 % of random choices) of the group of that number (another
    type, a card not held, the wrong seat or a bad use: so an illegal choice keeps its meaning when
    the shrinker moves it to another step); anything else a legal one. `choice // 20` indexes the
    list. Choice 0 is the first legal action, so shrinking a choice simplifies it."""
    slot, index = choice % SLOTS, choice // SLOTS
    legal = legal_candidates(game)
    if slot >= SLOTS - ILLEGAL_SLOTS or not legal:
        groups = illegal_groups(game)
        group = groups[slot - (SLOTS - ILLEGAL_SLOTS)] if slot >= SLOTS - ILLEGAL_SLOTS else []
        group = group or [pair for g in groups for pair in g]
        return group[index % len(group)]
    return legal[index % len(legal)]


class AgentSource:
    """The random agent: a fresh choice per step, recorded."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.choices: list[int] = []

    def next(self) -> int | None:
        choice = self.rng.randint(0, CHOICE_MAX)
        self.choices.append(choice)
        return choice


class ListSource:
    """Replays recorded choices, then stops."""

    def __init__(self, choices: list[int]):
        self.choices = list(choices)
        self.i = 0

    def next(self) -> int | None:
        if self.i >= len(self.choices):
            return None
        self.i += 1
        return self.choices[self.i - 1]


class DrawSource:
    """Draws choices from Hypothesis: a boolean "one more step" (shrinks towards stopping), then
    the choice (shrinks towards 0, the first legal action). At most `cap` steps."""

    def __init__(self, data, cap: int):
        from hypothesis import strategies as st

        self.data, self.cap = data, cap
        self.more, self.value = st.booleans(), st.integers(0, CHOICE_MAX)
        self.choices: list[int] = []

    def next(self) -> int | None:
        if len(self.choices) >= self.cap or not self.data.draw(self.more):
            return None
        self.choices.append(self.data.draw(self.value))
        return self.choices[-1]


# -- the lockstep game -----------------------------------------------------------------------------
class Lockstep:
    """Plays games on the reference and on the implementation together."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.driver = ImplementationDriver(conn)
        self.caps = set(conn.handshake.capabilities)
        self.broken = False  # the adapter failed: restart it before the next game

    def run(self, profile: Profile, deck: list[str], dealer: int, source, fresh: bool = False) -> Trace:
        """Play one game; `fresh`: on a freshly restarted adapter (so that a failure that depends
        on what the adapter saw before cannot count)."""
        if self.broken or fresh:
            self.conn.restart()  # AdapterFailure propagates: the caller decides
            self.caps = set(self.conn.handshake.capabilities)
            self.broken = False
        counter = [0]
        try:
            divergence = self._play(profile, deck, dealer, source, counter)
        except _Adapter as exc:
            self.broken = True
            failure = exc.failure
            divergence = Divergence(
                "adapter", exc.where, exc.actions_before, exc.seat, exc.action, None, None, failure.kind, failure.message
            )
        return Trace(divergence, counter[0])

    def _play(self, profile, deck, dealer, source, counter) -> Divergence | None:
        game = Game.from_deck(profile, deck, dealer)
        call = _Caller()
        call("setup", 0, None, None, self.driver.setup, profile.id, {"dealer": dealer, "deck": deck})
        reasons = "reason_codes" in self.caps
        if "state" in self.caps:
            found = self._state(call, game, "setup", 0, None, None)
            if found:
                return found
        probed = False
        for step in range(MAX_STEPS):
            if game.is_over and probed:
                break
            if "legal_actions" in self.caps:
                for seat in (0, 1):
                    got = call("legal", step, seat, None, self.driver.legal, seat)
                    if not isinstance(got, list) or not all(isinstance(a, dict) for a in got):
                        raise _Adapter(AdapterFailure("bad_answer", f"legal: not a list of actions: {_short(got)}"), "legal", step, seat, None)
                    want = game.legal_actions(seat)
                    missing, extra = compare_actions(want, got)
                    if missing or extra:
                        return Divergence("legal", "legal", step, seat, None, missing, extra, "", f"reference: {_short(want)}")
            choice = source.next()
            if choice is None:
                break
            probed = game.is_over
            seat, action = decode(game, choice)
            try:
                game.apply(seat, action)
                want = "accepted"
            except IllegalAction as exc:
                want = {"refused": exc.reason}
            counter[0] += 1
            result, reason = call("apply", step, seat, action, self.driver.apply, seat, action)
            got = "accepted" if result == "accepted" else {"refused": reason}
            if (want == "accepted") != (got == "accepted"):
                return Divergence("result", "apply", step, seat, action, want, got)
            if reasons and want != got:
                return Divergence("reason", "apply", step, seat, action, want, got)
            if "state" in self.caps:
                found = self._state(call, game, "state", step, seat, action)
                if found:
                    return found
        return None

    def _state(self, call, game, where, step, seat, action) -> Divergence | None:
        got = call(where, step, seat, action, self.driver.state)
        found = mismatches(game.state_json(), got)
        if not found:
            return None
        path, expected, value = found[0]
        kind = "outcome" if path.startswith("outcome") else "state"
        more = f" ({len(found) - 1} more difference(s))" if len(found) > 1 else ""
        return Divergence(kind, where, step, seat, action, expected, value, path, more)


class _Adapter(Exception):
    def __init__(self, failure: AdapterFailure, where: str, actions_before: int, seat, action):
        self.failure, self.where, self.actions_before, self.seat, self.action = failure, where, actions_before, seat, action


class _Caller:
    """Calls the driver, turning an AdapterFailure into _Adapter with where it happened."""

    def __call__(self, where, step, seat, action, fn, *args):
        try:
            return fn(*args)
        except AdapterFailure as exc:
            raise _Adapter(exc, where, step, seat, action) from None


# -- shrinking ---------------------------------------------------------------------------------------
@dataclass
class Shrunk:
    spec: GameSpec
    divergence: Divergence
    note: str
    trials: int = 0
    seconds: float = 0.0


def shrink(lockstep: Lockstep, profile: Profile, spec: GameSpec, divergence: Divergence, seed: int, game: int,
           budget: float) -> Shrunk:
    """The smallest game with the same kind of divergence that Hypothesis finds within `budget`
    seconds, starting from `spec` (fed to Hypothesis as a known failing example)."""
    started = time.monotonic()
    if budget <= 0:
        return Shrunk(spec, divergence, "not shrunk (--shrink-time 0)")
    try:
        import hypothesis
        import hypothesis.core
        from hypothesis import HealthCheck, Phase, Verbosity, find, settings
        from hypothesis import strategies as st
        from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
    except ImportError:
        return Shrunk(spec, divergence, "not shrunk: Hypothesis is not installed (pip install hypothesis)")

    deadline = started + budget
    target = divergence.signature
    # An adapter failure may depend on what the adapter saw before (a crash after N requests, a
    # leak): then every trial starts from a fresh adapter, as a scenario run after a restart does.
    fresh = divergence.kind == "adapter"
    deck_choice, flip = st.integers(0, 2**32 - 1), st.booleans()
    state = {"best": None, "key": None, "trials": 0, "stop": False}

    def deck_for(alt: int) -> list[str]:
        # 0 is the failing game's own deck; other values, other decks (used if Hypothesis has to
        # search from scratch because it could not replay the failing game).
        return spec.deck if alt == 0 else profile.deck.shuffled(game_seed(seed, game, f"fuzz-shrink-deck/{profile.id}/{alt}"))

    def same_as_best(data) -> bool:
        # After the deadline: only the best game found still counts, so Hypothesis stops
        # improving and its final replay of the minimal example agrees.
        key = state["key"]
        if key is None or data.draw(deck_choice) != key[0] or data.draw(flip) != key[1]:
            return False
        for choice in key[2]:
            if not data.draw(st.booleans()) or data.draw(st.integers(0, CHOICE_MAX)) != choice:
                return False
        return True

    def diverges(data) -> bool:
        if state["stop"] or time.monotonic() > deadline:
            return same_as_best(data)
        alt, flipped = data.draw(deck_choice), data.draw(flip)
        deck, dealer = deck_for(alt), spec.dealer ^ int(flipped)
        source = DrawSource(data, len(spec.choices))
        state["trials"] += 1
        try:
            trace = lockstep.run(profile, deck, dealer, source, fresh=fresh)
        except AdapterFailure:  # the adapter cannot be restarted: keep what we have
            state["stop"] = True
            return same_as_best(data)
        found = trace.divergence
        if found is None or found.signature != target:
            return False
        key = (alt, flipped, tuple(source.choices))
        best = state["key"]
        if best is None or (len(key[2]), key[2]) <= (len(best[2]), best[2]):
            state["key"] = key
            state["best"] = (GameSpec(profile.id, deck, dealer, list(source.choices)), found)
        return True

    database = InMemoryExampleDatabase()
    known = [0, False]
    for choice in spec.choices:
        known += [True, choice]
    # The secondary corpus: replayed first, then shrunk (a primary entry would not be shrunk).
    database.save(DATABASE_KEY + b".secondary", choices_to_bytes(known))
    config = settings(
        database=database,
        max_examples=200,
        deadline=None,
        phases=(Phase.reuse, Phase.generate, Phase.shrink),
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    # A fixed seed for Hypothesis' own random choices, so that a shrink is repeatable; the
    # public @seed decorator would disable the database that carries the failing example.
    forced = getattr(hypothesis.core, "global_force_seed", None)
    hypothesis.core.global_force_seed = game_seed(seed, game, "fuzz-shrink")
    problem = ""
    try:
        find(st.data(), diverges, settings=config, database_key=DATABASE_KEY)
    except Exception as exc:  # NoSuchExample, Flaky, ...: keep the best game seen, if any
        problem = f" (Hypothesis: {type(exc).__name__})"
    finally:
        hypothesis.core.global_force_seed = forced
    timed_out = " (time budget reached)" if time.monotonic() > deadline else ""
    smaller = "shrunk by Hypothesis"
    if state["best"] and len(state["best"][0].choices) >= len(spec.choices):
        smaller = "Hypothesis found no smaller game"
    # Confirm on a fresh adapter: the minimal game, else the original one.
    for candidate, note in (
        (state["best"][0] if state["best"] else None, f"{smaller}{timed_out}{problem}"),
        (spec, f"not shrunk: {'no smaller game' if state['best'] else 'Hypothesis did not replay the failing game'}"
               f" failed the same way on a fresh adapter{problem}"),
    ):
        if candidate is None:
            continue
        try:
            trace = lockstep.run(profile, candidate.deck, candidate.dealer, ListSource(candidate.choices), fresh=True)
        except AdapterFailure:
            break
        if trace.divergence is not None and trace.divergence.signature == target:
            return Shrunk(candidate, trace.divergence, note, state["trials"], time.monotonic() - started)
    note = f"not shrunk: the failing game does not fail again on a fresh adapter (flaky?){problem}"
    return Shrunk(spec, divergence, note, state["trials"], time.monotonic() - started)


# -- the scenario ------------------------------------------------------------------------------------
def scenario_data(spec: GameSpec, divergence: Divergence, caps: set[str], scenario_id: str, annotation: str) -> dict:
    """The scenario of a failing game, its expectations recorded from the reference engine: every
    action up to the divergence with the reference's answer, then at the diverging step a legal
    check (before the action) and a state check (after it)."""
    from ..spec.profiles import load_profile
    from ..spec.rulebook import rules_for

    profile = load_profile(spec.profile)
    game = Game.from_deck(profile, spec.deck, spec.dealer)
    setup_rules = list(game.fired_last)
    source = ListSource(spec.choices)
    steps: list[dict] = []
    last_rules: list[str] = setup_rules

    def play(seat: int, action: dict) -> dict:
        step = {"seat": seat, "action": action}
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            step["expect"] = {"refused": exc.reason}
        return step

    for _ in range(divergence.actions_before):
        seat, action = decode(game, source.next())
        steps.append(play(seat, action))
        last_rules = list(game.fired_last)
    if divergence.where in ("setup", "legal"):
        check: dict = {}
        if divergence.where == "legal" and "legal_actions" in caps:
            seat = divergence.seat if divergence.seat is not None else 0
            check["legal"] = {"seat": seat, "actions": game.legal_actions(seat)}
        if "state" in caps or not check:
            check["state"] = game.state_json()
        steps.append({"check": check})
        rules = setup_rules if divergence.where == "setup" else _legal_rules(game, divergence) or last_rules
    else:
        seat, action = decode(game, source.next())
        if "legal_actions" in caps:
            steps.append({"check": {"legal": {"seat": seat, "actions": game.legal_actions(seat)}}})
        step = play(seat, action)
        if "state" in caps:
            step["check"] = {"state": game.state_json()}
        steps.append(step)
        rules = list(game.fired_last)
    applicable = rules_for(spec.profile)
    cited = [r for r in dict.fromkeys(rules) if r in applicable]
    if not cited:
        cited = [r for r in sorted(game.rules_fired) if r in applicable]
    return {
        "id": scenario_id,
        "title": divergence.title(),
        "profile": spec.profile,
        "rules": cited,
        "tags": ["fuzz", "needs-review"],
        "annotation": annotation,
        "setup": {"dealer": spec.dealer, "deck": list(spec.deck)},
        "steps": steps,
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }


def _legal_rules(game: Game, divergence: Divergence) -> list[str]:
    """The rules the reference applies to the actions the two lists disagree on: the missing
    ones are played (accepted), the extra ones tried (refused), on copies of the game."""
    rules: list[str] = []
    for action in list(divergence.expected or []) + list(divergence.got or []):
        trial = game.clone()
        try:
            trial.apply(divergence.seat, action)
        except IllegalAction:
            pass
        except ConquianError:  # an extra action the reference cannot even read
            continue
        rules += trial.fired_last
    return rules


def free_id(profile: Profile, out: Path) -> str:
    """The first <prefix>-99NN used neither in the bundled corpus nor in `out`."""
    from ..spec.scenario import corpus_dir, find_scenario_files

    prefix = profile.rule_prefix.lower()
    used = set()
    for folder in (corpus_dir(), out):
        if not Path(folder).is_dir():
            continue
        for file in find_scenario_files([folder]):
            used.update(re.findall(rf"\b{prefix}-\d{{4}}\b", file.name))
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            used.update(re.findall(rf"(?m)^id:\s*['\"]?({prefix}-\d{{4}})", text))
    for number in ID_RANGE:
        candidate = f"{prefix}-{number:04d}"
        if candidate not in used:
            return candidate
    raise ConquianError(f"no free scenario id left in {prefix}-9900..{prefix}-9999 (corpus and {out})")


# A small YAML writer in the corpus' style: block mappings for the structure, flow style for
# actions, card lists and small objects, a folded block for the annotation.


def _is_block(path: tuple, value: object) -> bool:
    if not isinstance(value, (dict, list)) or not value:
        return False
    n = len(path)
    return (
        n == 0
        or path in (("setup",), ("steps",))
        or (n == 2 and path[0] == "steps")
        or (n == 3 and path[2] == "check")
        or (n == 4 and path[3] in ("state", "legal"))
        or (n == 5 and path[3] == "legal" and path[4] == "actions")
    )


def _lines(value: object, path: tuple = ()) -> list[str]:
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            sub = path + (key,)
            if path == () and key == "annotation":
                out.append("annotation: >-")
                out += ["  " + line for line in textwrap.wrap(item, 96, break_long_words=False, break_on_hyphens=False)]
            elif _is_block(sub, item):
                out.append(f"{key}:")
                out += ["  " + line for line in _lines(item, sub)]
            else:
                out.append(f"{key}: {flow(item)}")
    else:
        for i, item in enumerate(value):
            sub = path + (i,)
            if _is_block(sub, item):
                inner = _lines(item, sub)
                out.append("- " + inner[0])
                out += ["  " + line for line in inner[1:]]
            else:
                out.append("- " + flow(item))
    return out


def scenario_text(data: dict) -> str:
    import yaml

    data = dict(data, annotation=" ".join(data["annotation"].split()))
    header = "# Drafted by `conquian-ref fuzz` from the reference engine's answers: NEEDS REVIEW (see the annotation).\n"
    text = header + "\n".join(_lines(data)) + "\n"
    if yaml.safe_load(text) != data:  # the writer is small; make sure it wrote what it meant
        raise AssertionError("fuzz: the scenario YAML does not read back as written")
    return text


# -- the run -----------------------------------------------------------------------------------------
@dataclass
class FuzzRun:
    impl: str
    seed: int
    profiles: list[str]
    first_game: int
    games_per_profile: int
    games: int = 0  # games played
    actions: int = 0  # actions applied
    profile: str | None = None  # where the divergence was found
    game: int | None = None
    divergence: Divergence | None = None  # as first found
    original: GameSpec | None = None
    shrunk: Shrunk | None = None
    scenario: Path | None = None
    problems: list = field(default_factory=list)  # lint problems of the written scenario (none expected)
    reproduce: str = ""

    @property
    def exit_status(self) -> int:
        return 1 if self.divergence else 0

    def summary_line(self) -> str:
        head = f"fuzz: {self.games} game{'s' * (self.games != 1)}, {self.actions} actions"
        if not self.divergence:
            return f"{head}, 0 divergences"
        where = f"scenario written to {self.scenario}" if self.scenario else "no scenario written"
        return f"{head}, 1 divergence: {where}"


def reproduce_command(impl: str, profile: str, seed: int, game: int, out: str | None, timeout: float | None) -> str:
    parts = ["conquian-ref fuzz", f"--impl {shlex.quote(impl)}", f"--profile {profile}", f"--seed {seed}", f"--game {game}", "--games 1"]
    if out is not None and out != DEFAULT_OUT:
        parts.append(f"--out {shlex.quote(str(out))}")
    if timeout is not None:
        parts.append(f"--timeout {timeout:g}")
    return " ".join(parts)


def run_fuzz(
    impl: str = REFERENCE,
    profile: str = "all",
    games: int = 100,
    seed: int | None = None,
    first_game: int = 0,
    out: Path | str = DEFAULT_OUT,
    timeout: float | None = None,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    progress: bool = False,
    echo: Callable[[str], None] = print,
) -> FuzzRun:
    """Fuzz `impl` against the reference; stop at the first divergence, shrink it and write its
    scenario to `out`. ConquianError (one line) when the implementation cannot be fuzzed at all."""
    from ..spec.profiles import PROFILE_IDS, load_profile

    if seed is None:
        seed = secrets.randbelow(2**32)
    conn = Connection(impl, timeout or DEFAULT_TIMEOUT)
    try:
        handshake = conn.start()
    except AdapterFailure as exc:
        conn.close()
        tail = " | ".join(exc.stderr.strip().splitlines()[-3:])
        tail = f" (adapter stderr: {tail})" if tail else ""
        raise ConquianError(f"the implementation {describe_command(impl)} failed the handshake: {exc}{tail}") from None
    try:
        if profile != "all" and profile not in PROFILE_IDS:
            raise ConquianError(f"unknown profile {profile!r} (fuzz knows: {', '.join(PROFILE_IDS)}, or 'all')")
        wanted = list(PROFILE_IDS) if profile == "all" else [profile]
        chosen = [p for p in wanted if p in handshake.profiles]
        if not chosen:
            raise ConquianError(
                f"the implementation {describe_command(impl)} supports {', '.join(handshake.profiles) or 'no profile'}, "
                f"not {profile if profile != 'all' else ' or '.join(PROFILE_IDS)}"
            )
        run = FuzzRun(impl, seed, chosen, first_game, games)
        echo(
            f"fuzz: {describe_command(impl)} ({handshake.name}); seed {seed}; profiles {', '.join(chosen)}; "
            f"games {first_game}..{first_game + games - 1}; capabilities {', '.join(sorted(handshake.capabilities))}"
        )
        lockstep = Lockstep(conn)
        bar = progress_bar(games * len(chosen), "game", progress)
        try:
            for profile_id in chosen:
                prof = load_profile(profile_id)
                for g in range(first_game, first_game + games):
                    spec = GameSpec(profile_id, prof.deck.shuffled(game_seed(seed, g, f"fuzz-deck/{profile_id}")), g % 2)
                    source = AgentSource(random.Random(game_seed(seed, g, f"fuzz-agent/{profile_id}")))
                    trace = lockstep.run(prof, spec.deck, spec.dealer, source)
                    run.games += 1
                    run.actions += trace.applied
                    bar.update(1)
                    if trace.divergence:
                        spec.choices = source.choices
                        run.profile, run.game, run.divergence, run.original = profile_id, g, trace.divergence, spec
                        break
                if run.divergence:
                    break
        except AdapterFailure as exc:  # a restart failed
            raise ConquianError(f"the implementation {describe_command(impl)} could not be restarted: {exc}") from None
        finally:
            bar.close()
        if run.divergence:
            _report(run, lockstep, handshake, out, timeout, shrink_seconds, echo)
        echo(run.summary_line())
        return run
    finally:
        conn.close()


def _report(run: FuzzRun, lockstep: Lockstep, handshake, out, timeout, shrink_seconds, echo) -> None:
    from .lint import lint
    from ..spec.profiles import load_profile

    div, spec = run.divergence, run.original
    run.reproduce = reproduce_command(run.impl, run.profile, run.seed, run.game, str(out), timeout)
    echo(f"fuzz: divergence in {run.profile} game {run.game} ({div.kind}): {div.describe()}")
    echo(f"fuzz: reproduce: {run.reproduce}")
    profile = load_profile(run.profile)
    steps_before = div.actions_before + (0 if div.where in ("setup", "legal") else 1)
    if shrink_seconds > 0:
        echo(f"fuzz: shrinking with Hypothesis (at most {shrink_seconds:g} s) ...")
    shrunk = shrink(lockstep, profile, spec, div, run.seed, run.game, shrink_seconds)
    run.shrunk = shrunk
    final = shrunk.divergence
    steps_after = final.actions_before + (0 if final.where in ("setup", "legal") else 1)
    if shrunk.spec is not spec:
        echo(
            f"fuzz: {shrunk.note}: {steps_before} -> {steps_after} action(s) in {shrunk.seconds:.1f} s "
            f"({shrunk.trials} games tried): {final.describe()}"
        )
    else:
        echo(f"fuzz: {shrunk.note}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    scenario_id = free_id(profile, out)
    annotation = (
        STUB.format(seed=run.seed, game=run.game)
        + f" Implementation: {describe_command(run.impl)} ({handshake.name}), profile {run.profile}."
        + f" What diverged ({final.kind}): {final.describe()}{(' ' + final.message) if final.message and final.kind != 'adapter' else ''}."
        + " The expected values are the reference engine's; 'got' is the implementation's."
        + f" Found after {steps_before} action(s), shrunk to {steps_after} ({shrunk.note})."
        + f" Reproduce the original game: {run.reproduce}"
    )
    data = scenario_data(shrunk.spec, final, lockstep.caps, scenario_id, annotation)
    path = out / f"{scenario_id}.yaml"
    path.write_text(scenario_text(data), encoding="utf-8")
    run.scenario = path
    _, run.problems = lint([path])
    for problem in run.problems:  # should never happen: the steps are the reference's own answers
        echo(f"fuzz: warning: {problem}")


# -- the command line ----------------------------------------------------------------------------------
def configure(parser: argparse.ArgumentParser):
    """Add the options of `conquian-ref fuzz` to `parser`; return its runner (args -> exit status)."""
    from .options import non_negative_int, positive_int
    from ..spec.profiles import PROFILE_IDS

    parser.add_argument(
        "--impl", default=REFERENCE, metavar="CMD",
        help="the adapter command (docs/protocol.md); 'reference' (default) for the bundled engine; "
        "python:MODULE:FACTORY for an in-process Python adapter",
    )
    parser.add_argument("--profile", default="all", choices=("all", *PROFILE_IDS), metavar="P",
                        help=f"a profile id ({', '.join(PROFILE_IDS)}) or 'all' (default): every profile the implementation supports")
    parser.add_argument("--games", type=positive_int, default=100, metavar="N", help="games per profile (default: 100)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="run seed; game g is dealt and played from seeds derived from S and g (default: a random seed, printed)")
    parser.add_argument("--game", type=non_negative_int, default=0, metavar="G",
                        help="index of the first game (default: 0); --game G --games 1 replays game G alone")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"where to write the scenario of a divergence (default: ./{DEFAULT_OUT}/)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="per-message timeout (default: 10)")
    parser.add_argument("--shrink-time", type=float, default=DEFAULT_SHRINK_SECONDS, metavar="SECONDS",
                        help=f"time budget of the Hypothesis shrink (default: {DEFAULT_SHRINK_SECONDS:g}; 0: do not shrink)")

    def run(args: argparse.Namespace) -> int:
        result = run_fuzz(
            impl=args.impl, profile=args.profile, games=args.games, seed=args.seed, first_game=args.game,
            out=args.out, timeout=args.timeout, shrink_seconds=args.shrink_time, progress=True,
        )
        return result.exit_status

    return run
