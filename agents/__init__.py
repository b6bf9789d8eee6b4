"""Players for pagadores-env: scripted heuristics, the exact players (optimal, equilibrium),
trained models.

Importing this package registers every player with ``pagadores_env.policies`` (it is the
``pagadores_env.policies`` entry point), so ``make_policy("sensible")`` finds them.
"""

from . import equilibrium, heuristics, optimal, perudo, rllib_adapter, sb3_adapter

__all__ = ["equilibrium", "heuristics", "optimal", "perudo", "rllib_adapter", "sb3_adapter"]
