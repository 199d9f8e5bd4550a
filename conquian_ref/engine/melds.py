"""The meld table of a profile: its melds and the solver that answers about them.

What a meld is (C-MELD-1, C-SET-1, C-RUN-1..3, the run length rule, RUL-33) is written in
engine/meldrules.py; the questions the engine asks of a table (C-ARR-1..4, RUL-3, RUL-22,
RUL-35, C-TURN-2) are the interface of engine/solver.py. This module picks the solver for a
deck: one copy of each card (engine/onecopy.py), or two copies (engine/twocopies.py, one solver
for sets of distinct suits, a faster one for sets of any suits).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from .onecopy import GivenMelds, OneCopy
from .policies import SetSuits
from .profile import Profile
from .solver import MeldSolver, Solver
from .twocopies import AnySuitSets, Multiset

# The solver of the rule's melds for a deck: (copies, set_suits) -> class.
SOLVERS: dict[tuple[int, SetSuits], type[MeldSolver]] = {
    (1, SetSuits.DISTINCT): OneCopy,
    (1, SetSuits.ANY): OneCopy,  # with one copy the cards of a set differ in suit anyway
    (2, SetSuits.DISTINCT): Multiset,
    (2, SetSuits.ANY): AnySuitSets,
}

MeldTable = GivenMelds  # the name the mutants (tools/mutants) subclass and ask


def solver_for(profile: Profile, melds: Mapping[int, tuple[str, ...]] | Iterable[int] | None = None) -> Solver:
    """A new solver for `profile`: of the rule's melds (None), or of the melds given (a mapping
    of masks to the rule ids each rests on, or plain masks), searched plainly; a given list
    needs one copy of each card."""
    if melds is None:
        return SOLVERS[profile.deck.copies, profile.set_suits](profile)
    return GivenMelds(profile, melds)


@lru_cache(maxsize=None)
def meld_table(profile: Profile) -> Solver:
    """The solver of the rule's melds for a profile, built once."""
    return solver_for(profile)
