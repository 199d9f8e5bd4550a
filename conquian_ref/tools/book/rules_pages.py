"""The pages of rules: one per profile (its rules and its scenarios), all rules, reason codes.

A profile's rules are `rulebook.rules_for(profile)`: the common core, the rulings its profile file
lists, its own rules and the rules its `rules:` names (a variation's baseline rules); each rule
id is an anchor on its profile's page, and lists the scenarios citing it.
"""

from __future__ import annotations

from ...engine.refusals import REASONS
from .markdown import Markdown
from .render import macro, render_page, without_title


def profile_page(book, profile: str) -> str:
    path = f"{profile}/index.html"
    doc = book.doc(f"{profile}.md")
    intro = without_title(doc.split("\n## Rules", 1)[0])
    entries = book.entries_of(profile)
    areas: dict[str, list] = {}
    for e in entries:
        areas.setdefault(e.area, []).append(e)
    md = Markdown(book, path, profile)
    return render_page(
        book, "profile.html.j2", path, f"{profile}: rules and scenarios", "profile", search=True, profile=profile, here=md,
        title_text=book.profile_objs[profile].data.get("title", profile),
        rules=book.rules[profile],
        entries=entries,
        intro=md.render(intro, shift=1),
        groups=book.groups(profile),
        areas=sorted(areas.items()),
    )


def all_rules_page(book) -> str:
    path = "rules.html"
    md = Markdown(book, path)
    rulings = book.doc("rulings.md")
    after_rulings = rulings.split("\n### RUL-", 1)[-1]
    # What follows the last ruling under its own `## ` heading (the seed of new rulings).
    seed = "## " + after_rulings.split("\n## ", 1)[1] if "\n## " in after_rulings else ""
    return render_page(
        book, "rules.html.j2", path, "All rules and rulings", "rules", here=md,
        core_intro=md.render(without_title(book.doc("core.md").split("\n## ", 1)[0])),
        rulings_intro=md.render(without_title(rulings.split("\n### ", 1)[0])),
        groups=book.groups(None),
        seed=md.render(seed),
    )


def reasons_page(book) -> str:
    """docs/rules/reasons.md, each code's row an anchor, with the scenarios producing it."""
    path = "reasons.html"
    md = Markdown(book, path)
    scenario_links = macro("macros.html.j2", "scenario_links")

    def code(cells) -> str | None:
        found = cells[0].strip("`")
        return found if found in REASONS else None

    def scenarios(cells):
        return scenario_links(book.reasons.get(cells[0].strip("`"), []), md)

    text = md.render(without_title(book.doc("reasons.md")), row_id=code,
                     extra_col=("scenarios producing it", scenarios))
    return render_page(book, "doc.html.j2", path, "Reason codes", "reasons", here=md, crumb="reason codes", text=text)
