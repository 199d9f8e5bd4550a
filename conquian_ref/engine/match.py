"""A match: deals in sequence, the dealer alternating, points per the profile.

Implements the profile's match rule (`rules.match`): points per win and per draw and the points
to win the match (`match:`), or no points at all (`match: null`: each deal stands alone); the
dealer alternates after every deal. The first dealer is chosen outside the rules (the setup
gives it) and given here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .outcome import Outcome
from .profile import Profile


@dataclass
class Match:
    """The running score of a match of `profile` whose first deal is dealt by `first_dealer`."""

    profile: Profile
    first_dealer: int
    results: list[Outcome] = field(default_factory=list)
    # (n, points after the first n results): each score adds only the deals since the last one, so
    # a match of many deals is scored in linear time (it was recomputed from the start every deal).
    _tally: tuple[int, tuple[int, int]] = field(default=(0, (0, 0)), init=False, repr=False, compare=False)

    @property
    def dealer(self) -> int:
        """The dealer of the next deal: the dealer alternates after every deal, a draw included."""
        return (self.first_dealer + len(self.results)) % 2

    @property
    def points(self) -> list[int] | None:
        """Points of each seat; None when the profile scores no points (TC-MATCH-1)."""
        rules = self.profile.match
        if rules is None:
            return None
        counted, tally = self._tally
        points = list(tally)
        for outcome in self.results[counted:]:
            if outcome.result == "win":
                points[outcome.winner] += rules["points_per_win"]
            else:
                points[0] += rules["points_per_draw"]
                points[1] += rules["points_per_draw"]
        self._tally = (len(self.results), (points[0], points[1]))
        return points

    @property
    def winner(self) -> int | None:
        """The seat that has reached the profile's points to win, if any."""
        points = self.points
        if points is None:
            return None
        goal = self.profile.match["points_to_win"]
        for seat in (0, 1):
            if points[seat] >= goal:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def rules_applied(self) -> list[str]:
        """The profile's match rule, checked by every score (for rule coverage)."""
        return [self.profile.rule("match")]

    def record(self, outcome: Outcome) -> None:
        """Add the result of the deal just played (dealt by `self.dealer`)."""
        if self.is_over:
            raise ValueError("the match is over")
        self.results.append(outcome)

    def to_json(self) -> dict:
        return {
            "profile": self.profile.id,
            "first_dealer": self.first_dealer,
            "results": [o.to_json() for o in self.results],
            "points": self.points,
            "next_dealer": self.dealer,
            "winner": self.winner,
        }
