"""The web page's server: a Starlette app (``create_app``) serving the page (plain HTML,
JavaScript modules, CSS and SVG from the package's ``static/`` folder) and its JSON API. The
games run here, on their engines; the page only draws views and sends choices.

Routes (every answer is JSON unless said; a refusal is ``{"error": "one line"}`` with a 4xx):

=====================================  ==================================================
``GET /``                              the page
``GET /static/...``                    its scripts, styles and pictures
``GET /api/catalog``                   the games: name, title, table sizes, options with
                                       their defaults, whether dice are hidden, hints
``GET /api/opponents?game=G``          the opponents of ``G`` by id: registered players,
                                       trained run folders (``catalog``)
``POST /api/games``                    a new game: ``{"game", "players", "options": {name:
                                       value}, "seat": your seat or null to watch,
                                       "opponents": [ids], "seed"?}`` → its view (201)
``GET /api/games/{id}?seat=S``         its view (``core.views``): a play game shows your
                                       seat only, a watch game any seat or none
``POST /api/games/{id}/actions``       ``{"action": n}``: your move, if legal → the view
``POST /api/games/{id}/step``          one agent's move (the page's pace) → the view
``GET /api/games/{id}/record``         the saved record, once the game is over
``GET /api/records``                   the saved games and the records found under the
                                       runs directory (read-only): id, source, game,
                                       players, places
``POST /api/records``                  upload a record (``to_dict`` of any game): checked
                                       by digest and replay, saved under a new id (201)
``GET /api/records/{id}``              a saved record, as a download
``GET /api/records/{id}/replay?step=k``  the replay after its first k inputs, every seat
                                       shown, with its number of inputs
``GET /api/runs``                      the run folders: game, players, curve, results
``GET /api/runs/{id}``                 a run's learning curve (eval.csv) and final table
                                       (results.md), read-only
=====================================  ==================================================

Games, records and runs are named by the ids the server made (``catalog``, ``sessions``);
``guard.Guard`` wraps everything (token, Host, Origin, body size, headers). Work that takes
time (an agent's move, a solve, loading a record) runs in worker threads, never on the event
loop.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pagadores_env.core.games import GAME_SPECS, game_spec
from pagadores_env.core.views import game_view, load_record, replay_to

from . import hints
from .catalog import RUN_RECORD, NotFound, Records, RunRecords, Runs, opponents
from .guard import Guard
from .sessions import Forbidden, Refused, Session, Sessions

STATIC = Path(__file__).parent / "static"
#: A table's seed, if a request gives one: a whole number in this range.
MAX_SEED = 2**32


def error(status: int, reason: str) -> JSONResponse:
    """A refusal: ``{"error": reason}`` with ``status``."""
    return JSONResponse({"error": reason}, status_code=status)


def refusals(handler: Callable[..., Any]) -> Callable[[Request], Any]:
    """``handler`` with its refusals as answers: a bad value 400, a forbidden view 403, an
    unknown id 404, a move the state does not allow 409."""
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except Forbidden as err:
            return error(403, str(err))
        except Refused as err:
            return error(409, str(err))
        except (KeyError, NotFound) as err:
            return error(404, str(err.args[0]) if err.args else "not found")
        except ValueError as err:
            return error(400, str(err).splitlines()[0] if str(err) else "bad request")
    return endpoint


async def json_body(request: Request) -> Any:
    """The request's body parsed as JSON; ``ValueError`` in one line if it is not."""
    try:
        return json.loads(await request.body())
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"the body must be JSON: {err}") from None


def create_app(host: str = "127.0.0.1", port: int = 8000, runs: Path | None = None,
               records: Path = Path("records"), token: str | None = None,
               limit: int = 32, idle_seconds: float = 3600.0) -> Guard:
    """The app for a server bound to ``host``:``port`` (the guard checks requests against
    them), reading run folders from ``runs`` and saving games into ``records``; at most
    ``limit`` live games, a game idle for ``idle_seconds`` is saved and dropped."""
    store = Records(records)
    run_folders = Runs(runs)
    run_records = RunRecords(runs)

    def load_record_by_id(record_id: str) -> dict[str, Any]:
        """A saved game's or a run record's record by its id (``catalog``)."""
        if isinstance(record_id, str) and record_id.startswith(RUN_RECORD):
            return run_records.load(record_id)
        return store.load(record_id)
    sessions = Sessions(store, limit, idle_seconds)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def catalog(request: Request) -> Response:
        return JSONResponse({"games": [
            {"name": spec.name, "title": spec.title, "min_players": spec.min_players,
             "max_players": spec.max_players, "hidden": spec.hidden,
             "opponent": spec.opponent, "summary": spec.summary,
             "options": [{"name": o.name, "default": o.default, "help": o.help}
                         for o in spec.options]}
            for spec in GAME_SPECS.values() if spec.view is not None]})

    async def list_opponents(request: Request) -> Response:
        spec = game_spec(request.query_params.get("game", ""))
        found = await run_in_threadpool(opponents, spec.name, run_folders)
        return JSONResponse({"opponents": [o.public() for o in found]})

    async def new_game(request: Request) -> Response:
        body = await json_body(request)
        if not isinstance(body, dict):
            raise ValueError("the body must be a JSON object")
        spec = game_spec(body.get("game", ""))
        players = _whole(body.get("players", spec.min_players), "players", spec.min_players,
                         spec.max_players)
        seat = body.get("seat")
        if seat is not None:
            seat = _whole(seat, "seat", 0, players - 1)
        seed = body.get("seed")
        if seed is not None:
            seed = _whole(seed, "seed", 0, MAX_SEED - 1)
        options = _options(spec, body.get("options", {}))
        offered = {o.id: o for o in await run_in_threadpool(opponents, spec.name, run_folders)}
        ids = body.get("opponents") or [spec.opponent]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError("opponents must be a list of opponent ids (GET /api/opponents)")
        unknown = [i for i in ids if i not in offered]
        if unknown:
            raise ValueError(f"unknown opponent {unknown[0]!r} for {spec.name}; the ids are "
                             f"listed at /api/opponents?game={spec.name}")
        entries = [(offered[i].spec, offered[i].label) for i in ids]
        session = await run_in_threadpool(sessions.start, spec, players, options, seat,
                                          entries, seed)
        return JSONResponse(await _view(session, None), status_code=201)

    async def _view(session: Session, seat: int | None) -> dict[str, Any]:
        def make() -> dict[str, Any]:
            with session.lock:  # the hints read the game: no move in between
                view = session.view(seat)
                return view | {"hints": _hints(session, view)}
        return await run_in_threadpool(make)

    def _hints(session: Session, view: dict[str, Any]) -> dict[str, Any]:
        """Each legal choice's exact win probability where the solution is at hand (only
        for the person's own decision), else why not (``hints``)."""
        reason = hints.why_not(session.spec.name, session.game)
        if reason is not None or not view["legal"] or session.human is None:
            return {"values": None, "why": reason}
        try:
            values = hints.action_values(session.spec.name, session.game)
        except ValueError as err:  # a solve this machine's memory limit refuses
            return {"values": None, "why": str(err).splitlines()[0]}
        return {"values": {str(a): p for a, p in values.items()}, "why": None}

    async def show_game(request: Request) -> Response:
        session = sessions.get(request.path_params["id"])
        text = request.query_params.get("seat")
        seat = None if text in (None, "") else _seat_param(text)
        return JSONResponse(await _view(session, seat))

    async def act(request: Request) -> Response:
        session = sessions.get(request.path_params["id"])
        body = await json_body(request)
        if not isinstance(body, dict) or "action" not in body:
            raise ValueError('the body must be {"action": n}')

        def move() -> None:
            with session.lock:
                session.act(body["action"])
        await run_in_threadpool(move)
        return JSONResponse(await _view(session, None))

    async def step(request: Request) -> Response:
        session = sessions.get(request.path_params["id"])
        await json_body(request)

        def move() -> None:
            with session.lock:
                session.step()
        await run_in_threadpool(move)
        return JSONResponse(await _view(session, None))

    async def game_record(request: Request) -> Response:
        session = sessions.get(request.path_params["id"])
        if session.record_id is None:
            raise Refused("the record is there once the game is over")
        return await download(session.record_id)

    async def download(record_id: str) -> Response:
        record = await run_in_threadpool(load_record_by_id, record_id)
        return JSONResponse(record, headers={
            "content-disposition": f'attachment; filename="{record_id}.json"'})

    async def list_records(request: Request) -> Response:
        def listing() -> list[dict[str, Any]]:
            return store.listing() + run_records.listing()
        return JSONResponse({"records": await run_in_threadpool(listing)})

    async def upload(request: Request) -> Response:
        record = await json_body(request)

        def check_and_save() -> dict[str, Any]:
            spec, game = load_record(record)
            return {"id": store.save(record), "game": spec.name,
                    "steps": len(game.history)}
        return JSONResponse(await run_in_threadpool(check_and_save), status_code=201)

    async def get_record(request: Request) -> Response:
        return await download(request.path_params["id"])

    async def replay(request: Request) -> Response:
        record_id = request.path_params["id"]

        def at_step() -> dict[str, Any]:
            record = load_record_by_id(record_id)
            spec, final = load_record(record)
            steps = len(final.history)
            step = _whole(_int_param(request.query_params.get("step", "0"), "step"), "step",
                          0, steps)
            game = replay_to(record, step)
            view = game_view(spec, game, list(range(game.num_players)))
            return view | {"id": record_id, "steps": steps, "snapshot": game.snapshot()}
        return JSONResponse(await run_in_threadpool(at_step))

    async def list_runs(request: Request) -> Response:
        return JSONResponse({"runs": await run_in_threadpool(run_folders.listing)})

    async def run_details(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(run_folders.details,
                                                    request.path_params["id"]))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        sessions.close()  # Ctrl-C: what is worth saving is saved (finished games already are)

    routes = [
        Route("/", page),
        Route("/api/catalog", refusals(catalog)),
        Route("/api/opponents", refusals(list_opponents)),
        Route("/api/games", refusals(new_game), methods=["POST"]),
        Route("/api/games/{id}", refusals(show_game)),
        Route("/api/games/{id}/actions", refusals(act), methods=["POST"]),
        Route("/api/games/{id}/step", refusals(step), methods=["POST"]),
        Route("/api/games/{id}/record", refusals(game_record)),
        Route("/api/records", refusals(list_records)),
        Route("/api/records", refusals(upload), methods=["POST"]),
        Route("/api/records/{id}", refusals(get_record)),
        Route("/api/records/{id}/replay", refusals(replay)),
        Route("/api/runs", refusals(list_runs)),
        Route("/api/runs/{id}", refusals(run_details)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.sessions = sessions
    app.state.records = store
    app.state.run_records = run_records
    return Guard(app, host, port, token)


def _whole(value: Any, name: str, low: int, high: int) -> int:
    """``value`` if it is a whole number ``low``–``high`` (not a bool), else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number {low}–{high}, got {value!r}")
    return value


def _int_param(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {text!r}") from None


def _seat_param(text: str) -> int:
    return _int_param(text, "seat")


def _options(spec: Any, given: Any) -> dict[str, Any]:
    """The table options of a request, by name: JSON values as they are, text parsed as
    the command line parses it (``Option.parse``); the game checks them when it starts."""
    if not isinstance(given, dict):
        raise ValueError("options must be a JSON object of option names and values")
    known = {option.name: option for option in spec.options}
    options = {}
    for name, value in given.items():
        if name not in known:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"{spec.title} takes no option {name!r} (its options: {allowed})")
        if value is None or value == "":
            continue
        options[name] = known[name].parse(value) if isinstance(value, str) else value
    return options
