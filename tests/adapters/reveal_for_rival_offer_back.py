"""A deliberately wrong engine for the zoo (tests/zoo.py) with two house rules at once: after a
reject the next card is revealed for the rival (reveal_for_rival.py), and a discard is offered
back to the discarder (offer_back.py). Each wrapper changes the answer of the reference adapter
below it (`--impl python:reveal_for_rival_offer_back:Adapter`, with tests/adapters on sys.path)."""

from __future__ import annotations

import offer_back
import reveal_for_rival


class Adapter(reveal_for_rival.Adapter, offer_back.Adapter):
    pass
