"""``pagadores serve``: the web page's server on uvicorn (``serve``), bound before the app is
made, so the URL it prints names the port actually bound (``--port 0`` picks a free one) and
the guard (``guard.Guard``) knows the Host and Origin to accept.

It binds to 127.0.0.1 unless told another host; then it warns in one line that the page is
open to that network and puts a random token into the URL, which every request must carry.
Ctrl-C stops it: finished games are saved as they finish, and the live ones worth saving are
saved as it stops (``sessions.Sessions.close``).
"""

from __future__ import annotations

import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from .app import create_app
from .guard import LOOPBACK, authority


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port); ``ValueError`` in one line
    when it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise ValueError(f"cannot listen on {authority(host, port)}: {err.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, runs: Path | None = None,
          records: Path = Path("records"), say: Callable[[str], None] = print) -> None:
    """Serve the page until Ctrl-C (module docstring)."""
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    token = None if host in LOOPBACK else secrets.token_urlsafe(24)
    app = create_app(host, bound, runs=runs, records=records, token=token)
    if token is not None:
        say(f"warning: serving on {host}, open to every machine that reaches it; the URL "
            f"carries a token every request must show, keep it private")
    url = f"http://{authority(host, bound)}/" + (f"?token={token}" if token else "")
    say(f"pagadores serve: {url}  (games saved into {records}; Ctrl-C stops)")
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


@contextmanager
def serving(records: Path, runs: Path | None = None, host: str = "127.0.0.1",
            limit: int = 32) -> Iterator[tuple[str, Any]]:
    """The server on a free port of ``host`` in a thread of this process, for the browser
    tests and ``make screenshot``: yields its URL and the Starlette app (whose ``state``
    holds the live games and the saved ones); stops it, as Ctrl-C would, on leaving."""
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    guard = create_app(host, port, runs=runs, records=records, limit=limit)
    server = uvicorn.Server(uvicorn.Config(guard, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{authority(host, port)}", guard.app
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
