"""A scenario's `setup` checked against its profile's deck, without starting a deal.

Implements the input checks of C-DEAL-1 and C-DECK-2 that a scenario file can fail: every card
is written in the profile's notation (the engine's `Deck.parse_list`), a deck order lists every
card of the deck once, dealt hands hold the profile's hand size, and hands plus stock hold
every card of the deck exactly once.

Why here and not by building a `Game`: the spec floor sits below conformance, where the one
driver of the reference engine lives (conquian_ref.conformance.reference.Reference), so lint may
not drive the engine from here. The checks read only the engine's public card API (Deck,
Profile.hand_size) and raise the engine's MalformedInput with the same fields and messages as
`Game.from_deck` / `Game.from_deal`, so a broken file reads the same in `lint` and in a protocol
`setup` error; tests/test_spec.py compares the two on broken setups so they cannot drift apart.
The dealer seat is checked by the scenario schema (common.schema.json#/$defs/seat).
"""

from __future__ import annotations

from ..engine.errors import MalformedInput
from ..engine.profile import Profile


def check_setup(profile: Profile, setup: dict) -> None:
    """Raise MalformedInput naming the field inside `setup` of the first problem, if any."""
    if "deck" in setup:
        check_deck_order(profile, setup["deck"])
    else:
        check_dealt(profile, setup["hands"], setup["stock"])


def check_deck_order(profile: Profile, order: object) -> None:
    """A deck order (C-DEAL-1) lists all the cards of the deck, each once, top first."""
    cards = profile.deck.parse_list(order, "deck")  # refuses a card twice
    if len(cards) != profile.deck.size:
        raise MalformedInput("deck", f"a deck order lists all {profile.deck.size} cards, got {len(cards)}")


def check_dealt(profile: Profile, hands: object, stock: object) -> None:
    """Two hands of the profile's hand size and a stock, holding every card exactly once."""
    deck = profile.deck
    if not isinstance(hands, list) or len(hands) != 2:
        raise MalformedInput("hands", "two hands are needed, one per seat")
    parsed = [deck.parse_list(hand, f"hands[{seat}]") for seat, hand in enumerate(hands)]
    for seat, hand in enumerate(parsed):
        if len(hand) != profile.hand_size:
            raise MalformedInput(f"hands[{seat}]", f"a hand is dealt {profile.hand_size} cards, got {len(hand)}")
    places = {"hands[0]": parsed[0], "hands[1]": parsed[1], "stock": deck.parse_list(stock, "stock")}
    check_every_card_once(profile, places)


def check_every_card_once(profile: Profile, places: dict[str, list[int]]) -> None:
    """Every card of the deck in exactly one place: a card twice names its second place, a card
    in none is listed as missing from the deal."""
    seen: dict[int, str] = {}
    for place, cards in places.items():
        for i, card in enumerate(cards):
            if card in seen:
                raise MalformedInput(f"{place}[{i}]", f"{profile.deck.name(card)} is already in {seen[card]}")
            seen[card] = place
    missing = [card for card in profile.deck.ordered() if card not in seen]
    if missing:
        raise MalformedInput("stock", f"cards missing from the deal: {', '.join(profile.deck.names(missing))}")
