"""Perft, cross-checked by an independent legal-action generator.

`conquian_ref.engine.perft.perft_counts` counts the legal action sequences of depth 1, 2, ... from a
position, using the engine's own move generator (Game.legal) and transitions (Game.apply). This
file counts them again with a second, naive model of the game written from the rule text of
docs/rules/ and sharing nothing with the engine but the profile YAML data:

* positions are plain Python data on card *strings* (hands, exposed cards, the stock top
  first, the out-of-play cards, the available card, the phase);
* the deal follows C-DEAL-1 / RUL-10 / RUL-15 (packets alternately, non-dealer first, the rest
  is the stock, top first);
* the phases follow TC-XCH-1 (both seats pick, in any order, then the swap and the opening),
  TC-OPEN-1 / AA-OPEN-1 / RUL-7 (the top stock card revealed for the non-dealer), C-TURN-2..5
  (use, discard, reject, pass), C-FORCE-1 with TC-FORCE-1..3 (the active player may force onto
  the rival; a card fitting one's own melds may not be rejected or passed) or AA-FORCE-1..2 /
  RUL-14 (a reject or pass of a fitting card first asks the rival to force or decline), and
  C-END-1 / C-END-3 / RUL-6 (win at the target, draw on a reject with an empty stock);
* melds are judged with tests/helpers.py (naive_arrangeable, naive_fits, naive_use_options),
  a plain partition search, never with the engine's meld table;
* a child position is never cloned: the naive perft replays the whole action sequence from the
  deal for every node.

The two counts must agree on every scenario of the corpus that has a `perft` check (at that
step) and on fixed positions of both profiles; the scenario's own numbers must equal the naive
count too. On a mismatch the engine's `divide` and the naive divide are printed side by side.
"""

from __future__ import annotations

import json
import random

import pytest

from conquian_ref.engine.game import Game
from conquian_ref.engine.perft import divide, perft_counts
from conquian_ref.engine.errors import IllegalAction
from conquian_ref.spec.scenario import corpus_dir, load_corpus

from helpers import AA, TC, all_cards, naive_fits, naive_use_options

BY_ID = {TC.id: TC, AA.id: AA}


# --- the naive model, from the rule text ---------------------------------------------------------


def order_of(profile) -> dict[str, int]:
    """Deck order (canonical form of card lists, actions.py docstring): suits, then ranks low to high."""
    return {card: i for i, card in enumerate(all_cards(profile))}


def naive_deal(profile, deck_order: list[str], dealer: int) -> tuple[list[list[str]], list[str]]:
    """C-DEAL-1, RUL-10, RUL-15: packets of deal.packet_size, alternately, non-dealer first, from
    the top (index 0) of the deck order, until each seat holds deal.hand_size; the rest is the
    stock, top first."""
    size, packet = profile.data["deal"]["hand_size"], profile.data["deal"]["packet_size"]
    hands: list[list[str]] = [[], []]
    seat, rest = 1 - dealer, list(deck_order)
    while len(hands[0]) < size or len(hands[1]) < size:
        take = min(packet, size - len(hands[seat]))
        hands[seat] += rest[:take]
        rest = rest[take:]
        seat = 1 - seat
    return hands, rest


class Deal:
    """The starting point of a deal: a profile, hands as dealt, the stock (top first), the dealer."""

    def __init__(self, profile, hands, stock, dealer, deck_order=None):
        self.profile = profile
        self.hands = [list(hands[0]), list(hands[1])]
        self.stock = list(stock)
        self.dealer = dealer
        self.deck_order = deck_order

    @classmethod
    def from_deck(cls, profile, deck_order, dealer):
        hands, stock = naive_deal(profile, deck_order, dealer)
        return cls(profile, hands, stock, dealer, list(deck_order))

    def engine(self) -> Game:
        """The engine's game for this deal: dealt by the engine itself from the deck order when
        there is one (so its dealing is checked against naive_deal too)."""
        if self.deck_order is not None:
            return Game.from_deck(self.profile, self.deck_order, self.dealer)
        return Game.from_deal(self.profile, self.hands, self.stock, self.dealer)


def naive_start(deal: Deal) -> dict:
    """The position right after the deal: the exchange (TC-XCH-1) if the profile has one, else
    the opening card revealed for the non-dealer (AA-OPEN-1)."""
    pos = {
        "dealer": deal.dealer,
        "hands": [set(deal.hands[0]), set(deal.hands[1])],
        "exposed": [set(), set()],
        "stock": list(deal.stock),
        "out": [],
        "available": None,
        "fresh": False,  # the available card was freshly revealed (C-TURN-5)
        "active": 1 - deal.dealer,
        "phase": "exchange",
        "picks": [None, None],
        "discarder": None,
        "pending": None,
        "outcome": None,
    }
    if not deal.profile.data["exchange"]:
        pos["picks"] = None
        _open(pos)
    return pos


def _open(pos: dict) -> None:
    # TC-OPEN-1 / AA-OPEN-1 / RUL-7: the top stock card is revealed and offered to the non-dealer.
    pos["phase"] = "play"
    pos["active"] = 1 - pos["dealer"]
    _reveal(pos)


def _reveal(pos: dict) -> None:
    pos["available"] = pos["stock"].pop(0)
    pos["fresh"] = True


def naive_to_act(pos: dict) -> list[int]:
    phase = pos["phase"]
    if phase == "exchange":  # TC-XCH-1: both seats, in any order, until each has picked
        return [s for s in (0, 1) if pos["picks"][s] is None]
    if phase == "play":
        return [pos["active"]]
    if phase == "discard":
        return [pos["discarder"]]
    if phase == "decide":  # AA-FORCE-1: the rival of the active player decides
        return [1 - pos["active"]]
    return []  # C-END-4


def _fits_own(profile, pos: dict, seat: int) -> bool:
    # C-ARR-4: a player with no exposed cards has no melds for a card to fit.
    own = pos["exposed"][seat]
    return bool(own) and naive_fits(profile, own, pos["available"])


def naive_legal(profile, pos: dict, seat: int) -> list[dict]:
    """Every legal action of `seat`, in canonical JSON form (cards in deck order), from the rules."""
    if seat not in naive_to_act(pos):
        return []
    order = order_of(profile)
    hand = sorted(pos["hands"][seat], key=order.get)
    phase = pos["phase"]
    if phase == "exchange":  # TC-XCH-1: exactly one card of the hand
        return [{"type": "exchange", "card": c} for c in hand]
    if phase == "discard":  # C-TURN-3: exactly one hand card
        return [{"type": "discard", "card": c} for c in hand]
    if phase == "decide":  # AA-FORCE-1, RUL-14: force or decline
        return [{"type": "force"}, {"type": "decline"}]
    forcing = profile.data["forcing"]
    card, rival = pos["available"], 1 - seat
    acts = []
    # C-TURN-2 / RUL-16: one use per set of hand cards that can go down with the card
    for chosen in naive_use_options(profile, pos["exposed"][seat], card, hand):
        acts.append({"type": "use", "cards": sorted(chosen, key=order.get)})
    # C-TURN-4 / C-TURN-5: a fresh card is passed, a rival's card rejected; TC-FORCE-2 forbids
    # both for a card fitting one's own melds (AA-FORCE-1 lets it through, to a decision)
    if not (forcing["own_fit"] == "automatic" and _fits_own(profile, pos, seat)):
        acts.append({"type": "pass"} if pos["fresh"] else {"type": "reject"})
    # TC-FORCE-1 / C-FORCE-1: onto the rival's melds when it fits them; never in AA (AA-MELD-1)
    other = pos["exposed"][rival]
    if forcing["onto_rival"] and other and naive_fits(profile, other, card):
        acts.append({"type": "force"})
    return acts


def naive_apply(profile, pos: dict, seat: int, action: dict) -> None:
    """Apply a legal action (the caller checks legality against naive_legal)."""
    kind = action["type"]
    forcing = profile.data["forcing"]
    if kind == "exchange":
        # TC-XCH-1: picks are private until both are made; then the two cards are swapped
        pos["picks"][seat] = action["card"]
        if None not in pos["picks"]:
            a, b = pos["picks"]
            pos["hands"][0] = pos["hands"][0] - {a} | {b}
            pos["hands"][1] = pos["hands"][1] - {b} | {a}
            _open(pos)
    elif kind == "use":
        # C-TURN-2: the card and the named hand cards are exposed together
        pos["hands"][seat] -= set(action["cards"])
        pos["exposed"][seat] |= set(action["cards"])
        _take(profile, pos, seat, "target_reached")
    elif kind == "discard":
        # C-TURN-3: the discard is offered to the other seat, whose turn begins
        pos["hands"][seat].discard(action["card"])
        pos["available"], pos["fresh"] = action["card"], False
        pos["active"], pos["phase"], pos["discarder"] = 1 - seat, "play", None
    elif kind in ("reject", "pass"):
        if forcing["own_fit"] == "rival_option" and _fits_own(profile, pos, seat):
            # AA-FORCE-1 / RUL-14: the rival first decides
            pos["phase"], pos["pending"] = "decide", kind
        elif kind == "reject":
            _reject(pos)
        else:
            _pass(pos)
    elif kind == "force":
        # C-FORCE-1: alone onto the receiver's melds (RUL-11); in AA the receiver is the active
        # player (AA-FORCE-2), in TC the rival of the forcer (TC-FORCE-1)
        receiver = pos["active"] if pos["phase"] == "decide" else 1 - seat
        pos["phase"], pos["pending"] = "play", None
        _take(profile, pos, receiver, "forced_to_target")
    elif kind == "decline":
        # RUL-14: the reject or pass takes place as declared
        declared = pos["pending"]
        pos["phase"], pos["pending"] = "play", None
        _reject(pos) if declared == "reject" else _pass(pos)
    else:  # pragma: no cover
        raise AssertionError(kind)


def _take(profile, pos: dict, receiver: int, how: str) -> None:
    # C-END-1 / RUL-6: the target wins at once; otherwise the receiver discards (C-TURN-3, RUL-5)
    pos["exposed"][receiver].add(pos["available"])
    pos["available"], pos["fresh"] = None, False
    if len(pos["exposed"][receiver]) == profile.data["target"]:
        pos["phase"], pos["outcome"] = "over", {"result": "win", "winner": receiver, "how": how}
    else:
        pos["phase"], pos["discarder"] = "discard", receiver


def _reject(pos: dict) -> None:
    # C-TURN-4: out of play, the next card revealed for the same seat; C-END-3: none left, a draw
    pos["out"].append(pos["available"])
    pos["available"] = None
    if not pos["stock"]:
        pos["phase"], pos["outcome"] = "over", {"result": "draw", "winner": None, "how": "stock_exhausted"}
    else:
        _reveal(pos)


def _pass(pos: dict) -> None:
    # C-TURN-5: the card goes to the rival, no longer fresh; no discard
    pos["active"] = 1 - pos["active"]
    pos["fresh"] = False


def canonical(profile, action: dict) -> dict:
    if action["type"] == "use":
        order = order_of(profile)
        return {"type": "use", "cards": sorted(action["cards"], key=order.get)}
    return dict(action)


def naive_replay(deal: Deal, actions) -> dict:
    """The position after `actions` ((seat, action) pairs), replayed from the deal; each action
    must be legal in the naive model."""
    profile = deal.profile
    pos = naive_start(deal)
    for seat, action in actions:
        action = canonical(profile, action)
        assert action in naive_legal(profile, pos, seat), f"naive model: seat {seat} {action} is not legal"
        naive_apply(profile, pos, seat, action)
    return pos


def naive_moves(deal: Deal, actions) -> list[tuple[int, dict]]:
    pos = naive_replay(deal, actions)
    return [(seat, a) for seat in naive_to_act(pos) for a in naive_legal(deal.profile, pos, seat)]


def naive_perft(deal: Deal, actions, depth: int) -> int:
    """Legal action sequences of exactly `depth` actions; each child is replayed from the deal."""
    if depth == 0:
        return 1
    moves = naive_moves(deal, actions)
    if depth == 1:
        return len(moves)
    return sum(naive_perft(deal, [*actions, move], depth - 1) for move in moves)


def naive_perft_counts(deal: Deal, actions, depth: int) -> list[int]:
    return [naive_perft(deal, actions, d) for d in range(1, depth + 1)]


def naive_divide(deal: Deal, actions, depth: int) -> dict[str, int]:
    return {
        f"seat {seat}: {json.dumps(a)}": naive_perft(deal, [*actions, (seat, a)], depth - 1)
        for seat, a in naive_moves(deal, actions)
    }


def engine_at(deal: Deal, actions) -> Game:
    game = deal.engine()
    for seat, action in actions:
        game.apply(seat, action)
    return game


def project(pos: dict) -> dict:
    """The naive position in the shape of the engine's state_json (for a sanity comparison)."""
    return {
        "phase": "force_decision" if pos["phase"] == "decide" else pos["phase"],
        "to_act": naive_to_act(pos),
        "hands": [sorted(h) for h in pos["hands"]],
        "exposed": [sorted(e) for e in pos["exposed"]],
        "available": None if pos["available"] is None else {"card": pos["available"], "revealed": pos["fresh"], "offered_to": pos["active"]},
        "stock": pos["stock"],
        "out_of_play": pos["out"],
        "pending": pos["pending"],
        "outcome": pos["outcome"],
    }


def engine_projection(game: Game) -> dict:
    state = game.state_json()
    out = {key: state[key] for key in ("phase", "to_act", "stock", "out_of_play", "pending", "outcome")}
    out["hands"] = [sorted(h) for h in state["hands"]]
    out["exposed"] = [sorted(e) for e in state["exposed"]]
    out["available"] = state["available"]
    return out


def mismatch_report(deal: Deal, actions, game: Game, depth: int, expected, got) -> str:
    """The first depth at which the counts differ, with both divides there."""
    first = next(d for d, (a, b) in enumerate(zip(expected, got), 1) if a != b)
    engine_div = divide(game, first)
    naive_div = naive_divide(deal, actions, first)
    lines = [f"perft differs at depth {first}: naive {expected}, engine {got}", "divide (engine | naive):"]
    for key in sorted(set(engine_div) | set(naive_div)):
        e, n = engine_div.get(key, "-"), naive_div.get(key, "-")
        lines.append(f"  {'  ' if e == n else '!!'} {key}: engine {e} | naive {n}")
    return "\n".join(lines)


def cross_check(deal: Deal, actions, depth: int) -> list[int]:
    """Naive perft == engine perft at the position after `actions`; returns the counts."""
    game = engine_at(deal, actions)
    pos = naive_replay(deal, actions)
    assert project(pos) == engine_projection(game), "the naive model and the engine are not at the same position"
    expected = naive_perft_counts(deal, actions, depth)
    got = perft_counts(game, depth)
    assert got == expected, mismatch_report(deal, actions, game, depth, expected, got)
    return expected


# --- (a) every perft check of the corpus -------------------------------------------------------------

SCENARIOS, _ = load_corpus([corpus_dir()])


def perft_points():
    """(scenario, index of the step holding a perft check) for every such check of the corpus."""
    for scenario in SCENARIOS:
        for i, step in enumerate(scenario.data.get("steps") or []):
            if "perft" in step.get("check", {}):
                yield pytest.param(scenario, i, id=f"{scenario.id}-step{i + 1}")


def scenario_deal(scenario) -> Deal:
    profile = BY_ID[scenario.profile]
    setup = scenario.data["setup"]
    if "deck" in setup:
        return Deal.from_deck(profile, setup["deck"], setup["dealer"])
    return Deal(profile, setup["hands"], setup["stock"], setup["dealer"])


def scenario_actions(scenario, upto: int) -> list[tuple[int, dict]]:
    """The accepted actions of steps 0..upto (a refused action changes nothing)."""
    actions = []
    for step in scenario.data["steps"][: upto + 1]:
        if "action" in step and step.get("expect", "accepted") == "accepted":
            actions.append((step["seat"], step["action"]))
    return actions


@pytest.mark.parametrize("scenario, index", list(perft_points()))
def test_corpus_perft_agrees_with_the_independent_generator(scenario, index):
    deal = scenario_deal(scenario)
    actions = scenario_actions(scenario, index)
    written = scenario.data["steps"][index]["check"]["perft"]
    # the engine, replayed step by step as written (refusals included), reaches the same position
    game = deal.engine()
    for step in scenario.data["steps"][: index + 1]:
        if "action" not in step:
            continue
        expect = step.get("expect", "accepted")
        if expect == "accepted":
            game.apply(step["seat"], step["action"])
        else:
            with pytest.raises(IllegalAction) as refusal:
                game.apply(step["seat"], step["action"])
            assert refusal.value.reason == expect["refused"]
    assert game.state_json() == engine_at(deal, actions).state_json()
    counts = cross_check(deal, actions, len(written))
    assert counts == written, f"{scenario.id}: the scenario says {written}, the naive generator counts {counts}"


def test_the_corpus_has_perft_checks_of_both_profiles():
    profiles = {p.values[0].profile for p in perft_points()}
    assert profiles == set(BY_ID)


# --- (b) fixed positions of each profile ----------------------------------------------------------


def seeded_positions(profile, seed: int, dealer: int) -> tuple[Deal, dict[str, list]]:
    """Positions found along one seeded game played with naive legal actions (a policy that
    likes big uses): the start, the opening card (after the exchange in TC), the first discard
    after a use, the first offer with two or more uses, the first force decision (AA) and the
    first offer that may be forced onto the rival (TC). Each is an action list from the deal."""
    deal = Deal.from_deck(profile, profile.deck.shuffled(seed), dealer)
    rng = random.Random(seed)
    found: dict[str, list] = {"start": []}
    actions: list = []
    pos = naive_start(deal)
    while pos["phase"] != "over" and len(actions) < 400:
        if pos["phase"] == "play" and "opening" not in found:
            found["opening"] = list(actions)
        if pos["phase"] == "decide":
            found.setdefault("force_decision", list(actions))
        moves = [(s, a) for s in naive_to_act(pos) for a in naive_legal(profile, pos, s)]
        uses = [m for m in moves if m[1]["type"] == "use"]
        if len(uses) >= 2:
            found.setdefault("several_uses", list(actions))
        if any(a["type"] == "force" for _, a in moves) and pos["phase"] == "play":
            found.setdefault("force_onto_rival", list(actions))
        if uses and rng.random() < 0.8:
            move = max(uses, key=lambda m: (len(m[1]["cards"]), rng.random()))
        else:
            move = rng.choice(moves)
        actions.append(move)
        naive_apply(profile, pos, *move)
        if move[1]["type"] == "use" and pos["phase"] == "discard":
            found.setdefault("after_use", list(actions))
    return deal, found


FIXED = [(TC, seed, seed % 2) for seed in (1, 2, 3, 4)] + [(AA, seed, seed % 2) for seed in (1, 2, 3, 4)]


@pytest.mark.parametrize("profile, seed, dealer", FIXED, ids=[f"{p.id}-seed{s}" for p, s, _ in FIXED])
def test_fixed_positions_agree_with_the_independent_generator(profile, seed, dealer):
    deal, found = seeded_positions(profile, seed, dealer)
    done = []
    for label, actions in found.items():
        if actions not in done:  # in anglo-american-v1 the start is the opening
            cross_check(deal, actions, 3)
            done.append(actions)


def test_fixed_positions_cover_every_kind_of_position():
    kinds = {TC.id: set(), AA.id: set()}
    for profile, seed, dealer in FIXED:
        kinds[profile.id] |= set(seeded_positions(profile, seed, dealer)[1])
    assert kinds[TC.id] >= {"start", "opening", "after_use", "several_uses", "force_onto_rival"}
    assert kinds[AA.id] >= {"start", "opening", "after_use", "several_uses", "force_decision"}


def scripted_deal(profile, hands, top, dealer) -> Deal:
    """Hands as dealt and the top of the stock; the rest of the stock follows in deck order."""
    used = set(hands[0]) | set(hands[1]) | set(top)
    return Deal(profile, hands, list(top) + [c for c in all_cards(profile) if c not in used], dealer)


# C-ARR-2 (corte): with 4C 5C 6C 7C exposed and 7E (7S) in hand, the offered 7O (7H) goes down
# with 7E (7S) only by splitting the run into 4C-5C-6C and the set of sevens.
CORTE = [
    (
        scripted_deal(TC, [["1C", "2O", "3E", "5B", "10B", "11C", "12O", "2E", "6O"], ["4C", "5C", "6C", "7E", "1O", "2B", "10O", "11E", "12B"]], ["7C", "7O"], 0),
        [(0, {"type": "exchange", "card": "1C"}), (1, {"type": "exchange", "card": "12B"}), (1, {"type": "use", "cards": ["4C", "5C", "6C"]}),
         (1, {"type": "discard", "card": "1O"}), (0, {"type": "reject"}), (0, {"type": "pass"})],
        {"type": "use", "cards": ["7E"]},
    ),
    (
        scripted_deal(AA, [["AC", "2H", "3S", "5D", "JD", "QC", "KH", "2S", "6H", "KS"], ["4C", "5C", "6C", "7S", "AH", "2D", "JH", "QS", "KD", "3D"]], ["7C", "7H"], 0),
        [(1, {"type": "use", "cards": ["4C", "5C", "6C"]}), (1, {"type": "discard", "card": "AH"}), (0, {"type": "reject"}), (0, {"type": "pass"})],
        {"type": "use", "cards": ["7S"]},
    ),
]


@pytest.mark.parametrize("deal, actions, corte", CORTE, ids=[d.profile.id for d, _, _ in CORTE])
def test_a_position_needing_a_corte_agrees_with_the_independent_generator(deal, actions, corte):
    seat = naive_to_act(naive_replay(deal, actions))[0]
    assert corte in naive_legal(deal.profile, naive_replay(deal, actions), seat)
    cross_check(deal, actions, 3)


def test_the_exchange_start_counts_both_pick_orders():
    # TC-XCH-1: either seat may pick first, so depth 2 is 9 x 9 pairs of picks, each in 2 orders
    deal, _ = seeded_positions(TC, 7, 0)
    assert naive_perft_counts(deal, [], 2) == [18, 162] == perft_counts(deal.engine(), 2)
