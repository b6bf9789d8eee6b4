"""A dense reward from a per-seat tally of the game (``env.shaping``), the one mechanism
behind Perudo's ``DiceShaping`` and Pasch's ``PointsShaping``: on top of the game's reward,
every step pays ``shaping`` times what the learner's entry of the tally gained since the last
step minus the mean of what the others' entries gained. The tally is a ``Game`` attribute
named by the subclass (``TALLY``): Perudo's dice left, Pasch's points."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium


class TallyShaping(gymnasium.Wrapper):
    """A single-agent env of the table of games with the tally's changes priced in (module
    docstring); a subclass names the tally."""

    #: The ``Game`` attribute holding one number per seat.
    TALLY: ClassVar[str]

    def __init__(self, env: gymnasium.Env, shaping: float) -> None:
        super().__init__(env)
        self.shaping = shaping
        self._tally: list[int] = []

    def _read(self) -> list[int]:
        return list(getattr(self.env.unwrapped.game, self.TALLY))

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset the game and remember its tally."""
        observation, info = self.env.reset(**kwargs)
        self._tally = self._read()
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's step with the tally's changes since the last one priced in."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        now, seat = self._read(), self.env.unwrapped.seat
        gained = [after - before for before, after in zip(self._tally, now, strict=True)]
        self._tally = now
        others = (sum(gained) - gained[seat]) / (len(gained) - 1)
        return (observation, float(reward) + self.shaping * (gained[seat] - others),
                terminated, truncated, info)
