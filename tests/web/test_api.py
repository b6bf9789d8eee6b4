"""The web page's JSON API and its guard, through Starlette's TestClient (no browser, no
socket): every security rule of issue 48 with a test, the hidden dice of Perudo, refused
moves that change nothing, every game played to its end in watch mode, records checked by
digest and replay, run folders read by id."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from pagadores_agents.search.shipped import shipped_net
from pagadores_env.core.games import GAME_SPECS
from pagadores_env.core.views import replay_to
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.solver import solve
from pagadores_env.pasch.exact import action_values as pasch_action_values
from pagadores_env.pasch.observation import encode as pasch_encode
from pagadores_env.paye.engine import Game as PayeGame
from pagadores_env.paye.exact import action_values as paye_action_values
from pagadores_env.perudo.engine import Game as PerudoGame
from pagadores_web.app import create_app
from pagadores_web.guard import MAX_BODY

HOST, PORT = "127.0.0.1", 8765
BASE = f"http://{HOST}:{PORT}"
ORIGIN = {"origin": BASE}


def client_of(tmp_path: Path, **kwargs) -> TestClient:
    app = create_app(HOST, PORT, runs=kwargs.pop("runs", None), records=tmp_path / "records",
                     **kwargs)
    return TestClient(app, base_url=BASE)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return client_of(tmp_path)


def sessions(client: TestClient):
    return client.app.app.state.sessions


def start(client: TestClient, **body) -> dict:
    answer = client.post("/api/games", json={"game": "pagadores", "players": 2, "seat": 0,
                                             "opponents": ["sensible"], "seed": 3} | body,
                         headers=ORIGIN)
    assert answer.status_code == 201, answer.text
    return answer.json()


def play_out(client: TestClient, view: dict, choose=lambda legal: legal[0]["action"]) -> dict:
    """Play ``view``'s game to its end: the agents' moves one step at a time, the person's by
    ``choose``."""
    while not view["over"]:
        if view["agent_to_act"]:
            answer = client.post(f"/api/games/{view['id']}/step", json={}, headers=ORIGIN)
        else:
            answer = client.post(f"/api/games/{view['id']}/actions",
                                 json={"action": choose(view["legal"])}, headers=ORIGIN)
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


# -- the guard ------------------------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_with_413(client: TestClient) -> None:
    big = b"[" + b"0," * (MAX_BODY // 2) + b"0]"
    answer = client.post("/api/records", content=big,
                         headers=ORIGIN | {"content-type": "application/json"})
    assert answer.status_code == 413 and "over" in answer.json()["error"]

    def chunks():  # no Content-Length: counted as it streams in
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000
    answer = client.post("/api/records", content=chunks(),
                         headers=ORIGIN | {"content-type": "application/json"})
    assert answer.status_code == 413


def test_a_host_other_than_the_bound_one_is_refused_dns_rebinding(client: TestClient) -> None:
    answer = client.get("/api/catalog", headers={"host": f"evil.example:{PORT}"})
    assert answer.status_code == 421 and "evil.example" in answer.json()["error"]
    assert client.get("/api/catalog", headers={"host": f"127.0.0.1:{PORT + 1}"}).status_code \
        == 421
    assert client.get("/api/catalog").status_code == 200
    assert client.get("/api/catalog", headers={"host": f"localhost:{PORT}"}).status_code == 200


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"},  # another site
    {"origin": f"http://127.0.0.1:{PORT + 1}"},  # another port is another origin
    {},  # no Origin at all
])
def test_a_state_changing_request_from_another_origin_is_refused(client: TestClient,
                                                                 headers) -> None:
    answer = client.post("/api/games", json={"game": "pagadores"}, headers=headers)
    assert answer.status_code == 403 and "Origin" in answer.json()["error"]
    assert len(sessions(client)) == 0


def test_a_state_changing_request_must_be_json(client: TestClient) -> None:
    # a form post needs no preflight: its type is what keeps another site out
    answer = client.post("/api/games", content=b'{"game": "pagadores"}',
                         headers=ORIGIN | {"content-type": "text/plain"})
    assert answer.status_code == 403 and "application/json" in answer.json()["error"]
    assert len(sessions(client)) == 0


def test_no_cors_headers_are_ever_sent(client: TestClient) -> None:
    evil = {"origin": "http://evil.example", "access-control-request-method": "POST"}
    for answer in (client.options("/api/games", headers=evil),
                   client.get("/api/catalog", headers=evil),
                   client.post("/api/games", json={}, headers=evil)):
        assert not [h for h in answer.headers if h.lower().startswith("access-control-")]


def test_every_answer_has_a_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/static/app.js", "/api/catalog", "/api/games/nothing"):
        policy = client.get(path).headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy


def test_a_token_server_refuses_requests_without_it(tmp_path: Path) -> None:
    client = client_of(tmp_path, token="s3cret-token")
    assert client.get("/api/catalog").status_code == 403
    assert client.get("/api/catalog?token=wrong").status_code == 403
    first = client.get("/?token=s3cret-token")
    assert first.status_code == 200 and "HttpOnly" in first.headers["set-cookie"]
    assert client.get("/api/catalog").status_code == 200  # the cookie carries it on


# -- ids and files ----------------------------------------------------------------------------

def test_game_and_record_ids_are_unguessable_and_two_games_are_independent(
        client: TestClient) -> None:
    one, two = start(client), start(client)
    assert one["id"] != two["id"] and min(len(one["id"]), len(two["id"])) >= 22
    moved = client.post(f"/api/games/{one['id']}/actions", json={"action": 0},
                        headers=ORIGIN).json()
    assert moved["step"] > one["step"]
    assert client.get(f"/api/games/{two['id']}").json()["step"] == two["step"]


@pytest.mark.parametrize("path", [
    "/api/records/..%2F..%2Fetc%2Fpasswd", "/api/records/%2Fetc%2Fpasswd",
    "/api/records/../../etc/passwd", "/api/records/%252e%252e%252fsecret",
    "/api/runs/..", "/api/runs/..%2F..", "/api/runs/%2Fetc", "/static/../app.py",
    "/static/%2e%2e/app.py", "/api/records/secret/replay",
])
def test_files_are_named_by_server_made_ids_never_by_paths(tmp_path: Path, path: str) -> None:
    (tmp_path / "secret.json").write_text("{}")
    (tmp_path / "runs").mkdir()
    client = client_of(tmp_path, runs=tmp_path / "runs")
    answer = client.get(path)
    assert answer.status_code == 404, answer.text


def test_opponents_are_ids_of_the_servers_list_never_spec_text(client: TestClient) -> None:
    for forged in ("model:path=/etc/passwd", "threshold:min_points=100", "../sensible"):
        answer = client.post("/api/games", json={"game": "pagadores", "players": 2, "seat": 0,
                                                 "opponents": [forged]}, headers=ORIGIN)
        assert answer.status_code == 400 and "unknown opponent" in answer.json()["error"]
    listed = client.get("/api/opponents?game=pagadores").json()["opponents"]
    ids = {o["id"] for o in listed}
    assert {"sensible", "equilibrium", "search-2p", "search-3p", "search-4p"} <= ids
    assert not [o for o in listed if ":" in o["id"]]  # no spec forms, no paths


# -- moves ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("action", "status"), [
    (7, 400), (-1, 400), (True, 400), ("1", 400), (1.0, 400), (None, 400),
])
def test_an_illegal_or_forged_action_is_refused_and_changes_nothing(
        client: TestClient, action, status) -> None:
    view = start(client)
    answer = client.post(f"/api/games/{view['id']}/actions", json={"action": action},
                         headers=ORIGIN)
    assert answer.status_code == status
    assert "\n" not in answer.json()["error"] and "legal" in answer.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == view


def test_moving_out_of_turn_is_refused_with_409(client: TestClient) -> None:
    view = start(client)
    assert not view["agent_to_act"]
    answer = client.post(f"/api/games/{view['id']}/step", json={}, headers=ORIGIN)
    assert answer.status_code == 409 and "your turn" in answer.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == view


def test_a_finished_game_is_saved_and_its_record_replays_to_the_same_result(
        client: TestClient) -> None:
    view = play_out(client, start(client))
    record = client.get(f"/api/games/{view['id']}/record").json()
    game = Game.from_dict(record)
    assert game.placements() == view["places"] and game.returns() == view["returns"]
    listed = client.get("/api/records").json()["records"]
    assert [r["id"] for r in listed] == [view["record"]] and listed[0]["places"] == view["places"]
    after = client.post(f"/api/games/{view['id']}/actions", json={"action": 0}, headers=ORIGIN)
    assert after.status_code == 409


def test_the_exact_hints_are_the_solvers_win_probabilities(client: TestClient) -> None:
    view = start(client)
    engine = Game.from_dict(client.app.app.state.sessions.get(view["id"]).game.to_dict())
    values = solve(2, 10).action_values(engine)
    assert view["hints"]["values"] == {"0": pytest.approx(values[0]),
                                       "1": pytest.approx(values[1])}
    perudo = start(client, game="perudo", opponents=["probabilistic"])
    assert perudo["hints"]["values"] is None and "Pagadores" in perudo["hints"]["why"]


def to_my_turn(client: TestClient, view: dict) -> dict:
    """``view``'s game once it is the person's turn (or over): the agents moved."""
    while view["agent_to_act"] and not view["over"]:
        view = client.post(f"/api/games/{view['id']}/step", json={}, headers=ORIGIN).json()
    return view


@pytest.mark.parametrize(("variant", "players"), [("base", 2), ("base", 3), ("expansion", 2)])
def test_paye_hints_are_the_yardsticks_shares_of_the_win_after_each_die(
        client: TestClient, variant: str, players: int) -> None:
    view = to_my_turn(client, start(client, game="paye", players=players, seat=1,
                                    opponents=["sensible"], options={"variant": variant}))
    assert view["to_act"] == 1 and view["hints"]["why"] is None
    engine = PayeGame.from_dict(sessions(client).get(view["id"]).game.to_dict())
    expected = paye_action_values(engine)
    assert view["hints"]["values"] == {str(a): pytest.approx(shares[1], abs=1e-12)
                                       for a, shares in expected.items()}
    assert sorted(int(a) for a in view["hints"]["values"]) == \
        [choice["action"] for choice in view["legal"]]
    moved = client.post(f"/api/games/{view['id']}/actions",
                        json={"action": view["legal"][0]["action"]}, headers=ORIGIN).json()
    assert moved["step"] > view["step"]  # the hints changed nothing of the game


def test_paye_at_four_players_gets_no_hints_and_says_why(client: TestClient) -> None:
    view = to_my_turn(client, start(client, game="paye", players=4, opponents=["sensible"]))
    assert view["hints"]["values"] is None and view["legal"]
    assert view["hints"]["why"].startswith("this table's exact values take about 36 s")


def test_pasch_hints_come_in_the_last_round_at_two_or_three_players(client: TestClient) -> None:
    view = to_my_turn(client, start(client, game="pasch", players=2, opponents=["greedy"],
                                    options={"hand": [2, 5], "blocks": 1}))
    assert view["hints"] == {"values": None,
                             "why": "Pasch's exact values cover its last round (X9.2): the "
                                    "hints come there"}
    session = sessions(client).get(view["id"])
    hinted = 0
    while not view["over"]:
        if view["hints"]["values"] is not None:
            game = session.game
            assert game.round == game.rounds - 1
            assert view["hints"]["values"] == {
                str(a): pytest.approx(v, abs=1e-12) for a, v in pasch_action_values(
                    pasch_encode(game, 0), game.legal_mask()).items()}
            hinted += 1
        else:
            assert "last round" in view["hints"]["why"]
        view = to_my_turn(client, client.post(
            f"/api/games/{view['id']}/actions", json={"action": view["legal"][-1]["action"]},
            headers=ORIGIN).json())
    assert hinted >= 1
    four = to_my_turn(client, start(client, game="pasch", players=4, opponents=["greedy"]))
    assert "at 2 or 3 players" in four["hints"]["why"]


@pytest.mark.parametrize("game", sorted(GAME_SPECS))
def test_every_game_can_be_watched_to_its_end(client: TestClient, game: str) -> None:
    spec = GAME_SPECS[game]
    view = start(client, game=game, players=3, seat=None, opponents=[spec.opponent])
    assert view["mode"] == "watch" and view["legal"] == []
    steps = 0
    while not view["over"]:
        view = client.post(f"/api/games/{view['id']}/step", json={}, headers=ORIGIN).json()
        steps += 1
    assert steps > 3 and sorted(view["places"])[0] == 1 and view["record"]
    assert view["log"] == spec.describe_events(
        client.app.app.state.sessions.get(view["id"]).game.log)


# -- hidden dice ----------------------------------------------------------------------------

def test_perudo_shows_a_seat_its_own_dice_only_and_no_record_before_the_end(
        client: TestClient) -> None:
    view = start(client, game="perudo", opponents=["probabilistic"], seat=1)
    game = client.app.app.state.sessions.get(view["id"]).game
    rounds = 0
    while not view["over"]:
        assert set(view["private"]) <= {"1"}
        if game.rolled and game.dice_counts[1]:
            assert view["private"]["1"] == sorted(game.hands[1])
        text = json.dumps(view)
        assert "history" not in view and "hands" not in text
        assert client.get(f"/api/games/{view['id']}?seat=0").status_code == 403
        assert client.get(f"/api/games/{view['id']}/record").status_code == 409
        assert client.get("/api/records").json()["records"] == []
        if view["agent_to_act"]:
            view = client.post(f"/api/games/{view['id']}/step", json={}, headers=ORIGIN).json()
        else:
            rounds += 1
            dudo = [c["action"] for c in view["legal"] if c["words"] == "dudo"]
            action = dudo[0] if dudo else view["legal"][0]["action"]
            view = client.post(f"/api/games/{view['id']}/actions", json={"action": action},
                               headers=ORIGIN).json()
    assert rounds and PerudoGame.from_dict(
        client.get(f"/api/games/{view['id']}/record").json()).placements() == view["places"]


# -- records and replays ----------------------------------------------------------------------

def test_an_uploaded_record_is_checked_by_digest_and_replay(client: TestClient) -> None:
    record = client.get(f"/api/games/{play_out(client, start(client))['id']}/record").json()
    edited = json.loads(json.dumps(record))
    edited["history"][0] = [1, 1, 1]
    for bad, says in ((edited, "digest"), ({"format": "chess"}, "format"), ([1, 2], "format")):
        answer = client.post("/api/records", json=bad, headers=ORIGIN)
        assert answer.status_code == 400 and says in answer.json()["error"]
    answer = client.post("/api/records", content=b"{not json",
                         headers=ORIGIN | {"content-type": "application/json"})
    assert answer.status_code == 400 and "JSON" in answer.json()["error"]
    saved = client.post("/api/records", json=record, headers=ORIGIN)
    assert saved.status_code == 201 and saved.json()["steps"] == len(record["history"])
    replay_id = saved.json()["id"]
    last = client.get(f"/api/records/{replay_id}/replay?step={len(record['history'])}").json()
    assert last["snapshot"] == record["state"] and last["over"]
    first = client.get(f"/api/records/{replay_id}/replay?step=0").json()
    assert first["snapshot"] == Game(2, 10).snapshot() and first["step"] == 0
    middle = client.get(f"/api/records/{replay_id}/replay?step=5").json()
    assert middle["snapshot"] == replay_to(record, 5).snapshot()
    assert client.get(f"/api/records/{replay_id}/replay?step=-1").status_code == 400
    assert client.get(f"/api/records/{replay_id}").json() == record


# -- resources ------------------------------------------------------------------------------

def test_a_cap_on_live_games_drops_the_oldest_saving_what_hides_nothing(tmp_path: Path) -> None:
    client = client_of(tmp_path, limit=2)
    perudo = start(client, game="perudo", opponents=["probabilistic"])
    pagadores = start(client)
    third = start(client)
    assert client.get(f"/api/games/{perudo['id']}").status_code == 404
    assert client.get(f"/api/games/{third['id']}").status_code == 200
    start(client)
    assert client.get(f"/api/games/{pagadores['id']}").status_code == 404
    saved = client.get("/api/records").json()["records"]
    # the unfinished Pagadores game is saved; the unfinished Perudo one would show its dice
    assert [(r["game"], r["over"]) for r in saved] == [("pagadores", False)]


def test_idle_games_are_saved_and_dropped(tmp_path: Path) -> None:
    client = client_of(tmp_path, idle_seconds=0.0)
    view = start(client)
    assert client.get(f"/api/games/{view['id']}").status_code == 404
    assert len(client.get("/api/records").json()["records"]) == 1


def test_stopping_the_server_saves_the_live_games(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:  # the lifespan runs: start and shutdown
        start(client)
        start(client, game="paye", opponents=["sensible"])
    saved = list((tmp_path / "records").glob("*.json"))
    assert len(saved) == 2


# -- runs -----------------------------------------------------------------------------------

def test_run_folders_are_listed_with_curves_results_and_their_trained_player(
        tmp_path: Path) -> None:
    run = tmp_path / "runs" / "search_2p"
    run.mkdir(parents=True)
    (run / "config.yaml").write_text("env:\n  num_players: 2\n  cards: 10\n")
    shutil.copy(shipped_net("search-2p"), run / "value.npz")
    (run / "eval.csv").write_text(
        "timesteps,wall_time_s,opponent,games,wins,win_rate,ci_low,ci_high\n"
        "0,1.0,sensible,100,40,0.4,0.3,0.5\n1000,9.0,sensible,100,55,0.55,0.45,0.65\n")
    (run / "results.md").write_text("| agent | win |\n|---|---|\n| <b>x</b> | 0.55 |\n")
    (tmp_path / "runs" / "not a run").mkdir()
    client = client_of(tmp_path, runs=tmp_path / "runs")
    assert client.get("/api/runs").json()["runs"] == [
        {"id": "search_2p", "game": "pagadores", "players": 2, "player": True, "curve": True,
         "results": True}]
    details = client.get("/api/runs/search_2p").json()
    assert details["curve"] == {"sensible": [[0, 0.4, 0.3, 0.5], [1000, 0.55, 0.45, 0.65]]}
    assert details["results"].startswith("| agent |") and details["player"] is None
    offered = client.get("/api/opponents?game=pagadores").json()["opponents"]
    assert {"id": "run:search_2p", "label": "trained run search_2p", "kind": "run"} in offered
    view = start(client, opponents=["run:search_2p"])
    assert view["labels"] == ["you", "trained run search_2p"]


def finished(game):
    """``game`` played to its end: the first face of every throw, the last legal action."""
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_chance(game.chance_outcomes()[0][0])
        else:
            game.apply_action(game.legal_actions()[-1])
    return game


def test_game_records_under_the_runs_directory_are_listed_and_replayed_read_only(
        tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    paye = finished(PayeGame(2, first_player=0, rounds=2)).to_dict()
    pagadores = finished(Game(2, 2)).to_dict()
    damaged = json.loads(json.dumps(pagadores)) | {"digest": "0" * 64}
    files = {
        "paye.json": paye,  # the runs directory itself
        "search_2p/games/one.json": pagadores,  # two folders down
        "search_2p/games/damaged.json": damaged,  # a record's format, edited: listed with why
        "search_2p/checkpoints/latest.json": {"step": 5, "model": "x.zip"},  # no record
        "a/b/c/d/deep.json": pagadores,  # four folders down: too deep
        ".hidden/h.json": pagadores,  # not a plain name
        "search_2p/big.json": pagadores | {"padding": "x" * MAX_BODY},  # over the body limit
    }
    for name, data in files.items():
        (runs / name).parent.mkdir(parents=True, exist_ok=True)
        (runs / name).write_text(json.dumps(data))
    (tmp_path / "outside.json").write_text(json.dumps(pagadores))
    (runs / "search_2p" / "link.json").symlink_to(tmp_path / "outside.json")
    before = {p: p.stat().st_mtime_ns for p in runs.rglob("*")}
    client = client_of(tmp_path, runs=runs)
    listed = client.get("/api/records").json()["records"]
    by_source = {(r["source"], r.get("game", "damaged")): r for r in listed}
    assert sorted(by_source) == [(".", "paye"), ("search_2p/games", "damaged"),
                                 ("search_2p/games", "pagadores")]
    assert all(r["readonly"] and r["id"].startswith("run.") and "json" not in r["id"]
               for r in listed)
    assert "digest" in by_source[("search_2p/games", "damaged")]["error"]
    one = by_source[("search_2p/games", "pagadores")]
    assert one["over"] and one["places"] == Game.from_dict(pagadores).placements()
    assert client.get(f"/api/records/{one['id']}").json() == pagadores
    steps = len(pagadores["history"])
    last = client.get(f"/api/records/{one['id']}/replay?step={steps}").json()
    assert last["snapshot"] == pagadores["state"] and last["steps"] == steps
    middle = client.get(f"/api/records/{by_source[('.', 'paye')]['id']}/replay?step=3").json()
    assert middle["snapshot"] == replay_to(paye, 3).snapshot()
    assert [r["id"] for r in client.get("/api/records").json()["records"]] == \
        [r["id"] for r in listed]  # the ids hold while the server runs
    other = client_of(tmp_path / "other", runs=runs).get("/api/records").json()["records"]
    assert not {r["id"] for r in other} & {r["id"] for r in listed}  # and are its own
    for forged in ("run.search_2p%2Fgames%2Fone.json", "run." + "A" * 20,
                   "run.%2E%2E%2Foutside.json"):
        assert client.get(f"/api/records/{forged}").status_code == 404
    assert before == {p: p.stat().st_mtime_ns for p in runs.rglob("*")}  # nothing written
    assert not (tmp_path / "records").exists()


def test_a_server_on_every_address_needs_its_token_and_its_own_origin(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs a token"):
        create_app("0.0.0.0", PORT, records=tmp_path)
    app = create_app("0.0.0.0", PORT, records=tmp_path / "records", token="t0ken")
    client = TestClient(app, base_url=f"http://192.0.2.7:{PORT}")
    assert client.get("/api/catalog").status_code == 403
    assert client.get("/api/catalog?token=t0ken").status_code == 200
    body = {"game": "pagadores", "players": 2, "seat": 0, "opponents": ["sensible"]}
    refused = client.post("/api/games", json=body, headers={"origin": BASE})
    assert refused.status_code == 403
    started = client.post("/api/games", json=body, headers={"origin": f"http://192.0.2.7:{PORT}"})
    assert started.status_code == 201


def test_the_page_sets_text_as_text_never_as_html() -> None:
    """Log lines, records, run tables and every label reach the page by ``textContent``: no
    script of the page parses text as HTML."""
    static = Path(__file__).resolve().parents[2] / "web" / "static"
    scripts = sorted(static.rglob("*.js"))
    assert len(scripts) >= 6
    for script in scripts:
        code = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                     "eval(", "new Function"):
            assert sink not in code, f"{script.name} uses {sink}"
    assert "textContent" in (static / "app.js").read_text()
