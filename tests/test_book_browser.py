"""The book in a real browser: headless Chromium driven by Selenium.

Builds the book from the whole corpus, opens it from plain files (file://, no server), follows a
rule to a scenario and back, reads what the table pictures show, and uses the search box.

Needs the PyPI package `selenium` and Debian's `chromium` and `chromium-driver`
(/usr/bin/chromium, /usr/bin/chromedriver; other paths through CHROMIUM_BIN and
CHROMEDRIVER_BIN). Without them every test here is skipped with the reason, so the suite still
passes on a machine that lacks them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

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
    from selenium.webdriver.common.by import By

    corpus, _ = load_corpus([corpus_dir()])
    citing = {s.id for s in corpus if "AA-EX-1" in s.rules}
    assert "aa-0001" in citing

    def hits():
        results = browser.find_element(By.ID, "search-results")
        return [li.get_attribute("data-id") for li in results.find_elements(By.CSS_SELECTOR, "li.hit")]

    _open(browser, book / "index.html")
    box = browser.find_element(By.ID, "search")
    assert not browser.find_element(By.ID, "search-results").is_displayed()
    box.send_keys("AA-EX-1")
    _wait(browser, lambda d: hits())
    found = hits()
    assert found[0] == "AA-EX-1"  # the rule itself first, then the scenarios citing it
    assert set(found[1:]) == citing
    assert browser.find_element(By.ID, "search-count").text == f"{len(citing) + 1} matches"

    box.clear()
    box.send_keys("golden draw")  # every word must match: the golden deals that end in a draw
    _wait(browser, lambda d: hits() and len(hits()) < 10)
    golden_draws = {s.id for s in corpus if "golden" in s.data.get("tags", []) and "draw" in s.data["title"].lower()}
    assert golden_draws and set(hits()) == golden_draws

    box.clear()
    box.send_keys("tc-0150")
    _wait(browser, lambda d: hits() == ["tc-0150"])
    browser.find_element(By.ID, "search-results").find_element(By.LINK_TEXT, "tc-0150").click()
    _wait(browser, lambda d: d.current_url.endswith("/torno-cisneros-v1/tc-0150.html"))
    # Spanish cards: rank and the profile's suit glyph, with the suit's name written under it.
    forced = browser.find_element(By.ID, "pos-after-6").find_element(By.CSS_SELECTOR, ".seat-0 .exposed")
    cards = [c.text.split("\n") for c in forced.find_elements(By.CSS_SELECTOR, ".card")]
    assert cards == [["5🪙", "oros"], ["6🪙", "oros"], ["7🪙", "oros"], ["10🪙", "oros"]]

    # On a profile page the search box keeps to that profile.
    _open(browser, book / "torno-cisneros-v1" / "index.html")
    box = browser.find_element(By.ID, "search")
    box.send_keys("force")
    _wait(browser, lambda d: hits())
    assert all(h.startswith(("tc-", "TC-", "C-", "RUL-")) for h in hits())
