"""Perft, cross-checked by an independent legal-action generator.

`conquian_ref.engine.perft.perft_counts` counts the legal action sequences of depth 1, 2, ... from a
position, using the engine's own move generator (Game.legal) and transitions (Game.apply). This
file counts them again with a second, naive model of the game written from the rule text of
docs/rules/ and sharing nothing with the engine but the profile YAML data:

* positions are plain Python data on card *strings* (hands, exposed cards, the stock top
  first, the out-of-play cards, the available card, the phase); hands and exposed cards are
  lists counting copies, so the two-deck profile's identical cards (SATD-DECK-1, RUL-34) are
  multisets throughout, and a legal list names each distinct multiset once;
* the deal follows C-DEAL-1 / RUL-10 / RUL-15 (packets of `deal.packet_size` alternately,
  non-dealer first, the rest is the stock, top first; packets of two in the Spielanleitung
  profiles, SA-DEAL-2 / RUL-18);
* the phases follow TC-XCH-1 (both seats pick, in any order, then the swap and the opening),
  TC-OPEN-1 / AA-OPEN-1 / RUL-7 (the top stock card revealed for the non-dealer; a reject
  reveals the next card for the rejecting seat) or SA-OPEN-1 / RUL-20 (the starter offered to
  the non-dealer, then to the dealer; the dealer's reject of it reveals the next card for the
  non-dealer), C-TURN-2..5 (use, discard, reject, pass), C-FORCE-1 with TC-FORCE-1..3 (the
  active player may force onto the rival; a card fitting one's own melds may not be rejected or
  passed) or AA-FORCE-1..2 / RUL-14 / SA-FORCE-1 / RUL-23 (a reject or pass of a fitting card
  first asks the rival to force or decline) or SANF-FORCE-1 (no forcing), "fits" read by
  `forcing.fit` (C-ARR-4 / RUL-3, or extension of one meld, SA-FORCE-2 / RUL-22), a use placed
  without borrowing under `meld_timing: discard_then_meld` (SADM-ARR-1 / RUL-35), and
  C-END-1 / C-END-3 / RUL-6 / RUL-24 (win at the target, "rummy" when the winner had nothing
  exposed before, draw on a reject with an empty stock);
* with partnerships (spielanleitung-partnership-v1) the same rules read for four seats and two
  teams: the deal in playing order from the seat after the dealer (SAPT-DEAL-1, RUL-36, RUL-37),
  the starter offered to each seat in turn, still freshly revealed until it reaches the dealer,
  whose reject reveals the next card for the first player (SAPT-OPEN-1, RUL-40), discards and
  passed cards to the next seat and demands decided by it (SAPT-TURN-1, SAPT-FORCE-1, RUL-39),
  one pool per team for fit, extension and the target (SAPT-MELD-1, SAPT-GOAL-1, RUL-38), and
  the empty hand (RUL-38): no use leaving the hand empty short of the target, no demand for a
  seat with an empty hand unless the card wins;
* melds are judged with tests/helpers.py (naive_arrangeable, naive_fits_for_forcing,
  naive_use_options), a plain partition search, never with the engine's meld table;
* a child position is never cloned: the naive perft replays the whole action sequence from the
  deal for every node.

The two counts must agree on every scenario of the corpus that has a `perft` check (at that
step) and on fixed positions of both profiles; the scenario's own numbers must equal the naive
count too. On a mismatch the engine's `divide` and the naive divide are printed side by side.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import settings

from conquian_ref.engine.game import Game
from conquian_ref.engine.perft import divide, perft_counts
from conquian_ref.engine.errors import IllegalAction
from conquian_ref.spec.scenario import corpus_dir, load_corpus

from helpers import (
    AA,
    ALL_PROFILES,
    BY_ID,
    SA,
    SADM,
    SAFD,
    SANF,
    SAPT,
    SATA,
    SATL,
    TC,
    all_cards,
    deck_cards,
    expected_reason,
    is_run,
    is_set,
    minus,
    naive_arrangeable,
    naive_extends,
    naive_fits_for_forcing,
    naive_legal_uses,
    next_seat,
    seats,
    team_of,
    teams,
)


# --- the naive model, from the rule text ---------------------------------------------------------


def order_of(profile) -> dict[str, int]:
    """Deck order (canonical form of card lists, actions.py docstring): suits, then ranks low to high."""
    return {card: i for i, card in enumerate(all_cards(profile))}


def naive_deal(profile, deck_order: list[str], dealer: int) -> tuple[list[list[str]], list[str]]:
    """C-DEAL-1, RUL-10, RUL-15: packets of deal.packet_size, alternately, non-dealer first, from
    the top (index 0) of the deck order, until each seat holds deal.hand_size; the rest is the
    stock, top first. SAPT-DEAL-1 / RUL-36: with four seats, in playing order from the seat
    after the dealer (7 cards: three rounds of two, a last round of one)."""
    size, packet = profile.data["deal"]["hand_size"], profile.data["deal"]["packet_size"]
    hands: list[list[str]] = [[] for _ in range(seats(profile))]
    seat, rest = next_seat(profile, dealer), list(deck_order)
    while any(len(h) < size for h in hands):
        take = min(packet, size - len(hands[seat]))
        hands[seat] += rest[:take]
        rest = rest[take:]
        seat = next_seat(profile, seat)
    return hands, rest


class Deal:
    """The starting point of a deal: a profile, hands as dealt, the stock (top first), the dealer."""

    def __init__(self, profile, hands, stock, dealer, deck_order=None):
        self.profile = profile
        self.hands = [list(h) for h in hands]
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
    the opening card revealed for the non-dealer (AA-OPEN-1), the seat after the dealer."""
    profile = deal.profile
    pos = {
        "profile": profile,
        "dealer": deal.dealer,
        "hands": [list(h) for h in deal.hands],  # multisets (RUL-34)
        "exposed": [[] for _ in range(teams(profile))],  # one per team (SAPT-MELD-1)
        "stock": list(deal.stock),
        "out": [],
        "available": None,
        "fresh": False,  # the available card was freshly revealed (C-TURN-5)
        "active": next_seat(profile, deal.dealer),
        "phase": "exchange",
        "picks": [None] * seats(profile),
        "discarder": None,
        "pending": None,
        "outcome": None,
        "starter": False,  # the available card is the opening card, still on offer (RUL-20)
    }
    if not deal.profile.data["exchange"]:
        pos["picks"] = None
        _open(pos)
    return pos


def _open(pos: dict) -> None:
    # TC-OPEN-1 / AA-OPEN-1 / RUL-7, SA-OPEN-1 / SA-DEAL-3 / RUL-20: the top stock card (the
    # starter) is revealed and offered to the non-dealer.
    pos["phase"] = "play"
    pos["active"] = next_seat(pos["profile"], pos["dealer"])
    _reveal(pos)
    pos["starter"] = True


def _reveal(pos: dict) -> None:
    pos["available"] = pos["stock"].pop(0)
    pos["fresh"] = True


def naive_to_act(pos: dict) -> list[int]:
    phase = pos["phase"]
    if phase == "exchange":  # TC-XCH-1: both seats, in any order, until each has picked
        return [s for s, pick in enumerate(pos["picks"]) if pick is None]
    if phase == "play":
        return [pos["active"]]
    if phase == "discard":
        return [pos["discarder"]]
    if phase == "decide":  # AA-FORCE-1: the rival of the active player decides (RUL-39: the next seat)
        return [next_seat(pos["profile"], pos["active"])]
    return []  # C-END-4


def _fits_own(profile, pos: dict, seat: int) -> bool:
    # C-ARR-4 / RUL-3 or SA-FORCE-2 / RUL-22 (forcing.fit): a player with no exposed cards has no
    # melds for a card to fit.
    # SAPT-MELD-1: the seat's melds are its team's pool
    return naive_fits_for_forcing(profile, pos["exposed"][team_of(profile, seat)], pos["available"])


def _demand_opens(profile, pos: dict, seat: int) -> bool:
    """SA-FORCE-1 / AA-FORCE-1 (forcing.own_fit: rival_option): a reject or pass of a card fitting
    the active seat's melds first asks the rival; RUL-38: not for a seat with an empty hand,
    unless the card would win for its team."""
    if profile.data["forcing"]["own_fit"] != "rival_option" or not _fits_own(profile, pos, seat):
        return False
    wins = len(pos["exposed"][team_of(profile, seat)]) + 1 == profile.data["target"]
    # SATL-TURN-1 / RUL-43: where an emptied hand passes the turn no discard is owed, so a seat
    # with an empty hand may be demanded a card like any other
    return bool(pos["hands"][seat]) or wins or profile.data.get("empty_hand") == "turn_passes"


def naive_legal(profile, pos: dict, seat: int) -> list[dict]:
    """Every legal action of `seat`, in canonical JSON form (cards in deck order), from the rules."""
    if seat not in naive_to_act(pos):
        return []
    order = order_of(profile)
    hand = sorted(pos["hands"][seat], key=order.get)
    distinct = list(dict.fromkeys(hand))  # RUL-34: a card held twice is one discard, listed once
    phase = pos["phase"]
    if phase == "exchange":  # TC-XCH-1: exactly one card of the hand
        return [{"type": "exchange", "card": c} for c in distinct]
    if phase == "discard":  # C-TURN-3: exactly one hand card
        return [{"type": "discard", "card": c} for c in distinct]
    if phase == "decide":  # AA-FORCE-1, RUL-14: force or decline
        return [{"type": "force"}, {"type": "decline"}]
    forcing = profile.data["forcing"]
    card, rival = pos["available"], team_of(profile, next_seat(profile, seat))
    acts = []
    # C-TURN-2 / RUL-16: one use per set of hand cards that can go down with the card (placed as
    # the melds lie under discard_then_meld, RUL-35), not one leaving nothing to discard (RUL-38);
    # one per distinct multiset (RUL-34)
    for chosen in sorted(naive_legal_uses(profile, pos["exposed"][team_of(profile, seat)], card, hand)):
        acts.append({"type": "use", "cards": sorted(chosen, key=order.get)})
    # C-TURN-4 / C-TURN-5: a fresh card is passed, a rival's card rejected; TC-FORCE-2 forbids
    # both for a card fitting one's own melds (AA-FORCE-1 lets it through, to a decision)
    if not (forcing["own_fit"] == "automatic" and _fits_own(profile, pos, seat)):
        acts.append({"type": "pass"} if pos["fresh"] else {"type": "reject"})
    # TC-FORCE-1 / C-FORCE-1: onto the rival's melds when it fits them; never in AA (AA-MELD-1)
    other = pos["exposed"][rival]
    if forcing["onto_rival"] and naive_fits_for_forcing(profile, other, card):
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
            pos["hands"][0] = [*minus(pos["hands"][0], [a]), b]
            pos["hands"][1] = [*minus(pos["hands"][1], [b]), a]
            _open(pos)
    elif kind == "use":
        # C-TURN-2: the card and the named hand cards are exposed together
        # RUL-24 / SA-END-3: under going_rummy a win by a seat that had nothing exposed before
        # this use is "rummy" (all its cards went down in one action)
        team = team_of(profile, seat)
        rummy = profile.data.get("going_rummy", False) and not pos["exposed"][team]
        pos["hands"][seat] = list(minus(pos["hands"][seat], action["cards"]))
        pos["exposed"][team] += action["cards"]
        _take(profile, pos, seat, "rummy" if rummy else "target_reached")
    elif kind == "discard":
        # C-TURN-3: the discard is offered to the other seat (RUL-39: the next), whose turn begins
        pos["hands"][seat].remove(action["card"])  # one copy
        pos["available"], pos["fresh"] = action["card"], False
        pos["active"], pos["phase"], pos["discarder"] = next_seat(profile, seat), "play", None
    elif kind in ("reject", "pass"):
        if _demand_opens(profile, pos, seat):
            # AA-FORCE-1 / RUL-14: the rival first decides
            pos["phase"], pos["pending"] = "decide", kind
        elif kind == "reject":
            _reject(profile, pos)
        else:
            _pass(profile, pos)
    elif kind == "force":
        # C-FORCE-1: alone onto the receiver's melds (RUL-11); in AA the receiver is the active
        # player (AA-FORCE-2), in TC the rival of the forcer (TC-FORCE-1)
        receiver = pos["active"] if pos["phase"] == "decide" else next_seat(profile, seat)
        pos["phase"], pos["pending"] = "play", None
        _take(profile, pos, receiver, "forced_to_target")
    elif kind == "decline":
        # RUL-14: the reject or pass takes place as declared
        declared = pos["pending"]
        pos["phase"], pos["pending"] = "play", None
        _reject(profile, pos) if declared == "reject" else _pass(profile, pos)
    else:  # pragma: no cover
        raise AssertionError(kind)


def _take(profile, pos: dict, receiver: int, how: str) -> None:
    # C-END-1 / RUL-6: the target wins at once; otherwise the receiver discards (C-TURN-3, RUL-5);
    # SAPT-GOAL-1: the team's pool counts, and the receiver is named the winner
    team = team_of(profile, receiver)
    pos["exposed"][team].append(pos["available"])
    pos["available"], pos["fresh"], pos["starter"] = None, False, False
    if len(pos["exposed"][team]) == profile.data["target"]:
        pos["phase"], pos["outcome"] = "over", {"result": "win", "winner": receiver, "how": how}
    elif not pos["hands"][receiver] and profile.data.get("empty_hand") == "turn_passes":
        # SATL-TURN-1 / RUL-43: nothing to discard, so the turn passes: the next seat's turn
        # begins with the top stock card drawn face up for it; no stock left, a draw (SA-END-1)
        pos["phase"], pos["active"] = "play", next_seat(profile, receiver)
        if pos["stock"]:
            _reveal(pos)
        else:
            pos["phase"], pos["outcome"] = "over", {"result": "draw", "winner": None, "how": "stock_exhausted"}
    else:
        pos["phase"], pos["discarder"] = "discard", receiver


def _reject(profile, pos: dict) -> None:
    # C-TURN-4: out of play, the next card revealed for the same seat; C-END-3: none left, a draw.
    # SA-OPEN-1 / RUL-20: the dealer's reject of the starter (after the non-dealer passed it)
    # reveals the next card for the non-dealer instead; RUL-40: with four seats the dealer's
    # reject of the starter (after the other three passed it) reveals it for the first player.
    pos["out"].append(pos["available"])
    pos["available"] = None
    if pos["starter"] and profile.data["opening"]["style"] == "offered_to_both_then_draw":
        pos["active"] = next_seat(profile, pos["dealer"])
    pos["starter"] = False
    if not pos["stock"]:
        pos["phase"], pos["outcome"] = "over", {"result": "draw", "winner": None, "how": "stock_exhausted"}
    else:
        _reveal(pos)


def _pass(profile, pos: dict) -> None:
    # C-TURN-5: the card goes to the rival (RUL-39: the next seat), no longer fresh; no discard.
    # RUL-40: the starter stays freshly revealed while it goes round, until it reaches the dealer
    # (with two seats the rival of the first player is the dealer, so it is never fresh there).
    pos["active"] = next_seat(profile, pos["active"])
    pos["fresh"] = pos["fresh"] and pos["starter"] and pos["active"] != pos["dealer"]


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


def unlinted_perft_files():
    """Perft scenario files that load_corpus left out because lint found problems in them (until
    docs/rules defines the rule ids they cite, e.g. the Spielanleitung drafts): read here as
    plain YAML, so their counts are still checked against the naive model and the engine."""
    import yaml
    from types import SimpleNamespace

    loaded_ids = {s.id for s in SCENARIOS}
    for path in sorted(corpus_dir().glob("*/perft/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data["id"] in loaded_ids:
            continue
        scenario = SimpleNamespace(id=data["id"], profile=data["profile"], data=data)
        for i, step in enumerate(data.get("steps") or []):
            if "perft" in step.get("check", {}):
                yield pytest.param(scenario, i, id=f"{data['id']}-step{i + 1}")


@pytest.mark.parametrize("scenario, index", list(unlinted_perft_files()))
def test_perft_files_left_out_of_the_corpus_agree_with_the_independent_generator(scenario, index):
    test_corpus_perft_agrees_with_the_independent_generator(scenario, index)


def test_the_corpus_has_perft_checks_of_every_profile():
    # the two-deck perft files (satd-0081, satd-0082) cite SATD rule ids that lint refuses until
    # the rules documents land; they are checked all the same (unlinted_perft_files)
    profiles = {p.values[0].profile for p in perft_points()} | {p.values[0].profile for p in unlinted_perft_files()}
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
        if pos["starter"] and not pos["fresh"] and pos["phase"] == "play":
            found.setdefault("starter_passed", list(actions))  # RUL-20: the dealer's offer
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
        taker = pos["active"] if pos["phase"] == "decide" or move[1]["type"] == "use" else None
        naive_apply(profile, pos, *move)
        if move[1]["type"] == "use" and pos["phase"] == "discard":
            found.setdefault("after_use", list(actions))
        if taker is not None and move[1]["type"] in ("use", "force") and pos["phase"] == "play" and not pos["hands"][taker]:
            found.setdefault("turn_passed", list(actions))  # SATL-TURN-1: a take left the hand empty, no discard
    return deal, found


# Seeds 1-4 of the first two profiles. The Spielanleitung profiles (whose 14-card and 52-card
# games are slower to count naively) get, in the quick run, two seeds each chosen so that
# between them they reach a passed starter (RUL-20) and a force decision (SA-FORCE-1, RUL-22;
# in the 52-card deck, where extending a meld is rarer, only seed 10 has one), and seeds 1-4 as
# well under the "deep" Hypothesis settings profile (tests/conftest.py). The partnership profile
# (the dealer is seed mod 4) gets seed 10 alone, which reaches both a starter passed round to
# the dealer (RUL-40) and a demand decided by the next seat (RUL-39). The two-deck profile
# (RUL-32 to RUL-34) gets seed 3, whose game reaches a passed starter and a force decision (some
# 2 seconds). The literal twice-around profile (RUL-43) gets seed 14, whose game reaches a passed
# starter, a force decision and a take that empties the hand and passes the turn (SATL-TURN-1).
DEEP = settings().max_examples >= 400
QUICK_SEEDS = {SA.id: (3, 4), SAFD.id: (1, 10), SATA.id: (3,), SATL.id: (14,), SANF.id: (1, 3), SADM.id: (2, 3), SAPT.id: (10,), "spielanleitung-two-decks-v1": (3,)}
FIXED = [(profile, seed, seed % 2) for profile in (TC, AA) for seed in (1, 2, 3, 4)]
for _profile in ALL_PROFILES:
    if _profile.id in QUICK_SEEDS:
        _seeds = sorted(set(QUICK_SEEDS[_profile.id]) | ({1, 2, 3, 4} if DEEP else set()))
        FIXED += [(_profile, seed, seed % seats(_profile)) for seed in _seeds]


@pytest.mark.parametrize("profile, seed, dealer", FIXED, ids=[f"{p.id}-seed{s}" for p, s, _ in FIXED])
def test_fixed_positions_agree_with_the_independent_generator(profile, seed, dealer):
    deal, found = seeded_positions(profile, seed, dealer)
    done = []
    for label, actions in found.items():
        if actions not in done:  # in anglo-american-v1 the start is the opening
            cross_check(deal, actions, 3)
            done.append(actions)


def test_fixed_positions_cover_every_kind_of_position():
    kinds = {profile.id: set() for profile in ALL_PROFILES}
    for profile, seed, dealer in FIXED:
        kinds[profile.id] |= set(seeded_positions(profile, seed, dealer)[1])
    assert kinds[TC.id] >= {"start", "opening", "after_use", "several_uses", "force_onto_rival"}
    assert kinds[AA.id] >= {"start", "opening", "after_use", "several_uses", "force_decision"}
    for profile in (SA, SAFD, SATA, SADM, BY_ID["spielanleitung-two-decks-v1"]):  # SA-FORCE-1: the opponent's demand
        assert kinds[profile.id] >= {"start", "opening", "starter_passed", "after_use", "several_uses", "force_decision"}, profile.id
    # SATL-TURN-1 / RUL-43: a take that empties the hand short of 15 passes the turn
    assert kinds[SATL.id] >= {"start", "opening", "starter_passed", "after_use", "several_uses", "force_decision", "turn_passed"}
    assert kinds[SANF.id] >= {"start", "opening", "starter_passed", "after_use", "several_uses"}
    assert "force_decision" not in kinds[SANF.id]  # SANF-FORCE-1: no demand ever
    # SAPT-OPEN-1 / RUL-40: the starter round to the dealer; SAPT-FORCE-1 / RUL-39: the demand
    assert kinds[SAPT.id] >= {"start", "opening", "starter_passed", "after_use", "force_decision"}


def scripted_deal(profile, hands, top, dealer) -> Deal:
    """Hands as dealt and the top of the stock; the rest of the stock follows in deck order."""
    rest = minus(deck_cards(profile), [*(c for h in hands for c in h), *top])  # RUL-34: by copies
    return Deal(profile, hands, list(top) + sorted(rest, key=order_of(profile).get), dealer)


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


# --- (c) fixed positions pinning the rules of the Spielanleitung profiles ------------------------------
#
# Each is a scripted deal (seat 0 deals, so seat 1 is the non-dealer) and an action list; the
# same positions are the setups of the perft scenarios scenarios/spielanleitung-*/perft/.

SA_FAMILY = (SA, SAFD, SATA, SANF, SADM)


def fill_hand(profile, cards, avoid=()):
    """`cards` completed to the profile's hand size with the lowest unused cards of the deck
    order (used only where the tests say the filler does not matter to what they pin)."""
    used = set(cards) | set(avoid)
    filler = [c for c in all_cards(profile) if c not in used]
    return list(cards) + filler[: profile.data["deal"]["hand_size"] - len(cards)]


def starter_refused_by_both(profile, seed=5):
    """SA-OPEN-1 / RUL-20: the non-dealer passes the starter, the dealer rejects it: the next
    stock card is revealed for the non-dealer (seat 1), not for the dealer who rejected."""
    deal = Deal.from_deck(profile, profile.deck.shuffled(seed), 0)
    return deal, [(1, {"type": "pass"}), (0, {"type": "reject"})]


# 4C 5C 6C 7C and 4H 5H 6H 7H exposed by seat 1, then 7S offered to it by seat 0 (a pass): 7S
# goes down alone only by rearranging both runs (4C 5C 6C, 4H 5H 6H, 7C 7H 7S), never by
# extending one meld (SA-FORCE-2 / RUL-22), and not at all without moving exposed cards (RUL-35).
REARRANGE_HANDS = [
    ["AS", "2C", "JC", "QH", "KD", "3H", "4D", "6D", "AC", "JS"],
    ["5C", "6C", "7C", "5H", "6H", "7H", "KS", "QD", "2D", "3S"],
]
REARRANGE_ACTIONS = [
    (1, {"type": "use", "cards": ["5C", "6C", "7C"]}), (1, {"type": "discard", "card": "KS"}), (0, {"type": "reject"}), (0, {"type": "pass"}),
    (1, {"type": "use", "cards": ["5H", "6H", "7H"]}), (1, {"type": "discard", "card": "QD"}), (0, {"type": "reject"}), (0, {"type": "pass"}),
]


def rearrangement_only(profile):
    # twice-around's 14-card hands get four filler cards each (the lowest unused ones)
    top = ["4C", "4H", "7S"]
    hands = [fill_hand(profile, REARRANGE_HANDS[0], avoid=[*REARRANGE_HANDS[1], *top]), REARRANGE_HANDS[1]]
    hands[1] = fill_hand(profile, hands[1], avoid=[*hands[0], *top])
    return scripted_deal(profile, hands, top, 0), list(REARRANGE_ACTIONS)


def rummy_deal(profile):
    """SA-END-3 / RUL-24: the non-dealer holds a whole winning hand with the starter (the
    draft's example; in twice-around four clubs more, in the 52-card deck one run A to J)."""
    if profile is SAFD:  # RUL-30: a single run of 11 cards, A to J, exists in this deck
        seat1, starter = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"], "9S"
    elif profile is SATA:  # RUL-31: 14 dealt, 15 to win
        seat1, starter = ["AS", "2S", "3S", "4S", "5C", "5H", "5D", "JH", "QH", "KH", "AC", "2C", "3C", "4C"], "5S"
    else:
        seat1, starter = ["AS", "2S", "3S", "4S", "5C", "5H", "5D", "JH", "QH", "KH"], "5S"
    seat0 = fill_hand(profile, [], avoid=[*seat1, starter])
    return scripted_deal(profile, [seat0, seat1], [starter], 0), []


@pytest.mark.parametrize("profile", SA_FAMILY, ids=lambda p: p.id)
def test_rul_20_a_starter_refused_by_both_is_followed_by_a_card_for_the_non_dealer(profile):
    deal, actions = starter_refused_by_both(profile)
    pos = naive_replay(deal, actions)
    assert pos["active"] == 1 and pos["fresh"] and pos["out"] == [deal.stock[0]]
    assert engine_at(deal, actions).state_json()["available"]["offered_to"] == 1
    cross_check(deal, actions, 3)


def test_rul_7_a_rejected_opening_card_is_followed_by_a_card_for_the_rejecting_dealer():
    # the old style (AA-OPEN-1): the same two actions leave the dealer to act
    deal, actions = starter_refused_by_both(AA)
    assert naive_replay(deal, actions)["active"] == 0
    cross_check(deal, actions, 3)


@pytest.mark.parametrize("profile", (SA, SAFD, SATA, SANF, SADM, AA), ids=lambda p: p.id)
def test_rul_22_a_card_fitting_only_by_rearrangement_opens_no_force_decision(profile):
    deal, actions = rearrangement_only(profile)
    pos = naive_replay(deal, actions)
    assert pos["active"] == 1 and pos["available"] == "7S" and not pos["fresh"]
    legal = naive_legal(profile, pos, 1)
    # C-ARR-4 / RUL-3: 7S may still be used alone (SA-ARR-1), except under RUL-35
    assert ({"type": "use", "cards": []} in legal) == (profile is not SADM)
    naive_apply(profile, pos, 1, {"type": "reject"})
    # RUL-22: no demand; under AA's any_arrangement (RUL-3) the rival decides first
    assert pos["phase"] == ("decide" if profile is AA else "play")
    cross_check(deal, actions, 3)


def test_rul_22_a_card_extending_one_meld_still_opens_the_force_decision():
    # SA-FORCE-2 / RUL-22: after 4C 5C 6C 7C went down, 3C extends that run, so its reject
    # first lets the opponent decide (SA-FORCE-1, RUL-23)
    deal = scripted_deal(SA, REARRANGE_HANDS, ["4C", "3C"], 0)
    actions = [(1, {"type": "use", "cards": ["5C", "6C", "7C"]}), (1, {"type": "discard", "card": "KS"}), (0, {"type": "reject"}), (0, {"type": "pass"})]
    pos = naive_replay(deal, actions)
    assert pos["available"] == "3C"
    naive_apply(SA, pos, 1, {"type": "reject"})
    assert pos["phase"] == "decide"  # SA-FORCE-1, RUL-23
    cross_check(deal, actions, 3)


def test_rul_35_a_use_needing_borrowing_is_refused_under_discard_then_meld():
    deal, actions = rearrangement_only(SADM)
    game = engine_at(deal, actions)
    state = game.state_json()
    assert expected_reason(SADM, state, 1, {"type": "use", "cards": []}) == "no_valid_arrangement"
    assert expected_reason(SA, state, 1, {"type": "use", "cards": []}) is None
    assert [a for a in game.legal_actions(1) if a["type"] == "use"] == []
    cross_check(deal, actions, 3)


@pytest.mark.parametrize("profile", SA_FAMILY, ids=lambda p: p.id)
def test_rul_24_a_win_with_nothing_exposed_before_is_going_rummy(profile):
    deal, actions = rummy_deal(profile)
    pos = naive_replay(deal, actions)
    hand = sorted(pos["hands"][1], key=order_of(profile).get)
    naive_apply(profile, pos, 1, {"type": "use", "cards": hand})
    assert pos["outcome"] == {"result": "win", "winner": 1, "how": "rummy"}
    game = engine_at(deal, [(1, {"type": "use", "cards": hand})])
    assert game.outcome.how == "rummy"
    # a 14-card hand of twice-around tries every one of its 2^14 subsets at the offer: depth 1
    cross_check(deal, actions, 1 if profile is SATA else 2)


def test_rul_24_going_rummy_is_not_recorded_where_the_profile_does_not_follow_it():
    deal = scripted_deal(AA, [fill_hand(AA, [], avoid=["AS", "2S", "3S", "4S", "5C", "5H", "5D", "JH", "QH", "KH", "5S"]), ["AS", "2S", "3S", "4S", "5C", "5H", "5D", "JH", "QH", "KH"]], ["5S"], 0)
    pos = naive_replay(deal, [(1, {"type": "use", "cards": ["AS", "2S", "3S", "4S", "JH", "QH", "KH", "5D", "5H", "5C"]})])
    assert pos["outcome"]["how"] == "target_reached"


def test_rul_18_the_deal_is_in_packets_of_two():
    # SA-DEAL-2's example: seat 0 deals; seat 1 gets d0 d1, d4 d5, ...; seat 0 d2 d3, d6 d7, ...
    order = all_cards(SA)
    hands, stock = naive_deal(SA, order, 0)
    assert hands[1] == [order[i] for i in (0, 1, 4, 5, 8, 9, 12, 13, 16, 17)]
    assert hands[0] == [order[i] for i in (2, 3, 6, 7, 10, 11, 14, 15, 18, 19)]
    assert stock == order[20:]
    assert [sorted(h) for h in Game.from_deck(SA, order, 0).state_json()["hands"]] == [sorted(h) for h in hands]


# --- (d) fixed positions pinning the partnership rules (spielanleitung-partnership-v1) ---------------
#
# Scripted deals with seat 3 dealing, so seat 0 is the first player; the positions are those of
# the scenarios sapt-0003, sapt-0010, sapt-0012 and sapt-0013, replayed in the naive model.

# sapt-0003: every hand holds seven ranks A to 7 that never meld; the stock is all court cards
NO_MELD_HANDS = [
    ["AH", "2D", "3C", "4S", "5H", "6D", "7C"],
    ["AD", "2C", "3S", "4H", "5D", "6C", "7S"],
    ["AC", "2S", "3H", "4D", "5C", "6S", "7H"],
    ["AS", "2H", "3D", "4C", "5S", "6H", "7D"],
]
NO_MELD_STOCK = ["JS", "QH", "KD", "JC", "QS", "KH", "JD", "QC", "KS", "JH", "QD", "KC"]
# sapt-0010: team 0's pool 5D 6D 7D, then JD revealed for seat 2
DEMAND_HANDS = [
    ["5D", "6D", "AS", "2H", "3C", "4S", "KC"],
    ["AD", "2C", "3S", "4H", "5C", "7S", "JC"],
    ["AC", "2S", "3H", "4C", "6H", "7C", "KD"],
    ["5S", "JS", "AH", "7H", "KH", "2D", "QD"],
]
DEMAND_STOCK = ["7D", "QS", "JD", "6S", "KS", "5H", "JH", "QH", "3D", "4D", "6C", "QC"]
DEMAND_ACTIONS = [(0, {"type": "use", "cards": ["5D", "6D"]}), (0, {"type": "discard", "card": "KC"}), (1, {"type": "reject"}), (1, {"type": "pass"}), (2, {"type": "reject"})]
# sapt-0012 / sapt-0013: seat 0 holds the hearts 2H to 7H and one more card, the starter is AH
HEARTS_HANDS = [
    ["2H", "3H", "4H", "5H", "6H", "7H", "KC"],
    ["4S", "2C", "7D", "AS", "6C", "JS", "KH"],
    ["JC", "2D", "3S", "QH", "7S", "5D", "AC"],
    ["2S", "6S", "AD", "4D", "7C", "KS", "3C"],
]
HEARTS_STOCK = ["AH", "QS", "KD", "JH", "QD", "5S", "3D", "6D", "JD", "4C", "5C", "QC"]
EMPTY_HAND_ACTIONS = [
    (0, {"type": "use", "cards": ["2H", "3H", "4H", "5H", "6H", "7H"]}), (0, {"type": "discard", "card": "KC"}),
    (1, {"type": "reject"}), (1, {"type": "pass"}), (2, {"type": "reject"}), (2, {"type": "pass"}), (3, {"type": "reject"}), (3, {"type": "pass"}),
]


def test_rul_36_the_deal_goes_round_in_playing_order_from_the_seat_after_the_dealer():
    # SAPT-DEAL-1's example: seat 3 deals; seat 0 gets d0 d1, d8 d9, d16 d17, d24; ...; d28 is the starter
    order = all_cards(SAPT)
    hands, stock = naive_deal(SAPT, order, 3)
    assert hands[0] == [order[i] for i in (0, 1, 8, 9, 16, 17, 24)]
    assert hands[1] == [order[i] for i in (2, 3, 10, 11, 18, 19, 25)]
    assert hands[2] == [order[i] for i in (4, 5, 12, 13, 20, 21, 26)]
    assert hands[3] == [order[i] for i in (6, 7, 14, 15, 22, 23, 27)]
    assert stock == order[28:] and len(stock) == 12
    pos = naive_start(Deal.from_deck(SAPT, order, 3))
    assert pos["available"] == order[28] and pos["active"] == 0 and pos["fresh"]
    assert [sorted(h) for h in Game.from_deck(SAPT, order, 3).state_json()["hands"]] == [sorted(h) for h in hands]


def test_rul_40_the_starter_goes_round_fresh_to_the_dealer_whose_reject_reveals_for_the_first_player():
    deal = Deal(SAPT, NO_MELD_HANDS, NO_MELD_STOCK, 3)
    pos = naive_replay(deal, [])
    for seat in (0, 1, 2):
        assert naive_to_act(pos) == [seat] and pos["fresh"]
        assert naive_legal(SAPT, pos, seat) == [{"type": "pass"}]  # cannot_reject_revealed
        naive_apply(SAPT, pos, seat, {"type": "pass"})
    # at the dealer it is a card passed on: use or reject, never pass (cannot_pass_rival_card)
    assert naive_to_act(pos) == [3] and not pos["fresh"] and naive_legal(SAPT, pos, 3) == [{"type": "reject"}]
    naive_apply(SAPT, pos, 3, {"type": "reject"})
    assert (pos["available"], pos["active"], pos["fresh"], pos["out"]) == ("QH", 0, True, ["JS"])
    cross_check(deal, [], 4)
    cross_check(deal, [(0, {"type": "pass"}), (1, {"type": "pass"}), (2, {"type": "pass"})], 3)


def test_rul_39_a_demand_is_decided_by_the_next_seat_and_a_discard_goes_to_it():
    deal = Deal(SAPT, DEMAND_HANDS, DEMAND_STOCK, 3)
    pos = naive_replay(deal, DEMAND_ACTIONS)
    assert (pos["available"], pos["active"], pos["exposed"]) == ("JD", 2, [["5D", "6D", "7D"], []])
    naive_apply(SAPT, pos, 2, {"type": "pass"})
    assert pos["phase"] == "decide" and naive_to_act(pos) == [3]
    assert expected_reason(SAPT, engine_at(deal, [*DEMAND_ACTIONS, (2, {"type": "pass"})]).state_json(), 1, {"type": "force"}) == "not_your_turn"
    naive_apply(SAPT, pos, 3, {"type": "force"})
    assert pos["phase"] == "discard" and naive_to_act(pos) == [2] and sorted(pos["exposed"][0]) == ["5D", "6D", "7D", "JD"]
    naive_apply(SAPT, pos, 2, {"type": "discard", "card": "KD"})
    assert (pos["available"], pos["active"]) == ("KD", 3)
    cross_check(deal, DEMAND_ACTIONS, 4)
    cross_check(deal, [*DEMAND_ACTIONS, (2, {"type": "pass"})], 4)


def test_rul_38_a_use_leaving_nothing_to_discard_short_of_the_target_is_not_legal():
    # sapt-0012: seat 0 holds 2H to 7H and JH, the starter AH; all eight in one run would be 8 < 15
    hands = [["2H", "3H", "4H", "5H", "6H", "7H", "JH"], ["AS", "4S", "7S", "KS", "QH", "2D", "5D"], ["2S", "5S", "JS", "KH", "AD", "4D", "7D"], ["3S", "6S", "QS", "JD", "AC", "4C", "7C"]]
    deal = Deal(SAPT, hands, ["AH", "3D", "6D", "QD", "KD", "2C", "3C", "5C", "6C", "JC", "QC", "KC"], 3)
    pos = naive_replay(deal, [])
    whole = {"type": "use", "cards": ["2H", "3H", "4H", "5H", "6H", "7H", "JH"]}
    legal = naive_legal(SAPT, pos, 0)
    assert whole not in legal and len([a for a in legal if a["type"] == "use"]) == 9
    state = deal.engine().state_json()
    assert expected_reason(SAPT, state, 0, whole) == "no_card_to_discard"
    assert expected_reason(SAPT, state, 0, {"type": "use", "cards": ["2H", "3H", "4H", "5H", "6H", "7H"]}) is None
    # reasons.md: no_valid_arrangement comes first, so an emptying use that cannot go down is that
    short = dict(state, hands=[["2H", "KC"], *state["hands"][1:]])
    assert expected_reason(SAPT, short, 0, {"type": "use", "cards": ["2H", "KC"]}) == "no_valid_arrangement"
    short = dict(state, hands=[["2H", "3H"], *state["hands"][1:]])
    assert expected_reason(SAPT, short, 0, {"type": "use", "cards": ["2H", "3H"]}) == "no_card_to_discard"
    # with two seats an emptying use always reaches the target (RUL-1): the rule never applies
    assert expected_reason(SA, dict(short, profile=SA.id), 0, {"type": "use", "cards": ["2H", "3H"]}) is None
    cross_check(deal, [], 4)


def test_rul_38_no_demand_is_opened_for_a_seat_with_an_empty_hand():
    deal = Deal(SAPT, HEARTS_HANDS, HEARTS_STOCK, 3)
    pos = naive_replay(deal, EMPTY_HAND_ACTIONS)
    assert pos["hands"][0] == [] and pos["available"] == "JH" and pos["active"] == 0
    # JH extends team 0's run, but a use would empty the hand at 8: only reject, and no demand
    assert naive_legal(SAPT, pos, 0) == [{"type": "reject"}]
    state = engine_at(deal, EMPTY_HAND_ACTIONS).state_json()
    assert expected_reason(SAPT, state, 0, {"type": "use", "cards": []}) == "no_card_to_discard"
    naive_apply(SAPT, pos, 0, {"type": "reject"})
    assert pos["phase"] == "play" and (pos["available"], pos["active"], pos["fresh"]) == ("QD", 0, True)
    cross_check(deal, EMPTY_HAND_ACTIONS, 4)


def test_rul_38_an_empty_hand_may_take_only_a_winning_card_and_then_a_demand_opens():
    # sapt-0016: team 0 has 14 exposed and both partners' hands are empty; JH is passed to seat 0
    hands = [["2H", "3H", "4H", "5H", "6H", "7H", "KC"], ["5S", "QS", "KH", "AD", "4D", "7D", "2C"], ["JS", "JC", "AS", "2S", "3S", "4S", "QC"], ["6S", "KS", "QH", "2D", "5D", "AC", "4C"]]
    deal = Deal(SAPT, hands, ["AH", "JD", "JH", "7S", "3D", "6D", "QD", "KD", "3C", "5C", "6C", "7C"], 3)
    actions = [
        (0, {"type": "use", "cards": ["2H", "3H", "4H", "5H", "6H", "7H"]}), (0, {"type": "discard", "card": "KC"}), (1, {"type": "reject"}), (1, {"type": "pass"}),
        (2, {"type": "use", "cards": ["AS", "2S", "3S", "4S", "JS", "JC"]}), (2, {"type": "discard", "card": "QC"}), (3, {"type": "reject"}), (3, {"type": "pass"}),
    ]
    pos = naive_replay(deal, actions)
    assert pos["hands"][0] == pos["hands"][2] == [] and len(pos["exposed"][0]) == 14 and pos["available"] == "JH"
    # the use wins for the team, so it is legal with an empty hand; and a reject asks seat 1
    assert naive_legal(SAPT, pos, 0) == [{"type": "use", "cards": []}, {"type": "reject"}]
    rejected = naive_replay(deal, [*actions, (0, {"type": "reject"})])
    assert rejected["phase"] == "decide" and naive_to_act(rejected) == [1]
    naive_apply(SAPT, pos, 0, {"type": "use", "cards": []})
    assert pos["outcome"] == {"result": "win", "winner": 0, "how": "target_reached"}
    cross_check(deal, actions, 3)


# --- (e) two copies of every card (spielanleitung-two-decks-v1, RUL-32 to RUL-34) -----------------
#
# The position of satd-0081 / satd-0082: seat 1 holds both copies of 7H, one 7D and both KC; the
# starter is 7S, the next stock card the other 7S.

TD = BY_ID["spielanleitung-two-decks-v1"]
TWIN_HANDS = [
    ["2S", "4S", "6S", "QS", "2H", "4H", "6H", "QH", "2D", "4D", "6D", "QD", "4C", "6C"],
    ["7H", "7H", "7D", "KC", "KC", "AS", "3S", "5S", "JS", "AD", "3D", "5D", "QC", "2C"],
]
TWIN_ACTIONS = [(1, {"type": "use", "cards": ["7H", "7H"]}), (1, {"type": "discard", "card": "KC"}), (0, {"type": "reject"}), (0, {"type": "pass"})]


def test_rul_34_the_naive_deal_and_stock_count_every_card_twice():
    deal = scripted_deal(TD, TWIN_HANDS, ["7S", "7S"], 0)
    assert len(deal.stock) == 80 - 28 and Counter([*deal.stock, *TWIN_HANDS[0], *TWIN_HANDS[1]]) == Counter(deck_cards(TD))
    order = deck_cards(TD)
    hands, stock = naive_deal(TD, order, 0)  # SATD-DEAL-1: seven packets of two, d28 the starter
    assert hands[1] == [order[i] for p in range(7) for i in (4 * p, 4 * p + 1)] and stock == order[28:]
    assert Counter(Game.from_deck(TD, order, 0).state_json()["hands"][1]) == Counter(hands[1])


def test_rul_33_sets_may_hold_identical_cards_and_runs_never_do():
    assert is_set(TD, ["7H", "7H", "7S"]) and is_set(TD, ["7H", "7H", "7S", "7S"])
    assert not is_set(SA, ["7H", "7H", "7S"]) and not is_set(TD, ["7H", "7H", "7S", "7S", "7D"])
    assert not is_run(TD, ["4C", "4C", "5C", "6C"]) and is_run(TD, ["4C", "5C", "6C"])
    assert naive_arrangeable(TD, ["4C", "5C", "6C", "4C", "5C", "6C"])  # two identical runs
    assert naive_arrangeable(TD, ["7H", "7H", "7S", "7S", "7D", "7D"]) and not naive_arrangeable(TD, ["7H", "7H", "7S", "7S", "7D"])
    # RUL-33 / RUL-22: a set of three is extended by any fourth card of its rank, the other copy too
    assert naive_extends(TD, ["7H", "7H", "7S"], "7S") and naive_extends(TD, ["7H", "7S", "7D"], "7D")
    assert not naive_extends(TD, ["7H", "7H", "7S", "7S"], "7D")


def test_rul_34_uses_with_one_or_both_copies_are_each_listed_once():
    deal = scripted_deal(TD, TWIN_HANDS, ["7S", "7S"], 0)
    pos = naive_replay(deal, [])
    uses = [a["cards"] for a in naive_legal(TD, pos, 1) if a["type"] == "use"]
    assert sorted(uses) == [["7H", "7D"], ["7H", "7H"], ["7H", "7H", "7D"]]
    state = deal.engine().state_json()
    assert expected_reason(TD, state, 1, {"type": "use", "cards": ["7H", "7H"]}) is None
    # RUL-34: a card named more often than held is not in hand (7D is held once)
    assert expected_reason(TD, state, 1, {"type": "use", "cards": ["7D", "7D"]}) == "card_not_in_hand"
    assert expected_reason(TD, state, 1, {"type": "use", "cards": ["7H", "7D", "7D"]}) == "card_not_in_hand"
    naive_apply(TD, pos, 1, {"type": "use", "cards": ["7H", "7H"]})
    discards = [a["card"] for a in naive_legal(TD, pos, 1)]
    assert discards.count("KC") == 1 and len(discards) == 11  # KC held twice: one discard
    cross_check(deal, [], 2)


def test_rul_33_the_other_copy_extends_a_set_with_identical_cards_and_opens_a_demand():
    deal = scripted_deal(TD, TWIN_HANDS, ["7S", "7S"], 0)
    pos = naive_replay(deal, TWIN_ACTIONS)
    assert pos["available"] == "7S" and sorted(pos["exposed"][1]) == ["7H", "7H", "7S"]
    assert Counter(pos["hands"][1])["KC"] == 1
    assert naive_legal(TD, pos, 1) == [{"type": "use", "cards": []}, {"type": "reject"}]
    naive_apply(TD, pos, 1, {"type": "reject"})
    assert pos["phase"] == "decide"  # SA-FORCE-1, SA-FORCE-2 / RUL-22
    cross_check(deal, TWIN_ACTIONS, 2)
