"""Players that must know their seat: the observation does not say which seat its observer is
(slots are relative, R1.2), and at 4 or more players R6.2's "youngest player left insteeks"
tells seats apart. Such a player takes ``seat=``, or whoever seats it in several seats (the
evaluators' rotation) asks ``for_seat`` for its copy at each seat (``core.policies``'
``SupportsForSeat``). A player given a seat refuses every other seat in one line."""

from __future__ import annotations

from typing import Any

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import BasePolicy
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS


class SeatCopies(BasePolicy):
    """``for_seat`` for a player with a ``seat`` (None: any) and copies per seat made by
    ``copy_for`` (sharing what the player has computed), checked by ``check_size`` first."""

    seat: int | None
    _copies: dict[int, Any]

    def check_size(self, num_players: int) -> None:
        """``ValueError`` if this player cannot sit at a table of ``num_players``."""

    def copy_for(self, seat: int, num_players: int) -> Any:
        """This player's copy told ``seat`` (made once per seat)."""
        raise NotImplementedError

    def for_seat(self, seat: int, num_players: int) -> Any:
        """This player at ``seat`` of a ``num_players`` table: its copy for that seat, or this
        player itself if it was given that seat; ``ValueError`` if it was given another."""
        n = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        seat = check_int("seat", seat, 0, n - 1)
        self.check_size(n)
        if self.seat is not None:
            if self.seat != seat:
                raise ValueError(f"'{self.name}:seat={self.seat}' plays seat {self.seat} only, "
                                 f"but here it takes every seat 0–{n - 1} in turn (seats "
                                 f"rotate): leave out seat=, and each seat's copy is told its "
                                 f"seat")
            return self
        if seat not in self._copies:
            self._copies[seat] = self.copy_for(seat, n)
        return self._copies[seat]
