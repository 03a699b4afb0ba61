"""`agent ui` in a child process and headless Chromium to look at it: shared by the browser test
(tests/ui/test_browser.py) and the screenshot script (tests/ui/screenshots.py).

Needs Debian's `chromium` and `chromium-driver` and the `selenium` package (the `test` extra); selenium is
imported only when a browser is started, so importing this module costs nothing.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WIDTH, HEIGHT = 1440, 900  # a laptop screen
MAX_HEIGHT = 4000  # a full-page shot never grows the window past this
MAIN = '[data-testid="stMain"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(runs_dir: Path, log_path: Path, timeout: float = 60) -> Iterator[str]:
    """`agent ui --runs DIR --port N` in a child process; yields its URL once it answers its health check.

    The server (and the streamlit process `agent` starts) is stopped on the way out, also on errors.
    Raises RuntimeError, with the end of the server's log, when it does not come up within `timeout` seconds.
    """
    port = free_port()
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "agent", "ui", "--runs", str(runs_dir), "--port", str(port)],
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # one group: `agent` and the streamlit server it starts
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                        if answer.read() == b"ok":
                            break
                except OSError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    raise RuntimeError(f"agent ui did not serve: {Path(log_path).read_text()[-2000:]}")
                time.sleep(0.2)
            yield url
        finally:
            try:
                os.killpg(server.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def chromium(workdir: Path, downloads: Path | None = None, width: int = WIDTH, height: int = HEIGHT):
    """Headless Chromium (a selenium driver) with its profile under `workdir`; files download into `downloads`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={tempfile.mkdtemp(dir=workdir)}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    if downloads is not None:
        options.add_experimental_option(
            "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
        )
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    if downloads is not None:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    viewport(driver, width, height)
    return driver


def viewport(driver, width: int, height: int) -> None:
    """Size the window so that the page itself (the viewport, the window less its frame) is width x height."""
    driver.set_window_size(width, height)
    frame_w, frame_h = driver.execute_script(
        "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]"
    )
    if frame_w > 0 or frame_h > 0:
        driver.set_window_size(width + max(frame_w, 0), height + max(frame_h, 0))


def main_text(driver) -> str:
    """The text of the page's main area (the sidebar left out)."""
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, MAIN).text


def aria_labels(driver, css: str) -> list[str]:
    """Every `css` element's aria-label, read in one script: a chart re-rendering mid-read cannot leave a stale
    element behind, as reading element by element could."""
    script = "return Array.from(document.querySelectorAll(arguments[0]), e => e.getAttribute('aria-label') || '')"
    return driver.execute_script(script, css)


def rendered(driver, *texts: str) -> bool:
    """Streamlit has finished the page: the script is not running, no "Running..." widget or loading
    skeleton is shown, and every one of `texts` is in the main area."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    try:
        app = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stApp"]')
        if not app or app[0].get_attribute("data-test-script-state") != "notRunning":
            return False
        busy = '[data-testid="stStatusWidgetRunningIcon"], [data-testid="stStatusWidgetRunningManIcon"]'
        if driver.find_elements(By.CSS_SELECTOR, f'{busy}, [data-testid="stSkeleton"]'):
            return False
        text = main_text(driver)
    except WebDriverException:  # the page is being replaced (a page switch)
        return False
    return all(t in text for t in texts)


def wait_rendered(driver, *texts: str, timeout: float = 30) -> None:
    """Wait until rendered(driver, *texts); AssertionError with what the page says if it never is.

    A page that shows a Python exception fails at once.
    """
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    while not rendered(driver, *texts):
        if time.monotonic() > deadline:
            raise AssertionError(f"{texts!r} never rendered; the page says:\n{main_text(driver)[:2000]}")
        time.sleep(0.2)
    errors = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    if errors:
        raise AssertionError(f"the page shows an exception:\n{errors[0].text[:2000]}")


def wait_until(check, what: str, timeout: float = 30) -> None:
    """Wait until `check()` holds; AssertionError naming `what` if it never does."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never happened")
        time.sleep(0.2)


def screenshot(driver, path: Path, width: int = WIDTH, height: int = HEIGHT) -> Path:
    """The whole page at `width`: the viewport grows to the page's height for the shot, then shrinks back."""
    from selenium.webdriver.common.by import By

    main = driver.find_element(By.CSS_SELECTOR, MAIN)
    driver.execute_script("arguments[0].scrollTo(0, 0)", main)
    tall = driver.execute_script("return arguments[0].scrollHeight", main)
    viewport(driver, width, min(max(height, tall), MAX_HEIGHT))
    time.sleep(1)  # let the chart and tables re-lay out at the new size
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    viewport(driver, width, height)
    return path
