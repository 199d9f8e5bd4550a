"""The one way to drive the reference engine: `Reference`, an in-process driver.

Everything that runs the reference engine goes through this class: the protocol adapter
(conquian_ref.conformance.adapter wraps a `Reference` behind JSON lines), the scenario replay
(check, lint, coverage, record, the book) and the mutants (conquian_ref.tools.mutants pass a
mutant game, match or profile loader). So there is one place where a setup is read, an action
applied, a state, observation, legal-action list or perft count produced.

A driver answers the calls for a deal (`setup`, `setup_position`, `apply`, `state`,
`observation`, `legal`, `perft`, with `divide` for perft diagnosis) and one for a match (`match`).
"""

from __future__ import annotations

from typing import Callable

from ..engine.errors import IllegalAction, MalformedInput, shown
from ..engine.game import Game
from ..engine.match import Match
from ..engine.outcome import How, Outcome
from ..engine.perft import divide, perft_counts
from ..engine.profile import Profile
from ..engine.ruleset import Variant, ruleset_for
from ..engine.setup import check_seat
from ..spec.profiles import load_profile


class Reference:
    """The reference engine in-process, played by the profiles' rules with `variants` (house
    rules, conquian_ref.engine.ruleset.Variant: a mutant is one) applied."""

    name = "conquian-ref reference engine"

    def __init__(
        self,
        variants: tuple[Variant, ...] = (),
        profile_loader: Callable[[str], Profile] = load_profile,
        trace: bool = True,
    ):
        self.variants = tuple(variants)
        # Record the rules each deal checks (rules_fired, for rule coverage); a protocol adapter
        # process reports no rules, so it plays without the bookkeeping (adapter.serve).
        self.trace = trace
        self.profile_loader = profile_loader
        self.game: Game | None = None
        self.last_match: Match | None = None

    # -- a deal --------------------------------------------------------------------------------
    def setup(self, profile_id: str, setup: dict) -> None:
        """Start a deal from a deck order (`deck`) or from dealt hands and a stock (`hands`,
        `stock`); `dealer` in both. Raises MalformedInput naming the field at fault."""
        profile = self.profile_loader(profile_id)
        if "deck" in setup:
            self.game = Game.from_deck(profile, setup["deck"], setup.get("dealer"), self.variants)
        else:
            self.game = Game.from_deal(profile, setup.get("hands"), setup.get("stock"), setup.get("dealer"), self.variants)
        self.game.trace = self.trace
        self.last_match = None

    def setup_position(self, profile_id: str, position: dict, reached_by: tuple[Variant, ...] = ()) -> None:
        """Take a deal up at a mid-deal position (Game.from_position: the state, the public
        history, the opening-card flag), reached under the house rules `reached_by`, played on
        with this reference's house rules. Raises MalformedInput naming the field of an
        impossible or malformed position."""
        self.game = Game.from_position(self.profile_loader(profile_id), position, self.variants, reached_by)
        self.game.trace = self.trace
        self.last_match = None

    def position(self) -> dict:
        """The deal's position (Game.position): what `setup_position` sends to put another
        implementation here."""
        return self.game.position()

    def apply(self, seat: int, action: dict) -> tuple[str, str | None]:
        """("accepted", None) or ("refused", reason code). MalformedInput propagates."""
        refusal = self.try_apply(seat, action)
        return ("accepted", None) if refusal is None else ("refused", refusal.reason)

    def try_apply(self, seat: int, action: dict) -> IllegalAction | None:
        """Apply the action; None, or the rules' refusal with its message (the deal unchanged)."""
        try:
            self.game.apply(seat, action)
        except IllegalAction as exc:
            return exc
        return None

    def state(self) -> dict:
        return self.game.state_json()

    def observation(self, seat: int) -> dict:
        return self.game.observation(seat)

    def legal(self, seat: int) -> list[dict]:
        return self.game.legal_actions(seat)

    def perft(self, depth: int) -> list[int]:
        return perft_counts(self.game, depth)

    def divide(self, depth: int) -> dict[str, int]:
        return divide(self.game, depth)

    # -- a match -------------------------------------------------------------------------------
    def match(self, profile_id: str, first_dealer: int, outcomes: list[dict]) -> dict:
        """The match's score after these entries: deal outcomes, or in a session with stakes
        also misdeals (`{"misdeal": {"counts": [c0, c1]}}`, RUL-26). The answer has the points,
        next dealer and winner, and for a stakes profile the wins, net units and pot."""
        rules = ruleset_for(self.profile_loader(profile_id), self.variants)
        match: Match = rules.match(rules.profile, first_dealer)
        for i, entry in enumerate(outcomes):
            if match.is_over:
                raise MalformedInput(f"deals[{i}]", "the match was already won before this deal")
            try:
                if "misdeal" in entry:
                    match.record_misdeal(entry["misdeal"]["counts"])
                else:
                    _check_winner(match.profile, entry)
                    match.record(Outcome(_how(entry["how"]), entry["winner"]))
            except MalformedInput as exc:
                raise MalformedInput(f"deals[{i}].{exc.field}", exc.message) from None
        self.game, self.last_match = None, match
        return match.to_json()

    # -- what the engine applied, for rule coverage ---------------------------------------------
    @property
    def rules_fired(self) -> set[str]:
        if self.last_match is not None:
            return set(self.last_match.rules_applied)
        return set(self.game.rules_fired) if self.game is not None else set()


def _how(value: object) -> How:
    """The ending a deal's outcome names (MalformedInput naming `how` for any other value)."""
    if not isinstance(value, str) or value not in set(How):
        raise MalformedInput("how", f"an ending is one of {', '.join(How)}, got {value!r}"[:200])
    return How(value)


def _check_winner(profile: Profile, entry: dict) -> None:
    """A deal's outcome names its winner exactly when it is a win: a seat of the table for a
    win, null for a draw (MalformedInput naming `winner`; the score never computes on a
    winner that is not a seat)."""
    if entry["result"] == "win":
        check_seat(entry["winner"], "winner", profile.seats)
    elif entry["winner"] is not None:
        raise MalformedInput("winner", f"a draw has no winner (null), got {shown(entry['winner'])}")
