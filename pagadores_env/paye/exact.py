"""The exact yardstick of Paye's dobbelspel (Y8): the optimum at 2 players, the
subgame-perfect equilibrium at 3–4, exact evaluation, best responses and NashConv of any
players, for any special dice and number of rounds.

The base game has perfect information and explicit chance (Y5.1, Y8.1): a position is the
scores, the round and the turn within the round. Backward induction over the turns
(``sweep``, ``layers``) gives every position's value: each seat's share of the win (1/k of a
win shared by k seats, Y4.4). In the equilibrium the player to move takes the die that
maximises its own share, the lowest index among dice within 1e-12 of the best (Y8.1); at 2
players that is the zero-sum optimum.

- ``start_values(num_players, dice, rounds, variant)``: each seat's share of the win in the
  equilibrium, seat 0 moving first from zero scores. The expansion (``variant="expansion"``)
  is exact at 2 players (``expansion``); 3+ players are refused in one line.
- ``exact_evaluate``, ``best_response``, ``nash_conv`` and ``exploitability`` below take
  ``variant`` too: the expansion at 2 players (``expansion_sweep``).
- ``solve(...)`` → :class:`Solution`: the equilibrium's values and its choice at every
  position (``Solution.policy()`` plays it; cached per table in this process); with
  ``keep_values`` also every position's values (``Solution.position_values``).
- ``action_values(game)``: at a die choice of a game in progress, every seat's share of the
  win after each legal choice, with equilibrium play after it (the page's exact hints).
- ``exact_evaluate(profile, ...)``: every seat's exact share of the win when each plays its
  policy of ``profile`` (one agent for every seat, or one per seat: spec strings of Paye's
  players or policy objects). A policy is asked about every position on the observation rows
  the environment gives its player, through ``core.policies.batch_actions`` in batches, and
  each distinct observation once, however many seats and variants it plays
  (``sweep``). A policy that states its probabilities (``random``) is measured as its
  mixture, any other at its answers.
- ``best_response(profile, seat, ...)``: ``seat``'s exact best share against the others
  playing ``profile``; ``nash_conv(profile, ...)``: OpenSpiel's NashConv, the sum over seats
  of what a seat gains by switching to its best response (0 exactly at an equilibrium);
  ``exploitability(policy, ...)`` at 2 players: the best response's share minus 1/2, which is
  NashConv / 2 (Y8.1).

``first_player`` says who moves first: a seat, or None (default) for the game as played, each
seat first with probability 1/n (Y2.1: the start throws, by symmetry), over which every value
is averaged. Sizes are checked against ``core.memory.memory_limit()`` before any work
(``check_size``); what does not fit is refused in one line naming the limit and what fits.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core import checks
from ..core.memory import memory_limit
from ..core.policies import Policy, SupportsActionProbabilities, check_tables, make_policy
from .engine import BLUE_CHOICE, Game
from .layers import TIE, layer_bytes
from .policies import GAME
from .rules import (
    ROUNDS,
    SPECIAL_DICE,
    TARGETS,
    check_dice,
    check_players,
    check_rounds,
    check_variant,
)
from .sweep import Choosers, Progress, sweep
from .table_play import TablePolicy

#: Y8.1: the base game's exact yardstick covers these tables.
MIN_EXACT, MAX_EXACT = 2, 4
TARGET = TARGETS["base"]
#: Solutions kept in this process (``solve``), the most recently used last.
SOLUTIONS = 4
_SOLVED: OrderedDict[tuple[int, tuple[tuple[int, ...], ...], int], Solution] = OrderedDict()

#: One agent (spec string or policy) for every seat, or a list with one per seat.
Profile = str | Policy | Sequence[str | Policy]
Dice = tuple[tuple[int, ...], ...]


# ---------------------------------------------------------------- sizes
def check_table(num_players: int, dice: Sequence[Sequence[int]] | None, rounds: int
                ) -> tuple[int, Dice, int]:
    """The table of an exact computation of the base game: 2–4 players (Y8.1), the dice
    (``rules.check_dice``) and the rounds; ``ValueError`` in one line otherwise."""
    n = check_players(num_players)
    if not MIN_EXACT <= n <= MAX_EXACT:
        raise ValueError(f"the exact yardstick of the base game covers {MIN_EXACT}–{MAX_EXACT} "
                         f"players (Y8.1), got {n}")
    return n, check_dice(dice), check_rounds(rounds)


def check_exact_table(num_players: int, dice: Sequence[Sequence[int]] | None, rounds: int,
                      variant: str) -> tuple[int, Dice, int, str]:
    """``check_table`` for ``variant``: the base game at 2–4 players, the expansion at 2
    (``expansion.PLAYERS``); ``ValueError`` in one line otherwise."""
    if check_variant(variant) == "base":
        return (*check_table(num_players, dice, rounds), "base")
    from .expansion import check_expansion_players

    n = check_expansion_players(num_players)
    return n, check_dice(dice), check_rounds(rounds), "expansion"


def pass_bytes(num_players: int, variants: int = 1, mixed: int = 0, kept_layers: int = 0,
               kept_values: int = 0) -> int:
    """The memory a pass takes: per variant its next layer, the products of a turn's six
    dice and their turned, gathered and compared copies (``sweep``), the answers of
    ``mixed`` policies stating probabilities, ``kept_layers`` layers of choices and
    ``kept_values`` layers of values."""
    positions = TARGET ** num_players
    return (layer_bytes(num_players, TARGET) * (variants + SPECIAL_DICE + 3 + kept_values)
            + positions * (kept_layers + mixed * SPECIAL_DICE * 8 + 8 * SPECIAL_DICE + 16))


def check_size(num_players: int, variants: int = 1, mixed: int = 0, kept_layers: int = 0,
               what: str = "solve", kept_values: int = 0) -> int:
    """The bytes of a pass (``pass_bytes``) if they fit in ``core.memory.memory_limit()``;
    else ``ValueError`` in one line naming both and the most players that fit."""
    need = pass_bytes(num_players, variants, mixed, kept_layers, kept_values)
    limit = memory_limit()
    if need <= limit:
        return need
    fits = [m for m in range(MIN_EXACT, num_players)
            if pass_bytes(m, variants, mixed, kept_layers * m // num_players,
                          kept_values * m // num_players) <= limit]
    room = f"up to {fits[-1]} players fit" if fits else "no table fits"
    raise ValueError(f"cannot {what} at {num_players} players: it needs about "
                     f"{need / 2**30:.1f} GiB, more than the {limit / 2**30:.1f} GiB this "
                     f"process may use (core.memory.memory_limit); {room}")


# ---------------------------------------------------------------- the equilibrium
@dataclass(frozen=True)
class Solution:
    """The equilibrium of a base-game table: each seat's share of the win from the start
    (``values``, seat 0 moving first), and the die chosen at every position of every layer
    ``(round, turn)`` (``choices``: flat int8, ``table_play``); with ``keep_values``, every
    layer's values at the start of its turn (``layers``, ``layers.py``'s orientation)."""

    num_players: int
    dice: Dice
    rounds: int
    values: tuple[float, ...]
    choices: dict[tuple[int, int], np.ndarray] = field(repr=False)
    seconds: float
    layers: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)

    def choice(self, round_: int, turn: int, scores: Sequence[int]) -> int:
        """The equilibrium's die at the start of ``turn`` of ``round_`` with ``scores`` in
        turn order from the player to move (its own first)."""
        index = 0
        for score in scores:
            index = index * TARGET + int(score)
        return int(self.choices[(round_, turn)][index])

    def policy(self, name: str = "equilibrium") -> TablePolicy:
        """The equilibrium as a player (``table_play.TablePolicy``)."""
        return TablePolicy(self.num_players, self.dice, self.rounds, self.choices, name)

    def position_values(self, round_: int, turn: int, scores: Sequence[int]
                        ) -> tuple[float, ...]:
        """Each seat's share of the win in the equilibrium from the start of ``turn`` of
        ``round_`` with ``scores``, both in turn order from the player to move (its own
        first); the values must be kept (``solve(..., keep_values=True)``)."""
        if not self.layers:
            raise ValueError("the values were not kept: solve with keep_values=True")
        layer = self.layers[(round_, turn)]
        return tuple(float(v) for v in layer[tuple(int(s) for s in scores)])


def solve(num_players: int, dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
          progress: Progress | None = None, keep_values: bool = False) -> Solution:
    """The equilibrium of a base-game table with its choices and, with ``keep_values``,
    every position's values (kept in this process for the next call, ``SOLUTIONS`` tables at
    most). ``ValueError`` for a bad argument and, before any work, for a table beyond the
    memory limit."""
    n, dice_, rounds_ = check_table(num_players, dice, rounds)
    key = (n, dice_, rounds_)
    keep_values = checks.check_flag("keep_values", keep_values)
    if key in _SOLVED and (_SOLVED[key].layers or not keep_values):
        _SOLVED.move_to_end(key)
        return _SOLVED[key]
    check_size(n, kept_layers=rounds_ * n, what="solve",
               kept_values=rounds_ * n if keep_values else 0)
    began = time.perf_counter()
    layers: dict[tuple[int, int], np.ndarray] = {}

    def hear(variant: int, round_: int, turn: int, layer: np.ndarray) -> None:
        layers[(round_, turn)] = layer

    starts, kept = sweep(n, dice_, rounds_, [(None,) * n],
                         keep=[(0, turn) for turn in range(n)], progress=progress,
                         on_layer=hear if keep_values else None)
    choices = {(r, t): table for (_, r, t), table in kept.items()}
    solution = Solution(n, dice_, rounds_, tuple(float(v) for v in starts[0]), choices,
                        time.perf_counter() - began, layers)
    _SOLVED[key] = solution
    while len(_SOLVED) > SOLUTIONS:
        _SOLVED.popitem(last=False)
    return solution


def start_values(num_players: int, dice: Sequence[Sequence[int]] | None = None,
                 rounds: int = ROUNDS, variant: str = "base", progress: Progress | None = None
                 ) -> tuple[float, ...]:
    """Each seat's share of the win in the equilibrium (Y8.1), seat 0 moving first from zero
    scores; the expansion at 2 players only (``expansion.solve_expansion``). ``progress``
    hears of each layer (turn) done."""
    if check_variant(variant) == "expansion":
        from .expansion import solve_expansion

        return solve_expansion(num_players, dice, rounds, keep=False, progress=progress).values
    n, dice_, rounds_ = check_table(num_players, dice, rounds)
    known = _SOLVED.get((n, dice_, rounds_))
    if known is not None:
        return known.values
    check_size(n, what="solve")
    return tuple(float(v) for v in sweep(n, dice_, rounds_, [(None,) * n],
                                         progress=progress)[0][0])


# ---------------------------------------------------------------- a game in progress
def action_values(game: Game) -> dict[int, tuple[float, ...]]:
    """At a die choice of ``game`` (Y7: the base game's die, the expansion's red or blue
    die), each legal action's value: every seat's share of the win, by seat, when the player
    to move takes it and every choice after it is the equilibrium's (Y8.1; at 2 players the
    optimum). The base game's values come from ``solve(..., keep_values=True)``, the
    expansion's (2 players) from ``solve_expansion(..., keep_values=True)``; the throws up to
    the next turn are the engine's own (``chance_outcomes``), so no rule is written again
    here, and a blue choice still to come is the mover's best (the lowest action within
    1e-12, Y8.1). ``ValueError`` in one line at a position that is no die choice, for a
    table the yardstick does not cover, and before any work beyond the memory limit."""
    if not isinstance(game, Game):
        raise ValueError(f"action_values takes a game of Paye's dobbelspel, got "
                         f"{type(game).__name__}")
    if game.is_terminal() or game.is_chance_node():
        raise ValueError("action_values needs a die choice (Y7): this game is at a throw or "
                         "over")
    if game.variant == "expansion":
        from .expansion import solve_expansion

        expansion = solve_expansion(game.num_players, game.dice, game.rounds,
                                    keep_values=True)

        def known(g: Game) -> tuple[float, ...]:
            return expansion.position_values(g.round, g.turn, g.aside,
                                             _slots(g.scores, g.mover))
    else:
        base = solve(game.num_players, game.dice, game.rounds, keep_values=True)

        def known(g: Game) -> tuple[float, ...]:
            return base.position_values(g.round, g.turn, _slots(g.scores, g.mover))
    return {int(action): tuple(float(v) for v in _after(game, action, known))
            for action in game.legal_actions()}


def _slots(scores: Sequence[int], mover: int) -> tuple[int, ...]:
    """``scores`` in turn order from ``mover`` (the layers' orientation)."""
    n = len(scores)
    return tuple(scores[(mover + k) % n] for k in range(n))


def _after(game: Game, action: int, known: Callable[[Game], tuple[float, ...]]) -> np.ndarray:
    """Every seat's share once the mover of ``game`` takes ``action`` (``action_values``)."""
    child = game.clone()
    child.apply_action(action)
    return _value(child, known)


def _value(game: Game, known: Callable[[Game], tuple[float, ...]]) -> np.ndarray:
    """Every seat's share at ``game``: at the end its share of the win (Y4.4), at a throw
    the expectation over the die's faces, at the start of a turn the solution's value
    (``known``, in turn order from the mover), at a blue choice the mover's best."""
    n = game.num_players
    if game.is_terminal():
        return np.array([1.0 / len(game.winners) if s in game.winners else 0.0
                         for s in range(n)])
    if game.is_chance_node():
        total = np.zeros(n)
        for face, probability in game.chance_outcomes():
            child = game.clone()
            child.apply_chance(face)
            total += probability * _value(child, known)
        return total
    if game.phase == BLUE_CHOICE:
        options = [_after(game, action, known) for action in game.legal_actions()]
        best = max(o[game.mover] for o in options)
        return next(o for o in options if o[game.mover] >= best - TIE)
    turned = known(game)
    return np.array([turned[(s - game.mover) % n] for s in range(n)])


# ---------------------------------------------------------------- profiles
def profile_players(profile: Profile, num_players: int, rounds: int) -> list[Policy]:
    """One policy per seat: ``profile`` is one agent (spec string of Paye's players, or a
    policy) for every seat, alone or in a list of one, or a list with one per seat. One
    entry for every seat is one object at every seat, and equal spec strings build one
    object, so each is asked every distinct observation once. Every player is asked whether
    it plays this table (``core.policies.check_tables``, with the rounds as Paye's
    ``core.policies.Table``)."""
    entries = [profile] if isinstance(profile, str | Policy) else list(profile)
    if len(entries) == 1:
        entries *= num_players
    if len(entries) != num_players:
        raise ValueError(f"a profile is one agent for every seat or {num_players} agents "
                         f"(one per seat), got {len(entries)}")
    built: dict[int | str, Policy] = {}
    players = []
    for entry in entries:
        key = entry if isinstance(entry, str) else id(entry)
        if key not in built:
            built[key] = make_policy(entry, game=GAME)
        players.append(built[key])
    check_tables(players, num_players, rounds)
    return players


def _firsts(first_player: int | None, num_players: int) -> list[int]:
    if first_player is None:
        return list(range(num_players))
    return [checks.check_int("first_player", first_player, 0, num_players - 1)]


@dataclass
class _Plan:
    """The variants of one pass and where each (label, first player) sits among them."""

    num_players: int
    variants: list[Choosers] = field(default_factory=list)
    index: dict[tuple[str, int, int], int] = field(default_factory=dict)
    _keys: dict[tuple[int | None, ...], int] = field(default_factory=dict)

    def add(self, label: tuple[str, int, int], choosers: Choosers) -> None:
        key = tuple(None if c is None else id(c) for c in choosers)
        if key not in self._keys:
            self._keys[key] = len(self.variants)
            self.variants.append(choosers)
        self.index[label] = self._keys[key]


def _measure(players: list[Policy], dice: Dice, rounds: int, firsts: list[int],
             responses: Sequence[int], keep_policy: bool = False,
             progress: Progress | None = None, what: str = "evaluate", variant: str = "base"
             ) -> tuple[dict[tuple[str, int, int], tuple[float, ...]],
                        dict[tuple[int, int, int], np.ndarray], _Plan]:
    """One pass: each seat's share under the profile (label ``("profile", f, -1)``) and, for
    each seat of ``responses``, under its best response (``("response", f, seat)``), per first
    player ``f``, by absolute seat; in the expansion by ``expansion_sweep`` (nothing kept)."""
    n = len(players)
    plan = _Plan(n)
    for f in firsts:
        seated = tuple(players[(f + j) % n] for j in range(n))
        plan.add(("profile", f, -1), seated)
        for seat in responses:
            plan.add(("response", f, seat),
                     tuple(None if (f + j) % n == seat else seated[j] for j in range(n)))
    keep = []
    if keep_policy:
        (seat,) = responses
        keep = [(plan.index[("response", (seat - t) % n, seat)], t) for t in range(n)]
    if variant == "expansion":
        from . import expansion_sweep

        expansion_sweep.check_size(len(plan.variants), what=what)
        starts = expansion_sweep.sweep_expansion(dice, rounds, plan.variants, progress)
        kept: dict[tuple[int, int, int], np.ndarray] = {}
    else:
        mixed = len({id(p) for p in players if isinstance(p, SupportsActionProbabilities)})
        check_size(n, len(plan.variants), mixed, rounds * len(keep), what=what)
        starts, kept = sweep(n, dice, rounds, plan.variants, keep=keep, progress=progress)
    values = {label: tuple(float(starts[i][(s - label[1]) % n]) for s in range(n))
              for label, i in plan.index.items()}
    return values, kept, plan


def _mean(values: dict[tuple[str, int, int], tuple[float, ...]], kind: str, seat: int,
          firsts: list[int]) -> tuple[float, ...]:
    rows = np.array([values[(kind, f, seat)] for f in firsts])
    return tuple(float(v) for v in rows.mean(axis=0))


def exact_evaluate(profile: Profile, num_players: int = 2,
                   dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                   first_player: int | None = None, progress: Progress | None = None,
                   variant: str = "base") -> tuple[float, ...]:
    """Every seat's exact share of the win when each plays its policy of ``profile``
    (module docstring), with ``first_player`` moving first (None: each seat alike)."""
    n, dice_, rounds_, variant_ = check_exact_table(num_players, dice, rounds, variant)
    firsts = _firsts(first_player, n)
    players = profile_players(profile, n, rounds_)
    values, _, _ = _measure(players, dice_, rounds_, firsts, (), progress=progress,
                            variant=variant_)
    return _mean(values, "profile", -1, firsts)


@dataclass(frozen=True)
class BestResponse:
    """A seat's exact best response against the others' policies: its share of the win
    (``value``) and its share playing its own policy of the profile (``profile_value``)."""

    seat: int
    value: float
    profile_value: float
    table: TablePolicy | None = field(default=None, repr=False)

    @property
    def gain(self) -> float:
        """What the seat wins by switching to its best response."""
        return self.value - self.profile_value

    def policy(self) -> TablePolicy:
        """The best response as a player (kept with ``keep_policy=True`` when one object
        plays every seat of the profile and every seat may move first)."""
        if self.table is None:
            raise ValueError("the best response was not kept: call best_response with "
                             "keep_policy=True, one policy for every seat and "
                             "first_player=None")
        return self.table


def best_response(profile: Profile, seat: int, num_players: int = 2,
                  dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
                  first_player: int | None = None, keep_policy: bool = False,
                  progress: Progress | None = None, variant: str = "base") -> BestResponse:
    """``seat``'s exact best response against the other seats playing their policies of
    ``profile`` (module docstring). With ``keep_policy`` (the base game, one policy object at
    every seat, ``first_player=None``) its choices are kept as a player
    (``BestResponse.policy``), which reads from the observation where the turn puts it and
    so plays any seat."""
    n, dice_, rounds_, variant_ = check_exact_table(num_players, dice, rounds, variant)
    hero = checks.check_int("seat", seat, 0, n - 1)
    firsts = _firsts(first_player, n)
    players = profile_players(profile, n, rounds_)
    keep = checks.check_flag("keep_policy", keep_policy)
    if keep and (first_player is not None or len({id(p) for p in players}) > 1
                 or variant_ != "base"):
        raise ValueError("keep_policy needs the base game, one policy object at every seat "
                         "and first_player=None: only then does the observation say where "
                         "the best response sits")
    values, kept, plan = _measure(players, dice_, rounds_, firsts, (hero,), keep,
                                  progress, what="best-respond", variant=variant_)
    table = None
    if keep:
        choices = {(r, t): choice for (_, r, t), choice in kept.items()}
        table = TablePolicy(n, dice_, rounds_, choices, name="best-response")
    return BestResponse(hero, _mean(values, "response", hero, firsts)[hero],
                        _mean(values, "profile", -1, firsts)[hero], table)


@dataclass(frozen=True)
class NashConv:
    """NashConv of a profile: ``gains[i]`` is what seat ``i`` wins by switching to its best
    response while the others keep their policies, ``values[i]`` its share of the win under
    the profile, ``best_responses[i]`` under its best response; ``total`` the sum of the
    gains (0 exactly at an equilibrium)."""

    total: float
    gains: tuple[float, ...]
    values: tuple[float, ...]
    best_responses: tuple[float, ...]


def nash_conv(profile: Profile, num_players: int = 2,
              dice: Sequence[Sequence[int]] | None = None, rounds: int = ROUNDS,
              first_player: int | None = None, progress: Progress | None = None,
              variant: str = "base") -> NashConv:
    """NashConv (OpenSpiel's measure) of ``profile``, exactly, in one pass holding the
    profile and every seat's best response (module docstring)."""
    n, dice_, rounds_, variant_ = check_exact_table(num_players, dice, rounds, variant)
    firsts = _firsts(first_player, n)
    players = profile_players(profile, n, rounds_)
    values, _, _ = _measure(players, dice_, rounds_, firsts, tuple(range(n)),
                            progress=progress, what="compute the NashConv", variant=variant_)
    current = _mean(values, "profile", -1, firsts)
    best = tuple(_mean(values, "response", s, firsts)[s] for s in range(n))
    gains = tuple(b - v for b, v in zip(best, current, strict=True))
    return NashConv(float(sum(gains)), gains, current, best)


def exploitability(policy: str | Policy, dice: Sequence[Sequence[int]] | None = None,
                   rounds: int = ROUNDS, variant: str = "base") -> float:
    """At 2 players: the best response's share of the win against ``policy`` minus 1/2,
    averaged over who moves first; NashConv / 2 (Y8.1). 0 exactly for an optimal policy."""
    return nash_conv(policy, 2, dice, rounds, variant=variant).total / 2
