"""Errors of the reference engine.

Two kinds of failure are kept apart on purpose (see docs/rules/reasons.md):

* `IllegalAction`: a well-formed action that the rules forbid now. It carries a stable
  reason code, a row of conquian_ref.engine.refusals.REFUSALS; the state is left exactly as it was.
* `MalformedInput`: input that is not an action, card, setup or profile at all (unknown card,
  wrong shape, unknown action type). It names the field at fault.
"""


class ConquianError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(ConquianError):
    """A well-formed action the rules refuse; `reason` is a code of refusals.REASONS."""

    def __init__(self, reason: str, message: str):
        from .refusals import REASONS  # here, not at the top: refusals reads the action types, which read this module

        assert reason in REASONS, reason
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class MalformedInput(ConquianError):
    """Input of the wrong shape, naming the `field` at fault (e.g. "action.cards[1]")."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def __getattr__(name: str):
    # `errors.REASONS`, read by tools and tests, is the refusal table's {code: rules}.
    if name == "REASONS":
        from .refusals import REASONS

        return REASONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
