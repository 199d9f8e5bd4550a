"""The suit glyphs as stylesheet rules: each card's hidden text glyph (`<i>♥</i>`, cards.py) is
drawn as its suit's shape, a mask filled with the card's colour, so a card is a few bytes of
markup and no emoji or symbol font is needed.

The shapes are the <symbol>s of assets/suits.svg, one per suit name of the profile files; a card
names its suit by its profile's notation and suit id (`card fr s-H`), so the rules are made from
the profiles' decks: `.card.fr.s-H > i` is masked by the symbol of that suit's name. A suit with
no symbol there, or an id two profiles of one notation give different names, gets no rule: its
cards show the text glyph instead.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from urllib.parse import quote

SVG = (resources.files(__package__) / "assets" / "suits.svg").read_text(encoding="utf-8")
# The glyph of a suit drawn as a shape: its text kept (screen readers, copy-paste) but moved out
# of its box, which shows the shape in the card's colour; printed as shown.
SHAPED = """{ display: inline-block; width: 1em; height: 1em; margin-left: .05em; vertical-align: -.14em;
  overflow: hidden; text-indent: 2em; white-space: nowrap; background-color: currentColor;
  -webkit-mask: center / contain no-repeat; mask: center / contain no-repeat;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }"""
SYMBOL = re.compile(r'<symbol id="suit-([^"]+)" viewBox="([^"]+)">(.*?)</symbol>', re.S)


def kind(profile) -> str:
    """The card class of a profile's notation: "fr" (French cards) or "es" (Spanish)."""
    return "fr" if profile.data["deck"]["notation"] == "french" else "es"


@cache
def shapes() -> dict[str, str]:
    """suit name -> a data: URL of its shape as a standalone SVG."""
    found = {}
    for name, view_box, body in SYMBOL.findall(SVG):
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}">{body}</svg>'
        found[name] = "data:image/svg+xml," + quote(svg, safe="=:/,.-")
    return found


def suit_classes(profiles) -> dict[tuple[str, str], str]:
    """(notation class, suit id) -> suit name, for every suit drawn as a shape."""
    names: dict[tuple[str, str], set] = {}
    for profile in profiles:
        for suit in profile.data["deck"]["suits"]:
            names.setdefault((kind(profile), suit["id"]), set()).add(suit["name"])
    return {key: next(iter(n)) for key, n in names.items() if len(n) == 1 and next(iter(n)) in shapes()}


def stylesheet(profiles) -> str:
    """The rules masking each drawn suit's glyph with its shape (appended to book.css)."""
    shaped = sorted(suit_classes(profiles).items())
    lines = ["/* The suit shapes (suits.py, from assets/suits.svg and the profiles' decks). */",
             ", ".join(f".card.{cls}.s-{suit_id} > i" for (cls, suit_id), _ in shaped) + " " + SHAPED]
    for (cls, suit_id), name in shaped:
        url = shapes()[name]
        lines.append(f'.card.{cls}.s-{suit_id} > i {{ -webkit-mask-image: url("{url}"); mask-image: url("{url}"); }}')
    lines.append("/* A Spanish card's suit name under it. */")
    for (cls, suit_id), name in sorted(spanish_names(profiles).items()):
        lines.append(f'.card.{cls}.s-{suit_id}::after {{ content: "{name}"; }}')
    return "\n".join(lines) + "\n"


def spanish_names(profiles) -> dict[tuple[str, str], str]:
    """("es", suit id) -> suit name, for the names written under Spanish cards (one per id)."""
    names: dict[tuple[str, str], set] = {}
    for profile in profiles:
        if kind(profile) == "es":
            for suit in profile.data["deck"]["suits"]:
                names.setdefault(("es", suit["id"]), set()).add(suit["name"])
    return {key: next(iter(n)) for key, n in names.items() if len(n) == 1 and re.fullmatch(r"[\w ]+", next(iter(n)))}
