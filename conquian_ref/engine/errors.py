"""Errors of the reference engine.

Two kinds of failure are kept apart on purpose (see docs/rules/reasons.md):

* `IllegalAction`: a well-formed action that the rules forbid now. It carries a stable
  reason code from `REASONS`; the state is left exactly as it was.
* `MalformedInput`: input that is not an action, card, setup or profile at all (unknown card,
  wrong shape, unknown action type). It names the field at fault.
"""

# Every reason code the engine can give, with the rule ids behind it. The order is the
# documented precedence: when several refusals apply, the first in this order is reported.
REASONS: dict[str, tuple[str, ...]] = {
    "game_over": ("C-END-4",),
    "not_your_turn": ("C-TURN-6", "TC-XCH-1"),
    "must_exchange": ("TC-XCH-1",),
    "must_discard": ("C-TURN-3", "C-FORCE-1"),
    "must_decide_force": ("AA-FORCE-1", "RUL-14"),
    "no_discard_now": ("C-TURN-6",),
    "nothing_to_decline": ("AA-FORCE-1", "RUL-14", "RUL-4"),
    "exchange_over": ("TC-XCH-1",),
    "not_in_profile": ("AA-OPEN-1", "C-TURN-6"),
    "card_not_in_hand": ("C-TURN-2", "C-TURN-3", "TC-XCH-1"),
    "no_valid_arrangement": ("C-TURN-2", "C-ARR-1", "C-ARR-2", "C-RUN-1", "C-SET-1", "C-MELD-1"),
    "cannot_reject_revealed": ("C-TURN-5", "TC-OPEN-1", "AA-OPEN-1"),
    "cannot_pass_rival_card": ("C-TURN-5",),
    "fitting_card_must_be_taken": ("TC-FORCE-2", "RUL-3", "RUL-4", "C-ARR-4"),
    "no_forcing_onto_rival": ("AA-MELD-1", "RUL-4"),
    "card_does_not_fit": ("C-FORCE-1", "C-ARR-4", "TC-FORCE-1"),
}


class ConquianError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(ConquianError):
    """A well-formed action the rules refuse; `reason` is a code from `REASONS`."""

    def __init__(self, reason: str, message: str):
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
