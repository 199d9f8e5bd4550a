"""Cards, decks and card notation.

Implements C-DECK-1 (a deck is defined by its profile), C-DECK-2 (card notation), TC-DECK-1 and
AA-DECK-1 (the two 40-card decks, as data in the profiles).

A card is represented inside the engine by its index in the deck's canonical order: suits in
the profile's order, and inside a suit the ranks in sequence order (low to high). So with the
Spanish deck, index 0 is "1O" and index 9 is "12O". A set of cards is an int bit mask
(bit i = card i), which keeps the arrangement solver small and fast.

Two decks (`deck.copies: 2`, SATD-DECK-1, RUL-34): every physical card has its own index, and
the copies of one card sit next to each other: index = card * copies + copy. So with one copy
the indices (and every mask) are exactly those of before; with two, 7H's copies are bits 2c and
2c + 1. This layout (rather than copy * base_size + card) was chosen because ascending index is
still deck order, so every card list read off a mask (`names`, `cards_of`, the sort of legal
actions) is already the multiset in deck order, with a card named twice when both copies are
there, and no code that lists cards needs to know about copies. The name layer collapses the
copies: both are written alike ("7H"); parsing gives copy 0 for a name, and the k-th occurrence
of a name in one list copy k (`parse_list`), so a list of names read from JSON is a *canonical*
mask (the copies present packed low). For the multiset arithmetic of the arrangement solver see
`canonical` and twocopies.Multiset; `resolve` turns a canonical request into the copies a
seat holds.
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
    copies: int = 1  # how many copies of each card (deck.copies): 1, or 2 for two decks

    @classmethod
    def from_profile_data(cls, deck: dict) -> "Deck":
        return cls(
            suit_ids=tuple(s["id"] for s in deck["suits"]),
            suit_names=tuple(s["name"] for s in deck["suits"]),
            suit_glyphs=tuple(s["glyph"] for s in deck["suits"]),
            ranks=tuple(str(r) for r in deck["ranks"]),
            copies=deck.get("copies", 1),
        )

    @property
    def size(self) -> int:
        """The number of physical cards (every copy counted)."""
        return len(self.suit_ids) * len(self.ranks) * self.copies

    @property
    def base_size(self) -> int:
        """The number of different cards (one copy each)."""
        return len(self.suit_ids) * len(self.ranks)

    def suit_of(self, card: int) -> int:
        return card // self.copies // len(self.ranks)

    def rank_of(self, card: int) -> int:
        """The rank's position in sequence order (0 = ace), so consecutive ranks differ by 1."""
        return card // self.copies % len(self.ranks)

    def card(self, suit: int, rank: int, copy: int = 0) -> int:
        return (suit * len(self.ranks) + rank) * self.copies + copy

    @cached_property
    def low(self) -> int:
        """Two copies: the mask of copy 0 of every card (see `canonical`)."""
        return low_bits(self.size)

    def same_card(self, card: int) -> int:
        """The index of copy 0 of `card` (the card its name stands for)."""
        return card - card % self.copies

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
        for card in range(0, self.size, self.copies):  # a name stands for copy 0 (RUL-34)
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
        """A list of cards, each named at most `copies` times; more is malformed, not illegal.
        The k-th occurrence of a name is copy k (RUL-34), so the list read is a canonical mask's
        cards: with one copy, distinct cards as before."""
        if not isinstance(items, list):
            raise MalformedInput(field, f"expected a list of cards, got {type(items).__name__}")
        cards, seen = [], {}
        spellings = self._spellings
        for i, item in enumerate(items):
            # A name looked up first, and the item's field written only for an error: a deal
            # order is 40 to 80 names, read at every deal a fuzzer or an adapter sets up.
            card = spellings.get(item) if type(item) is str else None
            if card is None:
                card = self.parse(item, f"{field}[{i}]")
            times = seen.get(card, 0)
            if times == self.copies:
                if self.copies == 1:
                    raise MalformedInput(f"{field}[{i}]", f"card {_shown(item)} appears twice")
                raise MalformedInput(
                    f"{field}[{i}]", f"card {_shown(item)} appears {times + 1} times (the deck has {self.copies} copies of each card)"
                )
            cards.append(card + times)
            seen[card] = times + 1
        return cards

    def names(self, mask_or_cards) -> list[str]:
        """Canonical names in deck order, from a bit mask or an iterable of card indices (a card
        named once per copy present: a multiset in deck order)."""
        if not isinstance(mask_or_cards, int):
            return [self.name(c) for c in sorted(mask_or_cards)]
        # Eight cards at a time from a table, instead of card by card (cards_of): every state
        # and observation names each hand and meld, and this is under half the time.
        names, mask = [], mask_or_cards
        for table in self._names_by_byte:
            if mask & 0xFF:
                names += table[mask & 0xFF]
            mask >>= 8
            if not mask:
                break
        return names

    @cached_property
    def _names_by_byte(self) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """For the k-th eight cards of the deck, the names of the cards each byte value holds:
        a byte's names are those of the byte without its highest bit, then that bit's card."""
        tables = []
        for low in range(0, self.size, 8):
            table: list[tuple[str, ...]] = [()]
            for byte in range(1, 256):
                high = byte.bit_length() - 1
                card = low + high
                table.append(table[byte ^ 1 << high] + ((self._names[card],) if card < self.size else ()))
            tables.append(tuple(table))
        return tuple(tables)

    def ordered(self) -> list[int]:
        """Every card in canonical order (every copy, the copies of a card side by side)."""
        return list(range(self.size))

    def shuffled(self, seed: int) -> list[str]:
        """A deck order from a seeded shuffle. A convenience outside the rules: the engine itself
        only ever deals from an explicit deck order (C-DEAL-1)."""
        return [self.name(c) for c in self.shuffled_indices(seed)]

    def shuffled_indices(self, seed: int) -> list[int]:
        """Every card, in the order `random.Random(seed).shuffle` puts `ordered()` in."""
        # Speed: every seeded game is dealt from this, and the shuffle was half of setting a game
        # up. `random.shuffle` written out (CPython 3.11 and 3.12: Fisher-Yates from the top, each
        # index drawn by `_randbelow`, rejection sampling over `getrandbits` of its bit length),
        # which saves a call per card; tests/test_cards.py checks it against `random.shuffle`.
        order = self.ordered()
        getrandbits = random.Random(seed).getrandbits
        for i in range(len(order) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            order[i], order[j] = order[j], order[i]
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


def deck_order_key(mask: int) -> str:
    """A sort key that orders masks as their card lists (`cards_of`) compare: element by element
    in deck order, a list before any longer list it begins. Hand-written because it is asked for
    every legal use listed and costs a fraction of building the list: the mask's bits from card 0
    up as a string, "1" for a card present and "2" for one absent below the last card present.
    At the first card where two masks differ, the one holding it sorts first if the other still
    holds a later card ("1" < "2"), else the other is a beginning of it (the shorter string)."""
    return format(mask, "b")[::-1].replace("0", "2") if mask else ""


def count(mask: int) -> int:
    return mask.bit_count()


# -- two copies: a multiset of cards as a mask (RUL-34) ------------------------------------------
# With `copies: 2` the copies of card c are bits 2c and 2c + 1. A *canonical* mask packs the
# copies present low: one copy of c is bit 2c, two copies bits 2c and 2c + 1. So a canonical mask
# is a multiset in "thermometer" code, and on canonical masks bitwise AND is the multiset
# intersection (the smaller count), bitwise subset is multiset inclusion; a sum and a difference
# need the two functions below. Any physical mask is turned into the canonical mask of the same
# multiset by `canonical`.

def low_bits(size: int) -> int:
    """The even bits (copy 0 of every card) of a two-copy deck of `size` physical cards."""
    return int("01" * (size // 2), 2) if size else 0


def canonical(mask: int, low: int) -> int:
    """The canonical mask of the multiset of physical cards `mask` (two copies; `low` = low_bits)."""
    first, second = mask & low, (mask >> 1) & low
    return first | second | (first & second) << 1


def plus(a: int, b: int, low: int) -> int:
    """The multiset sum of two canonical masks (the result holds at most two of a card)."""
    return a | b | (a & b & low) << 1


def minus(a: int, b: int, low: int) -> int:
    """The multiset difference a - b of canonical masks, b included in a."""
    rest = a & ~b  # may hold the second copy alone where a had two and b one
    return canonical(rest, low)


def resolve(request: int, held: int, low: int) -> int:
    """The physical cards of `held` that make up the multiset `request` (any mask naming the
    cards; canonicalised first): for a card asked once, copy 0 if held, else copy 1; for a card
    asked twice both copies. Where `held` has fewer copies than asked, the result keeps a copy
    not held, so the refusal `card_not_in_hand` still sees it."""
    request = canonical(request, low)
    twice = (request >> 1) & low
    once = request & low & ~twice
    h0 = held & low
    h1 = (held >> 1) & low
    return twice | twice << 1 | once & h0 | (once & ~h0 & h1) << 1 | once & ~h0 & ~h1


def distinct(mask: int, low: int) -> int:
    """One copy of each card of `mask`: copy 0 where it is there, else copy 1."""
    return mask & ~((mask & low) << 1)
