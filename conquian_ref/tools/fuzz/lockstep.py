"""Lockstep play: one game on the reference engine and on the implementation together.

The reference is an in-process `Game`; the implementation is reached over the conformance
protocol (a `Connection`, docs/protocol.md), using only the capabilities its handshake
declared. Every step is compared (`compare`); the first divergence ends the game. A failure of
the adapter itself (crash, timeout, garbage, error answer, ...) is a divergence of kind `adapter`.
"""

from __future__ import annotations

from ...conformance.client import Connection
from ...conformance.driver import ImplementationDriver
from ...conformance.failures import AdapterFailure
from ...engine.errors import IllegalAction
from ...engine.game import Game
from ...engine.profile import Profile
from .agent import decode
from .compare import legal_divergence, result_divergence, state_divergence
from .divergence import Divergence, Trace, short

MAX_STEPS = 10_000  # per game: a deal always ends (see simulate.py); a guard only


class Lockstep:
    """Plays games on the reference and on the implementation together."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.driver = ImplementationDriver(conn)
        self.caps = set(conn.handshake.capabilities)
        self.broken = False  # the adapter failed: restart it before the next game

    def run(self, profile: Profile, deck: list[str], dealer: int, source, fresh: bool = False) -> Trace:
        """Play one game, its steps chosen by `source` (agent.py); `fresh`: on a freshly
        restarted adapter (so that a failure that depends on what the adapter saw before cannot count)."""
        if self.broken or fresh:
            self.conn.restart()  # AdapterFailure propagates: the caller decides
            self.caps = set(self.conn.handshake.capabilities)
            self.broken = False
        counter = [0]
        try:
            divergence = self._play(profile, deck, dealer, source, counter)
        except _Adapter as exc:
            self.broken = True
            failure = exc.failure
            divergence = Divergence(
                "adapter", exc.where, exc.actions_before, exc.seat, exc.action, None, None, failure.kind, failure.message
            )
        return Trace(divergence, counter[0])

    def _play(self, profile, deck, dealer, source, counter) -> Divergence | None:
        game = Game.from_deck(profile, deck, dealer)
        _call("setup", 0, None, None, self.driver.setup, profile.id, {"dealer": dealer, "deck": deck})
        if "state" in self.caps:
            found = self._state(game, "setup", 0, None, None)
            if found:
                return found
        probed = False  # after the deal ends, one more action is tried: both must refuse it
        for step in range(MAX_STEPS):
            if game.is_over and probed:
                break
            if "legal_actions" in self.caps:
                found = self._legal(game, step)
                if found:
                    return found
            choice = source.next()
            if choice is None:
                break
            probed = game.is_over
            seat, action = decode(game, choice)
            counter[0] += 1
            found = self._apply(game, step, seat, action)
            if found:
                return found
        return None

    def _legal(self, game: Game, step: int) -> Divergence | None:
        """The legal actions of every seat before action `step`."""
        for seat in game.profile.seats:
            got = _call("legal", step, seat, None, self.driver.legal, seat)
            if not isinstance(got, list) or not all(isinstance(a, dict) for a in got):
                raise _Adapter(AdapterFailure("bad_answer", f"legal: not a list of actions: {short(got)}"), "legal", step, seat, None)
            found = legal_divergence(game.legal_actions(seat), got, step, seat)
            if found:
                return found
        return None

    def _apply(self, game: Game, step: int, seat: int, action: dict) -> Divergence | None:
        """Apply the action to both; compare the answers, then the states."""
        try:
            game.apply(seat, action)
            want: object = "accepted"
        except IllegalAction as exc:
            want = {"refused": exc.reason}
        result, reason = _call("apply", step, seat, action, self.driver.apply, seat, action)
        got = "accepted" if result == "accepted" else {"refused": reason}
        found = result_divergence(want, got, "reason_codes" in self.caps, step, seat, action)
        if found is None and "state" in self.caps:
            found = self._state(game, "state", step, seat, action)
        return found

    def _state(self, game: Game, where: str, step: int, seat, action) -> Divergence | None:
        got = _call(where, step, seat, action, self.driver.state)
        return state_divergence(game.state_json(), got, where, step, seat, action)


class _Adapter(Exception):
    """An AdapterFailure, with where in the game it happened."""

    def __init__(self, failure: AdapterFailure, where: str, actions_before: int, seat, action):
        self.failure, self.where, self.actions_before, self.seat, self.action = failure, where, actions_before, seat, action


def _call(where: str, step: int, seat, action, fn, *args):
    """Call the driver, turning an AdapterFailure into _Adapter with where it happened."""
    try:
        return fn(*args)
    except AdapterFailure as exc:
        raise _Adapter(exc, where, step, seat, action) from None
