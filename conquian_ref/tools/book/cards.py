"""Card pictures in one profile's notation, from the profile's own deck data (C-DECK-1, C-DECK-2).

French cards are rank and suit glyph, "Q♠" (the stylesheet draws ♥ ♦ red); Spanish cards are
rank and suit glyph with the suit's name written under it. The suit glyph is drawn as inline
SVG, a <use> of the page's one <symbol> for that suit name (assets/suits.svg, `SPRITE`), so no
emoji or symbol font is needed; the profile's text glyph follows it, visually hidden, for screen
readers and copy-paste. Every card carries its full name and letter form as a tooltip, and its
letter form as `data-card`.
"""

from __future__ import annotations

import re
from importlib import resources

from markupsafe import Markup, escape

from ...engine.errors import ConquianError

FRENCH_RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SPANISH_RANKS = {"1": "1 (as)", "10": "10 (sota)", "11": "11 (caballo)", "12": "12 (rey)"}
CARD = Markup('<span class="%s" title="%s" data-card="%s">%s</span>')
SUIT_NAME = Markup('<small>%s</small>')
NONE = Markup('<span class="none">%s</span>')
BACK = Markup('<span class="card back hidden">&nbsp;</span>')  # no name: the row says whose it is
# The suit symbols, inlined once at the top of every page (page.html.j2); the comment is for
# whoever edits the file, not for every page.
SPRITE = Markup(re.sub(r"<!--.*?-->\s*", "", (resources.files(__package__) / "assets" / "suits.svg")
                       .read_text(encoding="utf-8"), flags=re.S))
SYMBOLS = frozenset(re.findall(r'<symbol id="suit-([^"]+)"', SPRITE))
# Kept short, without classes (the stylesheet styles `.card svg`, `.card i`): a golden deal's page
# draws thousands of cards. <i> holds the text glyph, visually hidden.
SUIT = Markup('<svg aria-hidden="true"><use href="#suit-%s"/></svg><i>%s</i>')


class Cards:
    """The card pictures of one profile (its deck, notation, glyphs and suit names)."""

    def __init__(self, profile):
        self.profile = profile
        self.deck = profile.deck
        self.french = profile.data["deck"]["notation"] == "french"
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
        suit_name = deck.suit_names[deck.suit_of(c)]
        rank = deck.ranks[deck.rank_of(c)]
        rank_name = (FRENCH_RANKS if self.french else SPANISH_RANKS).get(rank, rank)
        title = f"{rank_name} of {suit_name} ({deck.name(c)})" + (", face down in the stock" if face_down else "")
        kind = "fr" if self.french else "es"
        classes = f"card {kind} s-{suit}" + (" back" if face_down else "") + (f" {extra}" if extra else "")
        glyph = deck.suit_glyphs[deck.suit_of(c)]
        # A suit the sprite does not draw (a new profile's) is written as its text glyph.
        inner = escape(rank) + (SUIT % (suit_name, glyph) if suit_name in SYMBOLS else escape(glyph))
        if not self.french:
            inner += SUIT_NAME % suit_name
        return CARD % (classes, title, deck.name(c), inner)

    def backs(self, count: int) -> Markup:
        """`count` cards face down that the viewing seat may not know: no name, no letter form."""
        key = ("backs", count)
        if key not in self._drawn:
            self._drawn[key] = Markup("").join([BACK] * count) if count else NONE % "none"
        return self._drawn[key]

    def many(self, names, extra: str = "", empty: str = "—") -> Markup:
        key = (tuple(names), extra, empty)
        if key not in self._drawn:
            self._drawn[key] = Markup(" ").join(self.card(n, extra) for n in key[0]) if key[0] else NONE % empty
        return self._drawn[key]
