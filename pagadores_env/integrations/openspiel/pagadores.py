"""Dados de Pagadores as an OpenSpiel Python game, ``python_pagadores``, so OpenSpiel's MCTS,
AlphaZero, PSRO, NFSP and evaluation tools run on it. Importing
``pagadores_env.integrations.openspiel`` registers it.

Parameters: ``players`` (2–6, default 2, R1.1) and ``cards`` (1–10 each, default 10).
The state wraps ``pagadores.engine.Game``, so every rule has one home; seat 0 insteeks the
first round (R3.1).

- **Perfect information, explicit chance.** A chance node is the throw of the player to act;
  its outcomes are the **56 unordered throws** (chance actions 0–55 in
  ``rules.CHANCE_OUTCOMES`` order; any other is refused with ``IllegalMoveError``) with their
  probabilities out of the 216 ordered ones (R7.2): the order of the dice never matters, and
  56 outcomes keep trees small.
- **Actions**: 0 stop, 1 throw again (R3.6), legal at the engine's decision nodes.
- **Returns**: 1 for the winner, 0 for everyone else (R1.5), so the game is constant-sum
  (the returns sum to 1) with utilities in [0, 1].
- **Observation tensor**: the environments' observation vector of that player
  (``pagadores.observation.encode``, every slot seen from that seat, R1.2), so a network
  trained on the envs reads OpenSpiel states unchanged. Observation string: the engine's
  state in words; information state string: the whole history (perfect recall).

**Game length.** OpenSpiel needs a bound on a game's actions, chance included; a kampen that
ends tied replays among the tied (R5.3), so a game has none in principle. Without those
replays a game is at most ``players * cards - 1`` rounds (each takes a card, R3.5, R4.4) of
at most 5 actions a turn (3 throws and 2 decisions, R3.2) plus one kampen throw each. A
replay needs two equal throws among at most ``players``, probability at most
``C(players, 2) * sum(p_s ** 2)`` = 0.034 for two players, 0.51 for six; so the replays of a
game are at most a negative binomial count, and ``max_game_length`` adds room for as many
replays as that count exceeds with probability at most ``CAP_RISK`` (1e-12). A game that does
reach the cap anyway ends there as a draw among the players still holding cards (each
returns ``1 / k``), so the returns still sum to 1.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ...core.checks import check_int
from ...pagadores.engine import Action, Game
from ...pagadores.observation import OBS_SIZE, encode
from ...pagadores.rules import (
    CHANCE_OUTCOMES,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_THROWS,
    STRENGTH_PROB,
)
from .common import CAP_RISK, Box, check_chance, game_type

SHORT_NAME = "python_pagadores"
DEFAULTS = {"players": 2, "cards": MAX_CARDS}
#: Actions of one round without kampen replays, per player: a turn's 3 throws and 2
#: decisions (R3.2, R3.6) and one kampen throw (R5.1).
ROUND_ACTIONS = MAX_THROWS + (MAX_THROWS - 1) + 1
ACTION_NAMES = {Action.STOP: "stop", Action.THROW: "throw again"}


def replay_chance(players: int) -> float:
    """A bound on the probability that a kampen pass ends tied and is replayed (R5.3): two of
    its at most ``players`` throws must be equal."""
    return min(1.0, math.comb(players, 2) * float(np.sum(STRENGTH_PROB ** 2)))


@cache
def replays_allowed(players: int, cards: int) -> int:
    """The fewest kampen replays ``R`` with P(a game has more than ``R``) at most
    ``CAP_RISK``: each of the at most ``players * cards - 1`` rounds replays a geometric
    number of times with ratio at most ``replay_chance``, so the game's replays are at most a
    negative binomial count, whose tail is summed here."""
    rounds, rho = players * cards - 1, replay_chance(players)

    def log_term(t: int) -> float:  # log P(exactly t replays) of the bounding count
        return (math.lgamma(t + rounds) - math.lgamma(t + 1) - math.lgamma(rounds)
                + t * math.log(rho) + rounds * math.log1p(-rho))

    allowed = 0
    while cap_tail(allowed + 1, log_term) > CAP_RISK:
        allowed += 1
    return allowed


def cap_tail(first: int, log_term: Any) -> float:
    """``sum(exp(log_term(t)) for t >= first)``, summed until the terms stop mattering."""
    total, t = 0.0, first
    while True:
        term = math.exp(log_term(t))
        total += term
        if t > first + 10 and term < 1e-18 * max(total, 1e-300):
            return total
        t += 1


def max_game_length(players: int, cards: int) -> int:
    """The cap on a game's actions, chance included (module docstring)."""
    rounds = players * cards - 1
    return rounds * players * ROUND_ACTIONS + replays_allowed(players, cards) * players


class PagadoresGame(pyspiel.Game):
    """``python_pagadores`` (module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        players = check_int("players", given["players"], 2, MAX_PLAYERS)  # R1.1
        cards = check_int("cards", given["cards"], 1, MAX_CARDS)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(Action),
            max_chance_outcomes=len(CHANCE_OUTCOMES),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(players, cards))
        super().__init__(_pagadores_type(), info, {"players": players, "cards": cards})
        self.players, self.cards = players, cards

    def new_initial_state(self) -> PagadoresState:
        """The start: seat 0 is about to throw (R3.1)."""
        return PagadoresState(self, Game(self.players, self.cards))

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PagadoresObserver:
        """The observer of information states (the history) or observations (the vector)."""
        return PagadoresObserver(iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


class PagadoresState(pyspiel.State):
    """A Pagadores state: the engine's game, and whether the length cap ended it."""

    def __init__(self, game: PagadoresGame, engine: Game) -> None:
        super().__init__(game)
        self._box = Box(engine)
        self._cap = game.max_game_length()
        self.capped = False  # ended at the cap as a draw (module docstring)

    @property
    def engine(self) -> Game:
        """The engine's game at this state."""
        return self._box.game

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return self.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in self.engine.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The 56 unordered throws as actions 0–55, with their probabilities (R7.2)."""
        return [(i, p) for i, (_, p) in enumerate(CHANCE_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self.engine.is_chance_node():
            self.engine.apply_throw(CHANCE_OUTCOMES[check_chance(action, len(CHANCE_OUTCOMES))][0])
        else:
            self.engine.apply_action(action)
        self.capped = not self.engine.is_terminal() and len(self.engine.history) >= self._cap

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"throw {CHANCE_OUTCOMES[action][0]}"
        return ACTION_NAMES[Action(action)]

    def is_terminal(self) -> bool:
        """True once one player holds cards (R1.5), or at the length cap."""
        return self.engine.is_terminal() or self.capped

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others; at the cap ``1 / k`` for each of the ``k``
        players still holding cards; zeros before the end."""
        if self.capped:
            alive = self.engine.alive()
            return [1.0 / len(alive) if s in alive else 0.0
                    for s in range(self.engine.num_players)]
        return [max(r, 0.0) for r in self.engine.returns()]

    def __str__(self) -> str:
        return " ".join(map(str, self.engine.history))


class PagadoresObserver:
    """OpenSpiel's observer protocol: with perfect recall the history as the string and no
    tensor, else the observation vector of the player (module docstring)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the Pagadores observer takes no parameters, got {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        size = 0 if self.perfect_recall else OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: PagadoresState, player: int) -> None:
        """The observation vector of ``player`` (nothing for perfect recall)."""
        if not self.perfect_recall:
            self.tensor[:] = encode(state.engine, player)

    def string_from(self, state: PagadoresState, player: int) -> str:
        """The history (perfect recall), or the state as the engine prints it."""
        return str(state) if self.perfect_recall else repr(state.engine)


def _pagadores_type() -> pyspiel.GameType:
    return game_type(SHORT_NAME, "Python Dados de Pagadores",
                     pyspiel.GameType.Information.PERFECT_INFORMATION,
                     pyspiel.GameType.Utility.CONSTANT_SUM, MAX_PLAYERS, DEFAULTS)


pyspiel.register_game(_pagadores_type(), PagadoresGame)

__all__ = ["PagadoresGame", "PagadoresObserver", "PagadoresState", "max_game_length"]
