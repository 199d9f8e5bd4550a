"""Cards, decks and card notation.

Implements C-DECK-1 (a deck is defined by its profile), C-DECK-2 (card notation), TC-DECK-1 and
AA-DECK-1 (the two 40-card decks, as data in the profiles).

A card is represented inside the engine by its index in the deck's canonical order: suits in
the profile's order, and inside a suit the ranks in sequence order (low to high). So with the
Spanish deck, index 0 is "1O" and index 9 is "12O". A set of cards is an int bit mask
(bit i = card i), which keeps the arrangement solver small and fast.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from .errors import MalformedInput, shown as _shown


@dataclass(frozen=True)
class Deck:
    """One profile's deck: suit ids with names and glyphs, and ranks in sequence order."""

    suit_ids: tuple[str, ...]
    suit_names: tuple[str, ...]
    suit_glyphs: tuple[str, ...]
    ranks: tuple[str, ...]

    @classmethod
    def from_profile_data(cls, deck: dict) -> "Deck":
        return cls(
            suit_ids=tuple(s["id"] for s in deck["suits"]),
            suit_names=tuple(s["name"] for s in deck["suits"]),
            suit_glyphs=tuple(s["glyph"] for s in deck["suits"]),
            ranks=tuple(str(r) for r in deck["ranks"]),
        )

    @property
    def size(self) -> int:
        return len(self.suit_ids) * len(self.ranks)

    def suit_of(self, card: int) -> int:
        return card // len(self.ranks)

    def rank_of(self, card: int) -> int:
        """The rank's position in sequence order (0 = ace), so consecutive ranks differ by 1."""
        return card % len(self.ranks)

    def card(self, suit: int, rank: int) -> int:
        return suit * len(self.ranks) + rank

    def name(self, card: int) -> str:
        """Canonical notation (C-DECK-2): rank label then suit letter, e.g. "7O", "QS"."""
        return self._names[card]

    @cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(self.ranks[self.rank_of(c)] + self.suit_ids[self.suit_of(c)] for c in range(self.size))

    def glyph(self, card: int) -> str:
        """Display form with the suit glyph, e.g. "Q♠"."""
        return self.ranks[self.rank_of(card)] + self.suit_glyphs[self.suit_of(card)]

    @cached_property
    def _spellings(self) -> dict[str, int]:
        # Both the letter form and the glyph form name a card (C-DECK-2); nothing else does.
        table = {}
        for card in range(self.size):
            table[self.name(card)] = card
            table[self.glyph(card)] = card
        return table

    def parse(self, text: object, field: str = "card") -> int:
        """The card named by `text`; MalformedInput naming `field` if it is not a card of this deck."""
        if not isinstance(text, str):
            raise MalformedInput(field, f"a card is written as a string like {self.name(0)!r}, got {_shown(text)}")
        try:
            return self._spellings[text]
        except KeyError:
            raise MalformedInput(
                field, f"unknown card {_shown(text)} for this deck (cards look like {self.name(0)!r}, {self.name(self.size - 1)!r})"
            ) from None

    def parse_list(self, items: object, field: str) -> list[int]:
        """A list of distinct cards; a duplicate is malformed, not illegal."""
        if not isinstance(items, list):
            raise MalformedInput(field, f"expected a list of cards, got {type(items).__name__}")
        cards, seen = [], set()
        for i, item in enumerate(items):
            card = self.parse(item, f"{field}[{i}]")
            if card in seen:
                raise MalformedInput(f"{field}[{i}]", f"card {_shown(item)} appears twice")
            cards.append(card)
            seen.add(card)
        return cards

    def names(self, mask_or_cards) -> list[str]:
        """Canonical names in deck order, from a bit mask or an iterable of card indices."""
        cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else sorted(mask_or_cards)
        return [self.name(c) for c in cards]

    def ordered(self) -> list[int]:
        """Every card in canonical order."""
        return list(range(self.size))

    def shuffled(self, seed: int) -> list[str]:
        """A deck order from a seeded shuffle. A convenience outside the rules: the engine itself
        only ever deals from an explicit deck order (C-DEAL-1)."""
        return [self.name(c) for c in self.shuffled_indices(seed)]

    def shuffled_indices(self, seed: int) -> list[int]:
        order = self.ordered()
        random.Random(seed).shuffle(order)
        return order


def bit(card: int) -> int:
    return 1 << card


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card indices of a bit mask, in canonical order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def count(mask: int) -> int:
    return mask.bit_count()
