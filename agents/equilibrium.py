"""The equilibrium player: plays the exact subgame-perfect equilibrium at 2–4-player tables.

At each decision it takes the action that maximises its own win probability when everyone
plays the equilibrium from there on (``pagadores_env.pagadores.solver.solve``; ties stop). At two
players that is optimal play. The solution of the table it is seated at is solved on first
use, or read from the solver's cache: seconds at 2 players, about 20 s at 3 players with 10
cards, minutes at 4 players with few cards (beyond the solver's limits it refuses the table
when seated, naming the limit).

The observation does not say which seat the player is in (its slots are relative, R1.2);
only R6.2's "youngest player left insteeks" tells seats apart, and only at 4 or more
players, so there give its seat: ``equilibrium:seat=2`` (a seat of the table it is seated at,
checked there). Whoever seats it in several seats tells it each one instead: the exact
evaluators pass each seat's number, and the Monte-Carlo evaluators, which rotate every agent
through every seat, ask ``for_seat`` for its copy at each seat. A player given a fixed seat
refuses every other seat, so a rotation refuses it in one line.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import register_policy
from pagadores_env.pagadores.observation import decode
from pagadores_env.pagadores.rules import MAX_CARDS, check_table
from pagadores_env.pagadores.solver import Solution, SweepPolicy, solve, symmetric

from .seats import SeatCopies


class EquilibriumPolicy(SeatCopies):
    """The equilibrium at any table the solver covers; ``seat`` is needed at 4+ players."""

    name = "equilibrium"
    #: it answers from the tables of each position it solves (one search a position), so
    #: its rows are lookups (``pagadores.policies.DeclaresPositionAnswers``)
    position_answers = True

    def __init__(self, seat: int | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        # the seats a table has are checked when it is seated at one (check_table, for_seat)
        self.seat = None if seat is None else check_int("seat", seat, 0)
        #: The solved tables by size, shared with this player's seat copies (``for_seat``).
        self.solutions: dict[int, Solution] = {}
        self.players: dict[int, SweepPolicy] = {}
        self._copies: dict[int, EquilibriumPolicy] = {}

    def fingerprint(self) -> str:
        """Its play is the solver's, from the code alone (``solver.results_cache``)."""
        return ""

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """Solve (or load) the table's equilibrium; ``ValueError`` if it is beyond the
        solver's limits or needs a seat this player was not given."""
        n, start = check_table(num_players, cards)
        self.check_size(n)
        if self.seat is None and not symmetric(n, start):  # before any solve
            raise ValueError(f"{self.name!r} at {n} players with cards {list(start)} needs its "
                             f"seat (the observation does not say it, and R6.2 does): give "
                             f"seat=0…{n - 1}, e.g. 'equilibrium:seat=1'")
        known = self.solutions.get(n)
        if known is None or any(c > most for c, most in zip(start, known.start_cards,
                                                             strict=True)):
            known = self.solutions[n] = solve(n, start)
        self.players[n] = known.policy(self.seat)
        self.players[n].check_table(n, start)

    def copy_for(self, seat: int, num_players: int) -> EquilibriumPolicy:
        """This player told ``seat``, sharing the solved tables (``SeatCopies``)."""
        copy = EquilibriumPolicy(seat)
        copy.solutions = self.solutions
        return copy

    def check_size(self, num_players: int) -> None:
        """``ValueError`` if this player was given a seat the table does not have."""
        if self.seat is not None and self.seat >= num_players:
            raise ValueError(f"{self.name}: seat must be 0–{num_players - 1} at "
                             f"{num_players} players, got {self.seat}")

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The equilibrium action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, 2)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The equilibrium actions at rows of observations of one table size (solving a
        table it was not seated at with ``MAX_CARDS`` cards on first use)."""
        rows = np.asarray(obs).reshape(len(mask), -1)
        sizes = np.unique(decode(rows).players)
        if len(sizes) != 1:
            raise ValueError(f"rows of one table size at a time, got sizes {sizes.tolist()}")
        n = int(sizes[0])
        if n not in self.players:
            self.check_table(n, MAX_CARDS)
        return self.players[n].act_batch(rows, mask)


register_policy("equilibrium", EquilibriumPolicy)
