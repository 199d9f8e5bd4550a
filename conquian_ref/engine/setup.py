"""Checking the input of a deal's setup: seats, deck orders, dealt hands (C-DECK-2, C-DEAL-1).

A setup that is not one deal of the profile's deck is malformed input, naming the field at
fault; the rules are applied to the deal only once these checks pass.
"""

from __future__ import annotations

from .errors import MalformedInput, shown as _shown
from .profile import Profile


def check_seat(seat: object, field: str, seats: tuple[int, ...]) -> None:
    """A seat of the profile's table (`Profile.seats`)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
        named = " or ".join(map(str, seats)) if len(seats) == 2 else f"0 to {seats[-1]}"
        raise MalformedInput(field, f"a seat is {named}, got {_shown(seat)}")


def parse_deck_order(profile: Profile, deck_order: object) -> list[int]:
    """A deck order lists every card of the profile's deck exactly once, top card first; with
    two copies every card exactly twice (RUL-34): a third is malformed at its place, and as the
    length is the deck's, no card can then be missing. The k-th copy named is copy k."""
    order = profile.deck.parse_list(deck_order, "deck")
    if len(order) != profile.deck.size:
        raise MalformedInput("deck", f"a deck order lists all {profile.deck.size} cards, got {len(order)}")
    return order


def check_hands(profile: Profile, hands: object) -> list[list[int]]:
    """One hand per seat of the profile's hand size, as card indices."""
    seats = len(profile.seats)
    if not isinstance(hands, list) or len(hands) != seats:
        raise MalformedInput("hands", f"{seats} hands are needed, one per seat")
    parsed = [profile.deck.parse_list(h, f"hands[{s}]") for s, h in enumerate(hands)]
    for s, h in enumerate(parsed):
        if len(h) != profile.hand_size:
            raise MalformedInput(f"hands[{s}]", f"a hand is dealt {profile.hand_size} cards, got {len(h)}")
    return parsed


def check_dealt(profile: Profile, hands: object, stock: object) -> tuple[list[list[int]], list[int]]:
    """Dealt hands and a stock (top first) holding every card of the deck exactly once, as card
    indices."""
    parsed = check_hands(profile, hands)
    stock_cards = profile.deck.parse_list(stock, "stock")
    places = {**{f"hands[{s}]": h for s, h in enumerate(parsed)}, "stock": stock_cards}
    check_every_card_once(profile, places)
    return [places[f"hands[{s}]"] for s in range(len(parsed))], places["stock"]


def check_every_card_once(profile: Profile, places: dict[str, list[int]], missing_field: str = "stock") -> None:
    """Every card of the deck in exactly one place; names the place of a duplicate. With two
    copies (RUL-34) every card twice over all places: each list was read with its own copies
    (the first 7H of each list is copy 0), so the copies are renumbered across the places, in
    place, and a third 7H is named as the duplicate. A missing card is named under `missing_field`."""
    deck, copies = profile.deck, profile.deck.copies
    seen: dict[int, str] = {}
    for place, cards in places.items():
        for i, card in enumerate(cards):
            base = card - card % copies  # deck.same_card, inline: this runs for every card of every setup
            for copy in range(base, base + copies):
                if copy not in seen:
                    break
            else:
                raise MalformedInput(f"{place}[{i}]", f"{deck.name(card)} is already in {seen[base + copies - 1]}")
            cards[i] = copy
            seen[copy] = place
    missing = [] if len(seen) == deck.size else [c for c in deck.ordered() if c not in seen]
    if missing:
        raise MalformedInput(missing_field, f"cards missing from the deal: {', '.join(deck.names(missing))}")
