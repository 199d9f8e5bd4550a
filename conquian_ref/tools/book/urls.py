"""Where things are in the book: page paths, relative links between pages, anchors."""

from __future__ import annotations

import posixpath
import re
from functools import cache


def link(page: str, target: str) -> str:
    """A relative URL from `page` to `target` (both from the root; target may have #anchor)."""
    path, _, anchor = target.partition("#")
    if path == page or not path:
        rel = ""
    else:
        rel = _relative(path, posixpath.dirname(page) or ".")
    return rel + (f"#{anchor}" if anchor else "") or "#"


@cache  # the pages of one folder link to the same few hundred targets
def _relative(path: str, folder: str) -> str:
    return posixpath.relpath(path, folder)


def root(page: str) -> str:
    """The relative URL of the book's root folder from `page` ("" or "../")."""
    return "../" * page.count("/")


def slug(text: str) -> str:
    """An anchor made of a heading's words."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def profile_index(profile: str) -> str:
    """The page of one profile: its rules and its scenarios."""
    return f"{profile}/index.html"


def scenario_page(profile: str, scenario_id: str) -> str:
    return f"{profile}/{scenario_id}.html"
