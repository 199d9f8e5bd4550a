"""The small Markdown renderer of the rules documents and the scenario annotations.

Enough Markdown for docs/rules/*.md: headings, paragraphs, lists, tables and fenced code; inline
`code`, **bold** and [links](x.md) to other rules documents. Rule ids anywhere in the text become
links to the rule; a code span holding a reason code links to the reasons page. Every piece of
source text is escaped by markupsafe (the escaping of the templates); what it returns is Markup.
"""

from __future__ import annotations

import posixpath
import re

from markupsafe import Markup, escape

from ...engine.refusals import REASONS
from .urls import link, slug

LABELS = ("Source", "Example", "Applies to", "Question", "Alternatives", "Decision", "Reason", "Rules affected")
LABEL_LINE = re.compile(r"^(%s):\s?(.*)$" % "|".join(re.escape(label) for label in LABELS))
HEADING = re.compile(r"^(#{1,6}) (.+)$")
ITEM = re.compile(r"^(\s*)([-*]|\d+\.) (.*)$")
BLOCK_START = re.compile(r"^(#{1,6} |```|\s*\||\s*([-*]|\d+\.) )")
SEPARATOR_CELL = re.compile(r":?-+:?")
NL = Markup("\n")


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row (pipes inside `code` are not separators)."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    found, cur, in_code = [], "", False
    for ch in line:
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code:
            found.append(cur.strip())
            cur = ""
        else:
            cur += ch
    found.append(cur.strip())
    return found


class Markdown:
    """Renders text for one page of `book` (links are relative to that page)."""

    def __init__(self, book, page: str, profile: str | None = None):
        self.book = book
        self.page = page
        self.profile = profile
        self._inline_marks = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|" + book.rule_id.pattern)

    def link(self, target: str) -> str:
        return link(self.page, target)

    # -- inline text -------------------------------------------------------------------------------
    def inline(self, text: str) -> Markup:
        """Markdown-ish inline text: `code`, **bold**, [links](x.md), rule ids, reason codes."""
        out = []
        for i, part in enumerate(re.split(r"(`[^`]+`)", text)):
            if i % 2:
                inner = part[1:-1]
                if inner in REASONS:
                    out.append(Markup('<a href="%s"><code>%s</code></a>') % (self.link("reasons.html#" + inner), inner))
                else:
                    out.append(Markup("<code>%s</code>") % inner)
            else:
                out.append(self._plain(part))
        return Markup("").join(out)

    def _plain(self, text: str) -> Markup:
        out, pos = [], 0
        for m in self._inline_marks.finditer(text):
            out.append(escape(text[pos:m.start()]))
            pos = m.end()
            if m.group(1) is not None:
                target = self.book.doc_pages.get(posixpath.basename(m.group(2)).split("#")[0])
                label = self.inline(m.group(1))
                out.append(Markup('<a href="%s">%s</a>') % (self.link(target), label) if target else label)
            elif m.group(3) is not None:
                out.append(Markup("<strong>%s</strong>") % self._plain(m.group(3)))
            else:
                out.append(self.rule_link(m.group(0)))
        out.append(escape(text[pos:]))
        return Markup("").join(out)

    def rule_link(self, rid: str, cls: str = "rid") -> Markup:
        """A rule id linked to where the rule is written out, with its title as a tooltip."""
        target = self.book.rule_target(rid, self.profile)
        if target is None:
            return escape(rid)
        rule = self.book.all_rules.get(rid)
        if rule is None:
            return Markup('<a class="%s" href="%s">%s</a>') % (cls, self.link(target), rid)
        return Markup('<a class="%s" href="%s" title="%s">%s</a>') % (cls, self.link(target), rule.title, rid)

    # -- blocks ------------------------------------------------------------------------------------
    def render(self, text: str, shift: int = 0, row_id=None, extra_col=None) -> Markup:
        """A light Markdown rendering: headings, paragraphs, lists, tables, fenced code. `shift`
        lowers every heading; a table row gets the id `row_id(cells)` and, with `extra_col` =
        (heading, cells -> Markup), one more column."""
        lines = text.splitlines()
        out, i = [], 0
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            if line.startswith("```"):
                j = i + 1
                while j < len(lines) and not lines[j].startswith("```"):
                    j += 1
                out.append(Markup("<pre><code>%s</code></pre>") % "\n".join(lines[i + 1:j]))
                i = j + 1
            elif HEADING.match(line):
                out.append(self._heading(HEADING.match(line), shift))
                i += 1
            elif line.lstrip().startswith("|"):
                j = i
                while j < len(lines) and lines[j].lstrip().startswith("|"):
                    j += 1
                out.append(self._table(lines[i:j], row_id, extra_col))
                i = j
            elif ITEM.match(line):
                i = self._list(lines, i, out)
            else:
                para, j = [], i
                while j < len(lines) and lines[j].strip() and not BLOCK_START.match(lines[j]):
                    para.append(lines[j].strip())
                    j += 1
                out.append(Markup("<p>%s</p>") % self.inline(" ".join(para)))
                i = j
        return NL.join(out)

    def _heading(self, heading: re.Match, shift: int) -> Markup:
        level = min(6, len(heading.group(1)) + shift)
        title = heading.group(2).strip()
        return Markup('<h%s id="%s">%s</h%s>') % (level, slug(title), self.inline(title), level)

    def _list(self, lines: list[str], i: int, out: list) -> int:
        """Append the list starting at line `i` to `out`; return the index of the line after it."""
        ordered = ITEM.match(lines[i]).group(2)[0].isdigit()
        items, j = [], i
        while j < len(lines):
            m = ITEM.match(lines[j])
            if m and (m.group(2)[0].isdigit()) == ordered:
                items.append(m.group(3))
            elif lines[j].startswith((" ", "\t")) and lines[j].strip() and items:
                items[-1] += " " + lines[j].strip()
            else:
                break
            j += 1
        tag = Markup("ol" if ordered else "ul")
        body = Markup("").join(Markup("<li>%s</li>") % self.inline(t) for t in items)
        out.append(Markup("<%s>%s</%s>") % (tag, body, tag))
        return j

    def _table(self, lines, row_id=None, extra_col=None) -> Markup:
        rows = [cells(line) for line in lines]
        rows = [r for r in rows if not all(SEPARATOR_CELL.fullmatch(c) for c in r if c)]
        if not rows:
            return Markup("")
        head, body = rows[0], rows[1:]
        heads = Markup("").join(Markup("<th>%s</th>") % self.inline(c) for c in head)
        if extra_col:
            heads += Markup("<th>%s</th>") % extra_col[0]
        out = [Markup("<table>"), Markup("<thead><tr>") + heads, Markup("</tr></thead><tbody>")]
        for r in body:
            rid = row_id(r) if row_id else None
            row = Markup("").join(Markup("<td>%s</td>") % self.inline(c) for c in r)
            if extra_col:
                row += Markup("<td>%s</td>") % extra_col[1](r)
            out.append(Markup('<tr id="%s">%s</tr>') % (rid, row) if rid else Markup("<tr>%s</tr>") % row)
        out.append(Markup("</tbody></table>"))
        return NL.join(out)

    def rule_paragraphs(self, rule) -> list[tuple[str | None, Markup]]:
        """A rule's text as (label, paragraph): the normative sentences (label None), then one
        paragraph per labelled line (Source, Example, and a ruling's Question ... Rules affected)."""
        paras: list[tuple[str | None, list[str]]] = []
        for line in rule.text.splitlines():
            if not line.strip():
                paras.append((None, []))
                continue
            m = LABEL_LINE.match(line.strip())
            if m:
                paras.append((m.group(1), [m.group(2)]))
            elif paras:
                paras[-1][1].append(line.strip())
            else:
                paras.append((None, [line.strip()]))
        return [(label, self.inline(" ".join(text))) for label, text in paras if text]
