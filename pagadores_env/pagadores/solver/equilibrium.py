"""The game solved at 2–4 players: equilibrium, exact evaluation of any profile, NashConv.

Pagadores is a perfect-information game with chance (R7.1), so backward induction gives a
subgame-perfect equilibrium: at each decision the acting seat takes the action that
maximises **its own** win probability, and stops when both are worth the same to it (within
``TIE_TOLERANCE``; this fixed tie-break makes the equilibrium unique, and at two players it
is the zero-sum solution of ``two_player``).

- ``solve(num_players, cards)`` → :class:`Solution`: per-seat win probabilities at every
  position between rounds, and the value of both actions at every decision; cached on disk
  (``cache_path``) like the two-player solution.
- ``exact_evaluate(profile, num_players, cards)``: every seat's exact win probability when
  each plays its policy. A profile is one agent for every seat (a spec string, a policy, or
  a list of one) or a list with one per seat (``passes.profile_players``).
- ``nash_conv(profile, num_players, cards)``: OpenSpiel's NashConv, the sum over seats of what
  a seat gains by switching to its best response while the others keep their policies. It is
  0 exactly at an equilibrium; at two players it is twice ``exploitability``.

All three are one pass of ``sweep``. Policies are asked about every decision on the
observation rows the environment gives (``multi_rows``): one row per score to beat and its
holders, since an observation shows no other score (``core.policies.reads_lowest_only``).
"""

from __future__ import annotations

import gc
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ...core.atomic import write_atomic
from ...core.checks import check_int
from ..engine import Action, Game
from ..rules import MAX_CARDS
from .cost import check_size, table_cards
from .model import PENALTY, PROB
from .multi_kampen import Cards
from .npz import open_npz
from .passes import Profile, measure
from .sweep import Kept, Progress, Sweep, layout, release_freed_memory
from .table_play import SweepPolicy, decision_values
from .two_player import cache_dir, cache_or_warn, throws_again

FORMAT_VERSION = 1


def cache_path(num_players: int, cards: Cards) -> Path:
    """Where ``solve`` caches the solution of a table (in ``two_player.cache_dir()``)."""
    table = f"{cards[0]}cards" if len(set(cards)) == 1 else "cards" + "-".join(map(str, cards))
    return cache_dir() / f"equilibrium_{num_players}p_{table}_v{FORMAT_VERSION}.npz"


@dataclass(frozen=True)
class Solution:
    """The equilibrium of a table: values at every position up to ``start_cards``.

    Values are per-seat win probabilities (seats without cards: 0). ``positions[(cards,
    insteker)]`` holds the values before every throw of that round (``sweep.Position``).
    """

    num_players: int
    start_cards: Cards
    positions: Kept
    seconds: float

    def win_probabilities(self, cards: Sequence[int] | None = None, insteker: int = 0
                          ) -> tuple[float, ...]:
        """Every seat's win probability as a round starts at ``cards`` (default: the start
        position) with ``insteker`` insteeking; a finished game gives the winner 1."""
        at = self._position(self.start_cards if cards is None else cards)
        alive = [s for s, c in enumerate(at) if c]
        if len(alive) == 1:
            return tuple(float(s == alive[0]) for s in range(self.num_players))
        if not (isinstance(insteker, (int, np.integer)) and 0 <= insteker < self.num_players
                and at[insteker]):
            raise ValueError(f"insteker must be a seat 0–{self.num_players - 1} with cards, "
                             f"got {insteker!r}")
        return tuple(float(v) for v in self.positions[(at, int(insteker))].before[(0, 0, 1)][0, 0])

    def _position(self, cards: Sequence[int]) -> Cards:
        at = tuple(int(c) for c in cards)
        if len(at) != self.num_players or not all(
                0 <= c <= most for c, most in zip(at, self.start_cards, strict=True)) \
                or not any(at):
            raise ValueError(f"cards must be {self.num_players} counts with at most "
                             f"{list(self.start_cards)} per seat, got {list(cards)}")
        return at

    def action_values(self, game: Game, every_seat: bool = False) -> np.ndarray:
        """The win probability after ``[STOP, THROW]`` at ``game``'s decision, with
        equilibrium play after it: the acting seat's ``[2]``, or ``[2, num_players]`` for
        every seat. ``ValueError`` unless ``game`` is at a decision of a position this
        solution covers."""
        if not isinstance(game, Game) or not game.is_decision_node():
            raise ValueError(f"action_values needs an engine.Game at a decision node, "
                             f"got {game!r}")
        if game.num_players != self.num_players:
            raise ValueError(f"this solution is for {self.num_players} players, the game has "
                             f"{game.num_players}")
        cards = self._position(game.cards)
        insteker = int(game.insteker)  # type: ignore[arg-type]  # in a round, never None
        order = tuple(game.order)
        role = game.pos
        scores = [game.scores[s] for s in order[:role]]
        strength = game.current.strength  # type: ignore[union-attr]  # a decision's throw
        values = decision_values(self.positions[(cards, insteker)], len(order), False, role,
                                 game.throw_limit or 0, game.throws, scores, strength)[:, 0]
        return values if every_seat else values[:, order[role]]

    def best_action(self, game: Game) -> Action:
        """The equilibrium's action at ``game``'s decision (STOP on a tie)."""
        stop, throw = self.action_values(game)
        return Action.THROW if throws_again(throw, stop) else Action.STOP

    def policy(self, seat: int | None = None) -> SweepPolicy:
        """The equilibrium as a player (``table_play.SweepPolicy``): for ``seat``, or, at
        2–3 players with equal cards, for any seat."""
        return SweepPolicy(self.positions, self.num_players, self.start_cards,
                           seat=seat, name="equilibrium")

    # -- files ------------------------------------------------------------------------
    def save(self, path: Path | str) -> Path:
        """Write the solution to ``path`` atomically (``core.atomic.write_atomic``), streamed
        (``_write_npz``): no copy of the values is made (4 players with 10 cards hold about
        5 GB), and values kept in files are read a slice at a time."""
        arrays: dict[str, Any] = {"format_version": FORMAT_VERSION, "prob": PROB,
                                  "penalty": PENALTY, "seconds": self.seconds,
                                  "start_cards": np.array(self.start_cards)}
        by_alive: dict[int, list[tuple[int, tuple[Cards, int]]]] = {}
        for key, (m, p) in self.positions.rows.items():
            by_alive.setdefault(m, []).append((p, key))
        for m, rows in by_alive.items():
            rows.sort()
            arrays[f"keys{m}"] = np.array([(*cards, insteker) for _, (cards, insteker) in rows])
            arrays[f"values{m}"] = self.positions.arrays[m][:, :, 0]
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_atomic(path, lambda handle: _write_npz(handle, arrays,
                                                            self.positions.release))

    @classmethod
    def load(cls, path: Path | str) -> Solution:
        """Read a saved solution: ``FileNotFoundError`` if there is none, ``ValueError`` if
        it is not a complete one for the current rules."""
        try:
            with open_npz(path) as data:
                stored = {key: data[key] for key in data.files}
        except FileNotFoundError:
            raise
        except Exception as err:  # the zip and npy layers each raise their own kinds
            raise ValueError(f"{path} is not a readable solution file: {err}") from None
        try:
            if int(stored["format_version"]) != FORMAT_VERSION:
                raise ValueError("another format version")
            if not (np.array_equal(stored["prob"], PROB)
                    and np.array_equal(stored["penalty"], PENALTY)):
                raise ValueError("solved for other throw tables (the rules changed)")
            start = tuple(int(c) for c in stored["start_cards"])
            kept = _kept(start, stored)
        except (KeyError, ValueError, TypeError, IndexError) as err:
            raise ValueError(f"{path} is not a complete solution file: {err}") from None
        return cls(len(start), start, kept, float(stored["seconds"]))


#: Bytes of values copied and written at a time by ``_write_npz``.
SAVE_CHUNK = 1 << 26


def _write_npz(handle: BinaryIO, arrays: dict[str, Any], release: Callable[[], None]) -> None:
    """``np.savez(handle, **arrays)``, with big arrays written ``SAVE_CHUNK`` bytes at a time
    and ``release`` called after each: ``np.savez`` would read a memory-mapped array whole,
    leaving all its pages resident (5 GB of the 11.4 GB peak of a 4-player 10-card solve)."""
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, value in arrays.items():
            value = np.asanyarray(value)
            with archive.open(f"{name}.npy", "w", force_zip64=True) as out:
                if value.ndim == 0 or value.nbytes <= SAVE_CHUNK:
                    np.lib.format.write_array(out, value, allow_pickle=False)
                    continue
                np.lib.format.write_array_header_2_0(
                    out, np.lib.format.header_data_from_array_1_0(value))
                step = max(1, SAVE_CHUNK // (value.nbytes // len(value)))
                for at in range(0, len(value), step):
                    out.write(np.ascontiguousarray(value[at:at + step]).tobytes())
                    release()


def _kept(start: Cards, stored: dict[str, np.ndarray]) -> Kept:
    """The positions of a saved solution, checked against what a solve of ``start`` holds."""
    expected = Kept.empty(start, False, 0)  # the rows a solve fills, no values
    values = {}
    for m, count in ((m, len(v)) for m, v in expected.arrays.items()):
        keys, flat = stored[f"keys{m}"], stored[f"values{m}"]
        rows = {(tuple(int(c) for c in key[:-1]), int(key[-1])): (m, p)
                for p, key in enumerate(keys.tolist())}
        if rows != {k: v for k, v in expected.rows.items() if v[0] == m}:
            raise ValueError("positions missing, extra or out of order")
        if flat.shape != (count, layout(m, False)[1], len(start)) or flat.dtype != np.float64 \
                or not ((flat >= 0) & (flat <= 1)).all():
            raise ValueError("damaged value arrays")
        values[m] = flat[:, :, None, :]
    if set(stored) - {"format_version", "prob", "penalty", "seconds", "start_cards"} \
            != {f"{kind}{m}" for m in values for kind in ("keys", "values")}:
        raise ValueError("arrays missing or extra")
    return Kept(False, values, expected.rows)


def solve(num_players: int = 2, cards: int | Sequence[int] = MAX_CARDS, cache: bool = True,
          progress: Progress | None = None) -> Solution:
    """The equilibrium of a table of ``num_players`` with ``cards`` (one count for all, or
    one per seat): every position with at most those cards. Read from the cache when a
    readable solution is there, else solved and cached (``cache=False``: neither). Raises
    ``ValueError`` for a bad argument and, before any work, for a table beyond the
    solver's limits (``cost.check_size``)."""
    start = table_cards(num_players, cards)
    path = cache_path(len(start), start)
    if cache:
        try:
            loaded = Solution.load(path)
            if loaded.start_cards == start:  # a complete file of another table is stale too
                return loaded
        except (FileNotFoundError, ValueError):
            pass  # missing, damaged or stale: the cache only holds files this module wrote
    cost = check_size(start, keep=True)
    began = time.perf_counter()
    sweep = Sweep(start, [(True,) * len(start)], {}, full=False, keep=True,
                  kept_in=cache_dir() if cost.kept_on_disk else None)
    sweep.run(progress)
    assert sweep.positions is not None  # kept: keep=True
    solution = Solution(len(start), start, sweep.positions, time.perf_counter() - began)
    del sweep  # its arrays go before the solution is written (cost.KEPT_IN_MEMORY)
    gc.collect()
    release_freed_memory()
    if cache:
        cache_or_warn(solution.save, path)
    return solution


def _first(start: Cards, first_insteker: int) -> int:
    first = check_int("first_insteker", first_insteker, 0, len(start) - 1)
    if not start[first]:
        raise ValueError(f"first_insteker must be a seat with cards, got {first}")
    return first


def exact_evaluate(profile: Profile, num_players: int = 2, cards: int | Sequence[int] = MAX_CARDS,
                   first_insteker: int = 0, progress: Progress | None = None,
                   workers: int = 1, backend: str = "local", address: str | None = None,
                   cache: bool = False) -> tuple[float, ...]:
    """Every seat's exact win probability when each plays its policy of ``profile`` (one
    agent for all seats, or one per seat), from ``cards`` with ``first_insteker`` starting
    (R3.1). A stochastic policy with ``throw_probabilities`` is evaluated as its mixture;
    others are asked once per decision of a pass. ``ValueError`` for a bad argument or a
    table beyond the limits (``cost.check_size``; a policy declaring ``score_view = "all"``
    is asked ``41 ** m`` rows per decision of the ``m``-th seat in a round). A table too big
    for one pass takes one per seat; ``workers``, ``backend`` and ``address`` say where they
    run (``passes.measure``); with ``cache`` the passes of agent specs are kept on disk and
    read again (``results_cache``)."""
    start = table_cards(num_players, cards)
    first = _first(start, first_insteker)
    return measure([profile], num_players, start, False, progress, workers, backend,
                   address, cache).values(("profile", 0), first)


def exact_evaluate_starts(profile: Profile, num_players: int = 2,
                          cards: int | Sequence[int] = MAX_CARDS,
                          progress: Progress | None = None, workers: int = 1,
                          backend: str = "local", address: str | None = None,
                          cache: bool = False) -> dict[int, tuple[float, ...]]:
    """``exact_evaluate`` for every first insteker at once (R3.1): ``{seat: every seat's win
    probability when that seat insteeks first}`` for each seat with cards. The pass solves
    every start position anyway, so this costs what one ``exact_evaluate`` costs."""
    return measure([profile], num_players, cards, False, progress, workers, backend,
                   address, cache).starts(("profile", 0))


@dataclass(frozen=True)
class NashConv:
    """NashConv of a profile: ``gains[i]`` is what seat ``i`` wins by switching to its best
    response while the others keep their policies, ``values[i]`` its win probability under
    the profile; ``total`` their sum (0 exactly at an equilibrium)."""

    total: float
    gains: tuple[float, ...]
    values: tuple[float, ...]
    best_responses: tuple[float, ...]


def nash_conv(profile: Profile, num_players: int = 2, cards: int | Sequence[int] = MAX_CARDS,
              first_insteker: int = 0, progress: Progress | None = None, workers: int = 1,
              backend: str = "local", address: str | None = None, cache: bool = False
              ) -> NashConv:
    """NashConv (OpenSpiel's measure) of ``profile`` at this table, exactly: one pass holds
    the profile and every seat's best response against it, so each policy is asked about
    each decision once; a table too big for that takes one pass per seat (``passes``),
    run one after the other, in ``workers`` processes or as Ray tasks (``backend="ray"``,
    ``address``), with the same numbers. At two players ``total`` is twice
    ``exploitability``. With ``cache`` the passes of agent specs are kept on disk and read
    again (``results_cache``)."""
    return nash_conv_and_evaluate(profile, [], num_players, cards, first_insteker,
                                  progress, workers, backend, address, cache)[0]


def nash_conv_and_evaluate(profile: Profile, lineups: Sequence[Profile], num_players: int = 2,
                           cards: int | Sequence[int] = MAX_CARDS, first_insteker: int = 0,
                           progress: Progress | None = None, workers: int = 1,
                           backend: str = "local", address: str | None = None,
                           cache: bool = False
                           ) -> tuple[NashConv, list[dict[int, tuple[float, ...]]]]:
    """``nash_conv(profile)`` and ``exact_evaluate_starts`` of each of ``lineups`` (profiles
    too) from ONE pass where it fits: a policy object seated in several of them is asked
    about each decision of a seat once (``sweep.Sweep``), so a learner measured against
    opponents is asked no more than its NashConv asks. The numbers are those of the
    separate passes (to rounding). ``check_size`` weighs every variant's arrays but counts
    the rows of one policy per seat."""
    start = table_cards(num_players, cards)
    first = _first(start, first_insteker)
    measured = measure([profile, *lineups], num_players, start, True, progress, workers,
                       backend, address, cache)
    current = measured.values(("profile", 0), first)
    best = tuple(measured.value(("response", seat), seat, first)
                 for seat in range(len(start)))
    gains = tuple(b - v for b, v in zip(best, current, strict=True))
    return (NashConv(float(sum(gains)), gains, current, best),
            [measured.starts(("lineup", i)) for i in range(len(lineups))])
