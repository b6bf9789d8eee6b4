"""The search player: exact play of the round at hand over the dice odds, with learned values
at the round's end (spec ``"search:path=runs/search_3p"``, options ``depth=``, ``seat=``).

How it decides. Between rounds a position is only the card counts and the insteker; inside a
round the rules and the dice decide everything else (R3–R6). So the player searches the round
it is in **exactly**: every later throw of every player over the 42 strengths with their
probabilities (R2, R7.2), specials at the card counts they leave (R4.1, R4.2), Picaros (R4.4),
kampen (R5) and knock-outs (R6.2), every player maximising their own win probability, as
the solver's round recursion does (``solver.sweep.Sweep.solve_position``, reused here with
other values at the round's ends). Where the round ends, the values are the learned
``ValueNet``'s (``pagadores_agents.search.value_net``) instead of solved ones: the only learned
part.
At ``depth=2`` the round after it is searched exactly too (its end valued by the net), and so
on; each extra round costs about ten times the one before.

It never reads a solved value and solves only the positions it is asked about and those a
special can reach within that round (same insteker, fewer cards), kept in a bounded cache
(``cache=`` positions, fewer where all the process's searches together would hold more than
a quarter of the memory a solve may use: ``search_memory``).
So it answers the solver's batched questions at one position in one search, which is what
keeps the exact NashConv pass of a 3-player agent at 10 cards within minutes.

Specials (``specials=``, 0–3 or ``all``): a special that leaves everyone in keeps the round
going at fewer cards (R4.3), and a kampen special (R5.2) the kampen. Following every such
chain exactly solves every position the round's specials can reach (820 at 4 players with 10
cards, a few minutes); beyond ``specials`` specials in a row, the round (or kampen) goes on
as it would have without the last one, shifted by what the cards it took are worth to the
net (``RoundSearch.landing``). By default all are followed at 2–3 players and none from 4 on
(``default_specials``); at 3 players with 10 cards the trained player's exact NashConv was
2.5e-5 following all, 3.5e-5 following one, 4.0e-4 following none.

Seats: like ``equilibrium``, the observation does not say which seat the player is in, and
only R6.2 tells seats apart, at 4 or more players: give ``seat=`` there, or let the
evaluators' rotation give each seat its copy (``for_seat``). Play is deterministic (ties
stop), so it states no probabilities.

The net is read from ``path``: a search run folder (its newest checkpoint,
``pagadores_train.learners.search.trainer``) or a saved net (``.npz``).
"""

from __future__ import annotations

import hashlib
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import BasePolicy, Policy, reads_lowest_only, register_policy
from pagadores_env.pagadores.observation import ObsFields
from pagadores_env.pagadores.rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_table,
    turn_order,
)
from pagadores_env.pagadores.solver import SweepPolicy
from pagadores_env.pagadores.solver.model import PENALTY, SPECIALS
from pagadores_env.pagadores.solver.multi_kampen import Cards, Kampen
from pagadores_env.pagadores.solver.sweep import Key, Position, Sweep, lost

from ..seats import SeatCopies
from .memory import FLOOR, LEDGER, position_bytes
from .value_net import ValueNet

#: Round positions a search keeps by default (least recently used go first).
CACHE = 4096
#: Specials in a row a search follows exactly, by players (``None``: all; ``default_specials``).
SPECIALS_FOLLOWED: dict[int, int | None] = {2: None, 3: None}
#: ``leaf(cards, insteker)``: every seat's win probability ``[n]`` as that round starts.
Leaf = Callable[[Cards, int], np.ndarray]
#: ``batch(cards, insteker)``: the leaf at many positions at once, ``[B, n]`` from ``[B, n]``
#: card counts and ``[B]`` instekers (``ValueNet.__call__``).
BatchLeaf = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: Leaf values a search keeps before it reads them anew (about 300 bytes each).
LEAVES = 1 << 20


class _Store:
    """The after-throw values at the special strengths of the solved positions (what a
    special lands on, R4.1), as ``Sweep`` keeps them; ``RoundSearch`` bounds them with its
    positions and re-solves what it dropped."""

    def __init__(self) -> None:
        self.slices: dict[tuple[Cards, int], dict[Key, list[np.ndarray]]] = {}

    def put(self, cards: Cards, insteker: int, slices: dict[Key, np.ndarray]) -> None:
        self.slices[(cards, insteker)] = {key: list(kept.transpose(1, 0, 2, 3))
                                          for key, kept in slices.items()}


class RoundSearch(Sweep):
    """The exact round recursion of ``Sweep`` (every seat maximising its own value, or, for
    the seats in ``fixed``, playing that policy: a best response's search) with ``leaf``
    values wherever a round ends (see the module docstring); positions are solved on demand
    (``position``), each after the positions its specials reach."""

    def __init__(self, num_players: int, leaf: Leaf, cache: int = CACHE,
                 specials: int | None = None, fixed: Mapping[int, Policy] | None = None,
                 batch: BatchLeaf | None = None) -> None:
        fixed = dict(fixed or {})
        reading = [p for p in fixed.values() if not reads_lowest_only(p)]
        if reading:
            raise ValueError(f"search: a fixed seat's policy must read only the score to "
                             f"beat and its holders (score_view 'lowest'); "
                             f"{getattr(reading[0], 'name', reading[0])!r} reads every score")
        super().__init__((MAX_CARDS,) * num_players,
                         [tuple(seat not in fixed for seat in range(num_players))], fixed,
                         full=False)
        self.leaf = leaf
        self.batch = batch
        self.cache = cache
        self.specials = specials
        self.store = _Store()  # type: ignore[assignment]
        self.size = position_bytes(num_players)
        #: solved positions and how many specials deep they were solved (0: asked for)
        self.solved: OrderedDict[tuple[Cards, int], tuple[Position, int]] = OrderedDict()
        self._leaves: dict[tuple[Cards, int], np.ndarray] = {}
        self._shifted: Cards | None = None  # the position being solved, if it shifts
        self.kampen = Kampen(self.lose, self.hit, shifted=specials is not None)

    def value_at(self, cards: Cards, insteker: int) -> np.ndarray:
        """``[1, n]`` as a round starts: the leaf's values, or 1 for the winner (R1.5)."""
        alive = [s for s, c in enumerate(cards) if c]
        if len(alive) == 1:
            return self._won[alive[0]]
        key = (cards, insteker)
        found = self._leaves.get(key)
        if found is None:
            found = self._leaves[key] = np.asarray(self.leaf(cards, insteker)).reshape(1, -1)
        return found

    def prefetch(self, losses: list[tuple[Cards, int, int]]) -> None:
        """Work out the leaf values the round ends ``losses`` (``lose``'s arguments) reach
        in one ``batch`` call (the shifted kampen of a 6-player round ask hundreds)."""
        wanted: dict[tuple[Cards, int], None] = {}
        for cards, seat, count in losses:
            key = lost(cards, seat, count)
            if key not in self._leaves and sum(1 for c in key[0] if c) >= 2:
                wanted[key] = None
        if wanted and self.batch is not None:
            keys = list(wanted)
            values = self.batch(np.array([k[0] for k in keys]), np.array([k[1] for k in keys]))
            self._leaves.update((k, v[None]) for k, v in zip(keys, values, strict=True))

    def position(self, cards: Cards, insteker: int, deep: int = 0) -> Position:
        """The round tables of ``(cards, insteker)`` (solved now if not kept), reached by
        ``deep`` specials in this round: the positions its specials land on are solved
        first, unless ``specials`` of them in a row were followed already (``landing``)."""
        key = (cards, insteker)
        deep = 0 if self.specials is None else deep  # all followed: every depth is exact
        found = self.solved.get(key)
        if found is not None and found[1] <= deep:
            self.solved.move_to_end(key)
            LEDGER.touch(self, key)
            return found[0]
        exact = self.specials is None or deep < self.specials
        if exact:
            for seat in (order := [s for s in range(self.n) if cards[s]]):
                for y in SPECIALS:
                    left, ended = self.hit(cards, seat, tuple(order), int(PENALTY[y]))
                    if ended is None:
                        self.position(left, insteker, deep + 1)
        self._shifted = None if exact else cards
        if len(self._leaves) > LEAVES:  # bounded like the positions (read anew if needed)
            self._leaves.clear()
        if self.batch is not None and self.kampen.shifted:
            self.prefetch(self.kampen.losses(cards, turn_order(cards, insteker)))
        solved = self.solve_position(cards, insteker)
        self.solved[key] = (solved, deep)
        LEDGER.keep(self, key, self.size)
        while len(self.solved) > self.cache:
            oldest = next(iter(self.solved))
            self.drop(oldest)
            LEDGER.release(self, oldest)
        return solved

    def drop(self, key: Hashable) -> None:
        """Forget the solved position ``key`` (solved again if asked; ``search_memory``)."""
        self.solved.pop(key, None)  # type: ignore[call-overload]
        self.store.slices.pop(key, None)  # type: ignore[call-overload]
        self.win.pop(key, None)  # type: ignore[call-overload]

    def landing(self, left: Cards, insteker: int, key: Key, idx: int, kept: np.ndarray
                ) -> np.ndarray:
        """Beyond ``specials`` specials in a row, the round after one more goes on as it
        would have without it, shifted by what the cards it took are worth where rounds
        start (the leaf at ``left`` less the leaf here): a second or third special in one
        round is rare (about 6% a throw), and this keeps a search to one position."""
        if self._shifted is None:
            return super().landing(left, insteker, key, idx, kept)
        return kept[:, idx] + self.shift(left, self._shifted, insteker)

    def shift(self, left: Cards, cards: Cards, insteker: int) -> np.ndarray:
        """``[1, n]``: what a special's cards are worth where rounds start, the leaf at
        ``left`` less the leaf at ``cards`` (``landing``)."""
        return self.value_at(left, insteker) - self.value_at(cards, insteker)

    def landed(self, cards: Cards, insteker: int, key: Key, idx: int) -> np.ndarray:
        """``[Q_j, V, n]``: what this search takes the ``idx``-th special thrown at round state
        ``key`` of the solved position ``(cards, insteker)`` to be worth, as ``solve_position``
        took it (``landing``; the round's end where it empties someone, R6.2)."""
        order = turn_order(cards, insteker)
        left, ended = self.hit(cards, order[key[0]], order, int(PENALTY[SPECIALS[idx]]))
        here = self.store.slices[(cards, insteker)][key][idx]
        if ended is not None:
            return np.broadcast_to(ended, here.shape)
        if self.specials == 0:  # every special shifted (``landing``)
            return here + self.shift(left, cards, insteker)
        self.position(left, insteker, 1)
        return self.store.slices[(left, insteker)][key][idx]

    def forget_leaves(self) -> None:
        """Read the values where rounds end anew (the leaf has changed); the positions and
        kampen already solved keep theirs."""
        self._leaves.clear()

    def value(self, cards: Cards, insteker: int) -> np.ndarray:
        """``[n]``: every seat's win probability as this round starts, searched."""
        alive = [s for s, c in enumerate(cards) if c]
        if len(alive) == 1:
            return self._won[alive[0]][0]
        self.position(cards, insteker)
        return self.win[(cards, insteker)][0]


def default_specials(num_players: int) -> int | None:
    """How many specials in a row a search follows exactly by default: all at 2–3 players;
    at 4 or more none (``RoundSearch.landing``), which keeps a search to one position where
    following them would take minutes (one 4-player 10-card round with every special
    followed solved 820 positions and 62,000 kampen; with none, one position in 0.04 s)."""
    return SPECIALS_FOLLOWED.get(num_players, 0)


def check_specials(specials: int | str | None, num_players: int) -> int | None:
    """``specials`` as ``RoundSearch`` takes it: 0–3, ``"all"`` (``None``), or ``None`` for
    the table's default; ``ValueError`` in one line otherwise."""
    if specials is None:
        return default_specials(num_players)
    if specials == "all":
        return None
    if isinstance(specials, bool) or not isinstance(specials, int) or not 0 <= specials <= 3:
        raise ValueError(f"search: specials must be 0, 1, 2, 3 or 'all' (how many specials in "
                         f"a row a round's search follows exactly), got {specials!r}")
    return specials


def searcher(net: ValueNet, depth: int, cache: int = CACHE, specials: int | None = None,
             fixed: Mapping[int, Policy] | None = None) -> RoundSearch:
    """The search of ``depth`` rounds over ``net``'s values (depth 1: the round at hand),
    following ``specials`` specials in a row exactly (``None``: all), the seats in ``fixed``
    playing their policies (``RoundSearch``)."""
    n = net.num_players

    search = RoundSearch(n, net.one, cache, specials, fixed, batch=net)
    for _ in range(depth - 1):
        search = RoundSearch(n, search.value, cache, specials, fixed)
    return search


class _Positions(Mapping[tuple[Cards, int], Position]):
    """A search's positions as the mapping ``SweepPolicy`` plays from."""

    def __init__(self, search: RoundSearch) -> None:
        self.search = search

    def __getitem__(self, key: tuple[Cards, int]) -> Position:
        return self.search.position(*key)

    def __iter__(self) -> Iterator[tuple[Cards, int]]:
        return iter(self.search.solved)

    def __len__(self) -> int:
        return len(self.search.solved)


def load_net(path: str | Path) -> ValueNet:
    """The value net ``path`` names: a search run folder's newest checkpoint or an ``.npz``
    file (``ValueError`` in one line otherwise)."""
    from ..run_folders import search_run_net

    folder = Path(str(path))
    found = search_run_net(folder) if folder.is_dir() else folder
    if found is None:
        raise ValueError(f"{str(folder)!r} holds no search run's value net (expected a "
                         f"folder of pagadores train with a search: config, or a .npz file)")
    return ValueNet.load(found)


class SearchPolicy(SeatCopies):
    """Plays the searched round over a learned value net (see the module docstring)."""

    name = "search"
    parameter_forms = {"path": "RUN_DIR"}
    #: it answers from the tables of each position it solves (one search a position), so
    #: its rows are lookups (``pagadores.policies.DeclaresPositionAnswers``)
    position_answers = True

    def __init__(self, path: str | Path, depth: int = 1, seat: int | None = None,
                 cache: int = CACHE, specials: int | str | None = None,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        self._play(load_net(path), depth, seat, cache, specials)

    @classmethod
    def over(cls, net: ValueNet, depth: int = 1, seat: int | None = None,
             cache: int = CACHE, specials: int | str | None = None,
             fixed: Mapping[int, Policy] | None = None) -> SearchPolicy:
        """The player over a net in memory (a learner's, while it trains); with ``fixed``
        (the other seats' policies) it is ``seat``'s best response to them, searched."""
        player = cls.__new__(cls)
        BasePolicy.__init__(player)
        player._play(net, depth, seat, cache, specials, fixed)
        return player

    def _play(self, net: ValueNet, depth: int, seat: int | None, cache: int,
              specials: int | str | None, fixed: Mapping[int, Policy] | None = None) -> None:
        self.net = net
        self.depth = check_int("depth", depth, 1, 3)
        n = net.num_players
        if seat is not None and check_int("seat", seat, 0) >= n:
            raise ValueError(f"search: its value net was trained at {n} players, whose seats "
                             f"are 0–{n - 1}; got seat={seat}")
        self.seat = seat
        self.specials = check_specials(specials, n)
        self.search = searcher(net, self.depth, check_int("cache", cache, FLOOR), self.specials,
                               fixed)
        self.player = SweepPolicy(_Positions(self.search), net.num_players,
                                  (MAX_CARDS,) * net.num_players, self.seat, self.name)
        self._copies: dict[int, SearchPolicy] = {}

    def fingerprint(self) -> str:
        """SHA-256 of the value net's weights (``solver.results_cache``; the depth and the
        specials followed are in the spec)."""
        digest = hashlib.sha256()
        for w, b in self.net.layers:
            digest.update(w.tobytes() + b.tobytes())
        return digest.hexdigest()

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """``ValueError`` unless the net was trained for this many players and, at 4 or more
        players, the player knows its seat (R6.2). A table starting with more cards a seat
        than the net was trained at is played, with a one-line warning: the net never saw
        its positions (at fewer cards it did: every game passes through them)."""
        n = check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)
        self.check_size(n)
        start = check_table(n, cards)[1]
        self.player.check_table(n, start)
        trained = self.net.cards
        if trained is not None and max(start) > max(trained):
            warnings.warn(f"search: its value net was trained at a table of {max(trained)} "
                          f"cards a seat; this one starts with {max(start)}, where its values "
                          "are guesses at positions it never saw", stacklevel=2)

    def check_size(self, num_players: int) -> None:
        """``ValueError`` unless the net was trained at a table of ``num_players``."""
        if num_players != self.net.num_players:
            raise ValueError(f"search: its value net was trained at {self.net.num_players} "
                             f"players, the table has {num_players}")

    def copy_for(self, seat: int, num_players: int) -> SearchPolicy:
        """This player told ``seat``, sharing the search and its cache (``SeatCopies``)."""
        copy = SearchPolicy.over(self.net, self.depth, seat, FLOOR, self.specials)
        copy.searching(self.search)  # one search (and cache) for every seat
        return copy

    def searching(self, search: RoundSearch) -> None:
        """Play from ``search`` (its cache shared with whoever else uses it)."""
        self.search = search
        self.player = SweepPolicy(_Positions(search), self.net.num_players,
                                  (MAX_CARDS,) * self.net.num_players, self.seat, self.name)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The searched action at one observation."""
        return self.player.act(obs, mask)

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The searched actions at rows of observations (rows of one position share one
        search)."""
        return self.player.act_batch(obs, mask)

    def act_fields(self, fields: ObsFields, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` on decoded observations, as the exact solver hands them over
        (``pagadores.policies.SupportsActFields``)."""
        return self.player.act_fields(fields, mask)


register_policy("search", SearchPolicy)
