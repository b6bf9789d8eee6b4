"""Batched Dados de Pagadores: ``VectorGame`` (B games in one packed array, advanced by the
compiled rules kernel and pinned to ``engine.Game`` by the differential test) and
``evaluate_batch`` (policy lineups over many games). Neither needs torch or
stable-baselines3."""

from .evaluate import evaluate_batch
from .game import NUM_OUTCOMES, SORTED_DICE, Finished, VectorGame
from .kernel import KAMPEN, OVER, ROUND

__all__ = ["KAMPEN", "NUM_OUTCOMES", "OVER", "ROUND", "SORTED_DICE", "Finished", "VectorGame",
           "evaluate_batch"]
