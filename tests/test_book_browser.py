"""The book in a real browser: headless Chromium driven by Selenium.

Builds the book from the whole corpus, opens it from plain files (file://, no server), follows a
rule to a scenario and back, reads what the table pictures show, and uses the search box.

Needs the PyPI package `selenium` and Debian's `chromium` and `chromium-driver`
(/usr/bin/chromium, /usr/bin/chromedriver; other paths through CHROMIUM_BIN and
CHROMEDRIVER_BIN). Without them every test here is skipped with the reason, so the suite still
passes on a machine that lacks them.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conquian_ref.spec.profiles import PROFILE_IDS
from conquian_ref.spec.scenario import corpus_dir, load_corpus


def _find(env: str, *names: str) -> str | None:
    if os.environ.get(env):
        return os.environ[env] if Path(os.environ[env]).is_file() else None
    for name in names:
        if Path(name).is_absolute() and Path(name).is_file():
            return name
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _find("CHROMIUM_BIN", "/usr/bin/chromium", "chromium", "chromium-browser")
CHROMEDRIVER = _find("CHROMEDRIVER_BIN", "/usr/bin/chromedriver", "chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1280,900",
)


def _requirements() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    if not CHROMIUM:
        return "no Chromium found (apt-get install chromium; or set CHROMIUM_BIN)"
    if not CHROMEDRIVER:
        return "no chromedriver found (apt-get install chromium-driver; or set CHROMEDRIVER_BIN)"
    return None


MISSING = _requirements()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser test skipped: {MISSING}")


def start_chromium(profile_dir: str):
    """A headless Chromium under chromedriver, with no network features (Selenium Manager is
    never run: the driver's path is given)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def book(built_book):
    return built_book[0]


@pytest.fixture(scope="module")
def browser():
    with tempfile.TemporaryDirectory(prefix="conquian-chromium-") as profile_dir:
        driver = start_chromium(profile_dir)
        driver.implicitly_wait(0)
        try:
            yield driver
        finally:
            driver.quit()


def _wait(driver, condition, timeout: float = 10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def _open(driver, path: Path) -> None:
    driver.get(path.resolve().as_uri())


def _letter(driver, card) -> str:
    """A drawn card's letter form: the rank written, the suit of its class ("6H")."""
    return driver.execute_script(
        "var c = arguments[0]; return c.firstChild.textContent + /\\bs-(\\w+)/.exec(c.className)[1];", card)


def test_follow_a_rule_to_its_scenario_and_back(book, browser):
    from selenium.webdriver.common.by import By

    _open(browser, book / "anglo-american-v1" / "index.html")
    rule = browser.find_element(By.ID, "AA-EX-1")
    assert "The worked example" in rule.find_element(By.TAG_NAME, "h3").text
    assert "Source: Conquián §09" in rule.text
    link = rule.find_element(By.LINK_TEXT, "aa-0001")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()
    _wait(browser, lambda d: d.current_url.endswith("/anglo-american-v1/aa-0001.html"))

    title = browser.find_element(By.CSS_SELECTOR, "h1#title").text
    assert title == "The worked example of the source - take 6H onto 4H 5H and discard QS"
    assert browser.title.startswith("aa-0001")
    page_text = browser.find_element(By.TAG_NAME, "body").text
    assert "table view: all cards shown" in page_text
    # The annotation, as written in the scenario file.
    annotation = browser.find_element(By.CSS_SELECTOR, ".annotation").text
    assert '"Conquián" §09: the hand holds 4H, 5H and an unwanted QS' in annotation
    # Step 2 is the use: afterwards seat 1 has exactly 4♥ 5♥ 6♥ exposed and must discard.
    after_use = browser.find_element(By.ID, "pos-after-2")
    exposed = after_use.find_element(By.CSS_SELECTOR, ".seat-1 .exposed")
    shown = [c.text for c in exposed.find_elements(By.CSS_SELECTOR, ".card")]
    assert shown == ["4♥", "5♥", "6♥"]
    assert after_use.find_element(By.CSS_SELECTOR, ".seat-0 .exposed").text == "—"
    assert "seat 1 must discard" in after_use.text
    # Hearts are drawn red, spades black.
    red = exposed.find_element(By.CSS_SELECTOR, ".card").value_of_css_property("color")
    assert red.startswith("rgba(192, 38, 27") or red.startswith("rgb(192, 38, 27")
    # At the start, 6♥ is the available card, freshly revealed for seat 1.
    start = browser.find_element(By.ID, "pos-setup")
    assert start.find_element(By.CSS_SELECTOR, ".available .card").text == "6♥"
    assert "freshly revealed for seat 1" in start.find_element(By.CSS_SELECTOR, ".available").text
    # After the discard, Q♠ is offered to seat 0.
    after_discard = browser.find_element(By.ID, "pos-after-3")
    assert after_discard.find_element(By.CSS_SELECTOR, ".available .card").text == "Q♠"
    assert "discarded by seat 1, offered to seat 0" in after_discard.text
    assert "Expected: accepted." in browser.find_element(By.ID, "step-2").text

    # Back to the rule from the scenario's list of rules cited.
    back = browser.find_element(By.CSS_SELECTOR, ".rules-cited").find_element(By.LINK_TEXT, "AA-EX-1")
    back.click()
    _wait(browser, lambda d: d.current_url.endswith("/anglo-american-v1/index.html#AA-EX-1"))
    assert browser.find_element(By.ID, "AA-EX-1").is_displayed()


def test_a_refusal_links_to_its_reason_code(book, browser):
    from selenium.webdriver.common.by import By

    corpus, _ = load_corpus([corpus_dir()])
    scenario = next(
        s for s in sorted(corpus, key=lambda s: s.id)
        if s.profile == "anglo-american-v1" and any(isinstance(st.get("expect"), dict) for st in s.steps)
    )
    n, step = next((i + 1, st) for i, st in enumerate(scenario.steps) if isinstance(st.get("expect"), dict))
    code = step["expect"]["refused"]
    _open(browser, book / "anglo-american-v1" / f"{scenario.id}.html")
    block = browser.find_element(By.ID, f"step-{n}")
    assert f"Expected: refused, {code}" in block.text
    block.find_element(By.CSS_SELECTOR, "a.reason").click()
    _wait(browser, lambda d: d.current_url.endswith(f"/reasons.html#{code}"))
    row = browser.find_element(By.ID, code)
    assert scenario.id in [a.text for a in row.find_elements(By.TAG_NAME, "a")]


def test_the_search_box_filters_ids_titles_and_rule_ids(book, browser):
    """Matches in ids, titles, rule ids and tags come first; matches in the text only (a rule's,
    an annotation's) follow, marked `in-text` (test_the_search_finds_rule_and_annotation_text)."""
    from selenium.webdriver.common.by import By

    corpus, _ = load_corpus([corpus_dir()])
    citing = {s.id for s in corpus if "AA-EX-1" in s.rules}
    assert "aa-0001" in citing

    def hits():
        results = browser.find_element(By.ID, "search-results")
        return [li.get_attribute("data-id") for li in results.find_elements(By.CSS_SELECTOR, "li.hit:not(.in-text)")]

    _open(browser, book / "index.html")
    box = browser.find_element(By.ID, "search")
    assert not browser.find_element(By.ID, "search-results").is_displayed()
    box.send_keys("AA-EX-1")
    _wait(browser, lambda d: hits())
    found = hits()
    assert found[0] == "AA-EX-1"  # the rule itself first, then the scenarios citing it
    assert set(found[1:]) == citing
    assert browser.find_element(By.ID, "search-count").text.startswith(
        f"{len(browser.find_elements(By.CSS_SELECTOR, '#search-results li.hit'))} matches")

    box.clear()
    box.send_keys("golden draw")  # every word must match: the golden deals that end in a draw
    golden_draws = {s.id for s in corpus if "golden" in s.data.get("tags", []) and "draw" in s.data["title"].lower()}
    # waited for by the set itself: a bound on the count of hits grows stale as the corpus grows
    _wait(browser, lambda d: set(hits()) == golden_draws)
    assert golden_draws and set(hits()) == golden_draws

    box.clear()
    box.send_keys("tc-0150")
    _wait(browser, lambda d: hits() == ["tc-0150"])
    browser.find_element(By.ID, "search-results").find_element(By.LINK_TEXT, "tc-0150").click()
    _wait(browser, lambda d: d.current_url.endswith("/torno-cisneros-v1/tc-0150.html"))
    # Spanish cards: rank and the profile's suit glyph, with the suit's name written under it.
    forced = browser.find_element(By.ID, "pos-after-6").find_element(By.CSS_SELECTOR, ".seat-0 .exposed")
    cards = [(c.text, browser.execute_script("return getComputedStyle(arguments[0], '::after').content", c))
             for c in forced.find_elements(By.CSS_SELECTOR, ".card")]
    assert cards == [("5🪙", '"oros"'), ("6🪙", '"oros"'), ("7🪙", '"oros"'), ("10🪙", '"oros"')]

    # On a profile page the search box keeps to that profile.
    _open(browser, book / "torno-cisneros-v1" / "index.html")
    box = browser.find_element(By.ID, "search")
    box.send_keys("force")
    _wait(browser, lambda d: hits())
    assert all(h.startswith(("tc-", "TC-", "C-", "RUL-")) for h in hits())


@functools.cache
def _corpus():
    """The shipped corpus, loaded once for the tests below (loading takes seconds)."""
    return load_corpus([corpus_dir()])[0]


def _long_story():
    """A scenario long enough to start folded, whose steps 4 and 5 are accepted actions."""
    from conquian_ref.tools.book.scenario_page import FOLD_AFTER

    corpus = _corpus()
    return next(
        s for s in sorted(corpus, key=lambda s: s.id)
        if len(s.data.get("steps", [])) > FOLD_AFTER
        and all("action" in st and st.get("expect", "accepted") == "accepted" for st in s.data["steps"][3:5])
    )


def test_a_long_story_starts_folded_and_a_step_opens_with_its_position_before_and_after(book, browser):
    from selenium.webdriver.common.by import By

    scenario = _long_story()
    _open(browser, book / scenario.profile / f"{scenario.id}.html")
    step = browser.find_element(By.ID, "step-5")
    assert step.get_attribute("open") is None
    assert not browser.find_element(By.ID, "pos-after-5").is_displayed()
    summary = step.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith(f"Step 5 · seat {scenario.data['steps'][4]['seat']}")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
    summary.click()
    _wait(browser, lambda d: d.find_element(By.ID, "pos-after-5").is_displayed())
    # The position before is the previous step's after, copied in when the step opens.
    before = _wait(browser, lambda d: d.find_elements(By.ID, "pos-before-5"))[0]
    assert before.is_displayed()
    after_4 = browser.execute_script(
        "return document.querySelector('#pos-after-4 .table-view').textContent.replace(/after step 4/, '')")
    assert before.find_element(By.CSS_SELECTOR, ".table-view").get_attribute("textContent").replace(
        "after step 4", "") == after_4
    assert not browser.find_element(By.ID, "step-4").find_element(By.CSS_SELECTOR, ".before-after").is_displayed()
    # Fold it again; then unfold every step at once.
    summary.click()
    _wait(browser, lambda d: not d.find_element(By.ID, "pos-after-5").is_displayed())
    browser.find_element(By.CSS_SELECTOR, "button[data-fold=open]").click()
    assert all(d.get_attribute("open") is not None for d in browser.find_elements(By.CSS_SELECTOR, "details.step"))
    browser.find_element(By.CSS_SELECTOR, "button[data-fold=close]").click()
    assert all(d.get_attribute("open") is None for d in browser.find_elements(By.CSS_SELECTOR, "details.step"))
    # A link to a position inside a folded step opens that step.
    browser.execute_script("location.hash = '#pos-after-4'")
    _wait(browser, lambda d: d.find_element(By.ID, "pos-after-4").is_displayed())


def test_the_seat_toggle_shows_the_table_as_one_seat_sees_it(book, browser):
    from selenium.webdriver.common.by import By

    corpus = _corpus()
    worked = next(s for s in corpus if s.id == "aa-0001")  # step 2 is an accepted use
    _open(browser, book / worked.profile / "aa-0001.html")
    after = browser.find_element(By.ID, "pos-after-2")
    view = after.find_element(By.CSS_SELECTOR, ".table-view")  # one drawing for every view

    def hand(seat):
        return [_letter(browser, c) for c in view.find_elements(By.CSS_SELECTOR, f".seat-{seat} .hand .card") if c.is_displayed()]

    def backs(seat):
        shown = [b for b in view.find_elements(By.CSS_SELECTOR, f".seat-{seat} .hand .backs") if b.is_displayed()]
        return [b.get_attribute("style") for b in shown]

    def shown_cards():
        return {_letter(browser, c) for c in view.find_elements(By.CSS_SELECTOR, ".card") if c.is_displayed()}

    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-view") == "table"
    assert "table view: all cards" in view.text.lower()
    full = {seat: hand(seat) for seat in (0, 1)}
    assert all(full.values())
    for seat, other in ((0, 1), (1, 0)):
        browser.find_element(By.CSS_SELECTOR, f"input[name=view][value=seat-{seat}]").click()
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-view") == f"seat-{seat}"
        assert f"as seat {seat} sees it" in view.text.lower()  # the caption is in capitals
        assert "table view" not in view.text.lower()
        assert hand(seat) == full[seat]
        assert hand(other) == [] and backs(other) == [f"--n: {len(full[other])};"]  # backs, no names
        assert not set(full[other]) & shown_cards()
        assert not [c for c in view.find_elements(By.CSS_SELECTOR, ".stock .card") if c.is_displayed()]
        assert not browser.find_element(By.CSS_SELECTOR, ".omniscient-note").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "input[name=view][value=table]").click()
    assert hand(1) == full[1]


def test_suit_glyphs_render_as_shapes_without_a_font(book, browser):
    """Every suit draws as its shape: the <i> holding the text glyph is a box of the suit's
    colour masked by the shape (no mask: a plain square), its text moved out of the box; the
    tooltip names the card."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from conquian_ref.spec.profiles import load_profile

    notations = {load_profile(p).data["deck"]["notation"]: p for p in PROFILE_IDS}
    assert set(notations) == {"spanish", "french"}
    for profile in notations.values():
        _open(browser, book / profile / "index.html")
        first = browser.find_element(By.CSS_SELECTOR, "ul.scenarios a.sid").get_attribute("href")
        browser.get(first)
        for suit in load_profile(profile).data["deck"]["suits"]:
            box = browser.execute_script(
                "var i = document.querySelector('.table-view .card.s-' + arguments[0] + ' > i');"
                "if (!i) return null; var s = getComputedStyle(i), r = i.getBoundingClientRect();"
                "return [r.width, r.height, s.maskImage || s.webkitMaskImage, s.textIndent, i.textContent];",
                suit["id"])
            if box is None:
                continue  # this page draws no card of that suit
            assert box[0] > 5 and box[1] > 5, (profile, suit, box)  # the glyph's box on the page
            assert box[2].startswith('url("data:image/svg+xml'), (profile, suit, box)
            assert box[3] != "0px" and box[4] == suit["glyph"], (profile, suit, box)
        card = browser.find_element(By.CSS_SELECTOR, ".table-view .card")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", card)
        ActionChains(browser).move_to_element(card).perform()
        assert f"({_letter(browser, card)})" in card.get_attribute("title")


def test_previous_and_next_links_step_through_an_area(book, browser):
    from selenium.webdriver.common.by import By

    corpus = _corpus()
    worked = next(s for s in corpus if s.id == "aa-0001")
    name = worked.path.parent.name
    area = sorted(s.id for s in corpus if s.path.parent.name == name and s.profile == worked.profile)
    assert len(area) > 2
    _open(browser, book / worked.profile / f"{area[0]}.html")
    nav = browser.find_element(By.CSS_SELECTOR, "nav.neighbours.top")
    assert f"first of {name}" in nav.text
    nav.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    _wait(browser, lambda d: d.current_url.endswith(f"/{area[1]}.html"))
    browser.find_element(By.CSS_SELECTOR, "nav.neighbours.bottom a[rel=prev]").click()
    _wait(browser, lambda d: d.current_url.endswith(f"/{area[0]}.html"))
    browser.find_element(By.CSS_SELECTOR, "nav.neighbours.top a.up").click()
    _wait(browser, lambda d: d.current_url.endswith(f"/{worked.profile}/index.html#area-{name}"))


def test_print_shows_every_step_and_no_controls(book, browser):
    from selenium.webdriver.common.by import By

    scenario = _long_story()
    _open(browser, book / scenario.profile / f"{scenario.id}.html")
    assert browser.find_element(By.CSS_SELECTOR, ".toggles").is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert browser.find_element(By.ID, "step-5").get_attribute("open") is None
        # Folded, yet laid out for print (Selenium's is_displayed looks at <details> itself).
        assert browser.execute_script("return document.getElementById('pos-after-5').getBoundingClientRect().height") > 100
        for hidden in (".toggles", ".topbar", "nav.neighbours.top", "nav.neighbours.bottom"):
            assert not browser.find_element(By.CSS_SELECTOR, hidden).is_displayed(), hidden
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_the_search_finds_rule_and_annotation_text(book, browser):
    """Words found only in a scenario's annotation or a rule's text find it, after the matches in
    ids and titles; the top bar's search field of any page opens the index's search with them."""
    import re

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    corpus = _corpus()
    scenario = next(s for s in sorted(corpus, key=lambda s: s.id) if "forcing" not in s.data["title"].lower()
                    and re.search(r"\bforcing\b", s.data.get("annotation", "").lower()))

    def hits(css="li.hit"):
        return [li.get_attribute("data-id") for li in browser.find_elements(By.CSS_SELECTOR, f"#search-results {css}")]

    _open(browser, book / "glossary.html")
    field = browser.find_element(By.CSS_SELECTOR, ".topbar input[name=q]")
    field.send_keys(f"forcing {scenario.id}" + Keys.ENTER)
    _wait(browser, lambda d: d.current_url.split("?")[0].endswith("/index.html") and hits())
    assert hits("li.hit.in-text") == [scenario.id]
    box = browser.find_element(By.ID, "search")
    box.clear()
    box.send_keys("rearrangement")  # in rule texts: rules whose titles do not say it are found too
    _wait(browser, lambda d: hits("li.hit-rule.in-text"))
    assert hits()[: len(hits("li.hit:not(.in-text)"))] == hits("li.hit:not(.in-text)")  # head matches first


def test_on_a_phone_the_top_bar_is_one_line_and_the_search_box_comes_first(book, browser):
    """At a phone's size (360x740) the navigation stays a thin bar (its links fold under
    "pages"), and the index's search box is above the fold."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(360, 740)
    try:
        for page in ("index.html", "anglo-american-v1/aa-0001.html", "rules.html"):
            _open(browser, book / page)
            viewport = browser.execute_script("return window.innerHeight")
            bar = browser.find_element(By.CSS_SELECTOR, ".topbar").size["height"]
            assert bar <= viewport * 0.1, (page, bar, viewport)
            more = browser.find_element(By.CSS_SELECTOR, ".topbar details.more")
            assert more.get_attribute("open") is None
            more.find_element(By.TAG_NAME, "summary").click()
            assert more.find_element(By.LINK_TEXT, "glossary").is_displayed()
        _open(browser, book / "index.html")
        box = browser.find_element(By.ID, "search")
        assert box.location["y"] + box.size["height"] <= browser.execute_script("return window.innerHeight")
    finally:
        browser.set_window_size(1280, 900)
