"""The rule trace kept apart: rules checked by a step, and rules that hold by construction.

`Game.rules_fired` holds the rules whose check ran, or that decided what happened, in a deal:
a refusal, a take, a reveal, a win. `Game.rules_by_construction` holds the rules that no step
decides, because the data and the actions are built so that they cannot be broken; rule
coverage reports them as such, never as checked.
"""

from __future__ import annotations

from functools import cache

from .policies import OwnFit
from .profile import Profile
from .ruleset import resolve


def _always(profile: Profile) -> bool:
    return True


def _forcing_onto_rival(profile: Profile) -> bool:
    return profile.onto_rival


def _no_forcing(profile: Profile) -> bool:
    return profile.own_fit == OwnFit.NONE and not profile.onto_rival


def _no_rank_removed(profile: Profile) -> bool:
    ranks = profile.deck.ranks
    return "7" in ranks[:-1] and ranks[ranks.index("7") + 1] == "8"


# The rules that hold because of how the engine is built, never checked by a row, each with the
# profiles where that is so (keys of the profile's `rules:` stand for its own ids):
BY_CONSTRUCTION: tuple[tuple, ...] = (
    (_always, ("C-DECK-1", "deck")),  # the deck is the profile's data
    (_always, ("C-ARR-3",)),  # no action returns an exposed card to a hand
    (_always, ("RUL-13",)),  # the state holds the set of exposed cards, not a partition
    (_forcing_onto_rival, ("force_available_only",)),  # no action lays a hand card on the rival's melds
    (_no_forcing, ("C-FORCE-1",)),  # no action forces a card: what a forced card does never arises
    (_no_rank_removed, ("C-RUN-2",)),  # no rank is removed: there is no gap for a run to cross
)


@cache  # one frozen set per profile, shared by its deals
def rules_by_construction(profile: Profile) -> frozenset[str]:
    """The rules of BY_CONSTRUCTION that hold under this profile."""
    return frozenset(rule for holds, rules in BY_CONSTRUCTION if holds(profile) for rule in resolve(profile, rules))
