"""Every file of the book, in turn: the assets, the pages and the search index.

Pages are jinja2 templates rendered through render.py; the stylesheet and the search script are
plain files (assets/). This module renders the top page and the documents shown as they are;
rules_pages and scenario_page render the others.
"""

from __future__ import annotations

import json
import re
from importlib import resources

from .markdown import Markdown
from .render import render_page, without_title
from .rules_pages import all_rules_page, profile_page, reasons_page
from .scenario_page import scenario_page
from .suits import stylesheet
from .urls import slug

ASSETS = ("book.css", "book.js", "search.js")  # copied as they are to the root of the book


def render(book):
    """Every file of the book, one at a time: (path from the root, text). A page is given as soon
    as it is rendered and is not kept, so memory stays flat however large the corpus. The
    scenario pages come before the profile pages, which flag the scenarios that do not replay
    (each scenario is replayed while its page renders)."""
    for name in ASSETS:
        text = (resources.files(__package__) / "assets" / name).read_text(encoding="utf-8")
        if name == "book.css":
            text += stylesheet(book.profile_objs.values())  # the suit shapes
        yield name, text
    yield "index.html", render_page(book, "top.html.j2", "index.html", "Conquian: the annotated rulebook",
                                    "top", search=True)
    yield "rules.html", all_rules_page(book)
    yield "reasons.html", reasons_page(book)
    yield "glossary.html", doc_page(book, "glossary.html", "glossary.md", "Glossary")
    yield "about.html", doc_page(book, "about.html", "README.md", "About the rules")
    for e in book.entries:
        book.replay(e)
        yield e.page, scenario_page(book, e)
        book.release(e)
    for p in book.profiles:
        yield f"{p}/index.html", profile_page(book, p)
    yield "search-index.js", search_index(book)


WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")  # words of a text, rule ids and card names whole (C-OBS-1, 6H)


def words(text: str) -> str:
    """The distinct words of `text`, lowercased, in order of first use: what the search matches
    (every word typed must start or occur in one), without the repeats and the markup."""
    return " ".join(dict.fromkeys(w.lower() for w in WORD.findall(text)))


def search_index(book) -> str:
    """search-index.js: one entry per rule (per profile) and per scenario, for assets/search.js,
    with the words of each rule's text (once per rule: `T`, by id) and of each scenario's
    annotation (`x`), so that the search finds text as well as ids, titles and tags."""
    items, texts = [], {}
    for p in book.profiles:
        for rid, rule in book.rules[p].items():
            texts.setdefault(rid, words(rule.text))
            items.append({"k": "rule", "id": rid, "t": rule.title, "p": p, "u": f"{p}/index.html#{rid}"})
    for e in book.entries:
        items.append({
            "k": "scenario", "id": e.id, "t": e.title, "p": e.profile,
            "r": list(e.scenario.rules), "g": list(e.scenario.data.get("tags", [])), "u": e.page,
            "x": words(e.scenario.data.get("annotation", "")),
        })
    # json.dumps escapes nothing HTML-special by default; the file is a script, not HTML, but keep
    # "</" out of it anyway so that it could be inlined safely.
    text = json.dumps(items, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    rule_texts = json.dumps(texts, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return "// The search index of the book: one entry per rule (per profile) and per scenario;\n" \
           "// the words of each rule's text, by rule id.\n" \
           f"window.CONQUIAN_BOOK_INDEX = {text};\nwindow.CONQUIAN_BOOK_TEXTS = {rule_texts};\n"


def doc_page(book, path: str, name: str, title: str) -> str:
    """A rules document shown as it is; the glossary's rows are anchors `term-<word>`."""

    def row_id(cells):
        return "term-" + slug(cells[0]) if name == "glossary.md" else None

    text = Markdown(book, path).render(without_title(book.doc(name)), row_id=row_id)
    return render_page(book, "doc.html.j2", path, title, "doc", crumb=title.lower(), text=text)
