"""Approximate NashConv of the games without a compiled kernel (Perudo, Paye's dobbelspel,
Pasch) at any table, also where their exact yardsticks cannot go (Paye at 5–6 players):
``approximate_game``, ``pagadores nashconv --game GAME --approximate``.

For each seat, a **MaskablePPO best response** is trained for ``budget`` timesteps (that
seat's decisions) in the game's Gymnasium env (``GameSpec.gym_id``), the learner in that
seat and the profile's players fixed in the others; where the seat's player is a trained
MaskablePPO model, the response starts from that model's network (``warm_start``). Its gain
is then measured in **paired games**: game ``g`` is played twice, each time with the dice of
a generator seeded by ``(seed, seat, g)``, once with the response in the seat (as it acts:
its most likely legal action) and once with the profile's own player there; until the
response first chooses otherwise the two are one game, so the paired differences carry little
of the dice's noise.
The gain is the mean paired difference in that seat's share of the win (a first place shared
by k counts 1/k, ``core.rewards.win_share``), with its 95% normal interval
(``approximate.mean_interval``). A player that draws from its own generator (``random``)
draws differently in the two games once they part, which widens the interval but leaves the
gain unbiased.

What it means, as for Pagadores' learned responses (``approximate``, whose learner and
luck-corrected pairs are its own): a learned response is at most the best one, so each gain
estimates a **lower bound** of the seat's exact gain (up to its interval), and their sum a
lower bound of NashConv. With ``score_exactly``, where the game's exact yardstick evaluates
whole games (``EXACT``: Paye's base game at 2–4 players and expansion at 2), each response
is also scored exactly beside the exact best response's gain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv

from pagadores_agents.sb3_adapter import model_class
from pagadores_env.core.checks import check_int
from pagadores_env.core.games import game_spec
from pagadores_env.core.policies import Policy, check_tables, make_policy
from pagadores_env.core.rewards import win_share
from pagadores_env.core.seeding import child_seed

from ..evaluation.engine import play_games
from ..evaluation.evaluate import Acting
from ..progress import SILENT, Reporter
from ..run.algorithms import without_log_files
from .approximate import ApproximateNashConv, SeatGain, in_seats, mean_interval

#: MaskablePPO timesteps each seat's response trains on by default.
ENGINE_BUDGET = 200_000
#: Envs side by side in a response's training, and the most steps each collects per rollout.
N_ENVS, ROLLOUT_STEPS = 8, 256
#: The response's learner: a 64×64 network, undiscounted (the reward comes at the end).
HYPERPARAMS: dict[str, Any] = {"learning_rate": 3e-4, "n_epochs": 5, "gamma": 1.0,
                               "gae_lambda": 0.95, "ent_coef": 0.01,
                               "policy_kwargs": {"net_arch": [64, 64]}}

#: One agent (spec string or policy) for every seat, or a list with one per seat.
Profile = str | Policy | Sequence[str | Policy]


def profile_players(game: str, profile: Profile, num_players: int, options: dict[str, Any],
                    seed: int) -> list[Policy]:
    """One policy per seat of ``game`` (``profile``: one agent for every seat or one per
    seat), seat ``s`` seeded ``child_seed(seed, 1, s)``, each asked whether it plays the
    table (``core.policies.check_tables``); ``ValueError`` in one line otherwise."""
    entries = [profile] if isinstance(profile, str | Policy) else list(profile)
    if len(entries) == 1:
        entries *= num_players
    if len(entries) != num_players:
        raise ValueError(f"a profile is one agent for every seat or {num_players} agents (one "
                         f"per seat), got {len(entries)}")
    players = [make_policy(e, game=game, seed=child_seed(seed, 1, s))
               for s, e in enumerate(entries)]
    table = game_spec(game).table_options(**options)
    check_tables(players, num_players, next(iter(table.values())))
    return players


def warm_start(player: Policy) -> Any:
    """The MaskablePPO model ``player`` plays, if it is one (a trained agent, ``model:``):
    the seat's response starts from its network, shape and weights, so it begins where the
    agent is and learns from there what beats the others. From scratch, the budget a seat
    gets is a small part of what a trained agent trained on (a 6-player Paye agent of 2
    million steps was not matched by fresh responses of 200,000: every gain came out below
    zero). None for any other player: the response starts from a fresh network."""
    model = getattr(player, "model", None)
    return model if isinstance(model, MaskablePPO) else None


def learn_response(game: str, players: Sequence[Policy], seat: int, options: dict[str, Any],
                   budget: int, seed: int, progress: Reporter = SILENT) -> tuple[Policy, int]:
    """``seat``'s MaskablePPO best response to the others' ``players`` (one per seat),
    trained for at least ``budget`` timesteps (whole rollouts) from the seat's own network
    where it is a MaskablePPO model (``warm_start``), as the game's ``model`` player of the
    model in memory; and the timesteps it trained on."""
    from ..run.callbacks import TrainingProgress  # torch and SB3: only here

    spec = game_spec(game)
    n = len(players)
    others = [p for s, p in enumerate(players) if s != seat]
    table = spec.table_options(**options)

    def make() -> gymnasium.Env:
        return gymnasium.make(spec.gym_id, num_players=n, opponents=others,
                              learner_seat=seat, **table)

    envs = make_vec_env(make, n_envs=N_ENVS, seed=seed, vec_env_cls=DummyVecEnv)
    # rollouts no longer than the budget needs, a power of two so the batches divide them
    steps = min(ROLLOUT_STEPS, max(16, 1 << math.ceil(math.log2(-(-budget // N_ENVS)))))
    own = warm_start(players[seat])
    settings = HYPERPARAMS if own is None else \
        {**HYPERPARAMS, "policy_kwargs": own.policy_kwargs}
    model = without_log_files(MaskablePPO("MlpPolicy", envs, n_steps=steps,
                                          batch_size=min(256, steps * N_ENVS), seed=seed,
                                          device="cpu", verbose=0, **settings))
    if own is not None:
        model.policy.load_state_dict(own.policy.state_dict())
    callback = TrainingProgress(progress, f"seat {seat}: learning its best response")
    # one torch thread: a 64x64 network's matrices are too small to split, and on a busy
    # machine a thread a core waits on the others (the search learner's page measured 26 min
    # instead of 140 s)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model.learn(total_timesteps=budget, callback=callback)
    finally:
        torch.set_num_threads(threads)
        callback.close()
        envs.close()
    return model_class(game).of_model(model), int(model.num_timesteps)


def paired_gain(game: str, response: Policy, players: Sequence[Policy], seat: int,
                options: dict[str, Any], games: int, seed: int, progress: Reporter = SILENT
                ) -> tuple[float, float, float, float]:
    """``seat``'s gain from playing ``response`` instead of ``players[seat]`` over ``games``
    pairs of games on the same dice (module docstring): (gain, 95% half-width, the
    response's share of the win, the profile's)."""
    spec = game_spec(game)
    n = len(players)
    policies = [*players, response]  # row n: the response
    lineup = [n if s == seat else s for s in range(n)]
    rows_at = [lineup] * games + [list(range(n))] * games
    dice = [np.random.default_rng([seed, seat, g]) for _ in range(2) for g in range(games)]
    with progress.phase(f"seat {seat}: paired games", 2 * games, "game") as phase:
        tables = play_games(spec, policies, rows_at, n, options, dice, phase)
    shares = np.array([win_share(placed[seat], placed.count(placed[seat]))
                       for placed in (table.placements() for table in tables)])
    gain, half = mean_interval(shares[:games] - shares[games:])
    return gain, half, float(shares[:games].mean()), float(shares[games:].mean())


# ------------------------------------------------------------------ exact scores
def _paye_exact(players: Sequence[Policy], options: dict[str, Any]
                ) -> tuple[Callable[[], Any], Callable[[Sequence[Policy]], tuple[float, ...]]]:
    from pagadores_env.paye import exact

    table = {"dice": options["faces"], "rounds": options["rounds"],
             "variant": options["variant"]}
    n = len(players)
    exact.check_exact_table(n, table["dice"], table["rounds"], table["variant"])
    return (lambda: exact.nash_conv(list(players), n, **table),
            lambda lineup: exact.exact_evaluate(list(lineup), n, **table))


#: The games whose exact yardstick scores whole games: ``(players, options by name)`` →
#: (the profile's exact NashConv, an exact evaluation of a lineup); ``ValueError`` in one
#: line at a table it does not cover.
EXACT: dict[str, Callable[..., tuple[Callable[[], Any],
                                     Callable[[Sequence[Policy]], tuple[float, ...]]]]] = {
    "paye": _paye_exact}


def _exact_scorer(game: str, players: Sequence[Policy], options: dict[str, Any]
                  ) -> tuple[Callable[[], Any], Callable[[Sequence[Policy]], tuple[float, ...]]]:
    if game not in EXACT:
        raise ValueError(f"score_exactly: {game_spec(game).title} has no exact evaluation of "
                         "whole games (only Paye's dobbelspel's)")
    return EXACT[game](players, options)


def seat_gain(game: str, profile: Profile, num_players: int, options: dict[str, Any],
              seat: int, budget: int, games: int, seed: int, exact: Any,
              progress: Reporter = SILENT) -> SeatGain:
    """One seat's learned best response to ``profile`` and its gain in ``games`` paired
    games (``approximate_game``), with ``exact`` (the profile's exact NashConv) also scored
    exactly; the players are made here, for this seat alone, so a seat's result is the same
    whichever process or order computes it."""
    players = profile_players(game, profile, num_players, options, seed)
    response, decisions = learn_response(game, players, seat, options, budget, seed + seat,
                                         progress)
    gain, half, won, base = paired_gain(game, response, players, seat, options, games, seed,
                                        progress)
    found = SeatGain(seat, gain, half, won, base, decisions, games)
    if exact is None:
        return found
    lineup = [Acting(response) if s == seat else p for s, p in enumerate(players)]
    with progress.phase(f"seat {seat}: its learned response scored exactly", 1,
                        "pass") as phase:
        value = _exact_scorer(game, players, options)[1](lineup)[seat]
        phase.advance_to(1)
    return replace(found, exact_gain=value - exact.values[seat], best_gain=exact.gains[seat])


def approximate_game(game: str, profile: Profile, num_players: int,
                     options: dict[str, Any] | None = None, budget: int = ENGINE_BUDGET,
                     games: int = 2_000, seed: int = 0, progress: Reporter = SILENT,
                     workers: int = 1, score_exactly: bool = False) -> ApproximateNashConv:
    """Every seat's learned best response to ``profile`` in ``game`` (one agent for all
    seats or one per seat; ``options`` the table options by name, the game's defaults where
    left out) and its gain in ``games`` paired games (module docstring): a lower bound of
    NashConv at any table. ``workers`` processes compute the seats side by side with the
    same result (``approximate.in_seats``). Seeded: the same arguments give the same result.
    ``ValueError`` in one line for a bad argument or agent, before any training; Pagadores
    has its own (``approximate.approximate_nash_conv``)."""
    spec = game_spec(game)
    if game == "pagadores":
        raise ValueError("Pagadores' approximate NashConv is approximate.approximate_nash_conv "
                         "(its search learner)")
    n = check_int("num_players", num_players, spec.min_players, spec.max_players)
    named = {o.name: o.default for o in spec.options} | dict(options or {})
    spec.start(n, **named)  # the options are checked by the game itself, now
    check_int("budget", budget, 1)
    check_int("games", games, 2)
    check_int("seed", seed, 0)
    check_int("workers", workers, 1, 256)
    players = profile_players(game, profile, n, named, seed)  # refused before any work
    exact = _exact_scorer(game, players, named)[0]() if score_exactly else None
    jobs = [(game, profile, n, named, seat, budget, games, seed, exact) for seat in range(n)]
    return in_seats(seat_gain, jobs, profile, workers, progress)
