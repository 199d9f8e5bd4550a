"""The building blocks of the mutants: each mutant is a house rule (a `Variant`) of the reference.

A mutant replaces rows of the reference's rule set (conquian_ref.engine.ruleset) through the one
public mechanism a house rule uses, never a private method:
- `step(name, run)`: the row `name` of what happens (conquian_ref.engine.transitions.STEPS) with
  another function, its rules kept;
- `refusal(code, condition)`: the refusal row `code` (conquian_ref.engine.refusals) with another
  condition, its place in the order of precedence kept;
- `phase(phase, seats=..., candidates=...)`: what a phase admits (conquian_ref.engine.phases);
- `MutantTable` with `table(cls)`: the rule "what is a meld" with melds dropped (`keep`) or added
  (`extra`); hand cards are then searched by brute force. One copy of each card only: under the
  two-deck profile a table mutant plays with the reference's table;
- a profile field changed (`mutant(..., profile=...)`), an observation changed (`observe`), or
  another match (`match`);
- `MutantAdapter`: the reference adapter with one protocol answer changed, for the few mutants
  that break what an adapter answers rather than a rule of the game (a `legal` listing the wrong
  seat's actions: the reference's own listing cannot disagree with its refusals).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ...conformance.adapter import ReferenceAdapter
from ...conformance.reference import Reference
from ...engine.cards import cards_of
from ...engine.melds import GivenMelds, meld_table
from ...engine.solver import CACHE_SIZE
from ...engine.observation import observe
from ...engine.phases import PHASES, Phase
from ...engine.refusals import BY_CODE
from ...engine.ruleset import Step, Variant
from ...engine.transitions import STEPS


def step(name: str, run) -> Step:
    """The reference's row `name` doing `run` instead (its rules kept: the trace is the
    reference's business)."""
    return dataclasses.replace(STEPS[name], run=run)


def reference_step(name: str):
    """What the reference's row `name` does, for a mutant that does it and something more."""
    return STEPS[name].run


def refusal(code: str, condition):
    """The reference's refusal row `code` with another condition, `condition(game, seat, act,
    reference)`, where `reference` is the reference row's own condition (None: the row always
    applied in its phase). The new condition may read the action (`reads_action`)."""
    row = BY_CODE[code]

    def original(game, seat, act) -> bool:  # the row's rule-set test and its condition, as one
        if row.under is not None and not row.under(game.profile, game.ruleset.policies):
            return False
        return row.condition is None or row.condition(game, seat, act)

    return dataclasses.replace(
        row, condition=lambda game, seat, act: condition(game, seat, act, original), reads_action=True, under=None
    )


def phase(which: Phase, **changes):
    """The reference's row of a phase with `seats` or `candidates` replaced."""
    return dataclasses.replace(PHASES[which], **changes)


def observation(change):
    """The `observe` entry of a variant: the reference's observation, then `change(game, obs)`."""

    def observe_changed(game, seat: int) -> dict:
        obs = observe(game, seat)
        change(game, obs)
        return obs

    return observe_changed


class MutantTable(GivenMelds):
    """A meld table whose list of melds is changed: `keep` drops melds, `extra` adds some; the
    plain solver over a given list of melds (engine.melds.solver_for) searches them all, and a
    mutant may replace one of its searches. Hand cards are searched by brute force."""

    def __init__(self, profile):
        melds = [m for m in meld_table(profile).melds if self.keep(profile, m)]
        melds += sorted(set(self.extra(profile)) - set(melds))
        super().__init__(profile, melds)
        # Memoised as the table's other searches: perft asks the same question at many nodes
        # (a mutant table with more melds made `mutants` wait 20 s on this one search).
        self._every_use = lru_cache(maxsize=CACHE_SIZE)(self._every_use)

    def keep(self, profile, meld: int) -> bool:
        return True

    def extra(self, profile) -> list[int]:
        return []

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        must = exposed | card_bit
        return self._every_use(must, hand & self.meldable(must | hand))

    def _every_use(self, must: int, useful: int) -> frozenset[int]:
        """Every subset of the `useful` cards that `must` (the exposed cards and the card) can be
        arranged with: all of them tried, each subset built from a smaller one by one card."""
        subsets = [0]
        for card in cards_of(useful):
            subsets += [chosen | 1 << card for chosen in subsets]
        arrangeable = self.arrangeable
        return frozenset(chosen for chosen in subsets if arrangeable(must | chosen))


def table(table_class: type):
    """The `melds` entry of a variant: the changed table, built once per profile. A changed meld
    table is a one-copy table: with two copies of every card (the two-deck profile) the
    reference's multiset table stays, whose searches do not read the list of melds a mutant
    changes. The mutant is then the reference there, and is caught or not by the scenarios of the
    other profiles, never by a one-copy table misreading two copies."""

    @lru_cache(maxsize=None)  # a Profile hashes by identity; loaded profiles live for the run
    def build(profile):
        return meld_table(profile) if profile.deck.copies > 1 else table_class(profile)

    return build


class MutantAdapter(ReferenceAdapter):
    """The reference adapter (over the reference with `variant`, if any) with one answer changed."""

    variant: Variant | None = None

    def __init__(self):
        super().__init__(Reference(variants=(self.variant,) if self.variant else ()))
