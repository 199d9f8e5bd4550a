"""The state machine of one deal: who may act, what is legal, what happens.

Implements the turn rules of docs/rules/core.md and both profiles:
C-DEAL-1 (dealing from an explicit deck order), TC-XCH-1 (the exchange), TC-OPEN-1 / AA-OPEN-1 /
RUL-7 (the opening card), C-TURN-1..7 (use, discard, reject, pass), C-FORCE-1 with TC-FORCE-1..3
and AA-FORCE-1..2 (forcing in each profile's form), C-END-1..4 (win, empty hand, stock
exhaustion, nothing after the result), and the refusals listed in errors.REASONS.

A deal moves through phases:

    exchange ─► play ◄──► discard          (over: after a win or a draw)
                 │  ▲
                 ▼  │
            force_decision                 (anglo-american-v1 only)

`play`: a seat holds the available card and decides (use, reject, pass, force).
`discard`: the seat that just took a card discards one.
`force_decision`: the rival decides whether to force a fitting card the active seat declined.

Every action is checked completely before anything changes (`_refusal`), so a refused action
leaves the state exactly as it was.
"""

from __future__ import annotations

import copy

from .actions import Action, parse_action
from .cards import bit, cards_of, count, mask_of
from .dealing import deal
from .errors import REASONS, IllegalAction, MalformedInput
from .melds import meld_table
from .outcome import Outcome
from .profile import Profile

SEATS = (0, 1)


def other(seat: int) -> int:
    return 1 - seat


class Game:
    """One deal of Conquian between seats 0 and 1."""

    # -- setting up ------------------------------------------------------------------------
    def __init__(self, profile: Profile, hands: list[int], stock: list[int], dealer: int):
        """Start a deal from dealt hands (bit masks) and the stock (card indices, top first).
        Use `from_deck` or `from_deal`, which check their input."""
        self.profile = profile
        self.deck = profile.deck
        self.table = meld_table(profile)
        self.dealer = dealer
        self.hands = list(hands)
        self.exposed = [0, 0]
        self._stock = list(reversed(stock))  # top card last, so taking it is a cheap pop()
        self.out_of_play: list[int] = []
        self.available: int | None = None
        self.revealed = False  # the available card was revealed by/for the seat holding it
        self.active = other(dealer)  # whose turn it is: the non-dealer plays first
        self.discarder: int | None = None
        self.pending: str | None = None  # "reject" or "pass" awaiting the rival's decision
        self.picks: list[int | None] | None = [None, None] if profile.exchange_cards else None
        self.outcome: Outcome | None = None
        self.history: list[dict] = []
        self.rules_fired: set[str] = set()
        self.fired_last: list[str] = []  # rule ids applied (or refusing) in the last apply
        self.trace = True  # record the rules applied, for rule coverage (off in benchmarks)
        self._fire("C-DEAL-1", "C-DECK-1", "C-DECK-2", self._rule("DECK-1"), self._rule("DEAL-1"))
        if self.picks is not None:
            self.phase = "exchange"
        else:
            self._reveal_opening()

    @classmethod
    def from_deck(cls, profile: Profile, deck_order: list[str], dealer: int) -> "Game":
        """Deal from an explicit deck order, top card first (C-DEAL-1, RUL-10, RUL-15): packets of
        the profile's size go alternately to each seat, non-dealer first; the rest is the stock."""
        _check_seat(dealer, "dealer")
        order = profile.deck.parse_list(deck_order, "deck")
        if len(order) != profile.deck.size:
            raise MalformedInput("deck", f"a deck order lists all {profile.deck.size} cards, got {len(order)}")
        return cls._dealt(profile, order, dealer)

    @classmethod
    def _dealt(cls, profile: Profile, order: list[int], dealer: int) -> "Game":
        hands, stock = deal(profile, order, dealer)
        game = cls(profile, [mask_of(h) for h in hands], stock, dealer)
        game._fire("RUL-10", "RUL-15")
        return game

    @classmethod
    def from_deal(cls, profile: Profile, hands: list[list[str]], stock: list[str], dealer: int) -> "Game":
        """Start from hands as dealt and the stock (top first); every card exactly once."""
        _check_seat(dealer, "dealer")
        deck = profile.deck
        if not isinstance(hands, list) or len(hands) != 2:
            raise MalformedInput("hands", "two hands are needed, one per seat")
        parsed = [deck.parse_list(h, f"hands[{s}]") for s, h in enumerate(hands)]
        for s, h in enumerate(parsed):
            if len(h) != profile.hand_size:
                raise MalformedInput(f"hands[{s}]", f"a hand is dealt {profile.hand_size} cards, got {len(h)}")
        stock_cards = deck.parse_list(stock, "stock")
        _check_every_card_once(profile, {"hands[0]": parsed[0], "hands[1]": parsed[1], "stock": stock_cards})
        return cls(profile, [mask_of(h) for h in parsed], stock_cards, dealer)

    @classmethod
    def from_seed(cls, profile: Profile, seed: int, dealer: int = 0) -> "Game":
        """A deal from a seeded shuffle (a convenience: the rules only know deck orders)."""
        _check_seat(dealer, "dealer")
        return cls._dealt(profile, profile.deck.shuffled_indices(seed), dealer)

    def clone(self) -> "Game":
        return copy.deepcopy(self)

    def __deepcopy__(self, memo):
        # The profile and its meld table are shared, immutable; everything else is copied.
        new = object.__new__(type(self))  # a subclass (a mutant engine) stays itself
        for key, value in self.__dict__.items():
            new.__dict__[key] = value if key in ("profile", "deck", "table") else copy.deepcopy(value, memo)
        return new

    # -- who acts --------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: both during the exchange until each has picked."""
        if self.phase == "exchange":
            return tuple(s for s in SEATS if self.picks[s] is None)
        if self.phase == "play":
            return (self.active,)
        if self.phase == "discard":
            return (self.discarder,)
        if self.phase == "force_decision":
            return (other(self.active),)
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> list[int]:
        """The stock, top card first."""
        return self._stock[::-1]

    # -- legality --------------------------------------------------------------------------
    def legal(self, seat: int) -> list[Action]:
        """Every legal action of `seat`, sorted by type name, then by cards in deck order
        (built in that order: decline, discard, exchange, force, pass, reject, use)."""
        if seat not in self.to_act:
            return []
        hand = self.hands[seat]
        if self.phase == "exchange":
            return [Action("exchange", card=c) for c in cards_of(hand)]
        if self.phase == "discard":
            return [Action("discard", card=c) for c in cards_of(hand)]
        if self.phase == "force_decision":
            return [Action("decline"), Action("force")]
        card = bit(self.available)
        actions = []
        if self.profile.onto_rival and self.table.fits(self.exposed[other(seat)], card):
            actions.append(Action("force"))
        if self._may_decline_card(seat):
            actions.append(Action("pass") if self.revealed else Action("reject"))
        uses = self.table.legal_uses(self.exposed[seat], card, hand)
        if uses:
            actions += sorted((Action("use", cards=s) for s in uses), key=Action.sort_key)
        return actions

    def legal_actions(self, seat: int) -> list[dict]:
        """Every legal action of `seat` in canonical JSON form, sorted."""
        return [a.to_json(self.deck) for a in self.legal(seat)]

    def _may_decline_card(self, seat: int) -> bool:
        """TC-FORCE-2: under the automatic table convention a card that fits the seat's own melds
        may not be rejected or passed."""
        return not (
            self.profile.own_fit == "automatic" and self.table.fits(self.exposed[seat], bit(self.available))
        )

    def _refusal(self, seat: int, act: Action) -> tuple[str, str] | None:
        """Why the rules refuse `act` by `seat` now, as (reason code, message); None if legal.
        Pure: it changes nothing. The order of the checks is the documented precedence."""
        phase, kind = self.phase, act.type
        if phase == "over":
            return "game_over", "the deal is over; no action is accepted (C-END-4)"
        if seat not in self.to_act:
            return "not_your_turn", f"seat {seat} may not act now; waiting for {list(self.to_act)}"
        if phase == "exchange" and kind != "exchange":
            return "must_exchange", "each seat first picks one card for the exchange (TC-XCH-1)"
        if phase == "discard" and kind != "discard":
            return "must_discard", "after taking a card the seat discards one hand card (C-TURN-3)"
        if phase == "force_decision" and kind not in ("force", "decline"):
            return "must_decide_force", "the rival decides first whether to force the card (AA-FORCE-1)"
        if phase == "play":
            if kind == "discard":
                return "no_discard_now", "a discard follows only a take (C-TURN-6)"
            if kind == "decline":
                return "nothing_to_decline", "no forcing decision is pending (RUL-14)"
            if kind == "exchange":
                if self.profile.exchange_cards:
                    return "exchange_over", "the exchange happens once, before the opening card"
                return "not_in_profile", "this profile has no exchange"
        hand = self.hands[seat]
        if act.card is not None and not hand & bit(act.card):
            return "card_not_in_hand", f"{self.deck.name(act.card)} is not in seat {seat}'s hand"
        if act.cards & ~hand:
            missing = self.deck.names(act.cards & ~hand)
            return "card_not_in_hand", f"{', '.join(missing)} not in seat {seat}'s hand"
        if phase != "play":
            return None
        card = bit(self.available)
        if kind == "use" and not self.table.arrangeable(self.exposed[seat] | card | act.cards):
            return "no_valid_arrangement", "the exposed cards, the taken card and these hand cards form no valid arrangement"
        if kind == "reject" and self.revealed:
            return "cannot_reject_revealed", "a freshly revealed card is used or passed, never rejected (C-TURN-5)"
        if kind == "pass" and not self.revealed:
            return "cannot_pass_rival_card", "a card from the rival is used or rejected, never passed back (C-TURN-5)"
        if kind in ("reject", "pass") and not self._may_decline_card(seat):
            return "fitting_card_must_be_taken", "the card fits your melds: use it or force it (TC-FORCE-2)"
        if kind == "force":
            if not self.profile.onto_rival:
                return "no_forcing_onto_rival", "this profile never adds a card to the rival's melds (AA-MELD-1)"
            if not self.table.fits(self.exposed[other(seat)], card):
                return "card_does_not_fit", "the card does not fit the rival's exposed melds alone (C-FORCE-1)"
        return None

    # -- acting ----------------------------------------------------------------------------
    def apply(self, seat: int, action: dict | Action) -> None:
        """Apply `action` (a JSON object or an Action) by `seat`.

        Raises MalformedInput for a wrong shape and IllegalAction (with a reason code) for a move
        the rules refuse; in both cases the state is left exactly as it was."""
        self.fired_last = []
        _check_seat(seat, "seat")
        act = action if isinstance(action, Action) else parse_action(self.deck, action)
        refusal = self._refusal(seat, act)
        if refusal is not None:
            reason, message = refusal
            # The rules behind the code, less those of another profile (e.g. AA-FORCE-1 behind a
            # decline refused under torno-cisneros-v1).
            own = ("C-", "RUL-", self.profile.rule_prefix + "-")
            self._fire(*(rule for rule in REASONS[reason] if rule.startswith(own)))
            raise IllegalAction(reason, message)
        getattr(self, f"_do_{act.type}")(seat, act)

    def _fire(self, *rule_ids: str) -> None:
        """Record that these rules were applied (read by rule coverage)."""
        if not self.trace:
            return
        self.fired_last.extend(rule_ids)
        self.rules_fired.update(rule_ids)

    def _rule(self, suffix: str) -> str:
        """The profile's own rule id for a concept both profiles share, e.g. "GOAL-1" -> "TC-GOAL-1"."""
        return f"{self.profile.rule_prefix}-{suffix}"

    def _log(self, event: str, **fields) -> None:
        self.history.append({"event": event, **fields})

    def _do_exchange(self, seat: int, act: Action) -> None:
        # TC-XCH-1: both picks are made before either is seen; then the cards are swapped.
        self._fire("TC-XCH-1", "TC-XCH-2")
        self.picks[seat] = act.card
        if None in self.picks:
            return
        given = [bit(c) for c in self.picks]
        self.hands = [self.hands[0] ^ given[0] | given[1], self.hands[1] ^ given[1] | given[0]]
        self._log("exchange", given=[self.deck.name(c) for c in self.picks])
        self._reveal_opening()

    def _reveal_opening(self) -> None:
        # TC-OPEN-1 / AA-OPEN-1 / RUL-7: the top stock card is revealed for the non-dealer.
        self._fire(self._rule("OPEN-1"), "RUL-7")
        self.phase = "play"
        self.active = other(self.dealer)
        self._reveal()

    def _reveal(self) -> None:
        self.available = self._stock.pop()
        self.revealed = True
        self._log("reveal", card=self.deck.name(self.available), seat=self.active)

    def _do_use(self, seat: int, act: Action) -> None:
        # C-TURN-2: the taken card is exposed at once, with the chosen hand cards (RUL-16), all own
        # exposed cards rearranged as needed (C-ARR-2).
        self._fire("C-TURN-2", "C-ARR-2", "C-ARR-3", "RUL-13", "RUL-16")
        if not act.cards:
            self._fire("C-ARR-4", "RUL-3")  # the card was taken alone: it fit the exposed melds
        self._log("use", seat=seat, card=self.deck.name(self.available), cards=self.deck.names(act.cards))
        self.hands[seat] &= ~act.cards
        self.exposed[seat] |= act.cards
        self._take(seat, "target_reached")

    def _take(self, receiver: int, how: str) -> None:
        """The available card joins `receiver`'s exposed cards; then a win (C-END-1) or a discard
        (C-TURN-3)."""
        self.exposed[receiver] |= bit(self.available)
        self.available, self.revealed = None, False
        if self.trace:  # computing the arrangement only to name its meld rules
            self._fire(*self.table.rules_of(self.exposed[receiver]))
        if count(self.exposed[receiver]) == self.profile.target:
            self._fire("C-END-1", self._rule("GOAL-1"), "RUL-1", *(("RUL-6",) if how == "forced_to_target" else ()))
            self._end(Outcome("win", receiver, how))
        else:
            self._fire("C-TURN-3")
            self.phase, self.discarder = "discard", receiver

    def _do_discard(self, seat: int, act: Action) -> None:
        # C-TURN-3: the discard becomes the available card for the other seat, whose turn begins.
        self._fire("C-TURN-3", "C-TURN-1")
        if self.hands[seat] == bit(act.card):
            self._fire("C-END-2", self._rule("GOAL-1"))  # emptying the hand below the target does not win
        self.hands[seat] &= ~bit(act.card)
        self._log("discard", seat=seat, card=self.deck.name(act.card))
        self.available, self.revealed = act.card, False
        self.phase, self.active, self.discarder = "play", other(seat), None

    def _do_reject(self, seat: int, act: Action) -> None:
        if self._rival_may_force(seat):
            self._ask_rival("reject")
        else:
            self._reject(seat)

    def _do_pass(self, seat: int, act: Action) -> None:
        if self._rival_may_force(seat):
            self._ask_rival("pass")
        else:
            self._pass(seat)

    def _rival_may_force(self, seat: int) -> bool:
        # AA-FORCE-1 / RUL-14: declining a card that fits one's own melds lets the rival decide.
        return self.profile.own_fit == "rival_option" and self.table.fits(self.exposed[seat], bit(self.available))

    def _ask_rival(self, declared: str) -> None:
        self._fire("AA-FORCE-1", "RUL-14", "C-ARR-4", "RUL-3")
        self._log(declared, seat=self.active, card=self.deck.name(self.available), pending=True)
        self.phase, self.pending = "force_decision", declared

    def _reject(self, seat: int) -> None:
        # C-TURN-4: out of play for good (C-TURN-7, RUL-8); reveal the next card for the same seat,
        # or, with an empty stock, the deal is a draw (C-END-3, RUL-9).
        self._fire("C-TURN-4", "C-TURN-7", "RUL-8")
        self.out_of_play.append(self.available)
        if not self.pending:
            self._log("reject", seat=seat, card=self.deck.name(self.available))
        self.available = None
        if not self._stock:
            self._fire("C-END-3", "RUL-9", self._rule("END-1"))
            self._end(Outcome("draw", None, "stock_exhausted"))
        else:
            self._reveal()

    def _pass(self, seat: int) -> None:
        # C-TURN-5: the revealed card goes to the rival as its available card; no discard.
        self._fire("C-TURN-5")
        if not self.pending:
            self._log("pass", seat=seat, card=self.deck.name(self.available))
        self.revealed, self.active = False, other(seat)

    def _do_force(self, seat: int, act: Action) -> None:
        # C-FORCE-1: the card joins the receiver's melds alone (RUL-11); the receiver discards and
        # the forcer moves next with that discard (RUL-5), unless the receiver reaches the target (RUL-6).
        if self.phase == "force_decision":
            receiver = self.active
            self._fire("AA-FORCE-2")
        else:
            receiver = other(seat)
            self._fire("TC-FORCE-1", "TC-FORCE-3", "RUL-17")
        self._fire("C-FORCE-1", "C-ARR-4", "RUL-3", "RUL-4", "RUL-5", "RUL-11")
        self._log("force", seat=seat, receiver=receiver, card=self.deck.name(self.available))
        self.pending = None
        self.phase = "play"
        self._take(receiver, "forced_to_target")

    def _do_decline(self, seat: int, act: Action) -> None:
        # RUL-14: on a decline the reject or pass takes place as the active seat declared it.
        self._fire("RUL-14")
        self._log("decline", seat=seat)
        declared, self.phase = self.pending, "play"
        if declared == "reject":
            self._reject(self.active)
        else:
            self._pass(self.active)
        self.pending = None

    def _end(self, outcome: Outcome) -> None:
        self.phase, self.outcome = "over", outcome
        self.discarder = None
        self._log("end", **outcome.to_json())

    # -- canonical JSON --------------------------------------------------------------------
    def available_json(self) -> dict | None:
        if self.available is None:
            return None
        return {"card": self.deck.name(self.available), "revealed": self.revealed, "offered_to": self.active}

    def state_json(self) -> dict:
        """The full state in canonical JSON form (every card list in deck order, except the stock
        and the out-of-play cards, which keep their order)."""
        names = self.deck.names
        return {
            "profile": self.profile.id,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": list(self.to_act),
            "hands": [names(h) for h in self.hands],
            "exposed": [names(e) for e in self.exposed],
            "available": self.available_json(),
            "stock": [self.deck.name(c) for c in self.stock],
            "out_of_play": [self.deck.name(c) for c in self.out_of_play],
            "exchange": None if self.picks is None else {"picks": [None if c is None else self.deck.name(c) for c in self.picks]},
            "pending": self.pending,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def observation(self, seat: int) -> dict:
        """What `seat` may know (C-OBS-1); see conquian_ref.engine.observation."""
        from .observation import observe

        return observe(self, seat)


def _check_seat(seat: object, field: str) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
        raise MalformedInput(field, f"a seat is 0 or 1, got {seat!r}")


def _check_every_card_once(profile: Profile, places: dict[str, list[int]]) -> None:
    """Every card of the deck in exactly one place; names the place of a duplicate."""
    seen: dict[int, str] = {}
    for place, cards in places.items():
        for i, card in enumerate(cards):
            if card in seen:
                raise MalformedInput(f"{place}[{i}]", f"{profile.deck.name(card)} is already in {seen[card]}")
            seen[card] = place
    missing = [c for c in profile.deck.ordered() if c not in seen]
    if missing:
        raise MalformedInput("stock", f"cards missing from the deal: {', '.join(profile.deck.names(missing))}")
