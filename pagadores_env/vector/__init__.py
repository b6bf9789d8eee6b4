"""Batched Dados de Pagadores: ``VectorGame`` (B games as numpy arrays in lock-step, pinned
to ``engine.Game`` by the differential test) and ``evaluate_batch`` (policy lineups over many
games). Neither needs torch or stable-baselines3."""

from .evaluate import evaluate_batch
from .game import (
    KAMPEN,
    NUM_OUTCOMES,
    OVER,
    ROUND,
    SORTED_DICE,
    Finished,
    VectorGame,
)

__all__ = ["KAMPEN", "NUM_OUTCOMES", "OVER", "ROUND", "SORTED_DICE", "Finished", "VectorGame",
           "evaluate_batch"]
