"""Option values every game's envs take alike, and the picture drawer their ``rgb_array``
mode loads."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

#: The render modes of every env (None: no rendering).
RENDER_MODES = (None, "ansi", "human", "rgb_array")
RENDER_FPS = 2  # frames per second for video recorders: one decision every half second
#: What the envs do with an action the rules refuse: raise ``IllegalMoveError``, play the first
#: legal action instead, or end the episode with the offender's forfeit.
ILLEGAL_ACTIONS = ("raise", "replace", "penalty")
#: What becomes of a player who is out in the AEC envs: it stays in ``agents`` unselected until
#: the game ends, or it is terminated at once and leaves.
ELIMINATED = ("stay", "leave")


def picture_drawer(render_mode: str | None, game: str) -> Callable[..., np.ndarray] | None:
    """The ``draw`` of the game package ``game``'s ``picture`` module (``"pagadores_env.paye"``:
    a game passes its ``__package__``) for ``render_mode="rgb_array"``, else None. It is
    imported only then: importing a game does not load Pillow."""
    if render_mode != "rgb_array":
        return None
    draw: Callable[..., np.ndarray] = importlib.import_module(".picture", game).draw
    return draw
