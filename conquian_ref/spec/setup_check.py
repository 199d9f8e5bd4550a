"""A scenario's `setup` checked against its profile's deck, without starting a deal.

Implements the input checks of C-DEAL-1 and C-DECK-2 that a scenario file can fail: every card
is written in the profile's notation (the engine's `Deck.parse_list`), a deck order lists every
card of the deck once, dealt hands hold the profile's hand size, and hands plus stock hold
every card of the deck exactly once.

Why here and not by building a `Game`: the spec floor sits below conformance, where the one
driver of the reference engine lives (conquian_ref.conformance.reference.Reference), so lint may
not drive the engine from here. It calls the engine's own input checks (conquian_ref.engine.setup,
the same functions `Game.from_deck` / `Game.from_deal` call), so a broken file reads the same in
`lint` and in a protocol `setup` error.
The schema admits any seat a profile can have (0 to 3); the dealer is checked here against the
profile's own seats (`check_seat`), as the engine does.
"""

from __future__ import annotations

from ..engine.profile import Profile
from ..engine.setup import check_dealt, check_seat, parse_deck_order


def check_setup(profile: Profile, setup: dict) -> None:
    """Raise MalformedInput naming the field inside `setup` of the first problem, if any."""
    check_seat(setup["dealer"], "dealer", profile.seats)
    if "deck" in setup:
        parse_deck_order(profile, setup["deck"])
    else:
        check_dealt(profile, setup["hands"], setup["stock"])
