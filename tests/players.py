"""Test players: ones that cannot answer a batch in one call, to show that evaluation serves
them too (``policies.batch_actions``): a shipped player behind ``act`` alone, or behind
``BasePolicy``'s looping ``act_batch``; one that must know its seat; and a scripted threshold
player that counts what it is asked."""

from __future__ import annotations

import numpy as np

from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.observation import OBS_SIZE, SLICES


class RowByRow:
    """The player ``spec`` names, with ``act`` only (no ``act_batch``)."""

    def __init__(self, spec: str) -> None:
        self.inner = make_policy(spec)
        self.name = spec

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.inner.act(obs, mask))


class Looping(RowByRow, BasePolicy):
    """The player ``spec`` names, behind ``BasePolicy``'s ``act_batch`` (a loop over ``act``)."""


class SeatBound(BasePolicy):
    """A player that must know its seat (``policies``' ``for_seat``): its copy for seat 0
    plays ``threshold``, its copies for the other seats ``stop-first``; the player itself,
    never told a seat, refuses to decide. ``asked`` counts each copy's decisions."""

    name = "seat-bound"

    def __init__(self, seat: int | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.inner = None if seat is None else make_policy(SEAT_BOUND[seat > 0])
        self.asked = 0
        self.copies: dict[int, SeatBound] = {}

    def for_seat(self, seat: int, num_players: int) -> SeatBound:
        return self.copies.setdefault(seat, SeatBound(seat))

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self.inner is None:
            raise AssertionError("asked to decide without being told its seat")
        self.asked += len(obs)
        return np.asarray(self.inner.act_batch(obs, mask))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(obs[None], mask[None])[0])


#: What ``SeatBound`` plays at seat 0 and at the other seats.
SEAT_BOUND = ("threshold", "stop-first")


class StopAt(BasePolicy):
    """Scripted: throw again while the current strength is below ``level``; counts the calls
    and rows it is asked."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level
        self.calls = 0
        self.rows = 0

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.rows += len(obs)
        strength = np.rint(obs[:, SLICES["my_strength"].start] * 41)
        return (strength < self.level).astype(np.int64)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.reshape(obs, (1, OBS_SIZE)), mask)[0])
