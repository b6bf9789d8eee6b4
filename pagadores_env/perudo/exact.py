"""Exact yardstick for the smallest Perudo: 2 players with 1 die each (P1.2), a one-round game.

The first dudo takes a die from a player who then has none, so the game ends with that round
(P2.4, P1.3). Its tree: chance rolls both dice (36 equally likely pairs, P7.1), then seat 0
opens (P2.2) and the seats alternate, each raising (P3) or calling dudo (P4). A raise always
names a bid later in ``observation.bid_order``, and at most 2 dice bound every quantity (P3.1),
so there are 4,093 bid histories. The **public tree** holds them: node = the round's bids so
far, one edge per legal action. A seat's information state is its own die plus that history
(P7.2, perfect recall), so every quantity here is an array over the acting seat's die (axis of
6, face 1 … 6) on nodes or edges, and one numpy pass per depth walks the whole tree.

A **strategy** is an ``(edges, 6)`` array: the probability that the node's actor takes the edge's
action holding each die. ``strategy(policy)`` builds one from

- a Perudo policy (``core.policies.Policy``): asked once about the observation of every
  information state; a policy with ``action_probabilities(obs, mask)``
  (``core.policies.SupportsActionProbabilities``: the ``agents.perudo`` players, ``StrategyPolicy``)
  is measured exactly; any other is taken at its ``act_batch`` answer, so a sampling policy
  without probabilities is measured as that one draw (the registered ``random`` player is
  one: measure uniform play with ``uniform_strategy()``);
- a function ``(die, history) -> 181 probabilities`` (``history`` the tuple of bid actions);
- an array (checked), such as ``uniform_strategy()``: every legal action alike.

Values are seat returns, +1 for the winner and -1 for the loser (P7.3, ``Game.returns``).
``best_response`` gives a seat's best value against the other seat's part of a strategy
(backward induction over the seat's information states); ``exploitability`` is ``(BR0 + BR1) /
2``, which is OpenSpiel's ``exploitability`` (NashConv / players) for this zero-sum game:
0 exactly at an equilibrium, at most 1. ``best_responses`` returns it with one pure strategy
that best-responds in both seats (the opponent ``pagadores_train.learners.best_response`` trains
against). ``cfr_plus`` computes an equilibrium by tabular CFR+
(regret matching+, alternating updates, linearly weighted average strategy) over the same
information states.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.policies import (
    BasePolicy,
    Policy,
    SupportsActionProbabilities,
    batch_actions,
    make_policy,
)
from .engine import Game
from .observation import OBS_SIZE, bid_order, decode, encode
from .rules import DUDO, FACES, NUM_ACTIONS, legal_mask

PLAYERS = 2
DICE = 1  # per player: the one-round game
ROLLS = FACES * FACES  # equally likely dice pairs (P7.1)

History = tuple[int, ...]
#: A function from (own die, the round's bid actions so far) to 181 action probabilities.
StrategyFunction = Callable[[int, History], Sequence[float] | np.ndarray]


@dataclass(frozen=True)
class Tree:
    """The public tree. Decision nodes are numbered by depth (breadth first), root 0; the
    terminals (after a dudo) follow them in ``payoff``'s order. Edges are sorted by parent,
    so one depth's edges form one slice (``levels``) and a node's edges a run from
    ``first``."""

    histories: tuple[History, ...]  # per decision node: the round's bids so far
    index: dict[History, int]  # history -> decision node
    parent: np.ndarray  # per edge: its decision node
    action: np.ndarray  # per edge: its action
    child: np.ndarray  # per edge: the node it leads to (a decision node or a terminal)
    first: np.ndarray  # per decision node: its first edge
    legal: np.ndarray  # per decision node: its number of legal actions
    levels: tuple[tuple[slice, slice, int], ...]  # per depth: (edges, their parents, actor)
    payoff: np.ndarray  # (terminals, 6, 6): seat 0's return per (die of 0, die of 1)

    @property
    def nodes(self) -> int:
        """Decision nodes."""
        return len(self.histories)

    @property
    def edges(self) -> int:
        """Edges: (decision node, legal action) pairs."""
        return len(self.parent)


def _dudo_returns(history: History) -> np.ndarray:
    """Seat 0's return when the last bid of ``history`` is called, per dice pair: the engine
    plays it (P4.1, P4.2)."""
    payoff = np.empty((FACES, FACES))
    for d0 in range(FACES):
        for d1 in range(FACES):
            game = Game(PLAYERS, DICE)
            game.apply_roll(((d0 + 1,), (d1 + 1,)))
            for action in (*history, DUDO):
                game.apply_action(action)
            payoff[d0, d1] = game.returns()[0]
    return payoff


@functools.cache
def tree() -> Tree:
    """The public tree of the 2-player 1-die game (built once, in about half a second)."""
    histories: list[History] = [()]
    bids_at = [DUDO]  # per node: its bid to beat, none at the root
    parent: list[int] = []
    action: list[int] = []
    child: list[int] = []
    first: list[int] = []
    legal: list[int] = []
    depth_of = [0]
    terminal_payoff: dict[tuple[int, int], np.ndarray] = {}  # (last bid, caller) -> returns
    payoffs: list[np.ndarray] = []
    total = PLAYERS * DICE
    node = 0
    while node < len(histories):  # breadth first: children are numbered after their parent
        history = histories[node]
        moves = np.flatnonzero(legal_mask(bids_at[node], total, False))  # P3, P4.1; round 1
        first.append(len(parent))
        legal.append(len(moves))
        for move in moves.tolist():
            parent.append(node)
            action.append(move)
            if move == DUDO:
                key = (history[-1], len(history) % PLAYERS)  # the outcome needs no more
                if key not in terminal_payoff:
                    terminal_payoff[key] = _dudo_returns(history)
                payoffs.append(terminal_payoff[key])
                child.append(-len(payoffs))  # a terminal, renumbered below
                continue
            histories.append((*history, move))
            bids_at.append(move)
            depth_of.append(depth_of[node] + 1)
            child.append(len(histories) - 1)
        node += 1
    n = len(histories)
    child_ids = np.array(child)
    child_ids[child_ids < 0] = n - 1 - child_ids[child_ids < 0]
    parents, depths = np.array(parent), np.array(depth_of)
    levels = []
    for depth in range(depths.max() + 1):
        nodes = np.flatnonzero(depths == depth)
        edges = np.flatnonzero(depths[parents] == depth)
        if len(edges):
            levels.append((slice(edges[0], edges[-1] + 1), slice(nodes[0], nodes[-1] + 1),
                           depth % PLAYERS))  # seat 0 opens round 1 (P2.2), then alternate
    return Tree(tuple(histories), {h: i for i, h in enumerate(histories)}, parents,
                np.array(action), child_ids, np.array(first), np.array(legal), tuple(levels),
                np.array(payoffs))


# ---------------------------------------------------------------- strategies
def uniform_strategy() -> np.ndarray:
    """Every legal action equally likely at every information state."""
    t = tree()
    return np.repeat((1.0 / t.legal[t.parent])[:, None], FACES, axis=1)


def _check_probabilities(probs: np.ndarray, masks: np.ndarray, source: str) -> np.ndarray:
    """``probs`` if every row is a distribution over its legal actions; else ``ValueError``."""
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != masks.shape:
        raise ValueError(f"{source} must give {NUM_ACTIONS} action probabilities per state, "
                         f"got shape {probs.shape[1:]}")
    bad = ~np.isfinite(probs).all(axis=1) | (probs < 0).any(axis=1) \
        | (probs * (masks == 0) > 0).any(axis=1) | ~np.isclose(probs.sum(axis=1), 1.0)
    if bad.any():
        raise ValueError(f"{source} must give non-negative probabilities on the legal actions "
                         f"only, summing to 1; row {int(np.argmax(bad))} does not")
    return probs


@functools.cache
def _views(die: int) -> tuple[np.ndarray, np.ndarray]:
    """Observation and mask rows of the actor at every decision node, holding ``die``
    (read-only: kept for the next policy, as building 4,093 games per die takes most of a
    second and training asks at every rollout)."""
    t = tree()
    games = [Game(PLAYERS, DICE)]
    games[0].apply_roll(((die,), (die,)))  # only the actor's own die shows (P7.2)
    for edge in range(t.edges):  # edges in parent order: every parent is built before
        if t.child[edge] < t.nodes:
            game = games[t.parent[edge]].clone()
            game.apply_action(int(t.action[edge]))
            games.append(game)
    obs = np.stack([encode(g, g.current_player) for g in games])
    masks = np.stack([legal_mask(g.bid_action, g.total_dice, g.palifico) for g in games])
    obs.flags.writeable = masks.flags.writeable = False
    return obs, masks


def strategy(source: Policy | StrategyFunction | np.ndarray) -> np.ndarray:
    """The ``(edges, 6)`` strategy of a policy, a function or an array (module docstring);
    ``ValueError`` naming what is wrong when it does not give a distribution over the legal
    actions at every information state."""
    t = tree()
    if isinstance(source, np.ndarray):
        if source.shape != (t.edges, FACES):
            raise ValueError(f"a strategy array must have shape ({t.edges}, {FACES}), got "
                             f"{source.shape}")
        sums = np.add.reduceat(source, t.first)
        if (source < 0).any() or not np.allclose(sums, 1.0):
            raise ValueError("a strategy array must hold non-negative probabilities summing "
                             "to 1 over each node's edges, per die")
        return source.astype(np.float64)
    result = np.empty((t.edges, FACES))
    for die in range(1, FACES + 1):
        if isinstance(source, Policy):
            obs, masks = _views(die)
            if isinstance(source, SupportsActionProbabilities):
                probs = source.action_probabilities(obs, masks)
            else:
                probs = np.zeros(masks.shape)
                probs[np.arange(len(obs)), batch_actions(source, obs, masks)] = 1.0
            name = f"policy {source!r}"
        elif callable(source):
            masks = np.stack([legal_mask(h[-1] if h else DUDO, PLAYERS * DICE, False)
                              for h in t.histories])
            probs = np.stack([np.asarray(source(die, h), dtype=np.float64)
                              for h in t.histories])
            name = "the strategy function"
        else:
            raise ValueError(f"a strategy source must be a Perudo policy, a function (die, "
                             f"history) -> probabilities or an array, got {source!r}")
        probs = _check_probabilities(probs, masks, name)
        result[:, die - 1] = probs[t.parent, t.action]
    return result


class StrategyPolicy(BasePolicy):
    """A strategy of this game as a Perudo policy (for the environments): it reads its die
    and the round's bids from the observation (the bids in ``bid_order``, P7.2) and samples
    its seeded generator."""

    name = "strategy"

    def __init__(self, sigma: np.ndarray, seed: int | None = None) -> None:
        super().__init__(seed)
        self.sigma = strategy(sigma)

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B, 181): the strategy at each row's information state."""
        t = tree()
        seen = decode(np.reshape(obs, (-1, OBS_SIZE)))
        probs = np.zeros((len(seen.total), NUM_ACTIONS))
        for row, (hand, made, total) in enumerate(zip(seen.my_dice, seen.bids, seen.total,
                                                      strict=True)):
            die = int(np.argmax(hand))
            bids = sorted((int(a) + 1 for a in np.flatnonzero(made)),
                          key=lambda a: bid_order(a, False))
            node = t.index.get(tuple(bids))
            if node is None or total != PLAYERS * DICE:
                raise ValueError(f"a strategy plays the {PLAYERS}-player {DICE}-die game only")
            edges = slice(t.first[node], t.first[node] + t.legal[node])
            probs[row, t.action[edges]] = self.sigma[edges, die]
        return probs

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One action drawn from the strategy."""
        probs = self.action_probabilities(np.reshape(obs, (1, -1)), mask)[0]
        return int(self.rng.choice(NUM_ACTIONS, p=probs))


# ---------------------------------------------------------------- values
def _reach(sigma: np.ndarray) -> np.ndarray:
    """(2, nodes + terminals, 6): each seat's own probability of playing to each node, per
    its die."""
    t = tree()
    reach = np.ones((PLAYERS, t.nodes + len(t.payoff), FACES))
    for edges, _, actor in t.levels:  # parents before children
        children, parents = t.child[edges], t.parent[edges]
        reach[:, children] = reach[:, parents]
        reach[actor, children] *= sigma[edges]
    return reach


def _values(sigma: np.ndarray) -> np.ndarray:
    """(nodes + terminals, 6, 6): seat 0's expected return from each node under ``sigma``,
    per dice pair."""
    t = tree()
    values = np.zeros((t.nodes + len(t.payoff), FACES, FACES))
    values[t.nodes:] = t.payoff
    for edges, nodes, actor in reversed(t.levels):  # children before parents
        weights = sigma[edges][:, :, None] if actor == 0 else sigma[edges][:, None, :]
        values[nodes] = np.add.reduceat(weights * values[t.child[edges]],
                                        t.first[nodes] - edges.start)
    return values


def expected_return(sigma: np.ndarray) -> float:
    """Seat 0's expected return when both seats play ``sigma`` (seat 1's is its negative)."""
    return float(_values(strategy(sigma))[0].sum() / ROLLS)


def best_response(sigma: np.ndarray, seat: int) -> tuple[float, np.ndarray]:
    """``seat``'s best expected return against the other seat playing ``sigma``, and a pure
    strategy reaching it (``sigma`` with ``seat``'s edges replaced by its best choices; ties
    take the node's first best edge)."""
    t = tree()
    sigma = strategy(sigma)
    other = _reach(sigma)[1 - seat]
    mine = t.payoff if seat == 0 else -t.payoff.transpose(0, 2, 1)  # [terminal, mine, other]
    value = np.zeros((t.nodes + len(t.payoff), FACES))
    value[t.nodes:] = np.einsum("tmo,to->tm", mine, other[t.nodes:]) / ROLLS
    best = sigma.copy()
    for edges, nodes, actor in reversed(t.levels):
        child_values = value[t.child[edges]]
        starts = t.first[nodes] - edges.start
        if actor != seat:
            value[nodes] = np.add.reduceat(child_values, starts)
            continue
        top = np.maximum.reduceat(child_values, starts)
        value[nodes] = top
        is_top = child_values >= top[t.parent[edges] - nodes.start]
        # the first top edge of each node, per die: count the top edges up to each edge
        counts = np.cumsum(is_top, axis=0)
        before = np.vstack([np.zeros((1, FACES)), counts])[starts]  # up to each node's start
        within = counts - np.repeat(before, np.diff(np.append(starts, len(is_top))), axis=0)
        best[edges] = (is_top & (within == 1)).astype(np.float64)
    return float(value[0].sum()), best


def best_responses(source: Policy | StrategyFunction | np.ndarray) -> tuple[float, np.ndarray]:
    """The policy's exploitability and one pure strategy that is a best response to it in
    both seats: each seat's edges from that seat's ``best_response``, the opponent a policy
    meets where it is exploited most (``StrategyPolicy`` plays it)."""
    sigma = strategy(source)
    (value_0, best_0), (value_1, best_1) = (best_response(sigma, seat) for seat in range(2))
    return (value_0 + value_1) / PLAYERS, np.where(_actor_edges()[:, None] == 0, best_0, best_1)


def exploitability(source: Policy | StrategyFunction | np.ndarray) -> float:
    """``(BR0 + BR1) / 2`` (module docstring): OpenSpiel's exploitability of the policy."""
    return best_responses(source)[0]


@functools.cache
def _actor_edges() -> np.ndarray:
    """The seat acting at each edge's parent node."""
    t = tree()
    actor = np.zeros(t.edges, dtype=np.int64)
    for edges, _, seat in t.levels:
        actor[edges] = seat
    return actor


# ---------------------------------------------------------------- CFR+
@dataclass(frozen=True)
class CFRResult:
    """An equilibrium estimate and how it was reached."""

    strategy: np.ndarray  # the average strategy
    iterations: int
    seconds: float
    exploitability: dict[int, float]  # iteration -> exploitability of the average so far


def _regret_matching(regrets: np.ndarray) -> np.ndarray:
    """Play each edge in proportion to its positive regret; uniform where none is."""
    t = tree()
    positive = np.maximum(regrets, 0.0)
    sums = np.add.reduceat(positive, t.first)[t.parent]
    uniform = (1.0 / t.legal[t.parent])[:, None]
    return np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), uniform)


def cfr_plus(iterations: int, report_every: int = 0) -> CFRResult:
    """Run ``iterations`` of tabular CFR+ on the 2-player 1-die game, timed. With
    ``report_every`` > 0 the exploitability of the average strategy is recorded every that
    many iterations (and at the last); it always is at the last."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be an integer ≥ 1, got {iterations!r}")
    t = tree()
    seat_edges = [_actor_edges() == seat for seat in range(PLAYERS)]
    regrets = np.zeros((t.edges, FACES))
    total = np.zeros((t.edges, FACES))
    history: dict[int, float] = {}
    start = time.perf_counter()
    spent = 0.0
    for it in range(1, iterations + 1):
        for seat in range(PLAYERS):  # alternating updates
            sigma = _regret_matching(regrets)
            reach = _reach(sigma)
            values = _values(sigma)[t.child]  # per edge: seat 0's return after it
            if seat == 0:
                cfv = np.einsum("eo,emo->em", reach[1][t.parent], values)
            else:
                cfv = -np.einsum("eo,eom->em", reach[0][t.parent], values)
            node_value = np.add.reduceat(sigma * cfv, t.first)[t.parent]
            own = seat_edges[seat]
            regrets[own] = np.maximum(regrets[own] + cfv[own] - node_value[own], 0.0)
            total[own] += it * reach[seat][t.parent][own] * sigma[own]
        if it == iterations or (report_every and it % report_every == 0):
            lap = time.perf_counter()
            history[it] = exploitability(_average(total))
            spent += time.perf_counter() - lap  # measuring is not part of the solving time
    return CFRResult(_average(total), iterations, time.perf_counter() - start - spent, history)


def _average(total: np.ndarray) -> np.ndarray:
    """The normalised average strategy; uniform at states the seat never reaches."""
    return _regret_matching(total)


def summary(iterations: int = 1000,
            players: Sequence[str] = ("probabilistic", "bluffer")) -> dict[str, float]:
    """The yardstick's numbers: the exploitability of uniform random, of the named Perudo
    players (seed 0) and of CFR+'s average after ``iterations``, with CFR+'s seconds."""
    result = cfr_plus(iterations)
    return {"uniform random": exploitability(uniform_strategy()),
            **{spec: exploitability(make_policy(spec, game="perudo", seed=0))
               for spec in players},
            f"cfr+ after {iterations} iterations": result.exploitability[iterations],
            "cfr+ seconds": result.seconds}

