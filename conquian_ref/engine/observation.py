"""What one seat may know: the observation (C-OBS-1, the exchange's `rules.exchange_privacy`,
RUL-8, RUL-12).

Hidden information is a security property: an observation is built only from what the seat
has seen. It holds the seat's own hand, every exposed card, the available card, the stock
count (never its order), the hand counts, the out-of-play cards (each was face up before it
left play, RUL-8) and the public history. During the exchange it shows the seat's own pick and
only *whether* the rival has picked (RUL-12); after the swap, the given and received cards.
"""

from __future__ import annotations

from .cards import count
from .setup import check_seat
from .phases import Phase
from .ruleset import resolve

# The rules an observation applies (resolved under the profile, conquian_ref.engine.ruleset):
# what a seat may know; with partnerships every other hand hidden, the partner's too (RUL-41);
# with an exchange its privacy, and during it that whether the rival has picked is public (RUL-12).
SEEN = ("C-OBS-1", "RUL-41", "partner_hidden", "exchange_privacy")
SEEN_DURING_EXCHANGE = SEEN + ("RUL-12",)


def observe(game, seat: int) -> dict:
    check_seat(seat, "seat", game.profile.seats)
    if game.trace:  # for rule coverage; not in fired_last, which belongs to the last action
        game.rules_fired.update(resolve(game.profile, SEEN_DURING_EXCHANGE if game.phase == Phase.EXCHANGE else SEEN))
    deck = game.deck
    rival = 1 - seat
    exchange = None
    if game.picks is not None:
        mine = game.picks[seat]
        if game.phase == Phase.EXCHANGE:
            exchange = {"mine": None if mine is None else deck.name(mine), "rival_picked": game.picks[rival] is not None}
        else:
            exchange = {"gave": deck.name(mine), "received": deck.name(game.picks[rival])}
    return {
        "seat": seat,
        "profile": game.profile.id,
        "dealer": game.dealer,
        "phase": str(game.phase),
        "to_act": list(game.to_act),
        "hand": deck.names(game.hands[seat]),
        "hand_counts": [count(h) for h in game.hands],
        "exposed": [deck.names(e) for e in game.exposed],
        "available": game.available_json(),
        "stock_count": game.stock_count,
        "out_of_play": [deck.name(c) for c in game.out_of_play],
        "exchange": exchange,
        "pending": game.pending,
        "outcome": None if game.outcome is None else game.outcome.to_json(),
        # Every logged event is public: exchange picks are logged only once both are made.
        "history": [dict(e) for e in game.history],
    }
