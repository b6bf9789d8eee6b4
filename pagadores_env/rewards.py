"""Reward schemes shared by the AEC env, the Gymnasium wrapper and the batch engine.

=========  ==========================================================================
scheme     final reward of a seat
=========  ==========================================================================
win        +1 for the winner, -1 for everyone else (R1.5)
placement  linear in final place: +1 for 1st … -1 for last, ``1 - 2 (place-1)/(n-1)``;
           players knocked out by the same throw share a place (``Game.placements``)
=========  ==========================================================================

With two players both schemes are the same.
"""

from __future__ import annotations

REWARD_SCHEMES = ("win", "placement")


def check_scheme(scheme: str) -> str:
    if scheme not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_SCHEMES)}, got {scheme!r}")
    return scheme


def final_reward(scheme: str, place: int, num_players: int) -> float:
    """The reward of a seat that finished in ``place`` (1 = winner) at a table of ``num_players``."""
    if scheme == "win":
        return 1.0 if place == 1 else -1.0
    return 1.0 - 2.0 * (place - 1) / (num_players - 1)
