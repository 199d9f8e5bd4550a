"""A table picture: one position of a deal, drawn from the reference engine's state_json, and
the same position as each seat sees it, drawn from that seat's observation alone.

The table view is omniscient: every hand and the stock's order are drawn. A seat view shows only
what the seat may know (C-OBS-1): it is rendered from `Reference.observation(seat)`, never from
the state, so it cannot show another hand. The page shows the table view; a toggle (assets/book.js)
shows a seat's instead. Exposed cards are grouped in one valid arrangement (RUL-13). The template
is templates/picture.html.j2; this module says in words where the available card came from and
what the phase waits for.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from .render import macro
from .words import outcome_text

STOCK_SHOWN = 3  # stock cards drawn face down in a table picture
# What each phase waits for (the line under a picture); %(first)s is the first seat to act.
PHASE_LINES = {
    "exchange": "<b>exchange</b>: waiting for %(who)s to pick a card",
    "play": "<b>play</b>: seat %(first)s to act on the available card",
    "discard": "<b>discard</b>: seat %(first)s must discard a hand card",
    "force_decision": "<b>force decision</b>: seat %(first)s decides, force or decline (seat %(active)s declared a %(pending)s)",
    "over": "<b>over</b>: %(outcome)s",
}


def phase_line(st: dict) -> Markup:
    line = PHASE_LINES.get(st["phase"])
    if line is None:
        return escape(st["phase"])
    to_act = st["to_act"]
    return Markup(line) % {
        "who": " and ".join(f"seat {s}" for s in to_act),
        "first": to_act[0] if to_act else "",
        "active": st["available"]["offered_to"] if st["available"] else "?",
        "pending": st.get("pending"),
        "outcome": outcome_text(st.get("outcome")),
    }


def available_note(pic) -> str:
    """Where the available card came from and to whom it is offered."""
    avail = pic.state["available"]
    if avail["revealed"]:
        return f"freshly revealed for seat {avail['offered_to']}: use or pass, never reject"
    came = ""
    if pic.origin and pic.origin[0] in ("discard", "pass") and pic.origin[1] is not None:
        came = f"{'discarded' if pic.origin[0] == 'discard' else 'passed'} by seat {pic.origin[1]}, "
    elif pic.origin and pic.origin[0] == "reveal":
        came = f"revealed for seat {pic.origin[1]}, "
    return f"{came}offered to seat {avail['offered_to']}"


POSITION = Markup('<div class="position" id="pos-%s">%s</div>')


def views(pic, cards, target: int, caption: str) -> Markup:
    """The table view of `pic`, then one hidden view per seat (the toggle shows one)."""
    draw = macro("picture.html.j2", "picture")
    note = available_note(pic) if pic.state["available"] else ""
    drawn = [draw(pic=pic, st=pic.state, cards=cards, target=target, caption=f"{caption} · table view: all cards",
                  note=note, phase=phase_line(pic.state), stock_shown=STOCK_SHOWN, obs=None)]
    for obs in pic.views:
        drawn.append(draw(pic=pic, st=obs, cards=cards, target=target, caption=f"{caption} · as seat {obs['seat']} sees it",
                          note=note, phase=phase_line(obs), stock_shown=STOCK_SHOWN, obs=obs))
    return Markup("").join(drawn)


def position(drawn: Markup, anchor: str) -> Markup:
    """A position's views with the id pos-<anchor> (one drawing, shown as a step's after and the
    next step's before)."""
    return POSITION % (anchor, drawn)
