"""The action vocabulary and its canonical JSON form.

An action is a JSON object with a `type` and, for some types, cards:

| type     | fields          | meaning (rule)                                                         |
|----------|-----------------|------------------------------------------------------------------------|
| exchange | card            | pick the card to give in the exchange (TC-XCH-1)                      |
| use      | cards (a list)  | take the available card, exposing these hand cards with it (C-TURN-2, RUL-16) |
| reject   |                 | put the rival's card out of play and reveal the next (C-TURN-4)        |
| pass     |                 | leave a freshly revealed card to the rival (C-TURN-5)                  |
| force    |                 | force the available card onto the other seat's melds (C-FORCE-1)      |
| decline  |                 | do not force (AA-FORCE-1)                                              |
| discard  | card            | discard a hand card after taking (C-TURN-3)                            |

The canonical form lists `cards` in deck order; `legal_actions` are sorted by type, then by the
cards' deck order. A wrong shape is MalformedInput, never a refusal.

With two copies of every card (RUL-34) the cards of an action are a multiset of names: a `use`
may name 7H twice, and so name both copies. Parsing gives the canonical mask of the names (the
k-th 7H is copy k, cards.Deck.parse_list), and the game resolves it against the seat's hand
(`resolved`): the copies the seat holds, or, where it holds fewer than named, a copy it does not
hold, refused as `card_not_in_hand`. Naming a card more often than the deck has copies stays
malformed (with one copy: a card named twice). `Game.legal` lists one action per multiset.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Deck, cards_of, mask_of, resolve
from .errors import MalformedInput, shown

FIELDS: dict[str, tuple[str, ...]] = {
    "exchange": ("card",),
    "use": ("cards",),
    "reject": (),
    "pass": (),
    "force": (),
    "decline": (),
    "discard": ("card",),
}


_KEYS = {action_type: frozenset(fields) | {"type"} for action_type, fields in FIELDS.items()}  # each type's whole set of keys


class Action(NamedTuple):
    """A parsed action: `card` for exchange and discard, `cards` (a bit mask) for use.
    (A named tuple: immutable, and cheap to create by the thousand in legal-action listings.)"""

    type: str
    card: int | None = None
    cards: int = 0

    def to_json(self, deck: Deck) -> dict:
        if self.type == "use":
            return {"type": "use", "cards": deck.names(self.cards)}
        if self.card is not None:
            return {"type": self.type, "card": deck.name(self.card)}
        return {"type": self.type}

    def sort_key(self) -> tuple:
        # Sorted by type, then by the cards in deck order (a card list compares element-wise).
        if self.type == "use":
            return (self.type, cards_of(self.cards))
        return (self.type, [] if self.card is None else [self.card])


def parse_action(deck: Deck, data: object, field: str = "action") -> Action:
    """Read an action object; raise MalformedInput naming the offending field."""
    if not isinstance(data, dict):
        raise MalformedInput(field, f"an action is an object with a 'type', got {type(data).__name__}")
    action_type = data.get("type")
    if not isinstance(action_type, str) or action_type not in FIELDS:
        raise MalformedInput(f"{field}.type", f"unknown action type {shown(action_type)} (known: {', '.join(FIELDS)})")
    expected = _KEYS[action_type]
    if data.keys() != expected:  # else exactly its keys: the common case, one comparison
        for key in data:
            if key not in expected:
                name = key if isinstance(key, str) and len(key) <= 40 else shown(key)  # a short name as it is
                raise MalformedInput(f"{field}.{name}", f"a {action_type!r} action has no field {shown(key)}")
        for key in FIELDS[action_type]:
            if key not in data:
                raise MalformedInput(f"{field}.{key}", f"a {action_type!r} action needs a {key!r}")
    if action_type == "use":
        return Action(action_type, cards=mask_of(deck.parse_list(data["cards"], f"{field}.cards")))
    if "card" in data:
        return Action(action_type, card=deck.parse(data["card"], f"{field}.card"))
    return Action(action_type)


def check_action(deck: Deck, act: Action, field: str = "action") -> Action:
    """An Action built by a caller rather than parsed from JSON: it must hold what parse_action
    would have made (a known type, a card index of this deck where the type has a card, a mask of
    this deck's cards for a use), or it is MalformedInput. Without this a negative mask would
    never finish listing its cards."""
    if not isinstance(act.type, str) or act.type not in FIELDS:
        raise MalformedInput(f"{field}.type", f"unknown action type {shown(act.type)} (known: {', '.join(FIELDS)})")
    needs_card = "card" in FIELDS[act.type]
    if needs_card != (act.card is not None):
        raise MalformedInput(f"{field}.card", f"a {act.type!r} action {'needs a' if needs_card else 'has no'} card")
    if needs_card and not _index_of(deck, act.card):
        raise MalformedInput(f"{field}.card", f"a card is an index from 0 to {deck.size - 1}, got {shown(act.card)}")
    if not _is_int(act.cards) or not 0 <= act.cards < 1 << deck.size or (act.cards and act.type != "use"):
        raise MalformedInput(f"{field}.cards", f"cards are a mask of this deck's {deck.size} cards (a use only), got {shown(act.cards)}")
    return act


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _index_of(deck: Deck, value: object) -> bool:
    return _is_int(value) and 0 <= value < deck.size


def resolved(deck: Deck, act: Action, hand: int) -> Action:
    """The action with the copies of `hand` it names (two copies, RUL-34); with one copy, itself."""
    if deck.copies == 1:
        return act
    low = deck.low
    if act.card is not None:
        act = act._replace(card=resolve(1 << act.card, hand, low).bit_length() - 1)
    if act.cards:
        act = act._replace(cards=resolve(act.cards, hand, low))
    return act
