"""`conquian-ref book`: the static rulebook builds from the rules and the whole corpus.

Checks, without a browser: every scenario has a page and every rule an anchor on its profile's
page; every internal link (href, src) resolves to a file of the book and, when it has one, to
an anchor of that file; nothing points outside the book but each scenario's link to its YAML
source, which resolves to that file; text from the scenario files is
escaped; the positions drawn come from replaying on the reference engine; and a scenario that
does not replay as written is flagged on its page. (The browser test is test_book_browser.py.)
"""

from __future__ import annotations

import argparse
import html
import posixpath
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from conquian_ref.tools.book import build, configure
from conquian_ref.spec.profiles import PROFILE_IDS
from conquian_ref.spec.rulebook import rules_for
from conquian_ref.spec.scenario import corpus_dir, load_corpus

SCENARIOS, _ = load_corpus([corpus_dir()])
AA0001 = corpus_dir() / "anglo-american-v1" / "examples" / "aa-0001-worked-example.yaml"


class _Links:
    """Every id and every href/src of one HTML page. Read with regular expressions, not a parser:
    the book is tens of megabytes, and the templates and markupsafe escape every quote in text,
    so `id="` and `href="` occur only as attributes."""

    ATTRS = re.compile(r'\s(id|href|src)="([^"]*)"')

    def __init__(self, text: str):
        self.ids: set[str] = set()
        self.links: list[str] = []
        for key, value in self.ATTRS.findall(text):
            value = html.unescape(value)
            if key == "id":
                self.ids.add(value)
            else:
                self.links.append(value)


def _parse(path: Path) -> _Links:
    return _Links(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def book(built_book):
    out, result = built_book
    pages = {p.relative_to(out).as_posix(): _parse(p) for p in out.rglob("*.html")}
    return out, result, pages


def test_the_book_covers_every_scenario_and_every_rule(book):
    out, result, pages = book
    rule_ids = {rid for p in PROFILE_IDS for rid in rules_for(p)}
    assert result.scenarios == len(SCENARIOS) > 200
    assert result.rules == len(rule_ids)
    assert result.closing_line() == f"book: {len(rule_ids)} rules, {len(SCENARIOS)} scenarios -> {out / 'index.html'}"
    assert not result.problems and not result.disagreements
    for scenario in SCENARIOS:
        assert f"{scenario.profile}/{scenario.id}.html" in pages, scenario.id
    for profile in PROFILE_IDS:
        anchors = pages[f"{profile}/index.html"].ids
        missing = [rid for rid in rules_for(profile) if rid not in anchors]
        assert not missing, f"{profile}: no anchor for {missing}"
    for page in ("index.html", "rules.html", "reasons.html", "glossary.html", "about.html"):
        assert page in pages
    assert (out / "book.css").is_file() and (out / "search.js").is_file() and (out / "search-index.js").is_file()


def test_every_internal_link_resolves_to_a_file_and_anchor(book):
    out, _, pages = book
    broken = []
    checked = sources = 0
    files = set(pages)  # every card's suit is a link into its own page: skip asking the disk
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{page}: link leaves the book: {link}"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path))) if parts.path else page
            if target.endswith(".yaml"):  # the scenario's source: outside the book, in the corpus
                sources += 1
                assert (out / target).resolve().is_relative_to(corpus_dir().resolve()), f"{page}: {link}"
            elif target.startswith("../"):
                broken.append(f"{page}: {link} leaves the book")
            if target not in files and not (out / target).is_file():
                broken.append(f"{page}: {link} (no file {target})")
                continue
            if parts.fragment and target.endswith(".html") and parts.fragment not in pages[target].ids:
                broken.append(f"{page}: {link} (no anchor #{parts.fragment} in {target})")
            checked += 1
    assert not broken, "\n".join(broken[:20])
    assert checked > 5000
    assert sources == len(SCENARIOS)


def test_rules_and_scenarios_link_both_ways(book):
    out, _, pages = book
    profile_page = pages["anglo-american-v1/index.html"]
    assert "aa-0001.html" in profile_page.links
    scenario = pages["anglo-american-v1/aa-0001.html"]
    for rid in ("AA-EX-1", "C-TURN-2", "C-TURN-3", "C-RUN-1", "AA-OPEN-1"):
        assert f"index.html#{rid}" in scenario.links
    # A refusal links to its reason code, which lists the scenarios producing it.
    refusing = next(s for s in SCENARIOS if any(isinstance(st.get("expect"), dict) for st in s.steps if "expect" in st))
    code = next(st["expect"]["refused"] for st in refusing.steps if isinstance(st.get("expect"), dict))
    assert f"../reasons.html#{code}" in pages[f"{refusing.profile}/{refusing.id}.html"].links
    assert code in pages["reasons.html"].ids
    assert f"{refusing.profile}/{refusing.id}.html" in pages["reasons.html"].links


def test_the_scenario_page_draws_the_replayed_positions(book):
    out, _, _ = book
    text = (out / "anglo-american-v1" / "aa-0001.html").read_text(encoding="utf-8")
    assert "table view: all cards shown" in text
    assert "The worked example of the source - take 6H onto 4H 5H and discard QS" in text
    after_use = text.split('id="pos-after-2"', 1)[1].split("</li>", 1)[0]
    seat1 = after_use.split('class="seat seat-1', 1)[1]
    exposed = seat1.split('class="cards exposed"', 1)[1].split("</div>", 1)[0]
    assert CARD_NAME.findall(exposed) == ["4H", "5H", "6H"]
    assert 'class="card fr s-H' in exposed  # hearts drawn red


def _profile_with(notation: str) -> str:
    from conquian_ref.spec.profiles import load_profile

    return next(p for p in PROFILE_IDS if load_profile(p).data["deck"]["notation"] == notation)


@pytest.mark.parametrize("notation", ["spanish", "french"])
def test_suit_glyphs_are_shapes_of_the_stylesheet_with_a_text_alternative(book, notation):
    """No emoji font needed: each suit's shape is one rule of book.css (a mask made from its
    symbol in assets/suits.svg), every card writes its suit as its text glyph in an <i> that the
    rule draws as the shape, for screen readers and copy-paste; a Spanish card's suit name is
    written under it by the stylesheet."""
    from urllib.parse import unquote

    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools.book.suits import SVG

    out, _, _ = book
    profile = _profile_with(notation)
    kind = "fr" if notation == "french" else "es"
    suits = load_profile(profile).data["deck"]["suits"]
    scenario = next(s for s in SCENARIOS if s.profile == profile and "deck" in s.data.get("setup", {}))
    text = (out / profile / f"{scenario.id}.html").read_text(encoding="utf-8")
    css = (out / "book.css").read_text(encoding="utf-8")
    for suit in suits:
        card = re.search(rf'<span class="card {kind} s-{suit["id"]}[^"]*">\w+<i>([^<]*)</i></span>', text)
        assert card and card.group(1) == suit["glyph"], suit
        rule = re.search(rf'\.card\.{kind}\.s-{suit["id"]} > i {{ -webkit-mask-image: url\("data:image/svg\+xml,([^"]+)"\)', css)
        body = re.search(rf'<symbol id="suit-{suit["name"]}" viewBox="[^"]+">(.*?)</symbol>', SVG, re.S).group(1)
        assert rule and body in unquote(rule.group(1)), suit
        shaped = css.split("/* The suit shapes", 1)[1].split("}", 1)[0]  # the rule drawing every suit's <i> as a shape
        assert f'.card.{kind}.s-{suit["id"]} > i' in shaped.split("{")[0] and "mask" in shaped, suit
        if notation == "spanish":
            assert f'.card.es.s-{suit["id"]}::after {{ content: "{suit["name"]}"; }}' in css
    assert "<svg" not in text and "<symbol" not in text  # nothing per page


def test_the_runner_prints_one_closing_line(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    run = configure(parser)
    assert parser.parse_args([]).out == "book"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(AA0001, corpus / AA0001.name)
    status = run(parser.parse_args(["--out", str(tmp_path / "out"), "--corpus", str(corpus)]))
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"book: {len({r for p in PROFILE_IDS for r in rules_for(p)})} rules, 1 scenarios -> {tmp_path / 'out' / 'index.html'}"]
    assert (tmp_path / "out" / "anglo-american-v1" / "aa-0001.html").is_file()


def _write(corpus: Path, data: dict, name: str) -> None:
    corpus.mkdir(exist_ok=True)
    (corpus / name).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_text_from_scenario_files_is_escaped(tmp_path):
    data = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    data["title"] = "A <script>alert(1)</script> & <b>bold</b> title"
    data["annotation"] = "Seat 1 uses <img src=x onerror=alert(1)> the card & discards (C-TURN-2)."
    _write(tmp_path / "corpus", data, "aa-0001.yaml")
    build(tmp_path / "out", tmp_path / "corpus")
    text = (tmp_path / "out" / "anglo-american-v1" / "aa-0001.html").read_text(encoding="utf-8")
    assert "<script>alert" not in text and "<img src=x" not in text and "<b>bold" not in text
    assert "A &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt; title" in text
    assert 'href="index.html#C-TURN-2"' in text  # rule ids in the annotation still link
    index = (tmp_path / "out" / "search-index.js").read_text(encoding="utf-8")
    assert "</script>" not in index


def test_quotes_in_scenario_text_stay_inside_their_attributes(tmp_path):
    """The templates escape attribute values too: a title with quotes is one title attribute."""
    data = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    title = 'Say "hi" & \'bye\' <now>'
    data["title"] = title
    _write(tmp_path / "corpus", data, "aa-0001.yaml")
    build(tmp_path / "out", tmp_path / "corpus")

    class _Titles(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.titles: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.titles += [value for key, value in attrs if key == "title"]

    profile_page = tmp_path / "out" / "anglo-american-v1" / "index.html"
    parser = _Titles()
    parser.feed(profile_page.read_text(encoding="utf-8"))
    assert parser.titles.count(title) == len(_aa0001_rules()) == 5  # once under each rule it cites
    assert 'title="Say "hi"' not in profile_page.read_text(encoding="utf-8")


def _aa0001_rules() -> list[str]:
    """The rules aa-0001 cites that apply to its profile: each lists it, with its title, on the profile page."""
    data = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    return [rid for rid in data["rules"] if rid in rules_for(data["profile"])]


def test_no_profile_id_is_written_in_the_books_code():
    """The profiles come from the profile files (PROFILE_IDS), never from the book's code,
    templates or assets."""
    package = Path(build.__code__.co_filename).parent
    files = [p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".j2", ".css", ".js")]
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        for profile in PROFILE_IDS:
            assert profile not in text, f"{path.relative_to(package)} names the profile {profile}"


def test_a_scenario_that_does_not_replay_is_flagged(tmp_path):
    data = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    data["steps"][1]["expect"] = {"refused": "no_valid_arrangement"}  # the engine accepts this use
    _write(tmp_path / "corpus", data, "aa-0001.yaml")
    result = build(tmp_path / "out", tmp_path / "corpus")
    assert result.disagreements == ["aa-0001"]
    text = (tmp_path / "out" / "anglo-american-v1" / "aa-0001.html").read_text(encoding="utf-8")
    assert "does not replay this scenario as written" in text
    assert "✗ reference engine: accepted" in text


def test_a_rebuild_removes_pages_it_no_longer_writes_and_nothing_else(tmp_path):
    first = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    second = dict(first, id="aa-9999")
    corpus = tmp_path / "corpus"
    _write(corpus, first, "aa-0001.yaml")
    _write(corpus, second, "aa-9999.yaml")
    out = tmp_path / "out"
    build(out, corpus)
    assert (out / "anglo-american-v1" / "aa-9999.html").is_file()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (corpus / "aa-9999.yaml").unlink()
    build(out, corpus)
    assert not (out / "anglo-american-v1" / "aa-9999.html").exists()
    assert (out / "anglo-american-v1" / "aa-0001.html").is_file()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_command_line_runs_book_once_registered(tmp_path, capsys, monkeypatch):
    """`conquian-ref book` through cli.main, registered exactly as the snippet in docs/book.md
    does (if cli.py does not register it yet, the test registers it for its own duration)."""
    from conquian_ref import cli

    if "book" not in cli.COMMANDS:
        monkeypatch.setitem(cli.COMMANDS, "book", ("render the rules and the scenarios as a static HTML rulebook", configure))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(AA0001, corpus / AA0001.name)
    assert cli.main(["book", "--out", str(tmp_path / "out"), "--corpus", str(corpus)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"1 scenarios -> {tmp_path / 'out' / 'index.html'}")
    assert cli.main(["book", "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.strip() == f"conquian-ref: error: argument --corpus: {tmp_path / 'nowhere'}: no such folder (see 'conquian-ref book --help')"


def _shown(page_text: str, field: str) -> str:
    """The text of one field of a scenario page's header (dt/dd), tags removed."""
    dd = page_text.split(f"<dt>{field}</dt><dd>", 1)[1].split("</dd>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", "", dd))


def test_a_page_links_its_yaml_source_and_the_command_replaying_it(book):
    """The file links to its YAML source (relative to the output) and the page gives the
    `check -k` command; -k with that id selects this scenario alone in the shipped corpus."""
    import shlex

    from conquian_ref.conformance.check import select

    out, _, _ = book
    for scenario in SCENARIOS:
        text = (out / scenario.profile / f"{scenario.id}.html").read_text(encoding="utf-8")
        href = unquote(re.search(r'<a class="source" href="([^"]+)"', text).group(1))
        assert (out / scenario.profile / href).resolve() == scenario.path.resolve()
        command = shlex.split(_shown(text, "replay it"))
        assert command[:3] == ["conquian-ref", "check", "-k"] and len(command) == 4  # no --corpus: the shipped one
        assert [s.id for s in select(SCENARIOS, None, [command[3]])] == [scenario.id]
        assert _shown(text, "file") == f"scenarios/{scenario.path.resolve().relative_to(corpus_dir().resolve()).as_posix()} (the YAML source)"


def test_with_corpus_pages_show_their_real_file_area_source_and_command(tmp_path, monkeypatch):
    """With --corpus the file is under the corpus as named, the area is the file's folder
    (not the corpus folder's name), the YAML link and the command work from the book."""
    import shlex

    data = yaml.safe_load(AA0001.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    profile = data["profile"]  # the profile folder, as in the shipped corpus
    (Path("my corpus") / profile / "tricky").mkdir(parents=True)
    _write(Path("my corpus") / profile / "tricky", data, "aa-0001.yaml")
    _write(Path("my corpus"), dict(data, id="aa-9999"), "loose.yaml")
    result = build("out", "my corpus")
    assert not result.problems
    for sid, file, area in (("aa-0001", f"my corpus/{profile}/tricky/aa-0001.yaml", "tricky"),
                            ("aa-9999", "my corpus/loose.yaml", "top")):
        text = (tmp_path / "out" / profile / f"{sid}.html").read_text(encoding="utf-8")
        assert _shown(text, "file") == f"{file} (the YAML source)"
        assert _shown(text, "area") == area
        assert f'index.html#area-{area}"' in text
        href = unquote(re.search(r'<a class="source" href="([^"]+)"', text).group(1))
        assert (tmp_path / "out" / profile / href).resolve() == (tmp_path / file).resolve()
        assert shlex.split(_shown(text, "replay it")) == ["conquian-ref", "check", "-k", sid, "--corpus", "my corpus"]
    profile_page = (tmp_path / "out" / profile / "index.html").read_text(encoding="utf-8")
    assert 'id="area-tricky"' in profile_page and 'id="area-top"' in profile_page


def test_previous_and_next_links_walk_each_area_in_id_order(book):
    """From the first scenario of an area, `next` visits every scenario of that area once,
    in id order, and `prev` walks back; the ends say first / last."""
    out, _, _ = book
    areas: dict[tuple, list[str]] = {}
    for s in sorted(SCENARIOS, key=lambda s: s.id):
        areas.setdefault((s.profile, s.path.parent.name), []).append(s.id)
    assert len(areas) > 50
    for (profile, area), ids in areas.items():
        texts = {sid: (out / profile / f"{sid}.html").read_text(encoding="utf-8") for sid in ids}
        for i, sid in enumerate(ids):
            top = texts[sid].split('<nav class="neighbours top"', 1)[1].split("</nav>", 1)[0]
            nxt = re.search(r'rel="next" class="next" href="([^"]+)"', top)
            prev = re.search(r'rel="prev" class="prev" href="([^"]+)"', top)
            assert (nxt.group(1) if nxt else None) == (f"{ids[i + 1]}.html" if i + 1 < len(ids) else None)
            assert (prev.group(1) if prev else None) == (f"{ids[i - 1]}.html" if i else None)
            assert f'href="index.html#area-{area}"' in top
        assert f"first of {area}" in texts[ids[0]] and f"last of {area}" in texts[ids[-1]]


class _CardNames:
    """The letter forms of the cards drawn in some HTML: the rank written, the suit of the
    card's class (`<span class="card fr s-H">6<i>♥</i></span>` is 6H)."""

    CARD = re.compile(r'<span class="card \w+ s-(\w)[^"]*">(\w+)<i>')

    def findall(self, text: str) -> list[str]:
        return [rank + suit for suit, rank in self.CARD.findall(text)]


CARD_NAME = _CardNames()


def _panels(view: str) -> dict[int, str]:
    """The seat panels of one drawn view, by seat."""
    found = {}
    for chunk in view.split('<div class="seat seat-')[1:]:
        seat = int(chunk.split(" ", 1)[0].split('"', 1)[0])
        found[seat] = re.split(r'<div class="(?:centre|phase)">', chunk, maxsplit=1)[0]
    return found


def _private(panel: str) -> list[str]:
    """The cards of a panel that only its seat may know: its hand, its exchange pick."""
    hand = re.search(r'<span class="cards hand"[^>]*>(.*?)</span></div>', panel, re.S).group(1)
    rows = "".join(re.findall(r'<div class="row exchange">(.*?)</div>', panel, re.S))
    return CARD_NAME.findall(hand + rows)


TAG = re.compile(r'<(/?)([a-z0-9]+)([^>]*?)(/?)>')


def _seen_by(drawing: str, view: str) -> str:
    """The drawing of a position as `view` shows it ("table", "seat-0"…): without the elements
    marked `data-for` other views, as the page's style hides them (story.html.j2)."""
    kept, start, depth = [], 0, 0
    for m in TAG.finditer(drawing):
        closing, _, attrs, void = m.groups()
        if depth:  # inside a hidden element: find where it ends
            if not void:
                depth += -1 if closing else 1
            if not depth:
                start = m.end()
            continue
        marked = re.search(r' data-for="([^"]*)"', attrs)
        if not closing and marked and view not in marked.group(1).split():
            kept.append(drawing[start:m.start()])
            depth, start = (0, m.end()) if void else (1, start)
    return "".join(kept) + (drawing[start:] if not depth else "")


def test_each_position_is_drawn_once_for_every_view(book):
    """One drawing per position (the table view and each seat's view are marked parts of it),
    and the page's style shows what its chosen view is marked for, for every seat."""
    out, _, _ = book
    for scenario in SCENARIOS[:40]:
        if "match" in scenario.data:
            continue
        text = (out / scenario.profile / f"{scenario.id}.html").read_text(encoding="utf-8")
        blocks = text.split('<div class="position" id="pos-')[1:]
        assert blocks and all(b.count('<div class="table-view') == 1 for b in blocks), scenario.id
        for seat in range(len(load_profile_seats(scenario.profile))):
            assert f'[data-view="seat-{seat}"] [data-for]:not([data-for~="seat-{seat}"]) {{ display: none; }}' in text


def load_profile_seats(profile: str) -> list:
    from conquian_ref.spec.profiles import load_profile

    return load_profile(profile).seats


def test_a_seat_view_shows_no_card_of_the_other_hands(book):
    """The table as one seat sees it (its observation) never shows what that seat cannot
    know. Against the table view of the same position: in the seat's view the other hands and the
    stock show no card, and every card it shows is one the table view shows outside the other
    seats' hands and picks and the stock (counted, so a two-deck profile's twin cards are fair);
    its own hand is the one the table view gives it."""
    from collections import Counter

    out, _, _ = book
    checked = set()
    hand_of = r'<span class="cards hand"[^>]*>(.*?)</span></div>'
    for scenario in SCENARIOS:
        if "match" in scenario.data:
            continue
        text = (out / scenario.profile / f"{scenario.id}.html").read_text(encoding="utf-8")
        for block in text.split('<div class="position" id="pos-')[1:]:
            drawing = block.split('<div class="table-view', 1)[1].split('</div></div>\n</div>', 1)[0]
            table = _seen_by(drawing, "table").split('<div class="phase"', 1)[0]
            panels = _panels(table)
            seen = {seat: _seen_by(drawing, f"seat-{seat}").split('<div class="phase"', 1)[0] for seat in panels}
            assert len(seen) in (2, 4), scenario.id
            stock = CARD_NAME.findall(re.search(r'<div class="box stock">(.*?)</div>', table, re.S).group(1))
            for seat, view in seen.items():
                assert f"as seat {seat} sees it" in view and "table view: all cards" not in view
                others = [c for s, p in panels.items() if s != seat for c in _private(p)]
                for other, panel in _panels(view).items():
                    hand = re.search(hand_of, panel, re.S).group(1)
                    if other == seat:
                        assert CARD_NAME.findall(hand) == CARD_NAME.findall(re.search(hand_of, panels[seat], re.S).group(1))
                    else:
                        count = len(CARD_NAME.findall(re.search(hand_of, panels[other], re.S).group(1)))
                        assert hand == ('<i class="backs" style="--n:%d"></i>' % count if count else '<span class="none">none</span>')
                        assert '<div class="row exchange">' not in panel
                assert not CARD_NAME.findall(re.search(r'<div class="box stock">(.*?)</div>', view, re.S).group(1))
                leaked = Counter(CARD_NAME.findall(view)) - (Counter(CARD_NAME.findall(table)) - Counter(others) - Counter(stock))
                assert not leaked, f"{scenario.id} pos-{block.split(chr(34), 1)[0]}: seat {seat} is shown {sorted(leaked)}"
                checked.add((scenario.profile, len(seen)))
    assert {n for _, n in checked} == {2, 4} and len({p for p, _ in checked}) == len(PROFILE_IDS)


def test_a_seat_view_is_drawn_once_only_where_its_observation_agrees():
    """What a seat may know is drawn once for every view: a seat's observation that differs
    from the table there stops the build rather than draw what the seat does not see."""
    from conquian_ref.tools.book.picture import check_shared
    from conquian_ref.tools.book.walk import Picture

    state = {"hands": [["AS"], ["2S"]], "exposed": [[], []], "out_of_play": [], "available": None, "stock": ["3S"]}
    obs = {"seat": 0, "hand": ["AS"], "hand_counts": [1, 1], "exposed": [[], []], "out_of_play": [],
           "available": None, "stock_count": 1}
    check_shared(Picture(state, [[], []], None, [obs]))
    with pytest.raises(ValueError, match="out_of_play"):
        check_shared(Picture(state, [[], []], None, [dict(obs, out_of_play=["4S"])]))


def test_pages_are_written_as_they_are_rendered_holding_one_scenario_at_a_time(tmp_path):
    """Bounded memory: the book gives its files one at a time, and while one page is out, at
    most one scenario is held whole (its steps and its replay); the others are kept as briefs."""
    from conquian_ref.tools.book.contents import Book
    from conquian_ref.tools.book.pages import render

    corpus = tmp_path / "corpus"
    shutil.copytree(corpus_dir() / "anglo-american-v1", corpus / "anglo-american-v1")
    book = Book(corpus, tmp_path / "out", str(corpus))
    assert not any("steps" in e.scenario.data for e in book.entries)
    files = render(book)
    assert iter(files) is files  # a generator, not a table of every page
    seen = 0
    for path, text in files:
        held = [e.id for e in book.entries if e.walk is not None or "steps" in e.scenario.data]
        assert len(held) <= 1, (path, held)
        seen += path.endswith(".html") and "/" in path and not path.endswith("index.html")
    assert seen == len(book.entries) > 10
    assert not any(e.walk is not None or "steps" in e.scenario.data for e in book.entries)


def test_the_search_is_at_the_top_of_the_index_reachable_from_every_page_and_reads_text(book):
    """The index's search box comes before the profiles; every page's top bar has a search
    field leading to it; the index holds the words of each rule's text and each annotation."""
    import json

    out, _, pages = book
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.index('id="search"') < index.index('class="profiles"')
    for page in pages:
        text = (out / page).read_text(encoding="utf-8")
        bar = text.split('<header class="topbar">', 1)[1].split("</header>", 1)[0]
        assert re.search(r'<form class="find" role="search" action="(\.\./)*index\.html"><input name="q"', bar), page
    script = (out / "search-index.js").read_text(encoding="utf-8")
    found = dict(re.findall(r"window\.(\w+) = (.*);\n", script))
    entries, texts = json.loads(found["CONQUIAN_BOOK_INDEX"]), json.loads(found["CONQUIAN_BOOK_TEXTS"])
    aa1 = next(e for e in entries if e["id"] == "aa-0001")
    annotation = next(s for s in SCENARIOS if s.id == "aa-0001").data["annotation"]
    assert set(aa1["x"].split()) == {w.lower() for w in re.findall(r"[^\W_]+(?:[-'][^\W_]+)*", annotation)}
    assert set(texts) == {e["id"] for e in entries if e["k"] == "rule"}
    assert all(texts.values()) and sum(len(t) for t in texts.values()) < 4 * sum(len(r.text) for r in rules_for("anglo-american-v1").values())


def test_on_a_narrow_screen_the_top_bars_links_fold(book):
    """Without a browser: the top bar's links sit in a <details> ("pages") that the stylesheet
    shows as a summary only below 40rem, and book.js folds there."""
    out, _, _ = book
    css = (out / "book.css").read_text(encoding="utf-8")
    narrow = css.split("@media (max-width: 40rem)", 1)[1]
    assert ".topbar details.more > summary { display: list-item;" in narrow
    assert 'matchMedia("(max-width: 40rem)")' in (out / "book.js").read_text(encoding="utf-8")
    page = (out / "anglo-american-v1" / "aa-0001.html").read_text(encoding="utf-8")
    assert '<details class="more" open><summary>pages</summary>' in page


def test_a_card_is_short_markup_and_a_hidden_hand_one_element():
    """The book's size is its cards (a golden deal's page draws thousands): a card is its class,
    rank and text glyph only (the stylesheet draws the suit, book.js the tooltip); the backs of a
    hand another seat may not see are one element, however many."""
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools.book.cards import Cards

    french = Cards(load_profile(_profile_with("french")))
    assert french.card("QS") == '<span class="card fr s-S">Q<i>♠</i></span>'
    assert french.backs(10) == '<i class="backs" style="--n:10"></i>'
    spanish = Cards(load_profile(_profile_with("spanish")))
    assert spanish.card("11O") == '<span class="card es s-O">11<i>🪙</i></span>'
