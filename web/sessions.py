"""The live games of the server: each a ``Session`` (one game on the engine, its seated players,
its dice), held by ``Sessions`` under an unguessable id (``secrets.token_urlsafe``), at most
``limit`` at a time.

A session is **play** (a person at ``human``, agents in the other seats) or **watch**
(``human`` is None: agents in every seat). Either way an agent's decision is taken only when
the page asks for it (``step``: one decision, then the dice up to the next one), so the page
sets the pace: it shows every move as it happens, and in watch mode it plays, pauses and
steps. The person's action (``act``) is checked against the legal actions before anything is
applied: a refused one changes nothing. The dice come from the session's own generator
through the game's ``GameSpec.advance``.

A finished game is saved at once (``Records``, atomically), so stopping the server loses none.
Games idle for ``idle_seconds`` are dropped, and when ``limit`` games are live the least
recently used makes room; a dropped game is saved first unless it is unfinished and hides
dice (its record would show them, and nobody can go on with it).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pagadores_env.core.games import GameSpec
from pagadores_env.core.opponents import reseed_opponents
from pagadores_env.core.policies import (
    Policy,
    SupportsForSeat,
    check_tables,
    make_policy,
)
from pagadores_env.core.views import game_view

from .catalog import Records


class Refused(ValueError):
    """A request the game's state does not allow now (not your turn, the game is over): 409."""


class Forbidden(ValueError):
    """A seat's view that this session does not show (another seat of a play game): 403."""


@dataclass
class Session:
    """One live game (module docstring): ``players`` by seat (every seat but ``human``)."""

    id: str
    spec: GameSpec
    game: Any
    players: dict[int, Policy]
    labels: list[str]
    human: int | None
    rng: np.random.Generator
    saved: Callable[[dict[str, Any]], str]
    record_id: str | None = None
    touched: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def mode(self) -> str:
        """``"play"`` or ``"watch"``."""
        return "watch" if self.human is None else "play"

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The game as ``seat`` sees it: in a play game only the person's seat (the default),
        in a watch game any seat or, by default, a spectator's view. ``Forbidden`` for another
        seat of a play game, ``ValueError`` for a seat the table has not."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(self.labels)):
            raise ValueError(f"seat must be 0–{len(self.labels) - 1}, got {seat!r}")
        if self.human is not None:
            if seat not in (None, self.human):
                raise Forbidden(f"this game shows seat {self.human} only (yours)")
            seat = self.human
        view = game_view(self.spec, self.game, [] if seat is None else [seat])
        return view | {"id": self.id, "mode": self.mode, "seat": seat, "human": self.human,
                       "labels": self.labels, "record": self.record_id,
                       "agent_to_act": view["to_act"] >= 0 and view["to_act"] != self.human}

    def act(self, action: Any) -> None:
        """The person's ``action``, if it is theirs to take and legal; else ``Refused`` or
        ``ValueError`` in one line, and nothing changes."""
        if self.human is None:
            raise Refused("this is a watch game: nobody plays in it from the page")
        self._check_open()
        if self.game.current_player != self.human:
            raise Refused(f"it is seat {self.game.current_player}'s turn, not yours "
                          f"(seat {self.human})")
        legal = [int(a) for a in self.game.legal_actions()]
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise ValueError(f"action must be one of the legal actions {legal}, got {action!r}")
        self._apply(action)

    def step(self) -> None:
        """One agent's decision, then the dice up to the next decision (``Refused`` when it is
        the person's turn or the game is over)."""
        self._check_open()
        seat = self.game.current_player
        if seat == self.human:
            raise Refused("it is your turn: an agent does not move for you")
        action = self.players[seat].act(self.spec.encode(self.game, seat),
                                        self.spec.legal_mask(self.game))
        self._apply(int(action))

    def _check_open(self) -> None:
        if self.game.is_terminal():
            raise Refused("the game is over")

    def _apply(self, action: int) -> None:
        self.game.apply_action(action)
        self.spec.advance(self.game, self.rng)
        if self.game.is_terminal():
            self.record_id = self.saved(self.game.to_dict())
        self.touched = time.monotonic()

    def worth_saving(self) -> bool:
        """Whether a dropped game is saved (module docstring)."""
        return self.record_id is None and (self.game.is_terminal() or not self.spec.hidden)


def seat_players(spec: GameSpec, num_players: int, human: int | None,
                 entries: Sequence[tuple[str, str]], table: Any, seed: int
                 ) -> tuple[dict[int, Policy], list[str]]:
    """The agents of every seat but ``human`` from ``entries`` (``(spec, label)``: one per
    agent seat in seat order, or one for all of them; the specs are the server's own), each
    asked whether it plays this table and told its seat where it must know it
    (``SupportsForSeat``), reseeded from ``seed``; and every seat's label."""
    seats = [s for s in range(num_players) if s != human]
    if len(entries) not in (1, len(seats)):
        raise ValueError(f"opponents must be one for every agent seat ({len(seats)}) or one "
                         f"for all of them, got {len(entries)}")
    chosen = list(entries) * len(seats) if len(entries) == 1 else list(entries)
    made = [make_policy(text, game=spec.name) for text, _ in chosen]
    check_tables(made, num_players, table)
    reseed_opponents(made, seed)
    players = {seat: policy.for_seat(seat, num_players)
               if isinstance(policy, SupportsForSeat) else policy
               for seat, policy in zip(seats, made, strict=True)}
    labels = ["you" if s == human else chosen[seats.index(s)][1] for s in range(num_players)]
    return players, labels


class Sessions:
    """The live games by id (module docstring)."""

    def __init__(self, records: Records, limit: int = 32, idle_seconds: float = 3600.0
                 ) -> None:
        self.records = records
        self.limit = limit
        self.idle_seconds = idle_seconds
        self._live: dict[str, Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._live)

    def start(self, spec: GameSpec, num_players: int, options: dict[str, Any],
              human: int | None, entries: Sequence[tuple[str, str]], seed: int | None
              ) -> Session:
        """A new game of ``spec`` (``options`` by name, checked by the game), its agents
        seated (``seat_players``), its dice thrown up to the first decision."""
        if seed is None:
            seed = secrets.randbits(32)
        game = spec.start(num_players, **options)
        table = next(iter(spec.table_options(**options).values()))
        players, labels = seat_players(spec, num_players, human, entries, table, seed)
        session = Session(secrets.token_urlsafe(16), spec, game, players, labels, human,
                          np.random.default_rng(seed), self.records.save)
        spec.advance(game, session.rng)
        with self._lock:
            self._make_room()
            self._live[session.id] = session
        return session

    def get(self, session_id: str) -> Session:
        """The live game ``session_id``, else ``KeyError`` in one line."""
        with self._lock:
            self._drop_idle()
            session = self._live.get(session_id) if isinstance(session_id, str) else None
        if session is None:
            raise KeyError(f"no live game {session_id!r} (it ended long ago or was never "
                           f"started); finished games are listed at /api/records")
        session.touched = time.monotonic()
        return session

    def _drop(self, session: Session) -> None:
        del self._live[session.id]
        with session.lock:
            if session.worth_saving():
                session.record_id = self.records.save(session.game.to_dict())

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for session in [s for s in self._live.values()
                        if now - s.touched > self.idle_seconds]:
            self._drop(session)

    def _make_room(self) -> None:
        self._drop_idle()
        while len(self._live) >= self.limit:
            self._drop(min(self._live.values(), key=lambda s: s.touched))

    def close(self) -> None:
        """Save what is worth saving of every live game and drop them all (the server
        stops)."""
        with self._lock:
            for session in list(self._live.values()):
                self._drop(session)
