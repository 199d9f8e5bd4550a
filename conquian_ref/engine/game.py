"""The state machine of one deal: the state, and the one interpreter of its rule set.

A deal is played by a rule set (conquian_ref.engine.ruleset): the rows of what happens
(conquian_ref.engine.transitions), of why an action is refused (conquian_ref.engine.refusals), of
what each phase admits (conquian_ref.engine.phases) and the policy entries of the profile
(conquian_ref.engine.policies). `Game` holds the state and runs those rows: `legal` lists the
candidate actions of the phase that no refusal row refuses, so listing and refusing cannot
disagree; `apply` checks an action against the refusal rows before anything changes (a refused
action leaves the state exactly as it was), then runs the transition row of its phase and type.
A house rule is a row replaced: `Game.from_deck(profile, deck, dealer, variants=[...])`.

The rule trace (for rule coverage, off with `trace = False`; see `trace`) is derived from the
rows: `rules_fired` holds the rules of every row that ran and of every refusal row that
refused in this deal; `rules_by_construction` the rules that hold because of how the data and the
actions are built (no row decides them); `fired_last` the rules of the last `apply` (or of the
setup).
"""

from __future__ import annotations

import copy

from .actions import FIELDS, Action, check_action, parse_action, resolved
from .cards import cards_of, count, distinct, mask_of
from .errors import IllegalAction
from .outcome import Outcome
from .phases import SEATS, Phase
from .profile import Profile
from .refusals import legal_among, message, refusal, traced_rules
from .ruleset import RuleSet, Variant, resolve, ruleset_for, step_rules
from .setup import check_dealt, check_seat, parse_deck_order
from .state import available_json, state_json
from .trace import rules_by_construction

__all__ = ["SEATS", "Game", "Phase", "rules_by_construction"]


# What a deal's games share (the rule set and what comes with it: frozen, never changed in play).
_SHARED = ("profile", "_base_profile", "deck", "table", "ruleset", "rules_by_construction", "_steps", "_runs", "_team", "_phases", "_copies")
# The state's lists of ints (or of events never changed once logged), copied one level deep by clone().
_FLAT_LISTS = ("hands", "exposed", "stock_pile", "out_of_play", "picks", "history", "fired_last")
# The rest of the state: ints, bools, None, strings, frozen objects, a tuple (shared by clone()).
_SCALARS = ("dealer", "available", "revealed", "active", "discarder", "pending", "outcome", "opening_card", "phase", "trace", "_listed")
_IMMUTABLE = (int, str, bool, tuple, frozenset, type(None), Outcome)
# The transition row of each (phase, action type): the row named `<phase>.<action type>`.
_TRANSITIONS = {(phase, action_type): f"{phase}.{action_type}" for phase in Phase for action_type in FIELDS}
_NO_VALUE = object()  # a row run without this value (None is a value a row may be given)


class Game:
    """One deal of Conquian between the profile's seats: two players, or four in two
    partnerships whose exposed cards are pooled per team (RUL-36, RUL-38)."""

    # Speed: named slots rather than an instance dict. The rows read and write these attributes at
    # every step; a slot is read through one specialised instruction in CPython 3.11, and an
    # instance dict with many keys falls off the fast path (two attributes more cost 1.5 % of a
    # random game's instructions, valgrind). `__dict__` stays for any attribute a house rule adds.
    __slots__ = (*_SHARED, *_FLAT_LISTS, *_SCALARS, "rules_fired", "__dict__")

    # -- setting up ------------------------------------------------------------------------
    def __init__(self, profile: Profile, hands: list[int], stock: list[int], dealer: int, variants: tuple[Variant, ...] = ()):
        """Start a deal from dealt hands (bit masks) and the stock (card indices, top first),
        played by the profile's rule set with `variants` (house rules) applied. Use `from_deck`
        or `from_deal`, which check their input."""
        self._base_profile = profile  # the profile before any house rule (play_by)
        self.play_by(variants)
        profile = self.profile
        self.dealer = dealer
        self.hands = list(hands)  # one per seat
        self.exposed = [0] * profile.teams  # one per team: with two players, one per seat
        self.stock_pile = list(reversed(stock))  # the stock, top card LAST: taking it is a cheap pop()
        self.out_of_play: list[int] = []
        self.available: int | None = None
        self.revealed = False  # the available card was revealed by/for the seat holding it
        self.active = profile.next_seat(dealer)  # whose turn it is: the seat after the dealer plays first
        self.discarder: int | None = None
        self.pending: str | None = None  # "reject" or "pass" awaiting the next seat's decision
        self.picks: list[int | None] | None = [None, None] if profile.exchange_cards else None
        self.outcome: Outcome | None = None
        self.opening_card = False  # the available card is the opening card, still on offer (RUL-20)
        self.phase = Phase.PLAY
        self.history: list[dict] = []
        self.rules_fired: set[str] = set()  # checked: a row ran and decided something
        self.fired_last: list[str] = []  # the rules of the last apply (or of the setup)
        self.trace = True  # record the rules of the rows that run, for rule coverage (off in benchmarks)
        self._listed: tuple[int, tuple[Action, ...]] | None = None  # the last legal() listing: (seat, actions)
        self.run("begin")  # the exchange, or the opening card

    def play_by(self, variants: tuple[Variant, ...] = ()) -> None:
        """Play on by the profile's rules with `variants` applied (the rule set and what comes
        with it: the profile as the house rules leave it, its deck and meld table). The deal's
        state is kept as it is: a position taken up with house rules (from_position)."""
        self.ruleset: RuleSet = ruleset_for(self._base_profile, tuple(variants))
        self.profile = profile = self.ruleset.profile  # with the profile fields a variant changes
        self.deck = profile.deck
        self._copies = profile.deck.copies  # read at every apply
        self.table = self.ruleset.melds
        self._steps = self.ruleset.steps  # read at every step
        self._runs = self.ruleset.runs  # {row name: its function}, read at every step without the trace
        self._phases = self.ruleset.phases  # {phase: its row}, read at every listing and to_act
        self._team = tuple(profile.team_of(seat) for seat in profile.seats)  # read at every take and listing
        self.rules_by_construction = rules_by_construction(profile)  # a frozenset, shared by clones
        self._listed = None

    @classmethod
    def from_deck(cls, profile: Profile, deck_order: list[str], dealer: int, variants: tuple[Variant, ...] = ()) -> "Game":
        """Deal from an explicit deck order, top card first (C-DEAL-1, RUL-10, RUL-15): packets of
        the profile's size go round the seats, the seat after the dealer first; the rest is the stock."""
        check_seat(dealer, "dealer", profile.seats)
        # The cards are read with the profile as the house rules leave it (a variant may change the deck).
        game = cls._dealt(profile, parse_deck_order(ruleset_for(profile, tuple(variants)).profile, deck_order), dealer, variants)
        game.run("read_cards")
        return game

    @classmethod
    def _dealt(cls, profile: Profile, order: list[int], dealer: int, variants: tuple[Variant, ...]) -> "Game":
        ruleset = ruleset_for(profile, tuple(variants))
        hands, stock = ruleset.deal(ruleset.profile, order, dealer)
        game = cls(profile, [mask_of(h) for h in hands], stock, dealer, variants)
        game.run("deal_deck_order")
        return game

    @classmethod
    def from_deal(cls, profile: Profile, hands: list[list[str]], stock: list[str], dealer: int, variants: tuple[Variant, ...] = ()) -> "Game":
        """Start from hands as dealt and the stock (top first); every card exactly once. No deck
        is dealt, so the dealing pattern (C-DEAL-1, RUL-10, RUL-15) is not applied; the profile's
        deal rule (hand size, stock size) holds by construction: other hands are refused."""
        check_seat(dealer, "dealer", profile.seats)
        parsed, stock_cards = check_dealt(ruleset_for(profile, tuple(variants)).profile, hands, stock)
        game = cls(profile, [mask_of(h) for h in parsed], stock_cards, dealer, variants)
        game.rules_by_construction |= {profile.rule("deal")}
        game.run("read_cards")
        return game

    @classmethod
    def from_seed(cls, profile: Profile, seed: int, dealer: int = 0, variants: tuple[Variant, ...] = ()) -> "Game":
        """A deal from a seeded shuffle (a convenience: the rules only know deck orders)."""
        check_seat(dealer, "dealer", profile.seats)
        return cls._dealt(profile, profile.deck.shuffled_indices(seed), dealer, variants)

    @classmethod
    def from_position(cls, profile: Profile, position: object, variants: tuple[Variant, ...] = (),
                      reached_by: tuple[Variant, ...] = ()) -> "Game":
        """The deal at a mid-deal position (`position()`'s form: the canonical state, the public
        history, the opening-card flag), replayed by the profile's rules (with `reached_by`, the
        house rules it was reached under) to check it, then played on with `variants`; an
        impossible position is MalformedInput naming the field (conquian_ref.engine.position)."""
        from .position import from_position

        return from_position(cls, profile, position, tuple(variants), tuple(reached_by))

    def position(self) -> dict:
        """This deal's position: what `from_position` takes up (conquian_ref.engine.position)."""
        from .position import position_of

        return position_of(self)

    def clone(self) -> "Game":
        """A copy to play on apart (perft, the fuzzer's planning): the containers of the state
        copied, everything else shared. Written out rather than `copy.deepcopy`, which walked the
        whole object graph and was a fifth of a corpus replay: the state holds ints, tuples,
        frozen objects and lists of them, and the history's events are never changed once
        logged, so one level of copy is a full copy. Any other attribute (a house rule may add
        one) is deep-copied, as before."""
        new = object.__new__(type(self))
        for key in _SHARED + _SCALARS:
            setattr(new, key, getattr(self, key))
        for key in _FLAT_LISTS:
            value = getattr(self, key)
            setattr(new, key, list(value) if value is not None else None)
        new.rules_fired = set(self.rules_fired)
        for key, value in self.__dict__.items():  # what a house rule added
            new.__dict__[key] = value if isinstance(value, _IMMUTABLE) else copy.deepcopy(value)
        return new

    def __deepcopy__(self, memo):
        # copy.deepcopy(game) is a clone: the rule set and the profile stay shared, immutable.
        return self.clone()

    # -- who acts --------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (the phase's row, conquian_ref.engine.phases): both during
        the exchange until each has picked."""
        seats = self._phases[self.phase].seats  # a local before the call: see legal()
        return seats(self)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def exposed_of(self, seat: int) -> int:
        """The exposed cards of the seat's team (its own, with two players; RUL-38)."""
        return self.exposed[self._team[seat]]

    @property
    def stock_count(self) -> int:
        return len(self.stock_pile)

    @property
    def stock(self) -> list[int]:
        """The stock, top card first."""
        return self.stock_pile[::-1]

    # -- legality --------------------------------------------------------------------------
    def legal(self, seat: int) -> list[Action]:
        """Every legal action of `seat`, sorted by type name, then by cards in deck order: the
        phase's candidate actions that no refusal row refuses."""
        if type(seat) is not int:  # a bool or a float equal to a seat is no seat
            check_seat(seat, "seat", self.profile.seats)
        # The phase's row read once; its functions are read into locals before the call: a call
        # of a function held by an instance (not a method) is not on CPython 3.11's fast path.
        phase_rule = self._phases[self.phase]
        seats, candidates = phase_rule.seats, phase_rule.candidates
        if seat not in seats(self):
            return []
        actions = legal_among(self, seat, candidates(self, seat))
        self._listed = (seat, tuple(actions))  # a copy: the caller may change the list it gets
        return actions

    def legal_actions(self, seat: int) -> list[dict]:
        """Every legal action of `seat` in canonical JSON form, sorted."""
        return [a.to_json(self.deck) for a in self.legal(seat)]

    def choosable(self, seat: int) -> list[int]:
        """The seat's hand cards to choose one from, in deck order: with two copies of a card, the
        first copy held only (RUL-34: a multiset, so the two are one choice). The uses of the
        play phase need no such care: each use is a different multiset (melds.legal_uses)."""
        hand = self.hands[seat]
        return cards_of(hand if self.deck.copies == 1 else distinct(hand, self.deck.low))

    def fits_for_forcing(self, exposed: int, card_bit: int) -> bool:
        """Whether the card fits these exposed cards for forcing, in the profile's sense
        (`forcing.fit`, conquian_ref.engine.policies.FITS)."""
        fits = self.ruleset.policies["fit"].fits  # a local before the call: see legal()
        return fits(self.table, exposed, card_bit)

    def leaves_nothing_to_discard(self, seat: int, cards: int) -> bool:
        """RUL-38: taking the available card with these hand cards would leave the seat no hand
        card to discard while its team is short of the target. (With two players this never
        happens: exposed and hand cards add up to the hand size after every turn, RUL-1.) Never
        where an emptied hand passes the turn (RUL-43): no discard is owed."""
        if self.ruleset.policies["empty_hand"].turn_passes:
            return False
        return not self.hands[seat] & ~cards and count(self.exposed_of(seat) | cards) + 1 != self.profile.target

    def card_rules(self) -> tuple[str, ...]:
        """The profile's own rules for the kind of available card at hand (RULE_KEYS_OPTIONAL):
        the opening card, a freshly revealed card, or a card laid down by the rival."""
        if self.opening_card:
            return (self.profile.rule("opening"),)
        return self.profile.own_rules("drawn_card" if self.revealed else "take_discard")

    def refusal(self, seat: int, act: Action) -> tuple[str, str] | None:
        """Why the rules refuse `act` by `seat` now, as (reason code, message); None if legal.
        Pure: it changes nothing. The first row of the refusal table that applies."""
        row = refusal(self, seat, act)
        return None if row is None else (row.code, message(row, self, seat, act))

    # -- acting ----------------------------------------------------------------------------
    def apply(self, seat: int, action: dict | Action) -> None:
        """Apply `action` (a JSON object or an Action) by `seat`.

        Raises MalformedInput for a wrong shape and IllegalAction (with a reason code) for a move
        the rules refuse; in both cases the state is left exactly as it was. One of the Action
        objects that legal(seat) returned in this very state is applied without checking it
        again (no refusal row refused it); any other object is checked in full."""
        self.fired_last = []
        # Whether `action` is one of the very objects the last legal(seat) returned, in this state
        # (written out here, not as a method: every action of a simulation asks it).
        act = None
        listed = self._listed
        if listed is not None and listed[0] == seat and type(seat) is int:  # True == 1, but is no seat
            for listed_action in listed[1]:
                if listed_action is action:
                    act = action
                    break
        if act is None:
            check_seat(seat, "seat", self.profile.seats)
            act = check_action(self.deck, action) if isinstance(action, Action) else parse_action(self.deck, action)
            act = self._held_copies(seat, act)
            row = refusal(self, seat, act)
            if row is not None:
                if self.trace:
                    self._record(traced_rules(row, self, act))
                raise IllegalAction(row.code, message(row, self, seat, act))
        elif self._copies > 1 and (act.card is not None or act.cards):
            self.run("resolve_copies")  # as _held_copies would: the listed copies are the held ones
        self._listed = None  # the state changes now: the listing no longer holds
        transition = _TRANSITIONS[self.phase, act.type]
        if self.trace:
            self.run(transition, seat, act)
        else:  # as run() does without the trace, one call fewer: this is every action of a simulation
            self._runs[transition](self, seat, act)

    def _held_copies(self, seat: int, act: Action) -> Action:
        """Two copies (RUL-34): the cards named, as the copies `seat` holds (actions.resolved)."""
        if self._copies == 1:
            return act
        if act.card is not None or act.cards:
            self.run("resolve_copies")
        return resolved(self.deck, act, self.hands[seat])

    # -- the interpreter of the rows -------------------------------------------------------------
    def run(self, name: str, first=_NO_VALUE, second=_NO_VALUE):
        """Run the row `name` of the rule set (conquian_ref.engine.transitions) with the values it
        takes (none, one or two: a seat, an action, cards, how a deal ends): record its rules in
        the trace, then do what it does."""
        # Speed: a fixed signature rather than `*args`, which keeps this call and the row's own
        # call on CPython's fast path for calls. A transition runs three or four rows; through
        # `*args` each cost 0.15 to 0.25 µs more (timeit), over a quarter of what the rows had
        # added to a random game's instructions (valgrind, docs/performance.md).
        # Without the trace (simulations) the row's function is called straight from a table.
        function = self._runs[name] if not self.trace else self._traced(name)
        if first is _NO_VALUE:
            return function(self)
        if second is _NO_VALUE:
            return function(self, first)
        return function(self, first, second)

    def _traced(self, name: str):
        """Record the rules of the row `name` in the trace (resolved once per rule set, but the
        profile's rule for the kind of available card at hand), and give the row's function."""
        step = self._steps[name]
        rules = self.ruleset.traced.get(name)
        if rules is None:  # a row whose policy entries the rule set lacks: it fails here, as it did
            rules = step_rules(step, self.ruleset.policies, self.profile)
        if step.about_the_card:
            rules = resolve(self.profile, rules + self.card_rules())
        self._record(rules)
        return step.run

    def note_melds(self, exposed: int) -> None:
        """Record the meld rules of an arrangement of these exposed cards (computed only for the
        trace: which rules the melds rest on depends on the cards)."""
        if self.trace:
            self._record(resolve(self.profile, tuple(self.table.rules_of(exposed))))

    def _record(self, rule_ids) -> None:
        self.fired_last.extend(rule_ids)
        self.rules_fired.update(rule_ids)

    def log(self, event: str, **fields) -> None:
        """Add an event to the public history (for house rules; the reference's rows append
        their events as dict literals, which costs a quarter: conquian_ref.engine.transitions)."""
        self.history.append({"event": event, **fields})

    # -- canonical JSON --------------------------------------------------------------------
    def available_json(self) -> dict | None:
        """The available card, whether it was revealed, and the seat it is offered to."""
        return available_json(self)

    def state_json(self) -> dict:
        """The full state in canonical JSON form (see conquian_ref.engine.state)."""
        return state_json(self)

    def observation(self, seat: int) -> dict:
        """What `seat` may know (C-OBS-1); the rule set's `observe` (conquian_ref.engine.observation)."""
        return self.ruleset.observe(self, seat)
