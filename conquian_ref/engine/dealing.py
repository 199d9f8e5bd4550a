"""The dealing pattern: from a deck order to hands and stock, and back.

Implements C-DEAL-1, RUL-10, RUL-15 and RUL-18: the deck order lists the cards top first;
packets of the profile's `packet_size` go to each seat in turn, the seat after the dealer first
(the non-dealer; with four seats the first player, RUL-36), until each seat holds `hand_size`
cards (an odd hand gets a last packet of one, RUL-18); the rest is the stock, in order. Works on any items (card names or
indices), so the engine and the protocol tooling share it.
"""

from __future__ import annotations

from .profile import Profile


def deal(profile: Profile, order: list, dealer: int) -> tuple[list[list], list]:
    """(hands, stock) dealt from `order`; hands[s] lists seat s's cards in the order received."""
    hands: list[list] = [[] for _ in profile.seats]
    seat, i = profile.next_seat(dealer), 0
    while min(len(h) for h in hands) < profile.hand_size:
        take = min(profile.packet_size, profile.hand_size - len(hands[seat]))
        hands[seat] += order[i : i + take]
        i += take
        seat = profile.next_seat(seat)
    return hands, list(order[i:])


def undeal(profile: Profile, hands: list[list], stock: list, dealer: int) -> list:
    """The deck order that `deal` turns into these hands (in the order given) and stock."""
    rest = [list(h) for h in hands]
    seat, order = profile.next_seat(dealer), []
    while any(rest):
        take = min(profile.packet_size, len(rest[seat]))
        order += rest[seat][:take]
        rest[seat] = rest[seat][take:]
        seat = profile.next_seat(seat)
    return order + list(stock)
