"""Headless Chromium for the browser tests (``tests/web``) and ``make screenshot``: Debian's
``chromium`` with its matching ``chromium-driver`` through Selenium 4, nothing downloaded
(``SE_OFFLINE``: Selenium Manager stays off), and the page's screenshot drawn the same way
for both, so the committed ``docs/web.png`` is what the test checks is not blank.

``python -m pagadores_web.browser docs/web.png`` (``make screenshot``) starts the server in
this process on a free port, plays a few moves of Dados de Pagadores against ``sensible``
with the exact hints showing, and writes the screenshot.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: The browser's flags: headless, as root in a container (no sandbox, no /dev/shm), and
#: nothing that reaches the network on its own.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", "--window-size=1100,900")
WAIT = 20.0


@contextmanager
def chromium() -> Iterator[WebDriver]:
    """A headless Chromium driven by Debian's chromedriver, with a profile of its own in a
    temporary folder; quit on leaving."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must download nothing
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="pagadores-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def versions(driver: WebDriver) -> tuple[str, str]:
    """The browser's and the driver's versions, as the session reports them."""
    capabilities = driver.capabilities
    return (str(capabilities.get("browserVersion")),
            str(capabilities.get("chrome", {}).get("chromedriverVersion", "?")).split(" ")[0])


def wait(driver: WebDriver, timeout: float = WAIT) -> WebDriverWait:
    """A wait of ``timeout`` seconds on ``driver``."""
    return WebDriverWait(driver, timeout)


def start_game(driver: WebDriver, base_url: str, game: str = "pagadores", players: int = 2,
               opponent: str | None = None, watch: bool = False, delay_ms: int = 0) -> str:
    """Open the page, start a game (``opponent`` in every agent seat, or the game's default)
    and return its id once its first view is drawn."""
    driver.get(base_url + "/")
    wait(driver).until(ready.presence_of_element_located(
        (By.CSS_SELECTOR, f"#game option[value='{game}']")))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "select.opponent"))
    players_box = driver.find_element(By.ID, "players")
    players_box.clear()
    players_box.send_keys(str(players))
    driver.find_element(By.ID, "mode-watch" if watch else "mode-play").click()
    driver.execute_script("document.getElementById('players').dispatchEvent("
                          "new Event('change'))")
    if opponent is not None:
        wait(driver).until(lambda d: d.find_elements(
            By.CSS_SELECTOR, f"select.opponent option[value='{opponent}']"))
        for select in driver.find_elements(By.CSS_SELECTOR, "select.opponent"):
            Select(select).select_by_value(opponent)
    driver.execute_script(f"document.getElementById('speed').value = {delay_ms}")
    driver.find_element(By.ID, "start").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-game"))
    return str(driver.find_element(By.ID, "table").get_attribute("data-game"))


def screenshot(driver: WebDriver, base_url: str, path: Path) -> Path:
    """A game of Dados de Pagadores against ``sensible`` a few moves in, the exact hints on
    its buttons, as a PNG at ``path``."""
    start_game(driver, base_url, opponent="sensible", delay_ms=0)
    for _ in range(3):
        wait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action")
                               or d.find_element(By.ID, "end").is_displayed())
        buttons = driver.find_elements(By.CSS_SELECTOR, "button.action[data-action='1']")
        if not buttons:
            break
        before = driver.find_element(By.ID, "status").get_attribute("data-step")
        buttons[0].click()
        wait(driver).until(lambda d, before=before: d.find_element(
            By.ID, "status").get_attribute("data-step") != before)
    wait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action .hint")
                           or d.find_element(By.ID, "end").is_displayed())
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``make screenshot``: write the page's screenshot to the path given (module
    docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m pagadores_web.browser OUT.png", file=sys.stderr)
        return 2
    from .serve import serving

    with tempfile.TemporaryDirectory() as records, serving(Path(records)) as (url, _), \
            chromium() as driver:
        browser, driver_version = versions(driver)
        print(f"Chromium {browser}, chromedriver {driver_version}")
        print(f"wrote {screenshot(driver, url, Path(args[0]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
