"""The page in a real browser (issue 48): headless Chromium with its matching chromedriver
(Debian's ``chromium`` and ``chromium-driver``, ``pagadores_web.browser``) against the server
on a free port of this process. Flows: a whole game of Dados de Pagadores against ``sensible``
played by clicking, its result the server's record; a Perudo game whose page never shows an
opponent's dice before the reveal; a replay stepped forward and back matching the record's
states; an upload refused and one replayed; Paye's exact hints on its buttons and a record
from the runs directory replayed; watch mode to the end; an illegal action through
the API refused with nothing changed; two tabs at once; a request from another origin
refused; a screenshot that is not blank. One browser and one server serve the module."""

from __future__ import annotations

import json
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")
from PIL import Image, ImageStat
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from pagadores_env.pagadores.engine import Game
from pagadores_env.paye.engine import Game as PayeGame
from pagadores_env.paye.exact import action_values as paye_action_values
from pagadores_env.perudo.engine import Game as PerudoGame
from pagadores_web.browser import (
    CHROMEDRIVER,
    CHROMIUM,
    chromium,
    screenshot,
    start_game,
    versions,
    wait,
)
from pagadores_web.serve import serving

pytestmark = pytest.mark.browser

if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
    pytest.skip(f"needs {CHROMIUM} and {CHROMEDRIVER}: apt-get install -y chromium "
                f"chromium-driver (make test installs them as root)", allow_module_level=True)


def paye_record() -> dict:
    """A finished game of Paye's dobbelspel, kept in a run folder of the server's runs
    directory."""
    game = PayeGame(2, first_player=0, rounds=2)
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_chance(game.chance_outcomes()[-1][0])
        else:
            game.apply_action(game.legal_actions()[0])
    return game.to_dict()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    runs = tmp_path_factory.mktemp("runs")
    (runs / "demo_run" / "games").mkdir(parents=True)
    (runs / "demo_run" / "games" / "paye.json").write_text(json.dumps(paye_record()))
    with serving(tmp_path_factory.mktemp("records"), runs=runs) as (url, app):
        yield url, app


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest):
    with chromium() as driver:
        browser_version, driver_version = versions(driver)  # the header names them too
        line = f"Chromium {browser_version}, chromedriver {driver_version}"
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        with capture.global_and_fixture_disabled():
            print(f"\nbrowser tests: {line}")
        assert browser_version.split(".")[0] == driver_version.split(".")[0], line
        yield driver


@pytest.fixture
def page(browser: WebDriver, server):
    """The browser on one tab, back on the page's first panel."""
    while len(browser.window_handles) > 1:
        browser.switch_to.window(browser.window_handles[-1])
        browser.close()
    browser.switch_to.window(browser.window_handles[0])
    return browser


def step_of(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "status").get_attribute("data-step")


def play_by_clicking(driver: WebDriver, pick: str = "button.action", check=None) -> None:
    """Click a legal action whenever it is the person's turn until the end screen shows;
    ``check(driver)`` runs at every view the person sees."""
    while True:
        wait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action")
                               or d.find_element(By.ID, "end").is_displayed())
        if check is not None:
            check(driver)
        if driver.find_element(By.ID, "end").is_displayed():
            return
        before = step_of(driver)
        buttons = driver.find_elements(By.CSS_SELECTOR, pick) or \
            driver.find_elements(By.CSS_SELECTOR, "button.action")
        buttons[0].click()
        wait(driver).until(lambda d, before=before: step_of(d) != before)


def shown_places(driver: WebDriver) -> list[int]:
    items = driver.find_elements(By.CSS_SELECTOR, "#places li")
    places = {int(i.get_attribute("data-seat")): int(i.get_attribute("data-place"))
              for i in items}
    return [places[seat] for seat in sorted(places)]


def fetch(driver: WebDriver, method: str, path: str, body: object = None,
          content_type: str = "application/json") -> dict:
    """A request the page's own script makes (its origin, its cookies): status and JSON."""
    return driver.execute_async_script(
        "const [method, path, body, type, done] = arguments;"
        "const init = {method, headers: {}};"
        "if (body !== null) { init.headers['Content-Type'] = type; init.body = body; }"
        "fetch(path, init).then(async r => done({status: r.status, body: await r.json()}))"
        "  .catch(e => done({status: -1, body: String(e)}));",
        method, path, None if body is None else json.dumps(body), content_type)


def test_a_whole_pagadores_game_against_sensible_clicked_to_its_end(page, server) -> None:
    url, app = server
    game_id = start_game(page, url, opponent="sensible")
    play_by_clicking(page)
    record_id = page.find_element(By.ID, "end").get_attribute("data-record")
    record = app.state.records.load(record_id)
    game = Game.from_dict(record)
    assert game.is_terminal() and shown_places(page) == game.placements()
    lines = [li.text for li in page.find_elements(By.CSS_SELECTOR, "#log li")]
    assert lines[-1] == f"player_{game.winner} wins the game"
    assert game_id in page.find_element(By.ID, "download").get_attribute("href")


def test_perudo_never_shows_an_opponents_dice_before_the_reveal(page, server) -> None:
    url, app = server
    game_id = start_game(page, url, game="perudo", opponent="probabilistic")
    game = app.state.sessions.get(game_id).game
    seen = []

    def no_other_dice(driver: WebDriver) -> None:
        if driver.find_element(By.ID, "end").is_displayed():
            return
        hands = driver.find_elements(By.CSS_SELECTOR, "g.seat .die.hand")
        owners = {d.find_element(By.XPATH, "..").get_attribute("data-seat") for d in hands}
        assert owners <= {"0"}, "an opponent's dice are on the page"
        faces = sorted(int(d.get_attribute("data-face")) for d in hands)
        assert faces == sorted(game.hands[0])  # the person's own dice, all of them
        assert driver.find_elements(By.CSS_SELECTOR, "g.seat[data-seat='1'] .cup")
        seen.append(faces)

    play_by_clicking(page, "button.action[data-action='0']", no_other_dice)  # dudo when legal
    assert len(seen) >= 2 and PerudoGame.from_dict(app.state.records.load(
        page.find_element(By.ID, "end").get_attribute("data-record"))).placements() \
        == shown_places(page)


def test_a_replay_steps_forward_and_back_through_the_records_states(page, server) -> None:
    url, app = server
    start_game(page, url, opponent="stop-first")
    play_by_clicking(page)
    record_id = page.find_element(By.ID, "end").get_attribute("data-record")
    record = app.state.records.load(record_id)
    page.find_element(By.ID, "tab-replay").click()
    wait(page).until(lambda d: d.find_elements(
        By.CSS_SELECTOR, f"button.open-record[data-id='{record_id}']"))
    page.find_element(By.CSS_SELECTOR, f"button.open-record[data-id='{record_id}']").click()

    def at(step: int) -> dict:
        wait(page).until(lambda d: d.find_element(By.ID, "replay-step").get_attribute(
            "data-step") == str(step))
        return json.loads(page.find_element(By.ID, "snapshot").get_attribute("textContent"))

    expected = Game(2, 10)  # the states, replayed here from the record's inputs
    states = [expected.snapshot()]
    for item in record["history"][:6]:
        (expected.apply_throw if isinstance(item, list) else expected.apply_action)(item)
        states.append(expected.snapshot())
    assert at(0) == states[0]
    for step in range(1, 7):
        page.find_element(By.ID, "replay-next").click()
        assert at(step) == states[step]
    for step in range(5, 2, -1):
        page.find_element(By.ID, "replay-prev").click()
        assert at(step) == states[step]
    page.find_element(By.ID, "replay-last").click()
    assert at(len(record["history"])) == record["state"]
    page.find_element(By.ID, "replay-first").click()
    assert at(0) == states[0]


def test_an_uploaded_record_is_replayed_and_an_edited_one_refused(page, server,
                                                                  tmp_path: Path) -> None:
    url, app = server
    game = Game(2, 1)
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_throw((2, 3, 4 + game.current_player))  # no tie
        else:
            game.apply_action(0)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(game.to_dict()))
    edited = game.to_dict()
    edited["history"][0] = [1, 1, 1]
    bad.write_text(json.dumps(edited))
    page.get(url + "/")
    page.find_element(By.ID, "tab-replay").click()
    page.find_element(By.ID, "record-file").send_keys(str(bad))
    wait(page).until(lambda d: "digest" in d.find_element(By.ID, "replay-error").text)
    page.find_element(By.ID, "record-file").send_keys(str(good))
    steps = len(game.history)
    wait(page).until(lambda d: d.find_element(By.ID, "replay-step").text == f"0 / {steps}")
    page.find_element(By.ID, "replay-last").click()
    wait(page).until(lambda d: d.find_element(By.ID, "replay-step").text
                     == f"{steps} / {steps}")
    assert json.loads(page.find_element(By.ID, "snapshot").get_attribute("textContent")) \
        == game.snapshot()


def test_paye_shows_its_exact_hints_and_a_runs_record_is_replayed(page, server) -> None:
    url, app = server
    game_id = start_game(page, url, game="paye", opponent="sensible")
    wait(page, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action .hint"))
    game = app.state.sessions.get(game_id).game
    seat = game.current_player
    shown = {int(b.get_attribute("data-action")): b.find_element(By.CSS_SELECTOR, ".hint").text
             for b in page.find_elements(By.CSS_SELECTOR, "button.action")}
    assert shown == {a: f"win {100 * v[seat]:.1f}%"
                     for a, v in paye_action_values(game).items()}
    assert "exact chance to win" in page.find_element(By.ID, "hint-note").text
    record = paye_record()
    page.find_element(By.ID, "tab-replay").click()
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "li.run-record"))
    item = page.find_element(By.CSS_SELECTOR, "li.run-record")
    assert "from runs demo_run/games (read-only)" in item.text
    item.find_element(By.CSS_SELECTOR, "button.open-record").click()
    steps = len(record["history"])
    wait(page).until(lambda d: d.find_element(By.ID, "replay-step").text == f"0 / {steps}")
    page.find_element(By.ID, "replay-last").click()
    wait(page).until(lambda d: d.find_element(By.ID, "replay-step").text
                     == f"{steps} / {steps}")
    assert json.loads(page.find_element(By.ID, "snapshot").get_attribute("textContent")) \
        == record["state"]
    page.find_element(By.ID, "replay-prev").click()
    wait(page).until(lambda d: d.find_element(By.ID, "replay-step").text
                     == f"{steps - 1} / {steps}")


def test_watch_mode_plays_agents_to_the_end_pausing_and_stepping(page, server) -> None:
    url, app = server
    game_id = start_game(page, url, players=3, opponent="sensible", watch=True, delay_ms=300)
    page.find_element(By.ID, "play-pause").click()  # pause
    assert page.find_element(By.ID, "play-pause").text == "Play"
    paused_at = step_of(page)
    page.find_element(By.ID, "step").click()
    wait(page).until(lambda d: step_of(d) != paused_at)
    stepped = step_of(page)
    assert app.state.sessions.get(game_id).game.history.__len__() == int(stepped)
    page.execute_script("document.getElementById('speed').value = 0")
    page.find_element(By.ID, "play-pause").click()  # go on
    wait(page, 90).until(lambda d: d.find_element(By.ID, "end").is_displayed())
    record = app.state.records.load(page.find_element(By.ID, "end").get_attribute("data-record"))
    assert Game.from_dict(record).placements() == shown_places(page)
    assert not page.find_elements(By.CSS_SELECTOR, "button.action")


def test_an_illegal_action_through_the_api_is_refused_and_changes_nothing(page, server) -> None:
    url, _ = server
    game_id = start_game(page, url, opponent="sensible")
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action"))
    before = fetch(page, "GET", f"/api/games/{game_id}")
    for forged in ({"action": 5}, {"action": "1"}, {"action": True}, {}):
        refused = fetch(page, "POST", f"/api/games/{game_id}/actions", forged)
        assert refused["status"] == 400 and "\n" not in refused["body"]["error"]
    assert fetch(page, "GET", f"/api/games/{game_id}") == before


def test_two_tabs_play_two_independent_games(page, server) -> None:
    url, _ = server
    first = start_game(page, url, opponent="sensible")
    wait(page).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.action"))
    first_step = step_of(page)
    page.switch_to.new_window("tab")
    second = start_game(page, url, opponent="sensible")
    assert second != first
    play_by_clicking(page)
    page.switch_to.window(page.window_handles[0])
    assert fetch(page, "GET", f"/api/games/{first}")["body"]["step"] == int(first_step)
    assert page.find_element(By.ID, "table").get_attribute("data-game") == first
    page.find_element(By.CSS_SELECTOR, "button.action").click()
    wait(page).until(lambda d: step_of(d) != first_step)


def test_a_request_from_another_origin_is_refused(page, server, tmp_path: Path) -> None:
    url, app = server
    (tmp_path / "evil.html").write_text("<!doctype html><title>another site</title>")
    handler = partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    evil = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        page.get(f"http://127.0.0.1:{evil.server_address[1]}/evil.html")
        live = len(app.state.sessions)
        body = {"game": "pagadores", "players": 2, "seat": 0, "opponents": ["sensible"]}
        # JSON needs a preflight, which no CORS header answers: the browser stops it
        blocked = fetch(page, "POST", f"{url}/api/games", body)
        assert blocked["status"] == -1 and "Failed to fetch" in blocked["body"]
        # a simple request goes out without asking, and the server refuses it
        simple = page.execute_async_script(
            "const [target, body, done] = arguments;"
            "fetch(target, {method: 'POST', mode: 'no-cors', body,"
            "  headers: {'Content-Type': 'text/plain'}}).then(r => done(r.type))"
            "  .catch(e => done(String(e)));", f"{url}/api/games", json.dumps(body))
        assert simple == "opaque"  # the page learns nothing of the answer
        assert len(app.state.sessions) == live  # and no game was started
    finally:
        evil.shutdown()


def test_the_screenshot_is_not_blank(page, server, tmp_path: Path) -> None:
    url, _ = server
    path = screenshot(page, url, tmp_path / "web.png")
    with Image.open(path) as picture:
        stats = ImageStat.Stat(picture.convert("L"))
        assert picture.size[0] >= 800 and stats.stddev[0] > 20
        assert len(picture.convert("RGB").getcolors(1 << 20) or []) > 50
