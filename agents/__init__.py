"""Players for pagadores-env: scripted heuristics, the exact players (optimal, equilibrium),
trained models, the search player over a learned value net (``search/``: the player, its
memory budget, its value net and the nets shipped for 2–4 players), OpenSpiel's MCTS bot
(``openspiel_mcts``, extra ``openspiel``), and each other game's players (``perudo``,
``paye``, ``pasch``).

Importing this package registers every player with ``pagadores_env.core.policies`` (it is the
entry point of the group ``pagadores_env.policies``), so ``make_policy("sensible")`` finds them.
"""

from . import (
    equilibrium,
    heuristics,
    openspiel_mcts,
    optimal,
    pasch,
    paye,
    perudo,
    rllib_adapter,
    sb3_adapter,
    search,
)

__all__ = ["equilibrium", "heuristics", "openspiel_mcts", "optimal", "pasch", "paye", "perudo",
           "rllib_adapter", "sb3_adapter", "search"]
