"""Option values every game's envs take alike."""

from __future__ import annotations

RENDER_FPS = 2  # frames per second for video recorders: one decision every half second
#: What the envs do with an action the rules refuse: raise ``IllegalMoveError``, play the first
#: legal action instead, or end the episode with the offender's forfeit.
ILLEGAL_ACTIONS = ("raise", "replace", "penalty")
#: What becomes of a player who is out in the AEC envs: it stays in ``agents`` unselected until
#: the game ends, or it is terminated at once and leaves.
ELIMINATED = ("stay", "leave")
