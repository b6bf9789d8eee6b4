"""Exact best response of one seat against fixed policies at tables of 2–4 players.

``best_response_multi(opponents, num_players, cards, hero_seat)`` gives the hero's exact
optimal win probability (and, on request, the best-response player) against fixed opponent
policies: one ``sweep`` pass in which the hero maximises and every other seat plays its
policy, asked once about every decision on the rows ``observation.encode`` gives: one row
per score to beat and its holders, since an observation shows no other score
(``core.policies.reads_lowest_only``; a policy declaring ``score_view = "all"`` is asked every
combination of scores). ``cost.check_size`` refuses a table beyond the limits before any
work.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.checks import check_int
from ...core.policies import Policy, check_tables, reads_lowest_only
from ..rules import MAX_CARDS
from .cost import check_size, table_cards
from .multi_kampen import Cards
from .sweep import Kept, Progress, Sweep
from .table_play import SweepPolicy
from .two_player import cache_dir


@dataclass(frozen=True)
class MultiBestResponse:
    """The hero's exact win probabilities against the fixed opponents.

    ``values[(cards, insteker)]`` is the hero's win probability as that round is about to
    start (positions where the hero is out are 0 and not listed). ``positions`` (when kept)
    holds every decision's values, for ``policy()``.
    """

    num_players: int
    start_cards: Cards
    hero_seat: int
    first_insteker: int
    values: dict[tuple[Cards, int], float]
    positions: Kept | None
    full: bool
    rows_asked: int
    seconds: float

    @property
    def value(self) -> float:
        """The hero's win probability from the start of the game (R3.1)."""
        return self.values[(self.start_cards, self.first_insteker)]

    def policy(self) -> SweepPolicy:
        """The best response as a player for the hero's seat."""
        if self.positions is None:
            raise ValueError("the best-response table was not kept: solve with keep_policy=True")
        if self.full:  # its decisions read scores an observation does not show
            raise ValueError("a best response against players that read every score cannot "
                             "play from observations, which show only the score to beat")
        return SweepPolicy(self.positions, self.num_players, self.start_cards,
                           seat=self.hero_seat, name="multi-best-response")


def best_response_multi(opponents: Sequence[Policy], num_players: int = 3,
                        cards: int | Sequence[int] = MAX_CARDS, hero_seat: int = 0,
                        first_insteker: int = 0, keep_policy: bool = False,
                        progress: Progress | None = None) -> MultiBestResponse:
    """The hero's exact best response at ``hero_seat`` against ``core.opponents`` (one policy per
    other seat, in seat order), from the start position ``cards`` with ``first_insteker``
    starting (R3.1). ``keep_policy`` keeps the hero's decisions for ``.policy()``;
    ``progress(done, total)`` hears of each card position solved. Raises ``ValueError`` for a
    bad argument and, before any work, for a table beyond the limits (``cost.check_size``)."""
    start = table_cards(num_players, cards)
    n = len(start)
    for name, seat in (("hero_seat", hero_seat), ("first_insteker", first_insteker)):
        if check_int(name, seat, 0, n - 1) is not None and not start[seat]:
            raise ValueError(f"{name} must be a seat 0–{n - 1} with cards, got {seat!r}")
    opponents = list(opponents)
    if len(opponents) != n - 1 or not all(isinstance(p, Policy) for p in opponents):
        raise ValueError(f"opponents must be {n - 1} policies (one per other seat, "
                         f"in seat order), got {opponents!r}")
    full = not all(reads_lowest_only(p) for p in opponents)
    cost = check_size(start, full=full, asked=True, keep=keep_policy, what="best-respond at")
    check_tables(opponents, n, start)  # after the size: a player's check may be a solve
    others = [s for s in range(n) if s != hero_seat]
    sweep = Sweep(start, [tuple(s == hero_seat for s in range(n))],
                  dict(zip(others, opponents, strict=True)), full=full, keep=keep_policy,
                  kept_in=cache_dir() if cost.kept_on_disk else None)
    began = time.perf_counter()
    sweep.run(progress)
    values = {key: float(value[0, hero_seat]) for key, value in sweep.win.items()
              if key[0][hero_seat]}
    return MultiBestResponse(n, start, hero_seat, first_insteker, values,
                             sweep.positions if keep_policy else None, full, sweep.rows_asked,
                             time.perf_counter() - began)
