"""A table picture: one position of a deal, drawn from the reference engine's state_json, and
the same position as each seat sees it, drawn from that seat's observation alone.

The table view is omniscient: every hand and the stock's order are drawn. A seat view shows only
what the seat may know (C-OBS-1): what it may not know (the other hands, the stock) is drawn from
`Reference.observation(seat)`, never from the state; what it may know is drawn once for every
view, after checking that its observation holds exactly that (`check_shared`). So each position
is drawn once; the page shows the table view, and a toggle (assets/book.js) a seat's instead.
Exposed cards are grouped in one valid arrangement (RUL-13). The template
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
    """`pic` drawn once for every viewpoint: the table view and each seat's (the page's toggle
    chooses which shows; picture.html.j2 marks what differs)."""
    check_shared(pic)
    draw = macro("picture.html.j2", "picture")
    note = available_note(pic) if pic.state["available"] else ""
    phases = {"table": phase_line(pic.state), **{f"seat-{o['seat']}": phase_line(o) for o in pic.views}}
    same = len(set(phases.values())) == 1
    return draw(pic=pic, st=pic.state, cards=cards, target=target, caption=caption, note=note,
                phases=phases["table"] if same else phases, stock_shown=STOCK_SHOWN)


def check_shared(pic) -> None:
    """What a seat may know is drawn once for the table and every seat: check that the seat's
    observation holds exactly that (its own hand, every hand's count, the exposed and
    out-of-play cards, the available card, the stock's count); a seat view must never show more
    than its observation, nor less."""
    st = pic.state
    for obs in pic.views:
        seat = obs["seat"]
        shown = {"hand": st["hands"][seat], "hand_counts": [len(h) for h in st["hands"]], "exposed": st["exposed"],
                 "out_of_play": st["out_of_play"], "available": st["available"], "stock_count": len(st["stock"])}
        for key, value in shown.items():
            if obs[key] != value:
                raise ValueError(f"seat {seat}'s observation gives {key} {obs[key]!r}, the table {value!r}")


def position(drawn: Markup, anchor: str) -> Markup:
    """A position's drawing with the id pos-<anchor> (shown as a step's after and, copied by
    assets/book.js, the next step's before)."""
    return POSITION % (anchor, drawn)
