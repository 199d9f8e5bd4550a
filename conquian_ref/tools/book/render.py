"""The jinja2 environment of the book and the two ways pages use it: `render_page` renders a
whole page from a template, `macro` calls one macro of a template from Python.

Templates (templates/*.html.j2) are autoescaped: text from the rules documents and the scenario
files is escaped by the template, or by markupsafe where Python builds a fragment. The page
modules (pages, rules_pages, scenario_page, picture) all render through here.
"""

from __future__ import annotations

import json
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .markdown import Markdown
from .urls import root, slug
from .words import action_short, value_html

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


def without_title(doc: str) -> str:
    """A rules document without its `# ` title line (the page has its own)."""
    return "\n".join(line for line in doc.splitlines() if not line.startswith("# "))
