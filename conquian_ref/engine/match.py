"""A match: deals in sequence, the dealer alternating, scored per the profile.

Implements the profile's match rule (`rules.match`) in one of three forms (`match:`):

* points: points per win and per draw and the points to win the match;
* null: no points at all, each deal stands alone;
* stakes (a session): at the start of every deal each seat pays `stake` units into the pot, the
  winner of the deal takes the whole pot, a drawn deal leaves the pot for the next deal
  (`rules.pot_carry`), and the session is won at the end of the first deal after which a seat has
  `wins_to_win` wins or a net gain of at least `units_to_win` units (`rules.session`). Going
  rummy scores like any win (`rummy_bonus: none`, `rules.rummy_bonus`). A session may also record
  a misdeal (`Misdeal`, `rules.misdeal`, ruling RUL-26): no stake, no win or draw, the pot left
  and the same dealer dealing again.

With four seats in two partnerships (RUL-42) every player pays the stake, the winning team
takes the pot and its partners share it equally, wins count per team and units per player, and
the session goes to a team; the deal passes to the next seat (RUL-36).

The dealer alternates (passes to the next seat) after every deal, a draw included, and never after a misdeal
(`rules.dealer` in a stakes profile). The first dealer is chosen outside the rules (the setup
gives it) and given here. Every score is kept as a running tally, so a match of n entries is
scored in O(n) time however often it is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import MalformedInput
from .setup import check_seat
from .outcome import How, Outcome
from .profile import Profile
from .ruleset import resolve



@dataclass(frozen=True)
class Misdeal:
    """A voided deal of a session: the cards each seat was dealt, one count at least not the
    profile's hand size (RUL-26)."""

    counts: tuple[int, ...]  # one per seat

    def to_json(self) -> dict:
        return {"misdeal": {"counts": list(self.counts)}}


@dataclass(frozen=True)
class _Score:
    """The score after the first `counted` entries of a match (points form or stakes form)."""

    counted: int = 0
    deals: int = 0  # real deals played (misdeals not counted): the dealer alternates after each
    points: tuple[int, ...] = (0, 0)  # per seat (the points form has two seats)
    wins: tuple[int, ...] = (0, 0)  # per team: per seat with two players
    net: tuple[int, ...] = ()  # per seat
    pot: int = 0
    carried: bool = False  # a drawn deal carried the pot over (pot_carry checked)
    misdeals: int = 0
    rummy_wins: int = 0


# The rules a score with stakes applies (for rule coverage), each row with the part of the score
# that makes it apply: the match rule always; the dealer's alternation once an entry was recorded,
# the session goal once a deal was played, the carried pot when a draw carried it, the misdeal
# when there was one, going rummy and its bonus when a rummy win was scored (record() checked
# that the profile records rummy wins). Keys of the profile's `rules:` stand for its own ids.
SCORE_RULES: tuple[tuple, ...] = (
    (lambda score: True, ("match",)),
    (lambda score: score.counted, ("dealer",)),
    (lambda score: score.deals, ("session", "RUL-27", "RUL-42", "RUL-36")),
    (lambda score: score.carried, ("pot_carry", "RUL-25")),
    (lambda score: score.misdeals, ("misdeal", "RUL-26")),
    (lambda score: score.rummy_wins, ("rummy", "rummy_bonus", "RUL-24")),
)


@dataclass
class Match:
    """The running score of a match of `profile` whose first deal is dealt by `first_dealer`."""

    profile: Profile
    first_dealer: int
    results: list[Outcome | Misdeal] = field(default_factory=list)
    # The score after the first n results: each read adds only the entries since the last one, so a
    # match of many deals is scored in linear time (it was once recomputed from the start every deal).
    _tally: _Score = field(default_factory=_Score, init=False, repr=False, compare=False)

    def __post_init__(self):
        check_seat(self.first_dealer, "first_dealer", self.profile.seats)

    # -- the form of the profile's match --------------------------------------------------------
    @property
    def has_stakes(self) -> bool:
        """Whether the profile plays a session with stakes and a pot (`match: {stake: ...}`)."""
        return self.profile.match is not None and "stake" in self.profile.match

    # -- the running tally ----------------------------------------------------------------------
    def _score(self) -> _Score:
        score = self._tally
        if score.counted == len(self.results):
            return score
        rules = self.profile.match
        deals, misdeals, rummy_wins, carried = score.deals, score.misdeals, score.rummy_wins, score.carried
        seats, team_of = self.profile.seats, self.profile.team_of
        points, wins, pot = list(score.points), list(score.wins), score.pot
        net = list(score.net) or [0] * len(seats)
        for entry in self.results[score.counted :]:
            if isinstance(entry, Misdeal):
                misdeals += 1  # RUL-26: no stake, no win or draw, the pot and the dealer unchanged
                continue
            deals += 1
            if rules is None:
                continue
            if "stake" not in rules:
                if entry.result == "win":
                    points[entry.winner] += rules["points_per_win"]
                else:
                    points[0] += rules["points_per_draw"]
                    points[1] += rules["points_per_draw"]
                continue
            # The stakes form: every seat pays into the pot at the start of the deal (RUL-27, RUL-42).
            for seat in seats:
                net[seat] -= rules["stake"]
            pot += len(seats) * rules["stake"]
            if entry.result == "win":
                team = team_of(entry.winner)
                wins[team] += 1
                # The winner (the winning team's partners, in equal shares: RUL-42) takes the
                # whole pot, a rummy win too (RUL-24). The pot holds a stake per seat, so it divides.
                members = [s for s in seats if team_of(s) == team]
                for seat in members:
                    net[seat] += pot // len(members)
                pot = 0
                rummy_wins += entry.how == How.RUMMY
            else:
                carried = True  # RUL-25: the pot stays for the next deal
        score = _Score(len(self.results), deals, tuple(points), tuple(wins), tuple(net), pot, carried, misdeals, rummy_wins)
        self._tally = score
        return score

    # -- what is read ----------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """The dealer of the next deal: the dealer alternates after every deal, a draw included;
        a misdeal is dealt again by the same dealer (RUL-26)."""
        return (self.first_dealer + self._score().deals) % len(self.profile.seats)

    @property
    def points(self) -> list[int] | None:
        """Points of each seat; None when the profile scores no points (TC-MATCH-1) or plays for
        stakes (the stakes form counts wins and units instead)."""
        if self.profile.match is None or self.has_stakes:
            return None
        return list(self._score().points)

    @property
    def wins(self) -> list[int] | None:
        """Deals won by each seat (each team, with partnerships) in a stakes session; None in the
        other forms."""
        return list(self._score().wins) if self.has_stakes else None

    @property
    def net(self) -> list[int] | None:
        """Net stake units of each seat (pots taken less stakes paid; may be negative); None
        outside a stakes session."""
        return (list(self._score().net) or [0] * len(self.profile.seats)) if self.has_stakes else None

    @property
    def pot(self) -> int | None:
        """The units in the pot after the last entry (carried over; 0 after a win); None outside
        a stakes session."""
        return self._score().pot if self.has_stakes else None

    @property
    def winner(self) -> int | None:
        """The seat (the team, with partnerships) that has won the match: the profile's points to
        win reached, or in a session `wins_to_win` wins or `units_to_win` net units at the end of
        a deal (RUL-27; for a team, each of its partners, RUL-42)."""
        rules = self.profile.match
        if rules is None:
            return None
        if self.has_stakes:
            score = self._score()
            if not score.deals:
                return None
            for team in range(self.profile.teams):
                members = [s for s in self.profile.seats if self.profile.team_of(s) == team]
                if score.wins[team] >= rules["wins_to_win"] or all(score.net[s] >= rules["units_to_win"] for s in members):
                    return team
            return None
        points = self.points
        for seat in (0, 1):
            if points[seat] >= rules["points_to_win"]:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def rules_applied(self) -> list[str]:
        """The rules this score checked (for rule coverage): the rows of SCORE_RULES that apply."""
        if not self.has_stakes:
            return list(resolve(self.profile, ("match",)))
        score = self._score()
        rules: tuple[str, ...] = ()
        for applies, row in SCORE_RULES:
            if applies(score):
                rules += row
        return list(resolve(self.profile, rules))

    # -- what is recorded ------------------------------------------------------------------------
    def record(self, outcome: Outcome) -> None:
        """Add the result of the deal just played (dealt by `self.dealer`)."""
        if self.is_over:
            raise ValueError("the match is over")
        if outcome.winner is not None:
            check_seat(outcome.winner, "winner", self.profile.seats)
        if outcome.how == How.RUMMY and not self.profile.going_rummy:
            raise MalformedInput("how", "this profile records no rummy wins (going_rummy: false)")
        self.results.append(outcome)

    def record_misdeal(self, counts: tuple[int, int] | list[int]) -> None:
        """Record a misdeal of the next deal (RUL-26): `counts` are the cards dealt to each seat,
        at least one of them not the profile's hand size (otherwise it was no misdeal)."""
        if self.is_over:
            raise ValueError("the match is over")
        if not self.has_stakes or "misdeal" not in self.profile.rules:
            raise MalformedInput("misdeal", "this profile's match records no misdeals")
        seats = len(self.profile.seats)
        if not isinstance(counts, (list, tuple)) or len(counts) != seats or not all(
            isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts
        ):
            raise MalformedInput("misdeal.counts", f"{seats} card counts, one per seat")
        if all(c == self.profile.hand_size for c in counts):
            raise MalformedInput(
                "misdeal.counts", f"both seats were dealt {self.profile.hand_size} cards, the hand size: that is no misdeal"
            )
        self.results.append(Misdeal(tuple(counts)))

    def to_json(self) -> dict:
        answer = {
            "profile": self.profile.id,
            "first_dealer": self.first_dealer,
            "results": [o.to_json() for o in self.results],
            "points": self.points,
            "next_dealer": self.dealer,
            "winner": self.winner,
        }
        if self.has_stakes:
            answer.update(wins=self.wins, net=self.net, pot=self.pot)
        return answer
