"""Errors of the reference engine.

Two kinds of failure are kept apart on purpose (see docs/rules/reasons.md):

* `IllegalAction`: a well-formed action that the rules forbid now. It carries a stable
  reason code, a row of conquian_ref.engine.refusals.REFUSALS; the state is left exactly as it was.
* `MalformedInput`: input that is not an action, card, setup or profile at all (unknown card,
  wrong shape, unknown action type). It names the field at fault.
"""

import reprlib

# How a stranger's value is quoted in a message: reprlib bounds its length and nesting, so a
# value nested thousands deep or megabytes long gives a short message, never a RecursionError.
_REPR = reprlib.Repr()  # (Python 3.11's Repr takes no keyword arguments)
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40
shown = _REPR.repr


class ConquianError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(ConquianError):
    """A well-formed action the rules refuse; `reason` is a code of refusals.REASONS (the engine
    raises it only with the code of a row of that table, in game.Game.apply)."""

    def __init__(self, reason: str, message: str):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class MalformedInput(ConquianError):
    """Input of the wrong shape, naming the `field` at fault (e.g. "action.cards[1]")."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

