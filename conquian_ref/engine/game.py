"""The state machine of one deal: who may act, what is legal, what happens.

Implements the turn rules of docs/rules/core.md and of the profiles: C-DEAL-1, RUL-10, RUL-15
(dealing from an explicit deck order), the exchange (the profile's `rules.exchange`), the
opening card (`rules.opening`: RUL-7, or the two offers of RUL-20), C-TURN-1..7 (use, discard,
reject, pass), C-FORCE-1 in each profile's form (RUL-4: `forcing.onto_rival`, RUL-17;
`forcing.own_fit`, RUL-14 / RUL-23; `forcing.fit`, RUL-3 / RUL-22), the placement of the taken
card under `meld_timing: discard_then_meld` (RUL-35), C-END-1..3 (win, empty hand, stock
exhaustion, with `rules.goal` and `rules.stock_exhaustion`) and going rummy (RUL-24).

The rules as tables live beside it: the phases and what each admits (`phases`), the refusals in
their order of precedence (`refusals`), the endings (`outcome.How`); the setup checks are in
`setup`, the canonical JSON state in `state`. Every action is checked completely before anything
changes (`_refusal`), so a refused action leaves the state exactly as it was.

The rule trace (for rule coverage, off with `trace = False`; see `trace`): `rules_fired` holds
the rules whose check ran or that decided what happened in this deal; `rules_by_construction`
the rules that hold because of how the data and the actions are built (no code decides them);
`fired_last` the rules of the last `apply` (or of the setup).
"""

from __future__ import annotations

import copy

from .actions import FIELDS, Action, check_action, parse_action, resolved
from .cards import bit, cards_of, count, deck_order_key, distinct, mask_of
from .dealing import deal
from .errors import IllegalAction
from .melds import meld_table
from .outcome import How, Outcome
from .phases import PHASES, SEATS, Phase
from .profile import Profile
from .refusals import BY_CODE, message, refusal, traced_rules
from .setup import check_dealt, check_seat, parse_deck_order
from .state import available_json, state_json
from .trace import rules_by_construction

__all__ = ["SEATS", "Game", "Phase", "other", "rules_by_construction"]


_SHARED = ("profile", "deck", "table", "rules_by_construction")
_DO = {kind: f"_do_{kind}" for kind in FIELDS}  # the method that carries out each action type
# The actions without cards, made once (an Action is immutable).
_FORCE, _PASS, _REJECT, _DECLINE = Action("force"), Action("pass"), Action("reject"), Action("decline")

# The opening styles (the profile's `opening.style`): the ruling behind each, and whether the
# dealer's refusal of the opening card reveals the next card for the non-dealer (RUL-20) instead
# of for the refusing seat, as any other reject does (C-TURN-4, RUL-7).
OPENINGS: dict[str, tuple[str, bool]] = {
    "revealed_to_non_dealer": ("RUL-7", False),
    "offered_to_both_then_draw": ("RUL-20", True),
}
# The rulings that fixed a profile's hand size and target (RUL-1 holds for all): each is cited
# where the deal is dealt and where the target is reached, under the profile that follows it.
HAND_SIZE_RULINGS = ("RUL-30", "RUL-31", "RUL-32", "RUL-37")
# What "fits" means for forcing (the profile's `forcing.fit`), and the rules behind the test.
FITS: dict[str, tuple[str, ...]] = {
    "any_arrangement": ("C-ARR-4", "RUL-3"),  # it joins the exposed cards alone, any repartition
    "extension": ("RUL-22",),  # it extends one meld of some arrangement
}


def other(seat: int) -> int:
    """The rival of a seat in a two-player deal (the engine itself asks `Profile.next_seat`)."""
    return 1 - seat


class Game:
    """One deal of Conquian between the profile's seats: two players, or four in two
    partnerships whose exposed cards are pooled per team (RUL-36, RUL-38)."""

    # -- setting up ------------------------------------------------------------------------
    def __init__(self, profile: Profile, hands: list[int], stock: list[int], dealer: int):
        """Start a deal from dealt hands (bit masks) and the stock (card indices, top first).
        Use `from_deck` or `from_deal`, which check their input."""
        self.profile = profile
        self.deck = profile.deck
        self.table = meld_table(profile)
        self.dealer = dealer
        self.hands = list(hands)  # one per seat
        self.exposed = [0] * profile.teams  # one per team: with two players, one per seat
        self._stock = list(reversed(stock))  # top card last, so taking it is a cheap pop()
        self.out_of_play: list[int] = []
        self.available: int | None = None
        self.revealed = False  # the available card was revealed by/for the seat holding it
        self.active = profile.next_seat(dealer)  # whose turn it is: the seat after the dealer plays first
        self.discarder: int | None = None
        self.pending: str | None = None  # "reject" or "pass" awaiting the rival's decision
        self.picks: list[int | None] | None = [None, None] if profile.exchange_cards else None
        self.outcome: Outcome | None = None
        self.opening_card = False  # the available card is the opening card, still on offer (RUL-20)
        self.history: list[dict] = []
        self.rules_fired: set[str] = set()  # checked: a check ran and decided something
        self.rules_by_construction = rules_by_construction(profile)  # a frozenset, shared by clones
        self.fired_last: list[str] = []  # the rules checked in the last apply (or in the setup)
        self.trace = True  # record the rules checked, for rule coverage (off in benchmarks)
        self._listed: tuple[int, tuple[Action, ...]] | None = None  # the last legal() listing: (seat, actions)
        if self.picks is not None:
            self.phase = Phase.EXCHANGE
        else:
            self._reveal_opening()

    @classmethod
    def from_deck(cls, profile: Profile, deck_order: list[str], dealer: int) -> "Game":
        """Deal from an explicit deck order, top card first (C-DEAL-1, RUL-10, RUL-15): packets of
        the profile's size go alternately to each seat, non-dealer first; the rest is the stock."""
        check_seat(dealer, "dealer", profile.seats)
        game = cls._dealt(profile, parse_deck_order(profile, deck_order), dealer)
        game._fire("C-DECK-2", "RUL-28")  # every card name of the deck order was read
        return game

    @classmethod
    def _dealt(cls, profile: Profile, order: list[int], dealer: int) -> "Game":
        hands, stock = deal(profile, order, dealer)
        game = cls(profile, [mask_of(h) for h in hands], stock, dealer)
        # RUL-10 (one card at a time) or RUL-18 (packets of two), whichever the profile follows;
        # RUL-36: with four seats the first player, after the dealer, is dealt first.
        if game.trace:
            game._fire("C-DEAL-1", "RUL-10", "RUL-15", "RUL-18", "RUL-36", profile.rule("deal"), *HAND_SIZE_RULINGS)
        return game

    @classmethod
    def from_deal(cls, profile: Profile, hands: list[list[str]], stock: list[str], dealer: int) -> "Game":
        """Start from hands as dealt and the stock (top first); every card exactly once. No deck
        is dealt, so the dealing pattern (C-DEAL-1, RUL-10, RUL-15) is not applied; the profile's
        deal rule (hand size, stock size) holds by construction: other hands are refused."""
        check_seat(dealer, "dealer", profile.seats)
        parsed, stock_cards = check_dealt(profile, hands, stock)
        game = cls(profile, [mask_of(h) for h in parsed], stock_cards, dealer)
        game._fire("C-DECK-2", "RUL-28")  # every card name of the hands and the stock was read
        game.rules_by_construction |= {profile.rule("deal")}
        return game

    @classmethod
    def from_seed(cls, profile: Profile, seed: int, dealer: int = 0) -> "Game":
        """A deal from a seeded shuffle (a convenience: the rules only know deck orders)."""
        check_seat(dealer, "dealer", profile.seats)
        return cls._dealt(profile, profile.deck.shuffled_indices(seed), dealer)

    def clone(self) -> "Game":
        return copy.deepcopy(self)

    def __deepcopy__(self, memo):
        # The profile, its meld table and the frozen rule set are shared, immutable; the rest is copied.
        new = object.__new__(type(self))  # a subclass (a mutant engine) stays itself
        for key, value in self.__dict__.items():
            new.__dict__[key] = value if key in _SHARED else copy.deepcopy(value, memo)
        return new

    # -- who acts --------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (conquian_ref.engine.phases): both during the exchange
        until each has picked."""
        return PHASES[self.phase].seats(self)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def exposed_of(self, seat: int) -> int:
        """The exposed cards of the seat's team (its own, with two players; RUL-38)."""
        return self.exposed[self.profile.team_of(seat)]

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> list[int]:
        """The stock, top card first."""
        return self._stock[::-1]

    # -- legality --------------------------------------------------------------------------
    def legal(self, seat: int) -> list[Action]:
        """Every legal action of `seat`, sorted by type name, then by cards in deck order: the
        action types the phase admits, listed by the phase's lister (conquian_ref.engine.phases)."""
        phase = PHASES[self.phase]
        if seat not in phase.seats(self):
            return []
        actions = getattr(self, phase.lister)(seat)
        self._listed = (seat, tuple(actions))  # a copy: the caller may change the list it gets
        return actions

    def legal_actions(self, seat: int) -> list[dict]:
        """Every legal action of `seat` in canonical JSON form, sorted."""
        return [a.to_json(self.deck) for a in self.legal(seat)]

    def _legal_exchange(self, seat: int) -> list[Action]:
        return [Action("exchange", card=c) for c in self._choosable(seat)]

    def _legal_discard(self, seat: int) -> list[Action]:
        return [Action("discard", card=c) for c in self._choosable(seat)]

    def _choosable(self, seat: int) -> list[int]:
        """The seat's hand cards to choose one from, in deck order: with two copies of a card, the
        first copy held only (RUL-34: a multiset, so the two are one choice). The lists of the
        play phase need no such care: each use is a different multiset (melds.legal_uses)."""
        hand = self.hands[seat]
        return cards_of(hand if self.deck.copies == 1 else distinct(hand, self.deck.low))

    def _legal_decision(self, seat: int) -> list[Action]:
        # The card fits the active seat's melds (that is why the decision was opened): both go.
        return [_DECLINE, _FORCE]

    def _legal_nothing(self, seat: int) -> list[Action]:
        return []

    def _legal_play(self, seat: int) -> list[Action]:
        """force (onto the rival's melds, when the profile allows it and the card fits there),
        pass or reject (whichever the card allows, unless the seat must take it), use."""
        card, profile, table = bit(self.available), self.profile, self.table
        actions = []
        if profile.onto_rival and self.fits_for_forcing(self.exposed_of(profile.next_seat(seat)), card):
            actions.append(_FORCE)
        if self._may_decline_card(seat):
            actions.append(_PASS if self.revealed else _REJECT)
        exposed = self.exposed_of(seat)
        uses = table.legal_uses(exposed, card, self.hands[seat])
        if uses and profile.meld_timing == "discard_then_meld":  # RUL-35: placed as the melds lie
            uses = [s for s in uses if table.placeable(exposed, card | s)]
        if uses and profile.partnerships:  # RUL-38: a discard must follow
            uses = [s for s in uses if not self.leaves_nothing_to_discard(seat, s)]
        if uses:  # in deck order of their cards, as Action.sort_key orders them (uses only here)
            actions += [Action("use", cards=s) for s in sorted(uses, key=deck_order_key)]
        return actions

    def fits_for_forcing(self, exposed: int, card_bit: int) -> bool:
        """Whether the card fits these exposed cards for forcing, in the profile's sense
        (`forcing.fit`): any repartition (C-ARR-4, RUL-3) or the extension of one meld (RUL-22)."""
        if self.profile.fit == "extension":
            return exposed != 0 and self.table.extends(exposed, card_bit)
        return self.table.fits(exposed, card_bit)

    def _may_decline_card(self, seat: int) -> bool:
        """Under `forcing.own_fit: automatic` (the profile's `rules.fitting_card_taken`) a card that
        fits the seat's own melds may not be rejected or passed."""
        return not (
            self.profile.own_fit == "automatic" and self.fits_for_forcing(self.exposed_of(seat), bit(self.available))
        )

    def leaves_nothing_to_discard(self, seat: int, cards: int) -> bool:
        """RUL-38: taking the available card with these hand cards would leave the seat no hand
        card to discard while its team is short of the target. (With two players this never
        happens: exposed and hand cards add up to the hand size after every turn, RUL-1.)"""
        return not self.hands[seat] & ~cards and count(self.exposed_of(seat) | cards) + 1 != self.profile.target

    def _fit_rules(self) -> tuple[str, ...]:
        return FITS[self.profile.fit] + self.profile.own_rules("force_fit")

    def card_rules(self) -> tuple[str, ...]:
        """The profile's own rules for the kind of available card at hand (RULE_KEYS_OPTIONAL):
        the opening card, a freshly revealed card, or a card laid down by the rival."""
        if self.opening_card:
            return (self.profile.rule("opening"),)
        return self.profile.own_rules("drawn_card" if self.revealed else "take_discard")

    def _refusal(self, seat: int, act: Action) -> tuple[str, str] | None:
        """Why the rules refuse `act` by `seat` now, as (reason code, message); None if legal.
        Pure: it changes nothing. The first row of refusals.REFUSALS that applies."""
        row = refusal(self, seat, act)
        return None if row is None else (row.code, message(row, self, seat, act))

    # -- acting ----------------------------------------------------------------------------
    def apply(self, seat: int, action: dict | Action) -> None:
        """Apply `action` (a JSON object or an Action) by `seat`.

        Raises MalformedInput for a wrong shape and IllegalAction (with a reason code) for a move
        the rules refuse; in both cases the state is left exactly as it was. One of the Action
        objects that legal(seat) returned in this very state is applied without checking it
        again (it is legal by construction); any other object is checked in full."""
        self.fired_last = []
        act = self._listed_action(seat, action)
        if act is not None:
            # One of the very objects legal() listed for this seat in this state (nothing has been
            # applied since): legal by construction, so the checks below would find nothing.
            # Skipping them is most of the cost of applying an action a simulation chose.
            if self.deck.copies > 1 and self.trace and (act.card is not None or act.cards):
                self._fire("RUL-34")  # as _held_copies would: the listed copies are the held ones
        else:
            check_seat(seat, "seat", self.profile.seats)
            act = check_action(self.deck, action) if isinstance(action, Action) else parse_action(self.deck, action)
            act = self._held_copies(seat, act)
            refused = self._refusal(seat, act)
            if refused is not None:
                reason, text = refused
                self._fire_refusal(reason, act)
                raise IllegalAction(reason, text)
        self._listed = None  # the state changes now: the listing no longer holds
        getattr(self, _DO[act.type])(seat, act)

    def _listed_action(self, seat: int, action: object) -> Action | None:
        """`action` if it is one of the objects the last legal(seat) returned, in this state."""
        listed = self._listed
        if listed is not None and listed[0] == seat:
            for listed_action in listed[1]:
                if listed_action is action:
                    return action
        return None

    def _held_copies(self, seat: int, act: Action) -> Action:
        """Two copies (RUL-34): the cards named, as the copies `seat` holds (actions.resolved)."""
        if self.deck.copies == 1:
            return act
        if act.card is not None or act.cards:
            self._fire("RUL-34")
        return resolved(self.deck, act, self.hands[seat])

    def _fire_refusal(self, reason: str, act: Action) -> None:
        """The rules a refusal checked: those of its situation, or those behind its code less the
        ones that do not apply under this profile (e.g. RUL-14, the rival's force decision, behind
        a decline refused where there is no such decision). See refusals.traced_rules."""
        if self.trace:
            self._fire(*traced_rules(BY_CODE[reason], self, act))

    def _fire(self, *rule_ids: str) -> None:
        """Record that these rules were checked (read by rule coverage). A ruling is recorded only
        under a profile that follows it (its `rules.rulings`): where two rulings settle one
        question for different profiles (RUL-14 and RUL-23), the code names both."""
        if not self.trace:
            return
        rulings = self.profile.rulings
        rule_ids = [r for r in rule_ids if r in rulings or not r.startswith("RUL-")]
        self.fired_last.extend(rule_ids)
        self.rules_fired.update(rule_ids)

    def _log(self, event: str, **fields) -> None:
        self.history.append({"event": event, **fields})

    def _do_exchange(self, seat: int, act: Action) -> None:
        # The exchange: both picks are made before either is seen; then the cards are swapped.
        if self.trace:
            self._fire(self.profile.rule("exchange"), self.profile.rule("exchange_privacy"))
        self.picks[seat] = act.card
        if None in self.picks:
            return
        given = [bit(c) for c in self.picks]
        self.hands = [self.hands[0] ^ given[0] | given[1], self.hands[1] ^ given[1] | given[0]]
        self._log("exchange", given=[self.deck.name(c) for c in self.picks])
        self._reveal_opening()

    def _reveal_opening(self) -> None:
        # The opening (RUL-7, RUL-20): the top stock card is revealed for the non-dealer (under the
        # two offers it is the starter, the profile's `rules.starter`).
        if self.trace:
            self._fire(self.profile.rule("opening"), OPENINGS[self.profile.opening_style][0], *self.profile.own_rules("starter"))
        self.phase = Phase.PLAY
        self.active = self.profile.next_seat(self.dealer)
        self._reveal()
        self.opening_card = True

    def _reveal(self) -> None:
        self.available = self._stock.pop()
        self.revealed = True
        self._log("reveal", card=self.deck.name(self.available), seat=self.active)

    def _do_use(self, seat: int, act: Action) -> None:
        # C-TURN-2: the taken card is exposed at once, with the chosen hand cards (RUL-16), all own
        # exposed cards rearranged as needed (C-ARR-2).
        if self.trace:
            self._fire("C-TURN-2", "C-ARR-2", "RUL-16", "RUL-21", *self.profile.own_rules("arrangement"), *self.card_rules())
        if self.profile.partnerships:
            if self.trace:
                self._fire("RUL-38", *self.profile.own_rules("pooled_melds"))  # into the team's pool
        if self.profile.meld_timing == "discard_then_meld":
            self._fire("RUL-35")  # placed before any rearrangement
        if not act.cards:
            self._fire("C-ARR-4", "RUL-3")  # the card was taken alone: it fit the exposed melds
        self._log("use", seat=seat, card=self.deck.name(self.available), cards=self.deck.names(act.cards))
        # RUL-24: all the cards of a winning use by a seat with nothing exposed go down at once.
        team = self.profile.team_of(seat)
        how = How.RUMMY if self.profile.going_rummy and not self.exposed[team] else How.TARGET_REACHED
        self.hands[seat] &= ~act.cards
        self.exposed[team] |= act.cards
        self._take(seat, how)

    def _take(self, receiver: int, how: How) -> None:
        """The available card joins `receiver`'s exposed cards; then a win (C-END-1, ending `how`)
        or a discard (C-TURN-3)."""
        team = self.profile.team_of(receiver)
        self.exposed[team] |= bit(self.available)
        self.available, self.revealed, self.opening_card = None, False, False
        if self.trace:  # computing the arrangement only to name its meld rules
            self._fire(*self.table.rules_of(self.exposed[team]))
        if count(self.exposed[team]) == self.profile.target:
            # RUL-1 and, where the profile follows one, the ruling that fixed its hand size and
            # target (RUL-30, RUL-31, RUL-32; RUL-37 per team).
            if self.trace:
                self._fire("C-END-1", self.profile.rule("goal"), "RUL-1", *HAND_SIZE_RULINGS, How(how).rule)
            if self.profile.going_rummy and how in (How.RUMMY, How.TARGET_REACHED):
                if self.trace:
                    self._fire(self.profile.rule("rummy"), "RUL-24")  # checked: rummy or not
            self._end(Outcome("win", receiver, how))
            return
        if how == How.RUMMY:
            how = How.TARGET_REACHED  # not a win: nothing to record
        if self.trace:
            self._fire(self.profile.rule("goal"), *HAND_SIZE_RULINGS)  # the target was checked, and not reached
            self._fire("C-TURN-3", "RUL-19", *self.profile.own_rules("discard_after_meld"))
        if how == How.FORCED_TO_TARGET:
            self._fire("RUL-5")  # the receiver of a force discards; the forcer moves next with it
        self.phase, self.discarder = Phase.DISCARD, receiver

    def _do_discard(self, seat: int, act: Action) -> None:
        # C-TURN-3: the discard becomes the available card for the other seat, whose turn begins.
        if self.trace:
            self._fire("C-TURN-3", "C-TURN-1", "RUL-19", "RUL-39", *self.profile.own_rules("discard_after_meld", "next_seat"))
        if self.hands[seat] == bit(act.card):
            if self.trace:
                self._fire("C-END-2", self.profile.rule("goal"))  # emptying the hand below the target does not win
        self.hands[seat] &= ~bit(act.card)
        self._log("discard", seat=seat, card=self.deck.name(act.card))
        self.available, self.revealed = act.card, False
        self.phase, self.active, self.discarder = Phase.PLAY, self.profile.next_seat(seat), None

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
        # Under `forcing.own_fit: rival_option` (RUL-14, RUL-23): declining a card that fits one's
        # own melds lets the rival decide. Without forcing (the profile's `rules.no_forcing`), a
        # fitting card goes like any other.
        if self.trace:
            self._fire(*self.profile.own_rules("no_forcing"))
        exposed = self.exposed_of(seat)
        if self.profile.own_fit != "rival_option" or not exposed:
            return False
        if self.trace:
            self._fire(self.profile.rule("force_option"), *self._fit_rules())  # the fit is checked
        return self.fits_for_forcing(exposed, bit(self.available)) and not self.leaves_nothing_to_discard(
            seat, 0
        )  # RUL-38: a demand must be possible

    def _ask_rival(self, declared: str) -> None:
        if self.trace:
            self._fire(self.profile.rule("force_option"), "RUL-14", "RUL-23", "RUL-39", *self._fit_rules())
        self._log(declared, seat=self.active, card=self.deck.name(self.available), pending=True)
        self.phase, self.pending = Phase.FORCE_DECISION, declared

    def _reject(self, seat: int) -> None:
        # C-TURN-4: out of play for good (C-TURN-7, RUL-8); reveal the next card for the same seat,
        # or, with an empty stock, the deal is a draw (C-END-3, RUL-9).
        if self.trace:
            self._fire("C-TURN-4", "C-TURN-7", "RUL-8", *self.card_rules())
        self.out_of_play.append(self.available)
        if not self.pending:
            self._log("reject", seat=seat, card=self.deck.name(self.available))
        self.available = None
        if self.opening_card and OPENINGS[self.profile.opening_style][1]:
            self.active = self.profile.next_seat(self.dealer)  # RUL-20: after both offers the non-dealer draws
        self.opening_card = False
        if not self._stock:
            if self.trace:
                self._fire("RUL-9", "RUL-25", self.profile.rule("stock_exhaustion"), How.STOCK_EXHAUSTED.rule)
            self._end(Outcome("draw", None, How.STOCK_EXHAUSTED))
        else:
            self._reveal()

    def _pass(self, seat: int) -> None:
        # C-TURN-5: the revealed card goes to the rival as its available card; no discard.
        if self.trace:
            self._fire("C-TURN-5", "RUL-39", *self.card_rules(), *self.profile.own_rules("next_seat"))
        if self.opening_card:
            self._fire("RUL-40")  # the opening card goes round the table to the dealer
        if not self.pending:
            self._log("pass", seat=seat, card=self.deck.name(self.available))
        # The next seat receives it as a card left by the rival, except the opening card, which
        # stays freshly revealed until it reaches the dealer (RUL-40; with two seats: at once).
        receiver = self.profile.next_seat(seat)
        self.revealed = self.opening_card and receiver != self.dealer
        self.active = receiver

    def _do_force(self, seat: int, act: Action) -> None:
        # C-FORCE-1: the card joins the receiver's melds alone (RUL-11), decided on the exposed
        # cards (C-ARR-4, RUL-3) in the profile's form of forcing (RUL-4).
        if self.phase == Phase.FORCE_DECISION:
            receiver = self.active
            if self.trace:
                self._fire(self.profile.rule("forced_card_alone"))
        else:
            receiver = self.profile.next_seat(seat)
            if self.trace:
                self._fire(self.profile.rule("force_onto_rival"), "RUL-17")
        if self.trace:
            self._fire("C-FORCE-1", "RUL-4", "RUL-11", *self._fit_rules())
        self._log("force", seat=seat, receiver=receiver, card=self.deck.name(self.available))
        self.pending = None
        self.phase = Phase.PLAY
        self._take(receiver, How.FORCED_TO_TARGET)

    def _do_decline(self, seat: int, act: Action) -> None:
        # RUL-14: on a decline the reject or pass takes place as the active seat declared it.
        self._fire("RUL-14")
        self._log("decline", seat=seat)
        declared, self.phase = self.pending, Phase.PLAY
        if declared == "reject":
            self._reject(self.active)
        else:
            self._pass(self.active)
        self.pending = None

    def _end(self, outcome: Outcome) -> None:
        self.phase, self.outcome = Phase.OVER, outcome
        self.discarder = None
        self._log("end", **outcome.to_json())

    # -- canonical JSON --------------------------------------------------------------------
    def available_json(self) -> dict | None:
        """The available card, whether it was revealed, and the seat it is offered to."""
        return available_json(self)

    def state_json(self) -> dict:
        """The full state in canonical JSON form (see conquian_ref.engine.state)."""
        return state_json(self)

    def observation(self, seat: int) -> dict:
        """What `seat` may know (C-OBS-1); see conquian_ref.engine.observation."""
        from .observation import observe

        return observe(self, seat)
