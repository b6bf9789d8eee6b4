"""Reward schemes shared by the AEC env, the Gymnasium wrapper and the batch engine.

=========  ==========================================================================
scheme     final reward of a seat
=========  ==========================================================================
win        +1 for the winner, -1 for everyone else (R1.5); a first place shared by k
           seats (Paye's Y4.4, Pasch's X1.4) pays each of them 2/k - 1, so a seat's
           reward is always 2 x (its share of the win) - 1
placement  linear in final place: +1 for 1st … -1 for last, ``1 - 2 (place-1)/(n-1)``;
           players knocked out by the same throw share the places they span and get
           the reward of their mean place, so a game's rewards sum to 0
=========  ==========================================================================

``place`` is ``Game.placements()[seat]`` (the best place of a shared group) and ``shared``
how many seats hold that place. With two players both schemes are the same.
"""

from __future__ import annotations

from collections.abc import Callable

from .checks import check_choice


def win_reward(place: int, shared: int, num_players: int) -> float:
    """+1 for the winner, -1 for everyone else (R1.5); ``2/shared - 1`` for each of the
    ``shared`` seats of a shared first place (Y4.4)."""
    return 2.0 / shared - 1.0 if place == 1 else -1.0


def win_share(place: int, shared: int) -> float:
    """A seat's share of the win: 1/k for each of the k seats sharing first place, else 0;
    evaluations count wins by it."""
    return 1.0 / shared if place == 1 else 0.0


def placement_reward(place: int, shared: int, num_players: int) -> float:
    """+1 for 1st down to -1 for last; a shared place counts as the mean of its span."""
    mean_place = place + (shared - 1) / 2
    return 1.0 - 2.0 * (mean_place - 1) / (num_players - 1)


#: scheme → reward(place, seats sharing that place, number of players).
REWARDS: dict[str, Callable[[int, int, int], float]] = {
    "win": win_reward,
    "placement": placement_reward,
}
REWARD_SCHEMES = tuple(REWARDS)


def check_scheme(scheme: str) -> str:
    """Return ``scheme`` if it names a reward scheme; else ``ValueError`` listing them."""
    return check_choice("reward", scheme, REWARD_SCHEMES)


def final_reward(scheme: str, place: int, num_players: int, shared: int = 1) -> float:
    """The reward of a seat that finished in ``place`` (1 = winner) at a table of
    ``num_players``, ``shared`` seats holding that place."""
    return REWARDS[check_scheme(scheme)](place, shared, num_players)
