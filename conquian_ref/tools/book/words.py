"""What the book says in words: an action, a checked value, an outcome (C-END-1, C-END-3, RUL-6).

Each function returns Markup: the cards in it are card pictures, every other piece is escaped.
"""

from __future__ import annotations

import json

from markupsafe import Markup, escape

HOW_TEXT = {
    "target_reached": "the target was reached by a use",
    "forced_to_target": "a forced card brought the receiver to the target",
    "stock_exhausted": "the available card was rejected with the stock empty",
    "rummy": "going rummy, every winning card exposed in one action",
}
# What a seat does, per action type; a verb is said "tries to <base form>" when the step
# expects a refusal. %(card)s is the available card, %(given)s the card named by the action.
ACTION_PHRASES = {
    "exchange": "%(picks)s %(given)s to give in the exchange",
    "use": "%(takes)s %(card)s and %(exposes)s it %(with_cards)s",
    "discard": "%(discards)s %(given)s",
    "reject": "%(rejects)s %(card)s",
    "pass": "%(passes)s %(card)s to seat %(other)s",
    "force": "%(forces)s %(card)s onto seat %(receiver)s's melds",
    "decline": "%(declines)s to force %(card)s",
}
BASE_FORMS = {"picks": "pick", "takes": "take", "exposes": "expose", "discards": "discard", "rejects": "reject",
              "passes": "pass", "forces": "force", "declines": "decline"}
NONE = Markup('<span class="none">none</span>')


def action_sentence(action: dict, seat: int, before, cards, refused: bool) -> Markup:
    """"Seat 1 takes 6♥ and exposes it with 4♥ 5♥." for the action of a step, in the position before it."""
    kind = action.get("type")
    phrase = ACTION_PHRASES.get(kind)
    if phrase is None:
        return Markup("Seat %s %s%s.") % (seat, "tries to " if refused else "", kind)
    avail = before.state.get("available")
    other = (seat + 1) % len(before.state.get("hands") or (0, 0))  # the next seat: the rival with two
    words = {third: (base if refused else third) for third, base in BASE_FORMS.items()}
    hand = action.get("cards", [])
    if before.state.get("phase") == "force_decision" and avail:
        receiver = avail["offered_to"]  # the card goes onto the melds of the seat it was offered to
    else:
        receiver = other
    words.update(
        card=cards.card(avail["card"]) if avail else "the available card",
        given=cards.card(action["card"]) if "card" in action else "",
        with_cards=Markup("with %s") % cards.many(hand) if hand else "alone, onto its exposed melds",
        other=other,
        receiver=receiver,
    )
    text = Markup(phrase) % words
    return Markup("Seat %s %s%s.") % (seat, "tries to " if refused else "", text)


def action_short(action: dict, cards) -> Markup:
    """An action in a list of legal actions: "discard Q♠", "use the available card with 4♥ 5♥"."""
    kind = action.get("type")
    if kind == "use":
        hand = action.get("cards", [])
        return Markup("use the available card %s") % (Markup("with %s") % cards.many(hand) if hand else "alone")
    if "card" in action:
        return Markup("%s %s") % (kind, cards.card(action["card"]))
    return escape(kind)


def value_html(key: str, value, cards) -> Markup:
    """A value of a state or observation check, in words and card pictures."""
    if key in ("hands", "exposed", "picks") and isinstance(value, list) and len(value) in (2, 4):
        who = "team" if key == "exposed" and cards.profile.partnerships else "seat"  # exposed cards are per team (RUL-38)
        return Markup("; ").join(
            Markup("%s %s: %s") % (who, s, cards.many(v) if isinstance(v, list) else value_html("", v, cards))
            for s, v in enumerate(value)
        )
    if key == "available" and isinstance(value, dict):
        bits = [cards.card(value["card"])] if "card" in value else []
        if "revealed" in value:
            bits.append("freshly revealed" if value["revealed"] else "from the rival")
        if "offered_to" in value:
            bits.append(f"offered to seat {value['offered_to']}")
        return Markup(", ").join(bits)
    if key == "outcome" and isinstance(value, dict):
        return escape(outcome_text(value))
    if key == "to_act" and isinstance(value, list):
        return escape(", ".join(f"seat {v}" for v in value) or "nobody")
    if value is None or (isinstance(value, list) and not value):
        return NONE
    if isinstance(value, str) and cards.is_card(value):
        return cards.card(value)
    if isinstance(value, list) and all(cards.is_card(v) for v in value):
        return cards.many(value)
    if isinstance(value, dict):
        return Markup("; ").join(Markup("%s: %s") % (k, value_html(k, v, cards)) for k, v in value.items())
    if isinstance(value, str):
        return Markup("<code>%s</code>") % value
    return escape(json.dumps(value, ensure_ascii=False))


def outcome_text(outcome: dict | None) -> str:
    """"seat 0 wins: the target was reached by a use", "a draw: ...", or "the deal is not over"."""
    if not outcome:
        return "the deal is not over"
    if "misdeal" in outcome:  # a session's misdeal entry (RUL-26)
        counts = outcome["misdeal"].get("counts", [])
        return "a misdeal (" + " and ".join(f"{c} cards to seat {s}" for s, c in enumerate(counts)) + "): dealt again by the same dealer"
    how = HOW_TEXT.get(outcome.get("how"), outcome.get("how", ""))
    if outcome.get("result") == "win":
        return f"seat {outcome.get('winner')} wins: {how}"
    return f"a draw: {how}"
