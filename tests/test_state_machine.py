"""A Hypothesis state machine over one deal: Hypothesis chooses the actions, legal and illegal.

The machine deals a deal of either profile (an `initialize` rule draws the profile, the deck
seed, the dealer, and a number of warm-up actions played by a seeded policy that likes big uses,
so that late positions - wins, forces, an empty stock - are reached as well as early ones).
Then, step by step, Hypothesis picks one of:

* `play_legal`: a seat among `to_act` plays one of its listed legal actions (an index drawn by
  Hypothesis), which helpers.expected_reason must allow and the engine must accept; exposed
  cards never leave (C-ARR-3) and out-of-play cards never come back (C-TURN-7);
* `try_illegal`: an action that is *not* listed for that seat - another action type, a card the
  seat does not hold, the wrong seat, a random set of hand cards for a use - which must raise
  IllegalAction with a reason code of refusals.REASONS (the one docs/rules/reasons.md gives, as
  read independently by helpers.expected_reason) and leave state_json() and both observations
  exactly as they were;
* `try_malformed`: an unknown card, an unknown type, a wrong shape, a card twice in one use,
  a seat that is not 0 or 1, which must raise MalformedInput and change nothing (also after the
  deal has ended);
* `act_after_the_end`: once the deal has a result, any action of either seat is refused with
  game_over (C-END-4).

After every step the invariants hold: every card is in exactly one place; each seat's exposed
cards can be arranged (C-ARR-1, judged by helpers.naive_arrangeable, not the engine's solver);
hand + exposed equals the hand size except for the taker during a discard step and a winner
(RUL-1, C-END-1), and for a seat with an empty hand where an emptied hand passes the turn
(SATL-TURN-1, RUL-43); only seats in `to_act` have legal actions, and each of them has one; a draw
happens only with an empty stock (C-END-3); the target is reached only through a use or a force
(C-END-1, RUL-6), checked on the last action and the last history event.

The number of runs follows the Hypothesis settings profile of tests/conftest.py ("ci" by
default, HYPOTHESIS_PROFILE=deep for many more).
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from conquian_ref.engine.errors import IllegalAction, MalformedInput
from conquian_ref.engine.refusals import REASONS
from conquian_ref.engine.game import Game

from helpers import AA, TC, all_cards, choose, expected_reason, naive_arrangeable, places

BY_ID = {TC.id: TC, AA.id: AA}
TYPES = ("exchange", "use", "reject", "pass", "force", "decline", "discard")
NOT_CARDS = ("8O", "9C", "8H", "10H", "13B", "0S", "QX", "XS", "", " 7O", "7o", "qs", "1", "B", "7O7O", "12", "KK")


def canonical(profile, action: dict) -> dict:
    if action.get("type") == "use":
        order = {c: i for i, c in enumerate(all_cards(profile))}
        return {"type": "use", "cards": sorted(action["cards"], key=order.get)}
    return action


class DealMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.game: Game | None = None
        self.last: tuple[int, dict] | None = None  # the last accepted action

    # -- setting up ------------------------------------------------------------------------
    @initialize(
        profile_id=st.sampled_from(sorted(BY_ID)),
        seed=st.integers(0, 2**32 - 1),
        dealer=st.integers(0, 1),
        warm_up=st.one_of(st.integers(0, 3), st.integers(0, 80)),  # the start (exchange) is worth a visit
    )
    def deal(self, profile_id, seed, dealer, warm_up):
        self.profile = BY_ID[profile_id]
        self.game = Game.from_deck(self.profile, self.profile.deck.shuffled(seed), dealer)
        rng = random.Random(seed ^ warm_up)
        for _ in range(warm_up):
            if self.game.is_over:
                break
            seat = rng.choice(self.game.to_act)
            action = choose(rng, self.game.legal_actions(seat))
            self.game.apply(seat, action)
            self.last = (seat, action)

    # -- helpers ---------------------------------------------------------------------------
    def snapshot(self):
        return copy.deepcopy((self.game.state_json(), self.game.observation(0), self.game.observation(1)))

    def hand(self, seat: int) -> list[str]:
        return self.game.state_json()["hands"][seat]

    def not_in_hand(self, data, seat: int) -> str:
        held = set(self.hand(seat))
        return data.draw(st.sampled_from([c for c in all_cards(self.profile) if c not in held]), label="card not held")

    def any_card(self, data) -> str:
        return data.draw(st.sampled_from(all_cards(self.profile)), label="card")

    def some_action(self, data, seat: int) -> dict:
        """A well-formed action of any type, its cards from the seat's hand where there are any."""
        kind = data.draw(st.sampled_from(TYPES), label="type")
        hand = self.hand(seat)
        if kind in ("exchange", "discard"):
            return {"type": kind, "card": data.draw(st.sampled_from(hand), label="card") if hand else self.any_card(data)}
        if kind == "use":
            return {"type": "use", "cards": data.draw(st.lists(st.sampled_from(hand), unique=True), label="cards") if hand else []}
        return {"type": kind}

    # -- the rules -------------------------------------------------------------------------
    @precondition(lambda self: self.game is not None and not self.game.is_over)
    @rule(data=st.data())
    def play_legal(self, data):
        game = self.game
        seat = data.draw(st.sampled_from(game.to_act), label="seat")
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="legal index")]
        before = game.state_json()
        # the rules, read independently (melds by the naive solver), allow it too
        assert expected_reason(self.profile, before, seat, action) is None, (seat, action)
        game.apply(seat, action)  # a listed action is accepted
        self.last = (seat, action)
        after = game.state_json()
        for s in (0, 1):  # C-ARR-3: exposed cards never leave
            assert set(before["exposed"][s]) <= set(after["exposed"][s])
        # C-TURN-7: out-of-play cards never come back
        assert after["out_of_play"][: len(before["out_of_play"])] == before["out_of_play"]

    @precondition(lambda self: self.game is not None and not self.game.is_over)
    @rule(data=st.data(), kind=st.sampled_from(("wrong_seat", "other_type", "card_not_in_hand", "use_subset")))
    def try_illegal(self, data, kind):
        game = self.game
        to_act = game.to_act
        if kind == "wrong_seat" and len(to_act) == 2:
            kind = "other_type"  # during the exchange both seats may act
        if kind == "wrong_seat":
            seat = 1 - to_act[0]
            action = self.some_action(data, seat)
        else:
            seat = data.draw(st.sampled_from(to_act), label="seat")
            legal_types = {a["type"] for a in game.legal_actions(seat)}
            if kind == "other_type":
                others = [t for t in TYPES if t not in legal_types]
                kind_drawn = data.draw(st.sampled_from(others), label="other type")
                action = self.some_action_of(data, seat, kind_drawn)
            elif kind == "card_not_in_hand":
                which = data.draw(st.sampled_from(("exchange", "discard", "use")), label="type")
                missing = self.not_in_hand(data, seat)
                if which == "use":
                    hand = self.hand(seat)
                    extra = data.draw(st.lists(st.sampled_from(hand), unique=True, max_size=3), label="hand cards") if hand else []
                    action = {"type": "use", "cards": extra + [missing]}
                else:
                    action = {"type": which, "card": missing}
            else:
                hand = self.hand(seat)
                chosen = data.draw(st.lists(st.sampled_from(hand), unique=True), label="hand cards") if hand else []
                action = {"type": "use", "cards": chosen}
        if canonical(self.profile, action) in game.legal_actions(seat):
            return  # drawn a legal action after all: nothing to check here
        before = self.snapshot()
        state = game.state_json()
        try:
            game.apply(seat, action)
        except IllegalAction as refusal:
            event(f"refused: {refusal.reason}")
            assert refusal.reason in REASONS
            assert refusal.reason == expected_reason(self.profile, state, seat, action), (seat, action, refusal.reason)
        else:
            raise AssertionError(f"seat {seat} {action} was accepted but is not listed as legal")
        assert self.snapshot() == before, f"the refused {action} changed the state"

    def some_action_of(self, data, seat: int, kind: str) -> dict:
        hand = self.hand(seat)
        if kind in ("exchange", "discard"):
            card = data.draw(st.sampled_from(hand), label="card") if hand else self.any_card(data)
            return {"type": kind, "card": card}
        if kind == "use":
            return {"type": "use", "cards": data.draw(st.lists(st.sampled_from(hand), unique=True), label="cards") if hand else []}
        return {"type": kind}

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def try_malformed(self, data):
        profile = self.profile
        bad_card = data.draw(st.sampled_from([c for c in NOT_CARDS if not _is_card(profile, c)]), label="not a card")
        card = self.any_card(data)
        glyph = profile.deck.glyph(profile.deck.parse(card))
        candidates = [
            # unknown card
            {"type": "discard", "card": bad_card},
            {"type": "exchange", "card": bad_card},
            {"type": "use", "cards": [card, bad_card]},
            # unknown type
            {"type": "draw"},
            {"type": "USE", "cards": []},
            {"type": None},
            {"type": 3},
            {},
            {"cards": [card]},
            # wrong shape
            None,
            "reject",
            ["use", [card]],
            7,
            {"type": "discard"},
            {"type": "use"},
            {"type": "reject", "card": card},
            {"type": "pass", "cards": []},
            {"type": "discard", "card": card, "cards": [card]},
            {"type": "discard", "card": [card]},
            {"type": "discard", "card": 5},
            {"type": "use", "cards": card},
            {"type": "use", "cards": {card: 1}},
            {"type": "use", "cards": [card, 3]},
            {"type": "use", "cards": [[card]]},
            # a card twice in one use, also under its two spellings (C-DECK-2)
            {"type": "use", "cards": [card, card]},
            {"type": "use", "cards": [card, glyph]},
        ]
        action = data.draw(st.sampled_from(candidates), label="malformed action")
        seat = data.draw(st.integers(0, 1), label="seat")
        before = self.snapshot()
        try:
            self.game.apply(seat, action)
        except MalformedInput:
            pass
        else:
            raise AssertionError(f"{action!r} was accepted")
        assert self.snapshot() == before
        # a seat that is not 0 or 1, with an otherwise listed action
        bad_seat = data.draw(st.sampled_from((2, -1, "0", True, None, 0.0)), label="bad seat")
        legal = [a for s in self.game.to_act for a in self.game.legal_actions(s)] or [{"type": "reject"}]
        try:
            self.game.apply(bad_seat, legal[0])
        except MalformedInput:
            pass
        else:
            raise AssertionError(f"seat {bad_seat!r} was accepted")
        assert self.snapshot() == before

    @precondition(lambda self: self.game is not None and self.game.is_over)
    @rule(data=st.data())
    def act_after_the_end(self, data):
        seat = data.draw(st.integers(0, 1), label="seat")
        action = self.some_action(data, seat)
        before = self.snapshot()
        try:
            self.game.apply(seat, action)
        except IllegalAction as refusal:
            assert refusal.reason == "game_over"
        else:
            raise AssertionError("an action was accepted after the result")
        assert self.snapshot() == before

    # -- invariants ------------------------------------------------------------------------
    @precondition(lambda self: self.game is not None)
    @invariant()
    def every_card_in_exactly_one_place(self):
        assert places(self.game) == Counter({c: 1 for c in all_cards(self.profile)})

    @precondition(lambda self: self.game is not None)
    @invariant()
    def exposed_cards_can_be_arranged(self):
        state = self.game.state_json()
        for seat in (0, 1):
            assert naive_arrangeable(self.profile, state["exposed"][seat]), state["exposed"][seat]

    @precondition(lambda self: self.game is not None)
    @invariant()
    def hand_plus_exposed_is_the_hand_size(self):
        state = self.game.state_json()
        n = self.profile.hand_size
        sizes = [len(state["hands"][s]) + len(state["exposed"][s]) for s in (0, 1)]
        # SATL-TURN-1 / RUL-43: where an emptied hand passes the turn, a seat with an empty hand
        # may hold one card more, taken with no discard after it
        emptied = self.profile.data.get("empty_hand") == "turn_passes"

        def holds(seat, size):
            return sizes[seat] == size or (emptied and not state["hands"][seat] and sizes[seat] == size + 1)

        phase = state["phase"]
        if phase in ("exchange", "play", "force_decision"):
            assert holds(0, n) and holds(1, n), (phase, sizes)
        elif phase == "discard":
            taker = state["to_act"][0]
            assert sizes[taker] == n + 1 and holds(1 - taker, n), (phase, sizes)
        elif state["outcome"]["result"] == "win":
            winner = state["outcome"]["winner"]
            assert holds(winner, n + 1) and holds(1 - winner, n), sizes
        else:
            assert holds(0, n) and holds(1, n), sizes

    @precondition(lambda self: self.game is not None)
    @invariant()
    def only_seats_to_act_have_legal_actions(self):
        game = self.game
        for seat in (0, 1):
            legal = game.legal_actions(seat)
            if seat in game.to_act:
                assert legal, f"seat {seat} is to act and has no legal action"
            else:
                assert legal == [], (seat, game.to_act, legal)
        assert (game.to_act == ()) == game.is_over

    @precondition(lambda self: self.game is not None)
    @invariant()
    def a_draw_only_with_an_empty_stock(self):
        state = self.game.state_json()
        outcome = state["outcome"]
        if outcome is not None and outcome["result"] == "draw":
            assert state["stock"] == [] and outcome["how"] == "stock_exhausted" and outcome["winner"] is None
            # SATL-TURN-1 / RUL-43: a take that empties the hand passes the turn, which, with an
            # empty stock, draws the deal as a refusal would
            enders = ("reject", "decline") + (("use", "force") if self.profile.data.get("empty_hand") == "turn_passes" else ())
            assert self.last is not None and self.last[1]["type"] in enders, self.last

    @precondition(lambda self: self.game is not None)
    @invariant()
    def the_target_only_through_a_use_or_a_force(self):
        state = self.game.state_json()
        target = self.profile.target
        outcome = state["outcome"]
        if outcome is not None:
            event(f"{self.profile.id}: {outcome['how']}")
        if outcome is None or outcome["result"] != "win":
            assert all(len(e) < target for e in state["exposed"]), state["exposed"]
            return
        winner = outcome["winner"]
        assert len(state["exposed"][winner]) == target
        seat, action = self.last
        history = self.game.history
        assert history[-1]["event"] == "end"
        if outcome["how"] == "target_reached":  # C-END-1: a use by the winner
            assert action["type"] == "use" and seat == winner, self.last
            assert history[-2]["event"] == "use" and history[-2]["seat"] == winner
        else:  # RUL-6: a force received by the winner
            assert outcome["how"] == "forced_to_target"
            assert action["type"] == "force", self.last
            assert history[-2]["event"] == "force" and history[-2]["receiver"] == winner


def _is_card(profile, text: str) -> bool:
    try:
        profile.deck.parse(text)
    except MalformedInput:
        return False
    return True


# Each run is short (a deal has some 30 to 80 actions, and the warm-up skips ahead); more runs
# than the profile's base number of examples, as the other random-game tests do.
DealMachine.TestCase.settings = settings(settings(), max_examples=settings().max_examples * 4, stateful_step_count=50)
TestDealMachine = DealMachine.TestCase
