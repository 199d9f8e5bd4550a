"""Shrinking a failing game with Hypothesis to a minimal game that fails the same way.

A game is data drawn by a strategy: a deck choice, a dealer flip, and a list of small integers
that each choose among the candidate actions of a step (agent.decode). The failing game is fed
to Hypothesis as a known example and `hypothesis.find` shrinks it to the game with the fewest
steps whose divergence has the same cause (causes.py), so each cause gets its own draft. The shrink is bounded in
time (`--shrink-time`) and repeatable (Hypothesis is seeded from the run seed and the game);
its result is confirmed once more on a fresh adapter.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...conformance.failures import AdapterFailure
from ...engine.profile import Profile
from ..simulate import game_seed
from .agent import CHOICE_MAX, DrawSource, GameSpec, ListSource
from .causes import Cause, cause_of
from .divergence import Divergence
from .lockstep import Lockstep

DATABASE_KEY = b"conquian-ref-fuzz"


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
        # Everything _find needs: an old Hypothesis without choices_to_bytes counts as none.
        from hypothesis import find  # noqa: F401
        from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes  # noqa: F401
    except ImportError:
        return Shrunk(spec, divergence, "not shrunk: Hypothesis is not installed (pip install hypothesis)")
    search = _Search(lockstep, profile, spec, cause_of(divergence, profile.id), seed, game, started + budget, divergence.kind == "adapter")
    problem = _find(search, seed, game)
    timed_out = " (time budget reached)" if time.monotonic() > search.deadline else ""
    best = search.best[0] if search.best else None
    smaller = "Hypothesis found no smaller game" if best and len(best.choices) >= len(spec.choices) else "shrunk by Hypothesis"
    # Confirm on a fresh adapter: the minimal game, else the original one.
    for candidate, note in (
        (best, f"{smaller}{timed_out}{problem}"),
        (spec, f"not shrunk: {'no smaller game' if best else 'Hypothesis did not replay the failing game'}"
               f" failed the same way on a fresh adapter{problem}"),
    ):
        if candidate is None:
            continue
        try:
            trace = lockstep.run(profile, candidate.deck, candidate.dealer, ListSource(candidate.choices), fresh=True)
        except AdapterFailure:
            break
        if trace.divergence is not None and cause_of(trace.divergence, profile.id) == search.target:
            return Shrunk(candidate, trace.divergence, note, search.trials, time.monotonic() - started)
    note = f"not shrunk: the failing game does not fail again on a fresh adapter (flaky?){problem}"
    return Shrunk(spec, divergence, note, search.trials, time.monotonic() - started)


class _Search:
    """The property Hypothesis searches with (`diverges`), and the best game it has seen."""

    def __init__(self, lockstep: Lockstep, profile: Profile, spec: GameSpec, target: Cause, seed: int, game: int,
                 deadline: float, fresh: bool):
        from hypothesis import strategies as st

        self.lockstep, self.profile, self.spec, self.target = lockstep, profile, spec, target
        self.seed, self.game, self.deadline = seed, game, deadline
        self.deck_choice, self.flip = st.integers(0, 2**32 - 1), st.booleans()
        self.more, self.choice = st.booleans(), st.integers(0, CHOICE_MAX)
        # An adapter failure may depend on what the adapter saw before (a crash after N requests, a
        # leak): then every trial starts from a fresh adapter, as a scenario run after a restart does.
        self.fresh = fresh
        self.best: tuple[GameSpec, Divergence] | None = None
        self.key: tuple | None = None  # (deck choice, flip, choices) of the best game
        self.trials = 0
        self.stop = False

    def deck_for(self, alt: int) -> list[str]:
        # 0 is the failing game's own deck; other values, other decks (used if Hypothesis has to
        # search from scratch because it could not replay the failing game).
        if alt == 0:
            return self.spec.deck
        return self.profile.deck.shuffled(game_seed(self.seed, self.game, f"fuzz-shrink-deck/{self.profile.id}/{alt}"))

    def same_as_best(self, data) -> bool:
        # After the deadline: only the best game found still counts, so Hypothesis stops
        # improving and its final replay of the minimal example agrees.
        key = self.key
        if key is None or data.draw(self.deck_choice) != key[0] or data.draw(self.flip) != key[1]:
            return False
        for choice in key[2]:
            if not data.draw(self.more) or data.draw(self.choice) != choice:
                return False
        return True

    def diverges(self, data) -> bool:
        if self.stop or time.monotonic() > self.deadline:
            return self.same_as_best(data)
        alt, flipped = data.draw(self.deck_choice), data.draw(self.flip)
        deck, dealer = self.deck_for(alt), self.spec.dealer ^ int(flipped)
        source = DrawSource(data, len(self.spec.choices))
        self.trials += 1
        try:
            trace = self.lockstep.run(self.profile, deck, dealer, source, fresh=self.fresh)
        except AdapterFailure:  # the adapter cannot be restarted: keep what we have
            self.stop = True
            return self.same_as_best(data)
        found = trace.divergence
        if found is None or cause_of(found, self.profile.id) != self.target:
            return False
        key = (alt, flipped, tuple(source.choices))
        if self.key is None or (len(key[2]), key[2]) <= (len(self.key[2]), self.key[2]):
            self.key = key
            self.best = (GameSpec(self.profile.id, deck, dealer, list(source.choices)), found)
        return True

    def known_example(self) -> list:
        """The failing game as the choices Hypothesis draws for it: deck 0, no flip, then
        (one more step, the choice) for every step."""
        known: list = [0, False]
        for choice in self.spec.choices:
            known += [True, choice]
        return known


def _find(search: _Search, seed: int, game: int) -> str:
    """Run hypothesis.find over the search; '' or a note on why it stopped early."""
    import hypothesis.core
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

    database = InMemoryExampleDatabase()
    # The secondary corpus: replayed first, then shrunk (a primary entry would not be shrunk).
    database.save(DATABASE_KEY + b".secondary", choices_to_bytes(search.known_example()))
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
    try:
        find(st.data(), search.diverges, settings=config, database_key=DATABASE_KEY)
    except Exception as exc:  # NoSuchExample, Flaky, ...: keep the best game seen, if any
        return f" (Hypothesis: {type(exc).__name__})"
    finally:
        hypothesis.core.global_force_seed = forced
    return ""
