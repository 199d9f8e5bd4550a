"""`conquian-ref book [--out DIR]`: the annotated rulebook, as static HTML.

The rules (docs/rules/*.md, read through conquian_ref.spec.rulebook) and the scenario corpus are
rendered into plain files that open in any browser without a server: relative links, one small
CSS file and a little vanilla JavaScript for the search box; nothing is fetched from a network.

    DIR/index.html                 top page: every profile, all rules, reason codes, glossary, search
    DIR/rules.html                 every rule and ruling, with the profiles it applies to
    DIR/reasons.html               the reason codes, with the scenarios that produce each
    DIR/glossary.html, about.html  the glossary; how the rules are organised (docs/rules/README.md)
    DIR/<profile>/index.html       the rules of one profile (rulebook.rules_for), each with an
                                   anchor (its id) and the scenarios citing it; search box
    DIR/<profile>/<id>.html        one scenario: its neighbours in its area, its file (a link to
                                   the YAML source) and the `check -k` command replaying it, rules
                                   cited, annotation, and the story as table pictures, one for the
                                   setup and one after each accepted step, each step folding

Positions are not copied from the scenario files: each scenario is replayed on the reference
engine (walk.py) and drawn from `Game.state_json()` after every step. The table view is
omniscient (every hand and the stock order are drawn; the pages say so); a toggle shows instead
the table as one seat sees it, drawn from that seat's observation (Reference.observation).

The rooms: walk (replaying a scenario), contents (what the book holds), cards (card pictures),
markdown (the rules documents' Markdown), words (actions and outcomes in words), picture (a
table picture), pages / rules_pages / scenario_page (each kind of page, from templates/*.html.j2,
autoescaped by jinja2), build (the command). The stylesheet, the search script, the scenario
page's controls (book.js) and the SVG suit symbols (suits.svg, drawn by the stylesheet: suits.py)
are assets/.
"""

from .build import PAGES_MANIFEST, BuildResult, build, configure

__all__ = ["PAGES_MANIFEST", "BuildResult", "build", "configure"]
