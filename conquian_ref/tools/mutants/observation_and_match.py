"""Mutants of the observation (C-OBS-1) and of the match (the profiles' match rules)."""

from __future__ import annotations

import dataclasses

from ...engine.match import Match, Misdeal
from .base import observation
from .registry import mutant


# == the observation (C-OBS-1) ========================================================================
# C-OBS-1: the observation "must never contain the rival's hand".
def _show_rival_hand(game, obs):
    obs["rival_hand"] = game.deck.names(game.hands[game.profile.next_seat(obs["seat"])])


mutant("rival-hand-visible", ["C-OBS-1"], "the observation shows the rival's hand",
       replaces={"observe": observation(_show_rival_hand)})


# C-OBS-1: the observation "must never contain ... the order of the stock".
def _show_stock(game, obs):
    obs["stock"] = [game.deck.name(c) for c in game.stock]


mutant("stock-order-visible", ["C-OBS-1"], "the observation lists the stock in order",
       replaces={"observe": observation(_show_stock)})


# C-OBS-1: the observation "must contain ... the available card and the seat it is offered to".
def _hide_available_from_rival(game, obs):
    if obs["available"] and obs["available"]["offered_to"] != obs["seat"]:
        obs["available"] = None


mutant("available-hidden-from-rival", ["C-OBS-1"], "a seat does not observe the available card while it is offered to the other seat",
       replaces={"observe": observation(_hide_available_from_rival)})


# == the match (AA-MATCH-1, TC-MATCH-1) ===============================================================
# AA-MATCH-1: "a draw scores 0 for both".
mutant("draw-scores-a-point", ["AA-MATCH-1"], "a drawn deal scores 1 point to each player",
       profile=lambda p: {"match": {**p.match, "points_per_draw": 1}} if p.match else {})


# AA-MATCH-1: "The dealer alternates every deal, draws included."
class _DealerStaysOnDraw(Match):
    @property
    def dealer(self) -> int:
        return (self.first_dealer + sum(o.result == "win" for o in self.results)) % len(self.profile.seats)


mutant("dealer-stays-on-draw", ["AA-MATCH-1", "TC-MATCH-1"], "the dealer alternates after a win but deals again after a draw",
       replaces={"match": _DealerStaysOnDraw})


# TC-MATCH-1: "There are no points ... each deal stands alone".
mutant("torno-scores-points", ["TC-MATCH-1"], "a profile without a match scores one: a point a win, first to 3",
       profile=lambda p: {"match": {"points_per_win": 1, "points_per_draw": 0, "points_to_win": 3}} if p.match is None else {})


# AA-MATCH-1: "the first player to 3 points wins the match".
class _WinnerNeedsMore(Match):
    @property
    def winner(self):
        if self.points is None:
            return None
        return next((s for s in (0, 1) if self.points[s] > self.profile.match["points_to_win"]), None)


mutant("match-needs-four", ["AA-MATCH-1"], "the match is won with more than 3 points, not with 3",
       replaces={"match": _WinnerNeedsMore})


# == the session with stakes and a pot (SA-MATCH-2, RUL-25; SAPT-MATCH-1, RUL-42) =====================
class _OneEntryAtATime(Match):
    """A match whose tally is brought up to date before and after every entry, so a mutant can
    change the score of the entry just counted."""

    def record(self, outcome):
        self._score()
        super().record(outcome)
        self._score()

    def change(self, before, score, entry):
        return score

    def _score(self):
        before = self._tally
        score = super()._score()
        if score.counted == before.counted + 1:
            score = self._tally = self.change(before, score, self.results[-1])
        return score


class _DrawLosesThePot(_OneEntryAtATime):
    def change(self, before, score, entry):
        return dataclasses.replace(score, pot=0) if getattr(entry, "result", None) == "draw" else score


# SA-MATCH-2: "After a drawn deal the pot stays where it is and is added to the next deal's pot".
mutant("draw-loses-the-pot", ["SA-MATCH-2", "RUL-25"], "after a drawn deal the pot is lost instead of carried over to the next deal",
       replaces={"match": _DrawLosesThePot})


class _PotToTheWinnerAlone(_OneEntryAtATime):
    def change(self, before, score, entry):
        if getattr(entry, "result", None) != "win":
            return score
        members = [s for s in self.profile.seats if self.profile.team_of(s) == self.profile.team_of(entry.winner)]
        if len(members) < 2:
            return score
        net = list(score.net)
        share = (len(self.profile.seats) * self.profile.match["stake"] + before.pot) // len(members)
        for seat in members:  # undo the partner's share, give it to the winner
            if seat != entry.winner:
                net[seat] -= share
                net[entry.winner] += share
        return dataclasses.replace(score, net=tuple(net))


# SAPT-MATCH-1: "the winning team takes the pot, shared equally by its partners".
mutant("team-pot-to-the-winner-alone", ["SAPT-MATCH-1", "RUL-42"], "the seat that wins a deal for its team takes the whole pot; the partner gets nothing",
       replaces={"match": _PotToTheWinnerAlone})


# RUL-27: the session's units are counted net (what a player has won less what they paid in);
# this engine counts the pots won, gross, so a player reaches the units sooner.
class _GrossUnits(Match):
    def _gross(self) -> list[int]:
        seats, stake = self.profile.seats, self.profile.match["stake"]
        gross, pot = [0] * len(seats), 0
        for entry in self.results:
            if isinstance(entry, Misdeal):
                continue
            pot += len(seats) * stake
            if entry.result == "win":
                members = [s for s in seats if self.profile.team_of(s) == self.profile.team_of(entry.winner)]
                for seat in members:
                    gross[seat] += pot // len(members)
                pot = 0
        return gross

    @property
    def winner(self):
        if not self.has_stakes:
            return super().winner
        score, rules, gross = self._score(), self.profile.match, self._gross()
        if not score.deals:
            return None
        for team in range(self.profile.teams):
            members = [s for s in self.profile.seats if self.profile.team_of(s) == team]
            if score.wins[team] >= rules["wins_to_win"] or all(gross[s] >= rules["units_to_win"] for s in members):
                return team
        return None


mutant("session-gross-units", ["RUL-27"], "the session's units to win are counted gross (the pots won), not net", replaces={"match": _GrossUnits})
