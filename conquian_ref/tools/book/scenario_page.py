"""The page of one scenario: what it cites, its annotation, and its story as table pictures.

Every position drawn comes from replaying the scenario on the reference engine (`walk`); each
step says what the file expects and what the engine answered, so a scenario that does not
replay as written shows where. A match scenario has no cards: its page lists the deals and the
running score.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ...engine.outcome import HOW
from .markdown import Markdown
from .render import render_page
from .picture import position, views
from .words import action_sentence, outcome_text

FOLD_AFTER = 12  # a longer story starts with its steps folded: a 59-step golden deal is otherwise 37,000 pixels
SETUP_HOW = {  # how the deal of a scenario is set up, by the key its setup gives
    "deck": "dealt from this deck order, top first, one card at a time alternately, non-dealer first",
    "hands": "hands as dealt and the stock given explicitly",
}


@dataclass
class StepPage:
    """One step as its template shows it (the engine's answer already compared)."""

    n: int
    step: dict
    failed: bool  # the replay's first disagreement is at this step
    sentence: Markup | None = None  # the action in words
    refused: str | None = None  # the reason code the step expects, if it expects a refusal
    given: Markup | None = None  # when that code is given (docs/rules/reasons.md)
    engine: str | None = None  # what the reference engine answered ("accepted", "refused <code>")
    error: str | None = None  # the reference engine raised instead of answering
    agrees: bool = True
    unchanged: bool = False  # a refusal left the position as it was: no new picture
    # The position before the step (the one a check step checks): (anchor, words) of where it is
    # drawn already, the previous step's after; assets/book.js copies it into the step when the
    # step opens (drawing it twice would double the page), a link to it without scripts.
    before: tuple | None = None
    after: Markup | None = None


def scenario_page(book, e) -> str:
    md = Markdown(book, e.page, e.profile)
    context = dict(e=e, data=e.scenario.data, cards=book.cards[e.profile])
    if "match" in e.scenario.data:
        context.update(match=e.walk.match or {"rows": [], "final": {}}, outcome_text=outcome_text)
    else:
        context.update(story(book, e, md))
    return render_page(book, "scenario.html.j2", e.page, f"{e.id}: {e.title}", "scenario",
                       profile=e.profile, here=md, **context)


def story(book, e, md) -> dict:
    """What the story of a dealt scenario shows: the setup, the pictures, every step, the outcome."""
    setup = e.scenario.data["setup"]
    target = book.profile_objs[e.profile].target
    cards = book.cards[e.profile]
    found = {
        "setup": setup,
        "how": SETUP_HOW["deck" if "deck" in setup else "hands"],
        "start": None, "steps": [], "outcome": None, "folded": len(e.scenario.data["steps"]) > FOLD_AFTER,
    }
    if e.walk.start is None:
        return found
    found["start"] = position(views(e.walk.start, cards, target, "position at the start"), "setup")
    last = ("setup", "the position at the start")  # where the position before the next step is drawn
    for view in e.walk.steps:
        page = step_page(book, e, md, view)
        n = page.n
        page.before = last
        if view.after is not None and not page.unchanged:
            page.after = position(views(view.after, cards, target, f"after step {n}"), f"after-{n}")
            last = (f"after-{n}", f"the position after step {n}")
        found["steps"].append(page)
    found["outcome"] = outcome(e, md)
    return found


def step_page(book, e, md, view) -> StepPage:
    """A step's words and the engine's answer (story() adds the positions)."""
    n = view.index + 1
    step = view.step
    page = StepPage(n, step, failed=e.walk.failure_step == view.index)
    if "action" not in step:
        return page
    cards = book.cards[e.profile]
    expect = step.get("expect", "accepted")
    if isinstance(expect, dict):
        page.refused = expect["refused"]
        given = book.reason_rows.get(page.refused, ("", ""))[0]
        page.given = md.inline(given) if given else None
    page.sentence = action_sentence(step["action"], step["seat"], view.before, cards, page.refused is not None)
    if view.error:
        page.error = view.error
    else:
        got_kind, got_code = view.got
        page.engine = "accepted" if got_kind == "accepted" else f"refused {got_code}"
        want = ("refused", page.refused) if page.refused is not None else ("accepted", None)
        page.agrees = tuple(view.got) == want
    if view.after is not None and view.got and view.got[0] == "refused" and view.after.state == view.before.state:
        page.unchanged = True
    return page


def outcome(e, md) -> dict:
    """The expected outcome in words, with its rule (C-END-1, C-END-3, RUL-6: engine.outcome.HOW),
    and whether the reference engine agrees."""
    expected = e.scenario.data.get("outcome")
    got = (e.walk.final or {}).get("outcome")
    text = outcome_text(expected)
    rule = HOW.get(expected.get("how")) if expected else None
    same = (expected or None) == (got or None) or bool(
        expected and got and all(got.get(k) == v for k, v in expected.items())
    )
    return {
        "expected": expected,
        "text": text[:1].upper() + text[1:],
        "rule": md.rule_link(rule) if rule else None,
        "agrees": same,
        "got": outcome_text(got),
    }
