"""OpenSpiel's MCTS bot as a player here (spec ``"openspiel-mcts:simulations=200"``; extra
``openspiel``): for ``play``, ``evaluate`` and tournaments, against any agent of this package.

It acts from the observation alone, like every player: the observation is sufficient (R7.1),
so ``observation.game_at`` rebuilds the engine's game at the decision, and the bot searches
``python_pagadores`` (``pagadores_env.integrations.openspiel``) from there with
``simulations`` simulations per decision, each leaf valued by ``rollouts`` random playouts to
the game's end, UCT constant ``uct_c``. Chance nodes are sampled by their probabilities (R7.2).
It randomises through its seeded generator and states no action probabilities, so the exact
passes (which would ask it about some 10⁷ rows) refuse it: Monte Carlo only.

Seats: the observation does not say which seat it is in, and at 4+ players R6.2 tells seats
apart, so a game rebuilt in the wrong seat could play on differently: give ``seat=``, or let
the evaluators' rotation give each seat its copy (``for_seat``). At 2–3 players any seat
plays alike.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import register_policy
from pagadores_env.pagadores.observation import decode, game_at
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS

from .search.value_net import SEATS_TOLD_APART
from .seats import SeatCopies

#: Simulations per decision by default.
SIMULATIONS = 100


@cache
def _game(players: int) -> Any:
    """``python_pagadores`` at ``players`` seats (its ``cards`` only sets the start and the
    length cap; a rebuilt game brings its own cards)."""
    import pyspiel

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers the game)

    return pyspiel.load_game("python_pagadores", {"players": players, "cards": MAX_CARDS})


class OpenSpielMCTS(SeatCopies):
    """OpenSpiel's ``MCTSBot`` deciding from observations (see the module docstring)."""

    name = "openspiel-mcts"
    monte_carlo_only = True

    def __init__(self, simulations: int = SIMULATIONS, rollouts: int = 1, uct_c: float = 2.0,
                 seat: int | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.simulations = check_int("simulations", simulations, 1)
        self.rollouts = check_int("rollouts", rollouts, 1)
        if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not uct_c > 0:
            raise ValueError(f"openspiel-mcts: uct_c must be a number above 0, got {uct_c!r}")
        self.uct_c = float(uct_c)
        self.seat = None if seat is None else check_int("seat", seat, 0, MAX_PLAYERS - 1)
        self._copies: dict[int, OpenSpielMCTS] = {}
        self._bots: dict[int, Any] = {}

    def copy_for(self, seat: int, num_players: int) -> OpenSpielMCTS:
        """This player told ``seat``, drawing from its own generator's next seed."""
        return OpenSpielMCTS(self.simulations, self.rollouts, self.uct_c, seat,
                             int(self.rng.integers(2**63)))

    def _bot(self, players: int) -> Any:
        if players not in self._bots:
            from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

            state = np.random.RandomState(int(self.rng.integers(2**31)))
            self._bots[players] = MCTSBot(
                _game(players), self.uct_c, self.simulations,
                RandomRolloutEvaluator(self.rollouts, state), solve=False, random_state=state)
        return self._bots[players]

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The bot's action at one observation; a single legal action is taken as is."""
        legal = np.flatnonzero(np.asarray(mask).reshape(2))
        if len(legal) == 1:
            return int(legal[0])
        n = int(decode(obs).players)
        if self.seat is None and n >= SEATS_TOLD_APART:
            raise ValueError(f"openspiel-mcts at {n} players needs its seat (R6.2): give "
                             f"seat=0…{n - 1}, or let the evaluators' rotation seat it")
        from pagadores_env.integrations.openspiel.pagadores import PagadoresState

        game = _game(n)
        state = PagadoresState(game, game_at(obs, 0 if self.seat is None else self.seat))
        return int(self._bot(n).step(state))

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``act`` row by row (each row one search)."""
        return np.array([self.act(o, m) for o, m in zip(obs, mask, strict=True)], np.int64)


register_policy("openspiel-mcts", OpenSpielMCTS)
