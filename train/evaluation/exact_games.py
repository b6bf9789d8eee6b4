"""The exact numbers of the games without a compiled kernel, one entry per game whose exact
yardstick covers some of its tables (``YARDSTICKS``): what a run's evaluation adds to its
Monte-Carlo games (``eval.exact``; ``pagadores_train.run.model_eval``), and the exact best
response a learner may train against (``env.best_response``;
``pagadores_train.learners.best_response``). Pagadores' exact numbers come from its solver
(``evaluation.yardstick``), on its own path.

- **Perudo** (``pagadores_env.perudo.exact``): at 2 players with 1 die each, the player's
  exploitability as it samples (``perudo.exact_measures``); the exact best response to a
  policy in both seats, in well under a second.
- **Paye's dobbelspel**, base game (``pagadores_env.paye.exact``, Y8.1): at 2 players the
  player's exploitability as it acts (what the games play; as it samples in the note) and
  its exact share of the win against each opponent, averaged over who moves first; at 3 and
  4 players its NashConv, the player in every seat. A 4-player pass takes minutes (6 for a
  64×64 network on this project's 2-core machine, with 3.1 GB at its peak), so there it is
  measured at the final evaluation only (``FINAL_ONLY_PLAYERS``). The exact best response at 2
  players, a table player that plays either seat, in well under a second.
- **Pasch** (``pagadores_env.pasch.exact``, X9.2): at 2 and 3 players the player's
  last-round NashConv averaged over the last rounds of 1,000 ``greedy`` games
  (``evaluation.pasch``), beside ``greedy``'s own. The exact best response at 2 players
  covers the last round only (``evaluation.pasch.last_round_response``: in the last rounds
  a learner's late starts begin at, ``greedy`` elsewhere); it takes seconds, so a learner's
  is recomputed every ``RESPONSE_EVERY`` steps, and its exploitability is not measured then
  (NaN).

A player is measured as it acts (``evaluate.Acting``) where the number describes what the
evaluation's games play, and as it samples where the yardstick's meaning needs the mixture
(Perudo's 1-die game has no pure equilibrium).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pagadores_env.core.games import game_spec
from pagadores_env.core.policies import BasePolicy, Policy
from pagadores_env.paye import exact as paye_exact
from pagadores_env.paye.policies import SupportsActionProbabilities as PayeProbabilities
from pagadores_env.perudo import exact as perudo_exact

from .evaluate import Acting
from .pasch import (
    GAMES,
    PLAYER,
    RESPONSE_EVERY,
    SEED,
    last_round_nash_conv,
    last_round_response,
    scripted_nash_conv,
)
from .perudo import exact_measures
from .yardstick import decimals


@dataclass(frozen=True)
class ExactNumbers:
    """What an evaluation measured exactly: the player's ``exploitability`` (2 players) and
    ``nash_conv`` (its column in ``eval.csv``; Pasch's is its last-round NashConv), its exact
    ``win`` against each opponent spec, a ``note`` (one line of the final table: what was
    measured, or why nothing was) and a ``legend`` (lines saying what the numbers mean)."""

    exploitability: float | None = None
    nash_conv: float | None = None
    win: Mapping[str, float] = field(default_factory=dict)
    note: str = ""
    legend: tuple[str, ...] = ()


#: ``(player, num_players, options by name, opponents, final)`` → the numbers.
Measure = Callable[[Policy, int, dict[str, Any], Sequence[str], bool], ExactNumbers]


@dataclass(frozen=True)
class ExactResponse:
    """A game's exact best response: at the table ``needs`` (``num_players`` and table
    options by name) ``respond(policy, options)`` returns the policy's exploitability and a
    policy playing the best response to it in any seat."""

    needs: Mapping[str, Any]
    respond: Callable[[Policy, dict[str, Any]], tuple[float, Policy]]
    #: training steps between recomputations, 0 for before every rollout: a response that
    #: takes seconds is recomputed at the first rollout from each multiple of ``every`` on
    every: int = 0

    def missing(self, num_players: int, options: Mapping[str, Any]) -> str:
        """"" at the table it covers, else what it needs against what is given (``num_players
        2 with dice 1, got num_players 3 with dice 1``)."""
        given = {"num_players": num_players, **options}
        if all(given.get(key) == value for key, value in self.needs.items()):
            return ""
        return (" with ".join(f"{key} {value}" for key, value in self.needs.items()) + ", got "
                + " with ".join(f"{key} {given.get(key)}" for key in self.needs))


@dataclass(frozen=True)
class GameYardstick:
    """One game's exact numbers at evaluation, and its exact best response if it has one."""

    measure: Measure
    response: ExactResponse | None = None


# --------------------------------------------------------------------------- Perudo
def _perudo(player: Policy, num_players: int, options: dict[str, Any],
            opponents: Sequence[str], final: bool) -> ExactNumbers:
    exploited, note = exact_measures(player, num_players, options["dice"])
    return ExactNumbers(exploitability=exploited, note=note)


class _StrategyPlayer(BasePolicy):
    """A pure strategy's action in either seat: Perudo's best response
    (``perudo.exact.StrategyPolicy`` states probabilities, all on one action)."""

    name = "best-response"

    def __init__(self, strategy: perudo_exact.StrategyPolicy) -> None:
        super().__init__()
        self.strategy = strategy

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The strategy's actions at rows of observations."""
        return np.asarray(self.strategy.action_probabilities(
            np.atleast_2d(obs), np.atleast_2d(mask)).argmax(axis=1), dtype=np.int64)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The strategy's action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])


def _perudo_response(policy: Policy, options: dict[str, Any]) -> tuple[float, Policy]:
    exploitability, best = perudo_exact.best_responses(policy)
    return exploitability, _StrategyPlayer(perudo_exact.StrategyPolicy(best))


# --------------------------------------------------------------------------- Paye
#: Tables whose NashConv pass takes minutes: measured at the final evaluation only.
FINAL_ONLY_PLAYERS = 4


def _paye_table(options: dict[str, Any]) -> dict[str, Any]:
    return {"dice": options["faces"], "rounds": options["rounds"]}


def _paye(player: Policy, num_players: int, options: dict[str, Any],
          opponents: Sequence[str], final: bool) -> ExactNumbers:
    if options["variant"] != "base" or not (
            paye_exact.MIN_EXACT <= num_players <= paye_exact.MAX_EXACT):
        return ExactNumbers(note=(
            f"exact: not covered: Paye's exact yardstick measures players in the base game at "
            f"{paye_exact.MIN_EXACT}–{paye_exact.MAX_EXACT} players (Y8.1); Monte Carlo only"))
    table, acting = _paye_table(options), Acting(player)
    if num_players >= FINAL_ONLY_PLAYERS and not final:
        return ExactNumbers(note=f"exact: skipped: the NashConv pass at {num_players} players "
                                 "takes minutes; measured at the final evaluation")
    if num_players > 2:
        found = paye_exact.nash_conv(acting, num_players, **table).total
        return ExactNumbers(nash_conv=found, legend=(
            f"NashConv of the trained policy in every seat: {decimals(found)} (exact, Y8.1; "
            "0 = an equilibrium)",))
    exploited = paye_exact.exploitability(acting, **table)
    wins = {o: paye_exact.exact_evaluate([acting, o], 2, **table)[0] for o in opponents}
    sampled = (f"; as it samples: {decimals(paye_exact.exploitability(player, **table))}"
               if isinstance(player, PayeProbabilities) else "")
    return ExactNumbers(exploitability=exploited, nash_conv=2 * exploited, win=wins, legend=(
        f"exploitability of the trained policy: {decimals(exploited)} (exact, Y8.1; 0 = optimal "
        f"play){sampled}",
        "exact win: its exact share of the win against that opponent, averaged over who moves "
        "first (a first place shared by k counts 1/k, Y4.4)"))


def _paye_response(policy: Policy, options: dict[str, Any]) -> tuple[float, Policy]:
    found = paye_exact.best_response(policy, 0, 2, keep_policy=True, **_paye_table(options))
    return found.value - 0.5, found.policy()


# --------------------------------------------------------------------------- Pasch
def _pasch(player: Policy, num_players: int, options: dict[str, Any],
           opponents: Sequence[str], final: bool) -> ExactNumbers:
    try:
        found = last_round_nash_conv(player, num_players, options=options)
    except ValueError as err:
        return ExactNumbers(note=f"exact: not covered: {err}; Monte Carlo only")
    reference = scripted_nash_conv(PLAYER, num_players, options=options)
    return ExactNumbers(nash_conv=found.mean, legend=(
        f"last-round NashConv of the trained policy in every seat: {decimals(found.mean)} "
        f"({PLAYER}'s: {decimals(reference)}; exact, X9.2; mean over the last rounds of "
        f"{GAMES:,} {PLAYER}-against-{PLAYER} games, seed {SEED}, {found.distinct} of them "
        "different; 0 = an equilibrium)",))


def _pasch_response(policy: Policy, options: dict[str, Any]) -> tuple[float, Policy]:
    return float("nan"), last_round_response(Acting(policy), options)


#: The games whose exact yardstick covers some table, by name (module docstring).
YARDSTICKS: dict[str, GameYardstick] = {
    "perudo": GameYardstick(_perudo, ExactResponse({"num_players": perudo_exact.PLAYERS,
                                                    "dice": perudo_exact.DICE},
                                                   _perudo_response)),
    "paye": GameYardstick(_paye, ExactResponse({"num_players": 2, "variant": "base"},
                                               _paye_response)),
    "pasch": GameYardstick(_pasch, ExactResponse({"num_players": 2}, _pasch_response,
                                                 RESPONSE_EVERY)),
}


def exact_numbers(game: str, player: Policy, num_players: int, options: Mapping[str, Any],
                  opponents: Sequence[str], final: bool) -> ExactNumbers:
    """``game``'s exact numbers of ``player`` at this table (``options`` by name, the
    game's defaults filled in here), or a note saying the game has none."""
    spec = game_spec(game)
    yardstick = YARDSTICKS.get(game)
    if yardstick is None:
        return ExactNumbers(note=f"exact: not covered: {spec.title} has no exact yardstick; "
                                 "Monte Carlo only")
    given = {o.name: options.get(o.name, o.default) for o in spec.options}
    return yardstick.measure(player, num_players, given, opponents, final)


def exact_response(game: str) -> ExactResponse | None:
    """``game``'s exact best response, if it has one."""
    yardstick = YARDSTICKS.get(game)
    return None if yardstick is None else yardstick.response


def responding_games() -> str:
    """The games with an exact best response and the tables they cover, for messages."""
    return "; ".join(f"{game_spec(g).title}: " + " with ".join(
        f"{k} {v}" for k, v in y.response.needs.items())
        for g, y in YARDSTICKS.items() if y.response is not None)

