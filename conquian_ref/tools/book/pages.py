"""Every file of the book, by path: the assets, the search index and the pages.

Pages are jinja2 templates (templates/*.html.j2, autoescaped: text from the rules documents and
the scenario files is escaped by the template, or by markupsafe where Python builds a fragment);
the stylesheet and the search script are plain files (assets/). This module renders the top page
and the documents shown as they are; rules_pages and scenario_page render the others.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .markdown import Markdown
from .urls import root, slug
from .words import action_short, value_html

ASSETS = ("book.css", "search.js")  # copied as they are to the root of the book

ENV = Environment(
    loader=PackageLoader(__package__, "templates"),
    autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=False,  # the templates are package files: no need to stat them at every use
)
ENV.filters["slug"] = slug
ENV.filters["json"] = lambda value: json.dumps(value, ensure_ascii=False)
# `{{ hand|many(cards) }}`, `{{ name|card(cards, "avail") }}`: a profile's card pictures (cards.Cards).
# Filters rather than method calls: a template calls a filter directly, without the checks of a
# call through its context, and the pictures draw tens of thousands of cards.
ENV.filters["card"] = lambda name, cards, *args, **kwargs: cards.card(name, *args, **kwargs)
ENV.filters["many"] = lambda names, cards, *args: cards.many(names, *args)
ENV.filters["value_html"] = lambda value, key, cards: value_html(key, value, cards)  # `{{ v|value_html(k, cards) }}`
ENV.filters["action_short"] = action_short  # `{{ action|action_short(cards) }}`


def render_page(book, template: str, path: str, title: str, body_class: str, search: bool = False,
                profile: str | None = None, here: Markdown | None = None, **context) -> str:
    """One page from `template`; `here` renders its text, with links relative to `path`."""
    here = here or Markdown(book, path, profile)
    return ENV.get_template(template).render(
        book=book, here=here, root=root(path), title=title, body_class=body_class, search=search,
        profile=profile, **context,
    )


@cache
def macro(template: str, name: str):
    """A macro of a template, callable from Python (it returns Markup)."""
    return getattr(ENV.get_template(template).module, name)


def render(book) -> dict[str, str]:
    """Every file of the book: path from the root -> text."""
    # Imported here: those modules import render_page from this one.
    from .rules_pages import all_rules_page, profile_page, reasons_page
    from .scenario_page import scenario_page

    pages = {name: (resources.files(__package__) / "assets" / name).read_text(encoding="utf-8") for name in ASSETS}
    pages["search-index.js"] = search_index(book)
    pages["index.html"] = render_page(book, "top.html.j2", "index.html", "Conquian: the annotated rulebook",
                                      "top", search=True)
    pages["rules.html"] = all_rules_page(book)
    pages["reasons.html"] = reasons_page(book)
    pages["glossary.html"] = doc_page(book, "glossary.html", "glossary.md", "Glossary")
    pages["about.html"] = doc_page(book, "about.html", "README.md", "About the rules")
    for p in book.profiles:
        pages[f"{p}/index.html"] = profile_page(book, p)
    for e in book.entries:
        pages[e.page] = scenario_page(book, e)
    return pages


def search_index(book) -> str:
    """search-index.js: one entry per rule (per profile) and per scenario, for assets/search.js."""
    items = []
    for p in book.profiles:
        for rid, rule in book.rules[p].items():
            items.append({"k": "rule", "id": rid, "t": rule.title, "p": p, "u": f"{p}/index.html#{rid}"})
    for e in book.entries:
        items.append({
            "k": "scenario", "id": e.id, "t": e.title, "p": e.profile,
            "r": list(e.scenario.rules), "g": list(e.scenario.data.get("tags", [])), "u": e.page,
        })
    # json.dumps escapes nothing HTML-special by default; the file is a script, not HTML, but keep
    # "</" out of it anyway so that it could be inlined safely.
    text = json.dumps(items, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return "// The search index of the book: one entry per rule (per profile) and per scenario.\n" \
           f"window.CONQUIAN_BOOK_INDEX = {text};\n"


def without_title(doc: str) -> str:
    """A rules document without its `# ` title line (the page has its own)."""
    return "\n".join(line for line in doc.splitlines() if not line.startswith("# "))


def doc_page(book, path: str, name: str, title: str) -> str:
    """A rules document shown as it is; the glossary's rows are anchors `term-<word>`."""

    def row_id(cells):
        return "term-" + slug(cells[0]) if name == "glossary.md" else None

    text = Markdown(book, path).render(without_title(book.doc(name)), row_id=row_id)
    return render_page(book, "doc.html.j2", path, title, "doc", crumb=title.lower(), text=text)
