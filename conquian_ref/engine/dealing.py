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
    # Speed: every seeded game is dealt, and the pattern depends only on the profile's hand,
    # packet and seats and on the dealer; so the pattern is worked out once (`dealt_positions`,
    # the rule as written) and each deal only picks the cards at its positions.
    key = (profile.hand_size, profile.packet_size, profile.seats, dealer)
    pattern = _PATTERNS.get(key)
    if pattern is None:
        pattern = _PATTERNS[key] = dealt_positions(profile, dealer)
    positions, dealt = pattern
    return [[order[i] for i in seat_positions] for seat_positions in positions], list(order[dealt:])


_PATTERNS: dict[tuple, tuple[tuple[tuple[int, ...], ...], int]] = {}  # deal()'s memo


def dealt_positions(profile: Profile, dealer: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The dealing pattern: for each seat, the positions in the deck order of the cards it is
    dealt, in the order received; and how many cards are dealt (the stock is the rest)."""
    hands: list[list[int]] = [[] for _ in profile.seats]
    size, packet = profile.hand_size, profile.packet_size
    rotation, seat = [], profile.next_seat(dealer)  # the seats in dealing order, from the dealer's next
    for _ in profile.seats:
        rotation.append(seat)
        seat = profile.next_seat(seat)
    i = 0
    for _ in range(-(-size // packet)):  # rounds: each seat gets one packet per round, in turn
        for seat in rotation:
            take = min(packet, size - len(hands[seat]))  # the last packet of an odd hand is one card
            hands[seat] += range(i, i + take)
            i += take
    return tuple(tuple(hand) for hand in hands), i


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
