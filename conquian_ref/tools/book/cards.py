"""Card pictures in one profile's notation, from the profile's own deck data (C-DECK-1, C-DECK-2).

French cards are rank and suit glyph, "Q♠" (the stylesheet draws ♥ ♦ red); Spanish cards are
rank and suit glyph with the suit's name under it (written by the stylesheet). A card is short
markup, for a golden deal's page draws thousands: `<span class="card fr s-S">Q<i>♠</i></span>`,
its letter form the rank written and the suit of its class ("QS"). The stylesheet draws the `<i>`
as its suit's shape (suits.py, from assets/suits.svg), so no emoji or symbol
font is needed, and keeps the text glyph for screen readers and copy-paste; a suit with no shape
shows its text glyph. book.js gives every card its full name as a tooltip, from `names()`
("queen of spades (QS)").
"""

from __future__ import annotations

from markupsafe import Markup

from ...engine.errors import ConquianError
from .suits import kind

FRENCH_RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SPANISH_RANKS = {"1": "1 (as)", "10": "10 (sota)", "11": "11 (caballo)", "12": "12 (rey)"}
CARD = Markup('<span class="%s">%s<i>%s</i></span>')  # the rank, then the suit's text glyph
NONE = Markup('<span class="none">%s</span>')
# `count` cards face down, no name, no letter form: one element, book.css draws `--n` backs.
BACKS = Markup('<i class="backs" style="--n:%d"></i>')


class Cards:
    """The card pictures of one profile (its deck, notation, glyphs and suit names)."""

    def __init__(self, profile):
        self.profile = profile
        self.deck = profile.deck
        self.french = profile.data["deck"]["notation"] == "french"
        self.kind = kind(profile)
        self._drawn: dict[tuple, Markup] = {}  # a book draws the same cards and hands many times over

    def forget(self) -> None:
        """Drop the drawn pictures (after a page: the hands of one scenario seldom recur in the
        next, and a cache kept across the book would grow with the corpus)."""
        self._drawn.clear()

    def is_card(self, text: object) -> bool:
        if not isinstance(text, str):
            return False
        try:
            self.deck.parse(text)
        except ConquianError:
            return False
        return True

    def card(self, name: str, extra: str = "", face_down: bool = False) -> Markup:
        key = (name, extra, face_down)
        if key not in self._drawn:
            self._drawn[key] = self._draw(name, extra, face_down)
        return self._drawn[key]

    def _draw(self, name: str, extra: str, face_down: bool) -> Markup:
        deck = self.deck
        c = deck.parse(name)
        suit = deck.suit_ids[deck.suit_of(c)]
        classes = f"card {self.kind} s-{suit}" + (" back" if face_down else "") + (f" {extra}" if extra else "")
        return CARD % (classes, deck.ranks[deck.rank_of(c)], deck.suit_glyphs[deck.suit_of(c)])

    def names(self) -> dict:
        """What book.js needs to name a card in its tooltip: the rank and suit names by letter."""
        deck = self.deck
        ranks = FRENCH_RANKS if self.french else SPANISH_RANKS
        return {"ranks": {r: ranks.get(r, r) for r in deck.ranks},
                "suits": dict(zip(deck.suit_ids, deck.suit_names))}

    def backs(self, count: int) -> Markup:
        """`count` cards face down that the viewing seat may not know: no name, no letter form."""
        key = ("backs", count)
        if key not in self._drawn:
            self._drawn[key] = BACKS % count if count else NONE % "none"
        return self._drawn[key]

    def many(self, names, extra: str = "", empty: str = "—") -> Markup:
        key = (tuple(names), extra, empty)
        if key not in self._drawn:
            self._drawn[key] = Markup(" ").join(self.card(n, extra) for n in key[0]) if key[0] else NONE % empty
        return self._drawn[key]
