"""The building blocks of the mutants: a meld table, a game and an adapter made to be changed.

- `MutantTable`: the profile's meld table with melds dropped (`keep`) or added (`extra`), or
  another arrangement test; hand cards are then searched by brute force. One copy of each card
  only: under the two-deck profile a table mutant plays with the reference's table.
- `MutantGame`: the reference `Game`, one method of which a mutant overrides (`_refusal`,
  `_take`, `_reject`, `to_act`, ...); its `legal` follows its own `_refusal`.
- `MutantAdapter`: the reference protocol adapter over a mutant game, with a profile changed
  (`change_profile`), an observation changed (`change_observation`) or another `match_class`.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations

from ...conformance.adapter import ReferenceAdapter
from ...conformance.reference import Reference
from ...engine.actions import Action
from ...engine.cards import bit, cards_of, mask_of
from ...engine.game import Game
from ...engine.match import Match
from ...engine.melds import GivenMelds, meld_table
from ...engine.phases import Phase
from ...spec.profiles import PROFILE_IDS, load_profile

class MutantTable(GivenMelds):
    """A meld table whose list of melds is changed: `keep` drops melds, `extra` adds some; the
    plain solver over a given list of melds (engine.melds.solver_for) searches them all, and a
    mutant may replace one of its searches. Hand cards are searched by brute force."""

    def __init__(self, profile):
        melds = [m for m in meld_table(profile).melds if self.keep(profile, m)]
        melds += sorted(set(self.extra(profile)) - set(melds))
        super().__init__(profile, melds)

    def keep(self, profile, meld: int) -> bool:
        return True

    def extra(self, profile) -> list[int]:
        return []

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        must = exposed | card_bit
        pool = must | hand
        useful = cards_of(hand & self.meldable(pool))
        found = set()
        for k in range(len(useful) + 1):
            for chosen in combinations(useful, k):
                if self.arrangeable(must | mask_of(chosen)):
                    found.add(mask_of(chosen))
        return frozenset(found)


_TABLES: dict = {}


def _table(table_class, profile) -> GivenMelds:
    key = (table_class, profile)  # a Profile hashes by identity; loaded profiles live for the run
    if key not in _TABLES:
        _TABLES[key] = table_class(profile)
    return _TABLES[key]


class MutantGame(Game):
    """The reference Game as a base for a mutant: `table_class` swaps the meld table, and `legal`
    lists exactly the actions this engine's `_refusal` accepts, so the mutant's legal actions
    agree with its own refusals. (Clones keep their class: Game.__deepcopy__ builds type(self).)"""

    table_class: type | None = None

    def __init__(self, profile, hands, stock, dealer):
        super().__init__(profile, hands, stock, dealer)
        self.trace = False  # rule coverage is the reference's business
        # A changed meld table is a one-copy table: with two copies of every card (the two-deck
        # profile) the reference's multiset table stays, whose searches do not read the list of
        # melds a mutant changes. The mutant is then the reference there, and is caught or not by
        # the scenarios of the other profiles, never by a one-copy table misreading two copies.
        if self.table_class is not None and profile.deck.copies == 1:
            self.table = _table(self.table_class, profile)

    def extra_candidates(self, seat: int) -> set[Action]:
        """Actions this mutant may accept that the reference never lists (none by default)."""
        return set()

    def legal(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if type(self)._refusal is Game._refusal and type(self).extra_candidates is MutantGame.extra_candidates:
            return super().legal(seat)  # the refusals are the reference's: so are the legal actions
        candidates = set(super().legal(seat)) | self.extra_candidates(seat)
        candidates |= {Action(kind) for kind in ("decline", "force", "pass", "reject", "use")}
        # One copy of a card held twice, as the reference lists it (RUL-34): both copies would
        # list one discard twice, and a perft scenario would "catch" every mutant for that alone.
        candidates |= {Action(kind, card=c) for kind in ("discard", "exchange") for c in self._choosable(seat)}
        return sorted((a for a in candidates if self._refusal(seat, a) is None), key=Action.sort_key)

    # helpers shared by several mutants
    def _take_without_win(self, receiver: int) -> None:
        """The available card joins `receiver`'s exposed cards and a discard follows, win or not."""
        self.exposed[receiver] |= bit(self.available)
        self.available, self.revealed = None, False
        self.phase, self.discarder = Phase.DISCARD, receiver

    def _reveal_count(self) -> int:
        return sum(e["event"] == "reveal" for e in self.history)

    def _refusal_as_if(self, seat: int, act: Action, **attrs) -> tuple[str, str] | None:
        """The reference's refusal with some attributes set otherwise for the question only."""
        saved = {k: getattr(self, k) for k in attrs}
        self.__dict__.update(attrs)
        try:
            return super()._refusal(seat, act)
        finally:
            self.__dict__.update(saved)


_PROFILES: dict = {}


def _rules_for(base, changes: dict) -> dict[str, str]:
    """The profile's rule ids, completed for a policy the change gives it that it did not have
    (forcing onto the rival, say): such a rule is named by a shipped profile that has the policy.
    Only the trace reads them, and a mutant's trace is off; the engine must still find an id."""
    rules = dict(base.rules)
    for profile_id in PROFILE_IDS:
        for concept, rule_id in load_profile(profile_id).rules.items():
            rules.setdefault(concept, rule_id)
    return rules


class MutantAdapter(ReferenceAdapter):
    """The reference adapter with a mutant game, a changed profile or a changed answer."""

    game_class: type = MutantGame
    match_class: type = Match

    def change_profile(self, profile) -> dict:
        """Fields of the loaded profile to replace (none by default)."""
        return {}

    def profile(self, name: str):
        base = load_profile(name)
        key = (type(self), base)
        if key not in _PROFILES:
            changes = self.change_profile(base)
            _PROFILES[key] = dataclasses.replace(base, **changes, rules=_rules_for(base, changes)) if changes else base
        return _PROFILES[key]

    def __init__(self):
        super().__init__(Reference(self.game_class, self.match_class, self.profile))

    def cmd_observation(self, request: dict) -> dict:
        answer = super().cmd_observation(request)
        self.change_observation(answer["observation"])
        return answer

    def change_observation(self, obs: dict) -> None:
        pass
