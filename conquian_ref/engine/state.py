"""The full state of a deal in canonical JSON form, as the protocol's `state` answers it: every
card list in deck order, except the stock and the out-of-play cards, which keep their order.
(What one seat may know is conquian_ref.engine.observation.)"""

from __future__ import annotations


def available_json(game) -> dict | None:
    if game.available is None:
        return None
    return {"card": game.deck.name(game.available), "revealed": game.revealed, "offered_to": game.active}


def state_json(game) -> dict:
    names, name = game.deck.names, game.deck.name
    return {
        "profile": game.profile.id,
        "dealer": game.dealer,
        "phase": str(game.phase),
        "to_act": list(game.to_act),
        "hands": [names(h) for h in game.hands],
        "exposed": [names(e) for e in game.exposed],
        "available": available_json(game),
        "stock": [name(c) for c in game.stock],
        "out_of_play": [name(c) for c in game.out_of_play],
        "exchange": None if game.picks is None else {"picks": [None if c is None else name(c) for c in game.picks]},
        "pending": game.pending,
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }
