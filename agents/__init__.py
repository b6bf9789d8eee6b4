"""Players for pagadores-env: scripted heuristics, the exact-optimal player, trained models.

Importing this package registers every player with ``pagadores_env.policies`` (it is the
``pagadores_env.policies`` entry point), so ``make_policy("sensible")`` finds them.
"""

from . import heuristics, optimal, sb3_adapter

__all__ = ["heuristics", "optimal", "sb3_adapter"]
