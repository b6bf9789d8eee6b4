"""The server's guard, one ASGI middleware in front of every route (Starlette has no body
limit of its own).

- **Token.** A server exposed beyond this machine (``--host``) has a random token: every
  request carries it, as ``?token=`` (the printed URL; the answer sets it as a cookie, so the
  page's own requests carry it from then on) or as that cookie. Without it: 403.
- **Host.** The ``Host`` header must be the bound host and port (or ``localhost`` with the
  port, for a loopback server): another name is a DNS rebinding attack, refused with 421. A
  server bound to every address (``0.0.0.0``, ``::``) cannot know the names it is reached by:
  there the token keeps a rebound name out (its cookie belongs to the name the URL used).
- **Origin and type.** A request that changes state (any method but GET and HEAD) must say
  ``Content-Type: application/json`` and come from the page's own ``Origin`` (the bound
  host's, or on every address the one the ``Host`` header names): else 403, so
  another site the user visits cannot play, upload or start games for them. The server sends
  no CORS headers at all, so browsers keep other origins from reading its answers.
- **Size.** A body over ``max_body`` bytes is refused with 413, by its ``Content-Length`` or,
  without one, as it streams in.
- **Headers.** Every answer has a Content-Security-Policy (scripts, styles and requests to this
  origin only, no inline script, no framing), ``nosniff``, no referrer (the token must not
  leak through one), and API answers are not cached.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The page's policy: everything from this origin only, no inline script, no plugins, no frames.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
#: The cookie that carries the token after the first request.
COOKIE = "pagadores_token"
#: The default body limit: a long saved game is tens of kilobytes.
MAX_BODY = 1 << 20
LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: Hosts that bind every address of the machine.
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def authority(host: str, port: int) -> str:
    """``host:port`` as a Host header and an origin write it (IPv6 in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class Guard:
    """The middleware (module docstring) around ``app``, for a server bound to ``host`` and
    ``port``, with ``token`` (None: no token, a loopback server)."""

    def __init__(self, app: ASGIApp, host: str, port: int, token: str | None = None,
                 max_body: int = MAX_BODY) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body
        names = [host] + (["localhost", "127.0.0.1"] if host in LOOPBACK else [])
        #: the Host headers accepted; None: any (bound to every address, token required)
        self.hosts = None if host in EVERY_ADDRESS else {authority(n, port) for n in names}
        if self.hosts is None and token is None:
            raise ValueError("a server on every address needs a token")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request (``_refusal``) or pass it on with its body read whole and the
        guard's headers added to the answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        refused = self._refusal(scope, headers, query)
        api = scope["path"].startswith("/api/")
        if refused is not None:
            await _answer(send, refused[0], refused[1])
            return
        extra = list(HEADERS) + ([(b"cache-control", b"no-store")] if api else [])
        if self.token is not None and query.get("token"):
            extra.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; "
                                         f"SameSite=Strict".encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        body, complete = await _read_body(receive, self.max_body)
        if not complete:
            await _answer(send, 413, f"the body is over {self.max_body} bytes")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:  # the app reads on only to see a disconnect
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str], query: dict[str, list[str]]
                 ) -> tuple[int, str] | None:
        """The status and one-line reason a request is refused for, or None."""
        if self.token is not None:
            given = query.get("token", [None])[0] or _cookie(headers.get("cookie", ""))
            if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
                return 403, "this server needs its token: open the URL it printed"
        host = headers.get("host")
        if self.hosts is not None and host not in self.hosts:
            return 421, (f"Host {host!r} is not this server's "
                         f"({', '.join(sorted(self.hosts))})")
        if scope["method"] not in ("GET", "HEAD"):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return 403, "a request that changes anything must be Content-Type " \
                            "application/json"
            origins = {f"http://{name}" for name in (self.hosts or {host})}
            if headers.get("origin") not in origins:
                return 403, (f"Origin {headers.get('origin')!r} may not change anything here "
                             f"(only the page itself: {', '.join(sorted(origins))})")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, f"the body is over {self.max_body} bytes"
        return None


def _cookie(text: str) -> str | None:
    cookie: SimpleCookie = SimpleCookie()
    try:
        cookie.load(text)
    except Exception:  # a malformed Cookie header carries no token
        return None
    return cookie[COOKIE].value if COOKIE in cookie else None


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The request's whole body, read before the app sees it, and whether it is within
    ``limit`` bytes (reading stops as soon as it is not)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), True
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", False
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True


async def _answer(send: Send, status: int, reason: str) -> None:
    """A JSON refusal ``{"error": reason}`` with the guard's headers."""
    body = json.dumps({"error": reason}).encode()
    headers: Iterable[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"), *HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": list(headers)})
    await send({"type": "http.response.body", "body": body})
