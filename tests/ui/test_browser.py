"""End to end in a real browser: `agent ui` as a user starts it, driven by headless Chromium (selenium).

Opens the runs page, a run, an iteration; reads the diff; downloads prompts.md. Saves a screenshot of
the run page to $UI_SCREENSHOT (default: ui-run.png in the test's tmp dir) and, beside it, the accepted
iteration (-iteration.png) and the failed one's correctness errors (-errors.png), for a person to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.ui import browser as chrome
from tools.export import prompts_markdown
from tools.runfolder import RunFolder

pytestmark = pytest.mark.skipif(
    not chrome.CHROMIUM.exists(),
    reason="needs Chromium at /usr/bin/chromium (apt-get install chromium chromium-driver)",
)


@pytest.fixture
def ui_url(runs, tmp_path):
    """`agent ui --runs DIR --port N` in a child process, until it answers its health check."""
    with chrome.serve(runs.root, tmp_path / "agent-ui.log") as url:
        yield url


@pytest.fixture
def browser(tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = chrome.chromium(tmp_path, downloads)
    try:
        yield driver
    finally:
        driver.quit()


def test_review_a_run_in_the_browser(runs, ui_url, browser, tmp_path):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 30)
    shot = Path(os.environ.get("UI_SCREENSHOT") or tmp_path / "ui-run.png")

    def main_text() -> str:
        return chrome.main_text(browser)

    def wait_for_text(text: str) -> None:
        try:
            wait.until(lambda _: text in main_text())
        except TimeoutException:
            pytest.fail(f"{text!r} never appeared; the page says:\n{main_text()[:2000]}")

    # The runs page: a table of the three runs; open one by typing its id in "Open a run".
    browser.get(ui_url)
    wait_for_text("Open a run")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, '[data-testid="stDataFrame"]')))
    # A review app: the toolbar is drawn (its menu is there) without Streamlit's Deploy button.
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, '[data-testid="stMainMenu"]')))
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stAppDeployButton"]')
    picker = browser.find_element(By.CSS_SELECTOR, '[data-testid="stSelectbox"] input')
    picker.click()
    picker.send_keys(runs.llm)
    picker.send_keys(Keys.ENTER)
    wait.until(ec.url_contains(f"/run?run={runs.llm}"))
    wait_for_text("rope[torch] · llm policy")
    wait_for_text("Environment and configuration")
    # The chart (SVG): one mark per candidate, labelled with what its tooltip shows.
    points = '[data-testid="stVegaLiteChart"] g.mark-symbol.role-mark path'
    wait.until(lambda _: len(browser.find_elements(By.CSS_SELECTOR, points)) == 2, "no points in the chart")
    labels = chrome.aria_labels(browser, '[data-testid="stVegaLiteChart"] g.mark-rule.role-mark line')
    (failed,) = [label for label in labels if "outcome: failed" in label]  # a band: it has no speed to plot
    assert "iteration: 2;" in failed and "failing stage: correctness" in failed
    assert "rule: incorrect;" in failed  # why it was turned down, as its decision recorded it

    # Download prompts.md: the file arrives, with agent export's text.
    download = (By.XPATH, '//*[@data-testid="stDownloadButton"]//button[contains(normalize-space(.), "prompts.md")]')
    wait.until(ec.element_to_be_clickable(download)).click()
    target = browser.downloads / "prompts.md"
    wait.until(lambda _: target.exists() and not list(browser.downloads.glob("*.crdownload")), "no prompts.md")
    assert target.read_text() == prompts_markdown(RunFolder(runs.root / runs.llm))
    run_shot = chrome.screenshot(browser, shot)

    # A click on the accepted point opens its iteration; the diff is on the first tab.
    (accepted,) = [
        p
        for p in browser.find_elements(By.CSS_SELECTOR, points)
        if "outcome: accepted" in p.get_attribute("aria-label")
    ]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", accepted)
    accepted.click()
    wait.until(ec.url_contains("/iteration?"))
    assert "iteration=1" in browser.current_url
    wait_for_text("Iteration 1")
    wait_for_text('+CONFIG = {"delay_ms": 2}')
    assert "Accepted." in main_text() and "Commit" in main_text()
    iteration_shot = chrome.screenshot(browser, shot.with_name(f"{shot.stem}-iteration{shot.suffix}"))

    # The next iteration, a failed one: its errors are on the Correctness tab.
    browser.find_element(By.XPATH, '//a[contains(normalize-space(.), "iteration 2")]').click()
    wait_for_text("Failed at correctness.")
    tab = (By.XPATH, '//*[@role="tab"][contains(normalize-space(.), "Correctness")]')
    wait.until(ec.element_to_be_clickable(tab)).click()
    wait_for_text("hidden/seq1000-d96")
    errors_shot = chrome.screenshot(browser, shot.with_name(f"{shot.stem}-errors{shot.suffix}"))
    assert all(path.stat().st_size > 10_000 for path in (run_shot, iteration_shot, errors_shot))


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "runs"
STOPPED_EARLY = "20261202-052242-rms_norm-maca_cpp-9210"  # H200: 9 of 10 candidates stopped at a slower shape


def test_a_run_with_candidates_stopped_early_compares_like_with_like_at_1440_px(tmp_path):
    """The committed maca_cpp run at 1440 px: ratios to the best, the partial ones labelled; no median of a few
    shapes beside full-set medians; tables that fit the page, on the run page and an iteration's Timings tab."""
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By

    with chrome.serve(EXAMPLES, tmp_path / "agent-ui.log") as url:
        driver = chrome.chromium(tmp_path, width=1440)
        try:
            driver.get(f"{url}/run?{urlencode({'run': STOPPED_EARLY})}")
            chrome.wait_rendered(driver, "rms_norm[maca_cpp] · search policy", "Environment and configuration")
            chart = '[data-testid="stVegaLiteChart"]'
            points = f"{chart} g.mark-symbol.role-mark path"
            labels = f"{chart} g.mark-text.role-mark text"

            def marks(css: str) -> list[str]:
                return chrome.aria_labels(driver, css)

            chrome.wait_until(lambda: len(marks(points)) == 11, "11 points in the chart")
            # By default what decided each: its ratio to the best, on the shapes it was timed on.
            (second,) = [p for p in marks(points) if p.startswith("iteration: 2;")]
            assert "shapes timed: 3 of 18, partial" in second and "vs the best of its time" in second
            assert sum("label: " in t for t in marks(labels)) == 9  # 3/18, 1/18, ...: the nine stopped early
            # Every table fits the page: nothing to scroll sideways at 1440 px.
            assert_tables_fit(driver)
            chrome.screenshot(driver, tmp_path / "stopped-early.png", width=1440)

            # Over the whole set of shapes only the two full evaluations are points; no point is above the copy.
            button = (By.XPATH, '//button[contains(normalize-space(.), "median GB/s")]')
            driver.find_element(*button).click()
            chrome.wait_until(lambda: len(marks(points)) == 2, "2 points over the whole set of shapes")
            rules = marks(f"{chart} g.mark-rule.role-mark line")
            assert sum("not drawn: stopped early" in r for r in rules) == 9
            assert all("above the copy" not in p for p in marks(points))

            # An iteration's Timings tab: the per-shape table and each scope's contestants, ratios included, fit.
            driver.get(f"{url}/iteration?{urlencode({'run': STOPPED_EARLY, 'iteration': 3})}")
            chrome.wait_rendered(driver, "Iteration 3", "Accepted.")
            driver.find_element(By.XPATH, '//*[@role="tab"][contains(normalize-space(.), "Timings")]').click()
            chrome.wait_rendered(driver, "graph scope · decides")
            chrome.wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, TABLES)) >= 4, "the timing tables")
            assert_tables_fit(driver)
        finally:
            driver.quit()


TABLES = '[data-testid="stDataFrame"] .dvn-scroller'


def assert_tables_fit(driver) -> None:
    """Every visible table is as wide as its content: no column past the right edge, nothing to scroll sideways."""
    widths = driver.execute_script(
        f"return Array.from(document.querySelectorAll('{TABLES}')).filter(s => s.offsetParent !== null)"
        ".map(s => [s.scrollWidth, s.clientWidth]);"
    )
    assert widths and all(scroll <= client for scroll, client in widths), widths
