"""The search player's learner: fitted value iteration on round-start positions from its own
games (``pagadores train`` with a ``search:`` config; the player is
``pagadores_agents.search.player``).

Why this method. A decision's value is the win probability of the positions it leads to,
and the two actions of a decision lead to neighbouring positions: learned separately from
whole-game returns (PPO), their difference drowns in the return's noise; computed through the
exact dice odds from one smooth learned surface, most of the surface's error cancels between
them (the learning note beside the project measures how small the error must be). Between
rounds a position is only the card counts and the insteker, a small space a net generalises
over; inside a round the rules and the dice decide everything else, and the round is searched
exactly. So the learner learns **values at round starts** and nothing else, like TD-Gammon's
value net with a search over the dice, but with the whole round as the search's horizon.

One iteration:

1. **Play.** ``games`` games of the search player in every seat (self-play) at the
   config's table, each decision taken at random with probability ``explore`` (so the
   positions a deviation reaches are seen too); ``random_starts`` of them start from a
   random position (any cards up to the table's, two seats or more holding some), so the
   end of the game, which every value rests on, is met as often as its start. Every round
   start of those games joins the **buffer** of positions (at most ``buffer`` positions, the
   oldest leave first). The
   decisions played are the run's steps (``total_timesteps``: decisions of all seats, as an
   RLlib self-play run counts them).
2. **Back up.** Each buffered position's target is the searched value of its round
   (``RoundSearch``: the round played exactly, every seat maximising, the net's values where
   it ends), every seat's win probability. Every round takes a card (R3.5, R4.4), so a round
   ends at fewer cards than it starts: the buffer is backed up in order of the card total,
   fewest first, and the net is fitted after each slice of totals, so one iteration carries
   values from the game's end to its start (a sampled backward induction), and the next
   iterations correct what the fits left.
3. **Fit.** The net is fitted to every buffered target (``search_fit.fit``: cross-entropy,
   Adam), ``fit_steps`` minibatches after each slice.

It never calls the solver, reads its values or enumerates a table's positions: it knows the
positions its games reached. The solver only scores it (``eval``).
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pagadores_agents.search.player import RoundSearch, SearchPolicy, check_specials, searcher
from pagadores_agents.search.value_net import ValueNet
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.policies import Policy
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.rules import THROWS
from pagadores_env.pagadores.solver.npz import open_npz

from .fit import Adam, fit

Position = tuple[tuple[int, ...], int]
#: The mask of a decision: stop and throw again are both legal at every one (R3.6).
BOTH = np.ones(2, np.int8)
#: The saved learner state's format; another is refused.
STATE_FORMAT = 1
#: ``report(done, total, what)`` during an iteration's phases.
Report = Callable[[int, int, str], None]


@dataclass(frozen=True)
class LearnSettings:
    """How the learner plays, backs up and fits (the ``search:`` section of a config)."""

    games: int = 100  # self-play games per iteration
    explore: float = 0.1  # probability of a random decision in those games
    buffer: int = 20_000  # round-start positions kept (oldest leave first)
    slices: int = 60  # slices of card totals backed up and fitted one after another
    random_starts: float = 0.5  # share of games started from a random position
    fit_steps: int = 300  # minibatches fitted after each slice
    batch: int = 128  # positions per minibatch
    lr: float = 2e-3  # Adam's learning rate
    hidden: tuple[int, ...] = (128, 128)  # the value net's hidden layers
    specials: int | str | None = None  # specials in a row searched exactly (None: the table's)
    backups: int | None = None  # backed-up positions backed up again per iteration (None: all)


@dataclass
class IterationReport:
    """What one iteration did."""

    decisions: int  # decisions played (the run's steps)
    games: int
    new_positions: int
    buffered: int
    loss: float
    seconds: float


@dataclass
class ValueLearner:
    """The learner's whole state: the net, its optimiser, the buffer, the generator, and the
    decisions played so far."""

    num_players: int
    cards: tuple[int, ...]
    settings: LearnSettings
    net: ValueNet
    adam: Adam
    rng: np.random.Generator
    buffer: OrderedDict[Position, np.ndarray] = field(default_factory=OrderedDict)
    decisions: int = 0
    #: seats that play a fixed policy (a best response's opponents, ``approximate``); their
    #: decisions are not the learner's and are not counted
    fixed: dict[int, Policy] = field(default_factory=dict)

    @classmethod
    def new(cls, num_players: int, cards: tuple[int, ...], settings: LearnSettings,
            seed: int, fixed: Mapping[int, Policy] | None = None) -> ValueLearner:
        """A learner with a new net (fair shares everywhere) and an empty buffer; with
        ``fixed``, the seats not in it learn their best response to those seats' policies."""
        return cls(num_players, cards, settings,
                   ValueNet.new(num_players, settings.hidden, seed, cards),
                   Adam(lr=settings.lr), np.random.default_rng(seed), fixed=dict(fixed or {}))

    @property
    def seat(self) -> int | None:
        """The learning seat when the others are fixed (its player must know it), else None."""
        free = [s for s in range(self.num_players) if s not in self.fixed]
        return free[0] if self.fixed and len(free) == 1 else None

    def player(self, depth: int = 1) -> SearchPolicy:
        """The search player over the current net (``seat``'s best response if seats are
        fixed)."""
        return SearchPolicy.over(self.net, depth, self.seat, specials=self.settings.specials,
                                 fixed=self.fixed)

    def searcher(self) -> RoundSearch:
        """The one-round search over the current net, as the player searches."""
        return searcher(self.net, 1, specials=check_specials(self.settings.specials,
                                                             self.num_players),
                        fixed=self.fixed)

    # ------------------------------------------------------------------ one iteration
    def iterate(self, report: Report | None = None) -> IterationReport:
        """Play, back up and fit once (see the module docstring)."""
        began = time.perf_counter()
        search = self.searcher()
        played, starts = self.play(search, report)
        new = [p for p in starts if p not in self.buffer]
        for position in starts:
            self.buffer[position] = self.buffer.pop(position, np.zeros(0))
        while len(self.buffer) > self.settings.buffer:
            self.buffer.popitem(last=False)
        loss = self.back_up(report)
        return IterationReport(played, self.settings.games, len(new), len(self.buffer), loss,
                               time.perf_counter() - began)

    def play(self, search: RoundSearch, report: Report | None) -> tuple[int, list[Position]]:
        """Self-play games of the search over ``search``; the decisions played and the
        round starts seen (in order, repeats kept once)."""
        player = self.player()
        player.searching(search)
        seen: dict[Position, None] = {}
        played = 0
        for g in range(self.settings.games):
            game = self.new_game()
            while not game.is_terminal():
                if game.is_chance_node():
                    if game.pos == 0 and game.throws == 0 and game.phase == Phase.ROUND:
                        seen[(tuple(game.cards), int(game.insteker))] = None
                    game.apply_throw(THROWS[int(self.rng.integers(len(THROWS)))])
                    continue
                seat = game.current_player
                if seat in self.fixed:  # R3.6: both actions are legal at every decision
                    game.apply_action(self.fixed[seat].act(encode(game, seat), BOTH))
                    continue
                if self.rng.random() < self.settings.explore:
                    action = int(self.rng.integers(2))
                else:
                    acting = player if self.num_players <= 3 or self.fixed else \
                        player.for_seat(seat, self.num_players)
                    action = acting.act(encode(game, seat), BOTH)
                game.apply_action(action)
                played += 1
            if report is not None:
                report(g + 1, self.settings.games, "self-play games")
        self.decisions += played
        return played, list(seen)

    def new_game(self) -> Game:
        """A game from the table's start, or (``random_starts`` of them) from a random
        position of at most the start's cards per seat with two seats holding cards, so
        the late game's positions are met as often as the early game's."""
        start = np.asarray(self.cards)
        if self.rng.random() < self.settings.random_starts:
            while True:
                cards = self.rng.integers(0, start + 1)
                if (cards > 0).sum() >= 2:
                    break
            start = cards
        return Game(self.num_players, start.tolist(),
                    int(self.rng.choice(np.flatnonzero(start))))

    def back_up(self, report: Report | None) -> float:
        """New targets for every buffered position, fewest cards first, fitting after each
        slice of totals; the last fit's loss. One search serves the whole pass: a position it
        solved keeps its tables (they were searched over the net as fitted up to its total),
        and only its values where rounds end are read anew from the net after each fit."""
        positions = sorted(self.due(), key=lambda p: sum(p[0]))
        totals = sorted({sum(p[0]) for p in positions})
        search = self.searcher()
        loss, done = 0.0, 0
        for part in np.array_split(np.asarray(totals), min(self.settings.slices, len(totals))):
            these = set(part.tolist())
            for position in (p for p in positions if sum(p[0]) in these):
                self.buffer[position] = search.value(*position)
                if self.settings.backups is not None:
                    self.buffer.move_to_end(position)
                done += 1
                if report is not None and done % 100 == 0:
                    report(done, len(positions), "positions backed up")
            loss = self.fit()
            search.forget_leaves()  # the net has moved: rounds ending now read it anew
        return loss

    def due(self) -> list[Position]:
        """The positions this iteration backs up: the whole buffer, or with a ``backups``
        cap every position without a target yet and at most ``backups`` of the others, the
        longest untouched (neither seen nor backed up) first. A position backed up under a
        cap moves to the buffer's newest end, so the cap rotates through the buffer; an
        iteration's back-ups then grow with its games, not with the buffer (a 6-player
        buffer of 20,000 positions backed up in full took most of every iteration)."""
        cap = self.settings.backups
        if cap is None:
            return list(self.buffer)
        fresh = [p for p, t in self.buffer.items() if not len(t)]
        stale = [p for p, t in self.buffer.items() if len(t)]
        return fresh + stale[:cap]

    def fit(self) -> float:
        """Fit the net to the buffered targets (positions not yet backed up are left out)."""
        known = [(p, t) for p, t in self.buffer.items() if len(t)]
        cards = np.asarray([p[0] for p, _ in known])
        insteker = np.asarray([p[1] for p, _ in known])
        targets = np.asarray([t for _, t in known])
        epochs = max(1, self.settings.fit_steps * self.settings.batch // len(known))
        return fit(self.net, self.adam, cards, insteker, targets, epochs,
                   self.settings.batch, self.rng)

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> Path:
        """Write the learner's whole state to ``path`` (``.npz``, atomically): the net, Adam's
        moments and step, the buffer, the generator and the decisions played, so a resumed
        run continues exactly where this one stands."""
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.net.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        for i, (m, v) in enumerate(self.adam.moments):
            arrays[f"adam_m{i}"], arrays[f"adam_v{i}"] = m, v
        backed = [(p, t) for p, t in self.buffer.items()]
        arrays["buffer_cards"] = np.asarray([p[0] for p, _ in backed], np.int64).reshape(
            -1, self.num_players)
        arrays["buffer_insteker"] = np.asarray([p[1] for p, _ in backed], np.int64)
        arrays["buffer_targets"] = np.asarray(
            [t if len(t) else np.full(self.num_players, np.nan) for _, t in backed]
        ).reshape(-1, self.num_players)
        meta = {"format": STATE_FORMAT, "num_players": self.num_players,
                "cards": list(self.cards), "decisions": self.decisions,
                "adam_steps": self.adam.steps, "rng": self.rng.bit_generator.state}
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.array(json.dumps(meta)), **arrays)
        return write_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: Path, settings: LearnSettings) -> ValueLearner:
        """The learner saved at ``path``; ``ValueError`` in one line for a damaged file."""
        try:
            with open_npz(path) as saved:
                meta = json.loads(str(saved["meta"]))
                if meta.get("format") != STATE_FORMAT:
                    raise ValueError(f"format {meta.get('format')!r}")
                count = sum(1 for key in saved.files if key[0] == "w" and key[1:].isdigit())
                net = ValueNet(int(meta["num_players"]),
                               [(saved[f"w{i}"], saved[f"b{i}"]) for i in range(count)],
                               meta["cards"])
                moments = [(saved[f"adam_m{i}"].copy(), saved[f"adam_v{i}"].copy())
                           for i in range(2 * count) if f"adam_m{i}" in saved.files]
                buffer: OrderedDict[Position, np.ndarray] = OrderedDict()
                for cards, insteker, target in zip(saved["buffer_cards"],
                                                   saved["buffer_insteker"],
                                                   saved["buffer_targets"], strict=True):
                    key = (tuple(int(c) for c in cards), int(insteker))
                    buffer[key] = np.zeros(0) if np.isnan(target).any() else target.copy()
            rng = np.random.default_rng()
            rng.bit_generator.state = meta["rng"]
            adam = Adam(lr=settings.lr, steps=int(meta["adam_steps"]), moments=moments)
            return cls(net.num_players, tuple(int(c) for c in meta["cards"]), settings, net,
                       adam, rng, buffer, int(meta["decisions"]))
        except FileNotFoundError:
            raise ValueError(f"learner state {str(path)!r} does not exist") from None
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as err:
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise ValueError(f"learner state {str(path)!r} is damaged ({reason})") from None
