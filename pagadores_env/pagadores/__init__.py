"""Dados de Pagadores (rule ids R1–R7 of the rules contract, explained in
``docs/rules/pagadores.md``).

=================  ============================================================================
module             holds
=================  ============================================================================
``rules``          every rule fact and pure rule helper (throws, strengths, seats, table
                   sizes)
``engine``         ``Game``, the readable reference engine with explicit chance nodes
``observation``    the observation codec: ``encode`` and ``decode``, the field layout
``policies``       Pagadores' own capabilities of the policy protocol (for the exact solver);
                   importing the package opens the registry's ``pagadores`` namespace
``dice``           the envs' seeded stream of throws
``vector``         the compiled rules kernel and what runs on it: one game (``one``), the
                   batch engine ``VectorGame``, decision tables, the batch evaluator
``aec``            the PettingZoo AEC env (``pagadores_v1``)
``gym_env``        the Gymnasium env ``Pagadores-v1``
``seating``        the single-agent envs' table arguments (sizes, cards, learner seat,
                   opponents)
``vec_env``        ``PagadoresVecEnv``, the SB3 VecEnv (needs the ``train`` extra; imported
                   only when used)
``render``         text: events as sentences, the table
``picture``        the table as a picture (``render_mode="rgb_array"``)
``solver``         the exact solver: equilibria, exact evaluation, NashConv, best responses
=================  ============================================================================
"""

from . import policies

__all__ = ["policies"]

from ..core.games import GameSpec, Option, int_list, register
from .engine import Action, Game
from .observation import OBS_SIZE, encode
from .render import SUMMARY, describe_events, render_table
from .view import view

#: Dados de Pagadores in the table of games (``core.games``).
SPEC = register(GameSpec(
    name="pagadores", title="Dados de Pagadores", min_players=2, max_players=6,
    options=(Option("cards", 10, "cards each at the start, 1–10, or one count per seat "
                    "(R1.1)", int_list),),
    new_game=Game, encode=encode, obs_size=OBS_SIZE, num_actions=lambda game: 2,
    gym_id="Pagadores-v1", aec_id="pagadores-v1", opponent="sensible",
    eval_opponents=("random", "stop-first", "always-throw", "sensible"),
    render_table=render_table, describe_events=describe_events,
    describe_action=lambda game, action: ("stop", "throw again")[Action(action)],
    summary=SUMMARY, view=view))
