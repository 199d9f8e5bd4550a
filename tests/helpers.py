"""Helpers shared by the engine tests: scripted deals, refusal checks, and an independent
reading of the meld rules.

The meld functions here are written from the rule text (C-SET-1, C-RUN-1..3, TC-RUN-1,
AA-RUN-1, SA-RUN-1 / RUL-29, C-ARR-1/2, C-ARR-4 / RUL-3, SA-FORCE-2 / RUL-22, SADM-ARR-1 /
RUL-35), working on card *strings* and the profile's YAML data only, never on the engine's card
indices or meld table, so the tests can cross-check the engine's solver against them.

Card lists count copies (SATD-DECK-1, RUL-34: with `deck.copies: 2` every card is twice in the
deck, both copies written alike): hands, exposed cards and uses are multisets (lists or sorted
tuples), sets of one rank may hold identical cards under `melds.set_suits: any` (SATD-SET-1,
RUL-33), a run never does. One enumeration of multisets serves every deck (with one copy of each
card a multiset is a set).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations, product

import pytest

from conquian_ref.engine.errors import IllegalAction
from conquian_ref.engine.refusals import REASONS
from conquian_ref.engine.game import Game
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile

# Every shipped profile (discovered from the profile files): a test that means "every profile",
# or "every profile with this policy" (filtered on its data, `p.data["forcing"]["fit"]`), takes
# them from here, never from a list of ids.
ALL_PROFILES = tuple(load_profile(p) for p in PROFILE_IDS)
BY_ID = {p.id: p for p in ALL_PROFILES}

# Named profiles, only for the tests that pin one profile's own rule (TC-XCH-1 is Torno-Cisneros',
# AA-RUN-1 Anglo-American's): each name is that profile, by its rule prefix, never a stand-in for
# "every profile" or "a profile with this policy".
_BY_PREFIX = {p.data["rule_prefix"]: p for p in ALL_PROFILES}
TC = _BY_PREFIX["TC"]  # torno-cisneros-v1
AA = _BY_PREFIX["AA"]  # anglo-american-v1
SA = _BY_PREFIX["SA"]  # spielanleitung-v1
SAFD = _BY_PREFIX["SAFD"]  # spielanleitung-52-v1
SATA = _BY_PREFIX["SATA"]  # spielanleitung-twice-around-v1
SATL = _BY_PREFIX["SATL"]  # spielanleitung-twice-around-literal-v1
SANF = _BY_PREFIX["SANF"]  # spielanleitung-no-forcing-v1
SADM = _BY_PREFIX["SADM"]  # spielanleitung-discard-then-meld-v1
SAPT = _BY_PREFIX["SAPT"]  # spielanleitung-partnership-v1


# --- cards, from the profile data ------------------------------------------------------------


def ranks(profile) -> list[str]:
    return [str(r) for r in profile.data["deck"]["ranks"]]


def suits(profile) -> list[str]:
    return [s["id"] for s in profile.data["deck"]["suits"]]


def all_cards(profile) -> list[str]:
    """Every card of the profile's deck in letter notation, suit by suit, ranks low to high."""
    return [r + s for s in suits(profile) for r in ranks(profile)]


def copies(profile) -> int:
    """How many copies of each card the deck holds: `deck.copies` (1 unless the profile says
    otherwise; 2 under SATD-DECK-1 / RUL-34, the two copies written alike)."""
    return int(profile.data["deck"].get("copies", 1))


def deck_cards(profile) -> list[str]:
    """Every card of the deck as a multiset in deck order: each card `copies` times, side by side."""
    return [c for c in all_cards(profile) for _ in range(copies(profile))]


def minus(cards, taken) -> tuple:
    """The multiset `cards` less `taken` (one copy per mention), as a sorted tuple (RUL-34)."""
    rest = sorted(cards)
    for card in taken:
        rest.remove(card)  # a ValueError when `taken` is not part of `cards`
    return tuple(rest)


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


# --- seats and teams, from the profile data (RUL-36) ---------------------------------------------


def seats(profile) -> int:
    """The number of seats: `players` (2 unless the profile says otherwise)."""
    return int(profile.data.get("players", 2))


def partnerships(profile) -> bool:
    return bool(profile.data.get("partnerships", False))


def team_of(profile, seat: int) -> int:
    """RUL-36: with partnerships, seats n and n + 2 are partners, team = seat mod 2; otherwise
    every seat is its own team (the index of its exposed cards)."""
    return seat % 2 if partnerships(profile) else seat


def teams(profile) -> int:
    """How many pools of exposed cards the state holds: one per team (per seat without partners)."""
    return seats(profile) // 2 if partnerships(profile) else seats(profile)


def members(profile, team: int) -> list[int]:
    return [s for s in range(seats(profile)) if team_of(profile, s) == team]


def next_seat(profile, seat: int) -> int:
    """C-TURN-3 / C-TURN-5 with two seats the rival; SAPT-TURN-1 / RUL-39 the next seat."""
    return (seat + 1) % seats(profile)


# --- scripted deals ----------------------------------------------------------------------------


def deal(profile, hands, top=(), dealer=0) -> Game:
    """A deal from explicit hands (as dealt) and the top of the stock; the rest of the stock follows
    in deck order (tests never reach it unless they say so)."""
    # RUL-34: counted by copies, so a two-deck stock holds what the hands and top leave of each card
    rest = Counter(deck_cards(profile))
    rest.subtract(Counter(c for h in hands for c in h) + Counter(top))
    stock = list(top) + [c for c in all_cards(profile) for _ in range(rest[c])]
    return Game.from_deal(profile, [list(h) for h in hands], stock, dealer)


def use(*cards: str) -> dict:
    return {"type": "use", "cards": list(cards)}


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


def exchange(card: str) -> dict:
    return {"type": "exchange", "card": card}


def reject() -> dict:
    return {"type": "reject"}


def pass_() -> dict:
    return {"type": "pass"}


def force() -> dict:
    return {"type": "force"}


def decline() -> dict:
    return {"type": "decline"}


def snapshot(game: Game):
    """Everything observable about a game, deep-copied: full state, every seat's observation and
    legal actions, the history, the outcome."""
    n = seats(game.profile)
    return copy.deepcopy(
        (
            game.state_json(),
            [game.observation(s) for s in range(n)],
            [game.legal_actions(s) for s in range(n)],
            game.history,
            game.phase,
            game.to_act,
            game.outcome,
        )
    )


def assert_refused(game: Game, seat: int, action: dict, reason: str) -> IllegalAction:
    """`action` by `seat` is refused with `reason`, and nothing observable changed."""
    assert reason in REASONS
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.reason == reason, f"expected {reason}, got {info.value.reason}: {info.value}"
    after = snapshot(game)
    assert after == before, "a refused action changed the state"
    return info.value


def hand(game: Game, seat: int) -> list[str]:
    return game.state_json()["hands"][seat]


def exposed(game: Game, seat: int) -> list[str]:
    """The exposed cards of the seat's team (its own with two seats; the pool, SAPT-MELD-1)."""
    return game.state_json()["exposed"][team_of(game.profile, seat)]


def available(game: Game):
    return game.state_json()["available"]


def places(game: Game) -> Counter:
    """How many times each card appears across every place of the full state."""
    state = game.state_json()
    found = Counter()
    for cards in state["hands"]:
        found.update(cards)
    for cards in state["exposed"]:
        found.update(cards)
    if state["available"] is not None:
        found[state["available"]["card"]] += 1
    found.update(state["stock"])
    found.update(state["out_of_play"])
    return found


# --- the meld rules, read from the rule text ------------------------------------------------------


def is_set(profile, cards) -> bool:
    """C-SET-1: 3 or 4 cards (the profile's set sizes) of one rank, all of different suits under
    `melds.set_suits: distinct`; under `any` (SATD-SET-1 / RUL-33) of any suits, identical cards
    included (7H 7H 7S)."""
    cards = list(cards)
    suits_rule = profile.data["melds"].get("set_suits", "distinct")  # distinct or any
    return (
        len(cards) in profile.data["melds"]["set_sizes"]
        and len({rank_of(c) for c in cards}) == 1
        and (suits_rule == "any" or len({suit_of(c) for c in cards}) == len(cards))
    )


def is_run(profile, cards) -> bool:
    """C-RUN-1..3, TC-RUN-1, AA-RUN-1, SA-RUN-1: at least run_min cards of one suit, consecutive
    in the profile's rank order (so 7 is next to 10 / J in a 40-card deck, 7 8 9 10 J in the
    52-card one), ace low, no wrap, at most run_max; run_max null (RUL-29) is no maximum, so up to
    every rank of the suit. Ranks are compared as whole strings ("10" is one rank). One card of
    each rank: two identical cards (two decks) repeat a position, so never a run (SATD-SET-1)."""
    cards = list(cards)
    melds = profile.data["melds"]
    if len(cards) < melds["run_min"]:
        return False
    if melds["run_max"] is not None and len(cards) > melds["run_max"]:
        return False
    if len({suit_of(c) for c in cards}) != 1:
        return False
    order = ranks(profile)
    positions = sorted(order.index(rank_of(c)) for c in cards)
    return positions == list(range(positions[0], positions[0] + len(cards)))


def is_meld(profile, cards) -> bool:
    return is_set(profile, cards) or is_run(profile, cards)


_ARRANGEABLE: dict = {}


def naive_arrangeable(profile, cards) -> bool:
    """C-ARR-1: the cards can be partitioned into melds. A plain enumeration of partitions: the
    first card's block is any subset of the other cards that makes a meld with it, and the rest is
    partitioned the same way. Since a meld is a set (one rank) or a run (one suit), only the cards
    sharing the first card's rank or suit are tried as its companions.

    The cards are a multiset (RUL-34: two identical copies count twice); with identical cards the
    same block may come out of `combinations` more than once and is tried once. With one copy
    of each card the multiset is a set, and the same enumeration serves."""
    cards = tuple(sorted(cards))
    key = (profile.id, cards)
    if key in _ARRANGEABLE:
        return _ARRANGEABLE[key]
    if not cards:
        return True
    first, *others = cards
    twins = len(set(cards)) < len(cards)
    result = False
    for companions in ([c for c in others if rank_of(c) == rank_of(first)], [c for c in others if suit_of(c) == suit_of(first)]):
        tried = set()
        for size in range(2, len(companions) + 1):
            for block in combinations(companions, size):
                if twins:
                    if block in tried:
                        continue
                    tried.add(block)
                if is_meld(profile, (first, *block)) and naive_arrangeable(profile, minus(others, block)):
                    result = True
                    break
            if result:
                break
        if result:
            break
    if len(_ARRANGEABLE) > 500_000:
        _ARRANGEABLE.clear()
    _ARRANGEABLE[key] = result
    return result


def naive_partitions(profile, cards):
    """Every partition of the multiset of cards into melds (C-ARR-1, RUL-34), as a list of sorted
    tuples, by the same plain enumeration as naive_arrangeable (the first card's block, then the
    rest); no memo."""
    cards = tuple(sorted(cards))
    if not cards:
        yield []
        return
    first, *others = cards
    seen = set()
    for companions in ([c for c in others if rank_of(c) == rank_of(first)], [c for c in others if suit_of(c) == suit_of(first)]):
        for size in range(2, len(companions) + 1):
            for block in combinations(companions, size):
                block = (first, *block)
                if block in seen or not is_meld(profile, block):
                    continue
                seen.add(block)
                for rest in naive_partitions(profile, minus(others, block[1:])):
                    yield [block, *rest]


def naive_fits(profile, exposed_cards, card) -> bool:
    """C-ARR-4: the card fits when the exposed cards plus it, with no hand card, are arrangeable."""
    return naive_arrangeable(profile, [*exposed_cards, card])


def naive_extends(profile, exposed_cards, card) -> bool:
    """SA-FORCE-2 / RUL-22: some valid arrangement of the exposed cards has a meld M such that M
    plus the card is a meld (a run one longer at either end, a set of three made four; under
    RUL-33 any fourth card of the rank, the other copy of a card of the set included). Plain
    enumeration of the partitions of the exposed cards (a multiset); nothing exposed, nothing to
    extend."""
    exposed_cards = tuple(exposed_cards)
    if not exposed_cards:
        return False
    return any(
        is_meld(profile, (*meld, card)) for arrangement in naive_partitions(profile, exposed_cards) for meld in arrangement
    )


_PLACEABLE: dict = {}


def naive_placeable(profile, exposed_cards, new_cards) -> bool:
    """SADM-ARR-1 / RUL-35: the new cards (the taken card and the named hand cards) can be placed
    while the exposed cards stay as they lie: some partition of all the cards into melds in which
    the exposed part of every meld is either empty (a meld of new cards only) or itself a valid
    meld (an exposed meld, maybe extended by new cards). Plain enumeration of partitions. Cards
    are told apart by name here, so this reading is for decks of one copy (the only profile with
    discard_then_meld, spielanleitung-discard-then-meld-v1, has one)."""
    assert copies(profile) == 1, "naive_placeable reads a deck of one copy"
    exposed_cards, new_cards = frozenset(exposed_cards), frozenset(new_cards)
    key = (profile.id, exposed_cards, new_cards)
    if key not in _PLACEABLE:
        if len(_PLACEABLE) > 500_000:
            _PLACEABLE.clear()
        # a placement is an arrangement of everything, so an unarrangeable whole fails at once
        _PLACEABLE[key] = naive_arrangeable(profile, exposed_cards | new_cards) and any(
            all(not (frozenset(meld) & exposed_cards) or is_meld(profile, frozenset(meld) & exposed_cards) for meld in arrangement)
            for arrangement in naive_partitions(profile, exposed_cards | new_cards)
        )
    return _PLACEABLE[key]


def naive_fits_for_forcing(profile, exposed_cards, card) -> bool:
    """What "fits" means for forcing (the rival's option, the automatic form and forcing onto
    the rival), by the profile's `forcing.fit`: `any_arrangement` is C-ARR-4 / RUL-3 (the card
    joins the exposed cards alone under any repartition), `extension` is SA-FORCE-2 / RUL-22 (it
    extends one meld of some arrangement). A seat with nothing exposed has no melds to fit."""
    if not exposed_cards:
        return False
    fit = profile.data["forcing"]["fit"]
    if fit == "extension":
        return naive_extends(profile, exposed_cards, card)
    assert fit == "any_arrangement", fit
    return naive_fits(profile, exposed_cards, card)


def naive_use_legal(profile, exposed_cards, card, chosen) -> bool:
    """C-TURN-2: the taken card with these hand cards may go down: under `meld_timing: with_take`
    when the whole is arrangeable (C-ARR-2, full rearrangement); under `discard_then_meld`
    (RUL-35) only when the new cards can be placed without moving an exposed card."""
    if profile.data["meld_timing"] == "discard_then_meld":
        return naive_placeable(profile, exposed_cards, {card, *chosen})
    return naive_arrangeable(profile, [*exposed_cards, card, *chosen])


def naive_use_multisets(profile, exposed_cards, card, hand_cards) -> set[tuple]:
    """C-TURN-2: every multiset of hand cards that may go down with the taken card, each as a
    sorted tuple, listed once (RUL-34: both copies of a card held, a use may hold one or both).

    Only hand cards that belong to some meld of three cards drawn from all the cards at hand
    (exposed, taken, hand; one copy of the card itself set aside) are tried: a card that can go
    down is in some meld, and every meld of a card holds a three-card meld of that card (a set's
    three, a run's window of three); so the other hand cards are in no option. This keeps the
    14-card hands of twice-around (RUL-31) and two decks (RUL-32) from trying 2^14 subsets at
    every offer. Identical hand cards are grouped: a card held k times goes down 0..k times."""
    if copies(profile) == 1:  # as before RUL-34: subsets of the pruned hand
        pool = set(exposed_cards) | {card} | set(hand_cards)
        hand_cards = sorted(h for h in hand_cards if any(is_meld(profile, (h, *pair)) for pair in combinations(sorted(pool - {h}), 2)))
        return {
            chosen
            for size in range(len(hand_cards) + 1)
            for chosen in combinations(hand_cards, size)
            if naive_use_legal(profile, exposed_cards, card, chosen)
        }
    pool = [*exposed_cards, card, *hand_cards]
    held = Counter(hand_cards)
    tried = sorted(h for h in held if any(is_meld(profile, (h, *pair)) for pair in combinations(sorted(minus(pool, [h])), 2)))
    options = set()
    for counts in product(*(range(held[h] + 1) for h in tried)):
        chosen = tuple(h for h, k in zip(tried, counts) for _ in range(k))
        if naive_use_legal(profile, exposed_cards, card, chosen):
            options.add(chosen)
    return options


def naive_use_options(profile, exposed_cards, card, hand_cards) -> set[frozenset]:
    """C-TURN-2: every set of hand cards that may go down with the taken card (decks of one
    copy, where a use is a set of cards; naive_use_multisets counts copies)."""
    assert copies(profile) == 1, "a use is a multiset under two decks: naive_use_multisets"
    return {frozenset(chosen) for chosen in naive_use_multisets(profile, exposed_cards, card, hand_cards)}


def naive_empty_hand_refused(profile, exposed_cards, hand_cards, chosen) -> bool:
    """RUL-38 / SAPT-TURN-1 (partnership profiles only): a use that would leave the seat's hand
    empty while its team's pool stays short of the target has no discard to follow it, so it must
    not be made (`no_card_to_discard`)."""
    if not partnerships(profile):
        return False
    return not minus(hand_cards, chosen) and len(exposed_cards) + 1 + len(chosen) != profile.data["target"]


def naive_legal_uses(profile, exposed_cards, card, hand_cards) -> set[tuple]:
    """The uses that are legal actions, as sorted tuples (multisets, RUL-34): naive_use_multisets
    less those RUL-38 forbids."""
    return {c for c in naive_use_multisets(profile, exposed_cards, card, hand_cards) if not naive_empty_hand_refused(profile, exposed_cards, hand_cards, c)}


# --- the refusal rules, read from docs/rules/reasons.md ---------------------------------------------


def expected_reason(profile, state: dict, seat: int, action: dict):
    """The reason code the rules give for `action` by `seat` in the full state `state` (from
    Game.state_json()), following the documented precedence; None when the action is legal.
    Melds are judged with naive_arrangeable, never with the engine's solver."""
    phase, kind = state["phase"], action["type"]
    if phase == "over":
        return "game_over"
    if seat not in state["to_act"]:
        return "not_your_turn"
    if phase == "exchange" and kind != "exchange":
        return "must_exchange"
    if phase == "discard" and kind != "discard":
        return "must_discard"
    if phase == "force_decision" and kind not in ("force", "decline"):
        return "must_decide_force"
    if phase == "play":
        if kind == "discard":
            return "no_discard_now"
        if kind == "decline":
            return "nothing_to_decline"
        if kind == "exchange":
            return "exchange_over" if profile.data["exchange"] else "not_in_profile"
    # RUL-34: a card named more often than the hand holds it is not in hand
    held = Counter(state["hands"][seat])
    named = [action["card"]] if "card" in action else list(action.get("cards", []))
    if any(n > held[c] for c, n in Counter(named).items()):
        return "card_not_in_hand"
    if phase != "play":
        return None
    card, revealed = state["available"]["card"], state["available"]["revealed"]
    # the seat's own melds are its team's pool (SAPT-MELD-1); the rival is the next seat (RUL-39)
    own, rival = state["exposed"][team_of(profile, seat)], state["exposed"][team_of(profile, next_seat(profile, seat))]
    if kind == "use":
        # RUL-35: under discard_then_meld a use needing borrowing is refused with the same code
        if not naive_use_legal(profile, own, card, named):
            return "no_valid_arrangement"
        # RUL-38: next in precedence, a use leaving nothing to discard short of the target
        return "no_card_to_discard" if naive_empty_hand_refused(profile, own, held, named) else None
    if kind == "reject" and revealed:
        return "cannot_reject_revealed"
    if kind == "pass" and not revealed:
        return "cannot_pass_rival_card"
    fits_own = naive_fits_for_forcing(profile, own, card)  # forcing.fit: RUL-3 or RUL-22
    if kind in ("reject", "pass") and profile.data["forcing"]["own_fit"] == "automatic" and fits_own:
        return "fitting_card_must_be_taken"
    if kind == "force":
        if not profile.data["forcing"]["onto_rival"]:
            return "no_forcing_onto_rival"
        if not naive_fits_for_forcing(profile, rival, card):
            return "card_does_not_fit"
    return None


def choose(rng, legal: list[dict]) -> dict:
    """A random policy that likes to expose many cards (so games reach the target too)."""
    uses = [a for a in legal if a["type"] == "use"]
    if uses and rng.random() < 0.7:
        return max(uses, key=lambda a: (len(a["cards"]), rng.random()))
    if {"type": "force"} in legal and rng.random() < 0.5:
        return {"type": "force"}
    return rng.choice(legal)


def played(profile, seed: int, dealer: int, steps: int | None = None) -> tuple[Game, random.Random]:
    """A seeded deal played `steps` actions on (None: to a random point) by the random policy."""
    game = Game.from_seed(profile, seed, dealer % len(profile.seats))
    rng = random.Random(seed)
    steps = rng.randrange(60) if steps is None else steps
    for _ in range(steps):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        game.apply(seat, choose(rng, game.legal_actions(seat)))
    return game, rng
