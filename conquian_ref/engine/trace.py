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


@cache  # one frozen set per profile, shared by its deals
def rules_by_construction(profile: Profile) -> frozenset[str]:
    """The rules that hold because of how the engine is built, never checked by a step:
    C-DECK-1 and the profile's deck rule (the deck is the profile's data), C-ARR-3 (no action
    returns an exposed card to a hand), RUL-13 (the state holds the set of exposed cards, not a
    partition), and under forcing onto the rival its rule that only the available card can be
    forced (no action lays a hand card on the rival's melds); without any forcing C-FORCE-1 (no
    card is ever forced), and with a deck that removes no rank C-RUN-2 (no gap to close)."""
    rules = {"C-DECK-1", profile.rule("deck"), "C-ARR-3", "RUL-13"}
    if profile.onto_rival:
        rules.update(profile.own_rules("force_available_only"))
    if profile.own_fit == OwnFit.NONE and not profile.onto_rival:
        rules.add("C-FORCE-1")  # no action forces a card: what a forced card does never arises
    ranks = profile.deck.ranks
    if "7" in ranks[:-1] and ranks[ranks.index("7") + 1] == "8":
        rules.add("C-RUN-2")  # no rank is removed: there is no gap for a run to cross
    return frozenset(rules)
