"""Screenshots of the review UI over the committed example runs, for docs/screenshots/.

Usage: python -m tests.ui.screenshots [--runs examples/runs] [--out docs/screenshots] [--width 1440 --height 900]

Starts `agent ui --runs RUNS` on a free 127.0.0.1 port, opens the pages in headless Chromium (Debian's
`chromium` and `chromium-driver`, and `selenium`) and saves each, full page, at a laptop-sized window:

    runs.png                          the runs page
    run-rms_norm-maca_cpp.png         the run page of the judged rms_norm[maca_cpp] run: the chart of what decided
                                      each candidate (its ratio to the best; those stopped early hollow, 3/18),
                                      the iterations, the best version per shape
    run-rms_norm-maca_cpp-gbps.png    the same page on median GB/s: full evaluations only, the others dotted
    run-rms_norm-maca_cpp-tooltip.png the chart's tooltip over iteration 2, stopped early after 3 of 18 shapes
                                      (the window as it is, not the whole page: growing it would end the hover)
    iteration-rms_norm-maca_cpp-3.png its accepted iteration 3 (vec 8 -> 4), on the Diff tab
    iteration-rms_norm-maca_cpp-3-timings.png  the same iteration's Timings tab: times and ratios per scope

Each shot waits until Streamlit has finished the page (no "Running..." widget, the expected text shown).
The server and the browser are stopped at the end, also on errors.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tests.ui import browser as chrome
from tools.runfolder import list_runs

ROOT = Path(__file__).resolve().parents[2]

RUN = (
    "20261202-052242-rms_norm-maca_cpp-9210"  # judged on an H200: 10 iterations, iteration 3 accepted, 9 stopped early
)
NAME = "rms_norm-maca_cpp"
ITERATIONS = 10
ACCEPTED = 3
HOVERED = 2  # rejected after 3 of 18 shapes: 1.15x the best on those, one of them slower beyond noise
CHANGED = '"vec": 4, "rows_per_block"'  # a piece of the diff's added CONFIG line
WIDTH = chrome.WIDTH  # 1440: a laptop screen


def _wait(driver, check, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never showed; the page says:\n{chrome.main_text(driver)[:2000]}")
        time.sleep(0.2)


def _count(driver, css: str) -> int:
    from selenium.webdriver.common.by import By

    return len(driver.find_elements(By.CSS_SELECTOR, css))


def hover(driver, points: str, iteration: int) -> None:
    """Rest the mouse on the chart's point of `iteration` until Vega's tooltip shows it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    (point,) = [
        p
        for p in driver.find_elements(By.CSS_SELECTOR, points)
        if f"iteration: {iteration};" in (p.get_attribute("aria-label") or "")
    ]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", point)
    time.sleep(0.5)
    ActionChains(driver).move_to_element(point).perform()

    def shown() -> str:
        return " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "#vg-tooltip-element.visible"))

    _wait(driver, lambda: "shapes timed" in shown(), "the tooltip")


def _optimise(path: Path) -> None:
    """Shrink the PNG: a 256-colour palette (a UI's flat colours survive it; the file is 2.5x smaller), then optipng
    losslessly when it is installed (it is not needed)."""
    import shutil
    import subprocess

    from PIL import Image

    with Image.open(path) as shot:
        palette = shot.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    palette.save(path, optimize=True)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", str(path)], check=False)


def take(runs: Path, out: Path, width: int, height: int) -> list[Path]:
    from urllib.parse import urlencode

    shots = []
    with tempfile.TemporaryDirectory(prefix="ui-shots-") as scratch:
        work = Path(scratch)
        with chrome.serve(runs, work / "agent-ui.log") as url:
            driver = chrome.chromium(work, width=width, height=height)
            try:

                def shoot(name: str) -> None:
                    time.sleep(1)  # the data grids draw on a canvas a moment after the DOM settles
                    path = chrome.screenshot(driver, out / name, width, height)
                    _optimise(path)
                    shots.append(path)

                # 1. The runs page: the table of the example runs.
                count = len(list_runs(runs))  # the app's own rule for what is a run folder
                driver.get(url)
                chrome.wait_rendered(driver, "Runs", "Open a run", f"{count} of {count} runs")
                _wait(driver, lambda: _count(driver, '[data-testid="stDataFrame"] canvas') > 0, "the runs table")
                shoot("runs.png")

                # 2. The run page: metrics, the chart of what decided each candidate, the tables.
                driver.get(f"{url}/run?{urlencode({'run': RUN})}")
                chrome.wait_rendered(driver, "rms_norm[maca_cpp] · search policy", "Environment and configuration")
                points = '[data-testid="stVegaLiteChart"] g.mark-symbol.role-mark path'
                _wait(driver, lambda: _count(driver, points) > ITERATIONS, f"{ITERATIONS + 1} points in the chart")
                shoot(f"run-{NAME}.png")
                hover(driver, points, HOVERED)
                tooltip = out / f"run-{NAME}-tooltip.png"
                driver.save_screenshot(str(tooltip))
                _optimise(tooltip)
                shots.append(tooltip)

                # 3. The same chart over the whole set of shapes: the two full evaluations as points.
                from selenium.webdriver.common.by import By

                driver.find_element(By.XPATH, '//button[contains(normalize-space(.), "median GB/s")]').click()
                _wait(driver, lambda: _count(driver, points) == 2, "the two full evaluations as points")
                chrome.wait_rendered(driver, "Environment and configuration")
                shoot(f"run-{NAME}-gbps.png")

                # 4. The accepted iteration: its verdict, commit and the diff (the first tab).
                driver.get(f"{url}/iteration?{urlencode({'run': RUN, 'iteration': ACCEPTED})}")
                chrome.wait_rendered(driver, f"Iteration {ACCEPTED}", "Accepted.", CHANGED)
                shoot(f"iteration-{NAME}-{ACCEPTED}.png")

                # 5. Its Timings tab: every contestant's time and the ratios, within the page's width.
                tab = '//*[@role="tab"][contains(normalize-space(.), "Timings")]'
                driver.find_element(By.XPATH, tab).click()
                chrome.wait_rendered(driver, "graph scope · decides")
                _wait(driver, lambda: _count(driver, '[data-testid="stDataFrame"] canvas') > 1, "the timing tables")
                shoot(f"iteration-{NAME}-{ACCEPTED}-timings.png")
            finally:
                driver.quit()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=ROOT / "examples" / "runs", help="folder of run folders")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="where the PNGs go")
    parser.add_argument("--width", type=int, default=WIDTH)
    parser.add_argument("--height", type=int, default=chrome.HEIGHT, help="the least height; long pages grow")
    args = parser.parse_args(argv)
    for path in take(args.runs.resolve(), args.out.resolve(), args.width, args.height):
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
