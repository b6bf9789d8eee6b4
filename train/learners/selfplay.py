"""Self-play: opponents drawn from a pool of frozen snapshots of the learner.

``SnapshotPool`` keeps the learner's snapshots as saved models in a folder of the run
(``snapshot_<timesteps>.zip``, listed in ``pool.json``; each file written atomically, the list
last, so a kill leaves the previous pool whole), each loaded back as a ``SB3Policy``: a frozen
copy that later training of the learner does not touch. A new pool is empty;
``restore(up_to)`` reloads the folder's pool up to a resumed checkpoint's step (the next
snapshot then rewrites the listing without the later ones), so a resumed run continues with
the same pool. ``SnapshotEvery`` (an SB3 callback) adds a snapshot every N timesteps after the
pool's last, after an update (``pagadores_train.run.callbacks``); the first one is added before
``learn``, whose first reset already draws opponents.

A pool keeps at most ``max_snapshots`` (``env.selfplay.max_snapshots``) that may be drawn, so
a long run needs a bounded amount of disk: when a new snapshot would make one more, the oldest
is retired. Its file is removed and it is never drawn again, but it keeps its index and its
record (marked ``"retired"`` in the listing), and the games that drew it play on with it to
their end. A run resumed from a checkpoint before a retirement cannot bring that snapshot back:
it continues with the pool the folder holds.

The pool also keeps the learner's record against each snapshot (``wins`` and ``games``): a
game counts once for every snapshot that sat in it and decided at least once (a seat that
never decided had no say), and it is a win when the learner placed first
(``opponents.end_games``); games without a learner decision are not episodes and do not
count. The record is saved in the listing: each entry holds the record of the snapshots
before it as it stood when that snapshot was added, so ``restore(up_to)`` takes the record of
the last snapshot at or before the resume step: the results of the games between that
snapshot and the checkpoint are lost (the pool is saved with its snapshots, not at
checkpoints), while a later record would count games the resumed run never played. A listing
from before records were kept loads with every count 0.

``SelfPlayOpponent`` is a policy object every game's Gymnasium env and ``PagadoresVecEnv`` seat
like any other opponent. It uses the per-game hooks of the policy protocol
(``pagadores_env.core.policies``): at each game's start (``new_games``) it draws, for every seat
of that game, either a snapshot (``sample``: ``"latest"``, ``"uniform"`` over the pool, or
``"priority"``: weighted by ``priority_weights`` of the learner's record, prioritised
fictitious self-play) or, with probability ``scripted_share``, one of its ``scripted``
policies; that seat plays it for the whole game. While the pool is still empty every seat gets
a scripted policy. Where a learner's episode ends (``end_games``) the snapshots that played in
that game add the result to the pool's record, before the slot's next game is drawn.
``act_games`` groups a batch's rows by what they were drawn, so each snapshot answers its
rows in one forward pass. Its draws come from its own generator, which the envs reseed with
the other opponents (``opponents.reseed_opponents``), so a seeded Gym env and a seeded
one-game VecEnv draw the same snapshots (with ``"priority"`` only until their records part:
the two envs roll different dice, so their games end differently). One ``SelfPlayOpponent``
remembers one env's games: give each env its own (``SnapshotPool.opponent``).

``priority_weights`` is AlphaStar's "hard" weighting, ``(1 - p)**2`` of the learner's win
rate ``p`` against a snapshot: the snapshots the learner still loses to are drawn most, so it
trains against its own weaknesses rather than replaying games it has already won, and the
square sharpens that more than ``1 - p`` would. ``p`` is the mean of a Beta(1 + wins,
1 + losses) belief, ``(wins + 1) / (games + 2)``, so an unseen snapshot gets drawn (weight
1/4 before normalising), and no snapshot's weight is ever 0 (its record can change its
weight again). At ``n`` players an even table gives the learner ``p`` near ``1/n``, not the
prior's 1/2, so there an unseen snapshot is drawn somewhat less than a seen even one (at 3
players 1/4 against 4/9) until its own games count; the opponent is not told ``n``, and the
prior weighs only the first few games.

**Any game.** A pool holds snapshots of one game's learner (``game``: loaded as that game's
``model`` player, ``pagadores_agents.sb3_adapter.model_class``, and its scripted policies
named in that game's registry). Pagadores' batch engine seats one ``SelfPlayOpponent`` for all
its games; with ``vec_env.kind: dummy`` (any game) every env seats its own, all drawing from
the one pool in the training process, where ``SnapshotEvery`` adds to it. A SubprocVecEnv's
workers could not see the snapshots it adds (nor send back the records), so self-play runs
on ``dummy`` or ``batch`` envs (``run.config``). A game's decisions reach a snapshot one at a
time in a Gymnasium env (its forward pass of one row), where the batch engine asks it about
all its games' rows at once: slower, but the same draws and records.

The pool lives here, not in ``pagadores_env``, because it imports torch and SB3 (the
dependency arrows are ``pagadores_env`` <- ``pagadores_agents`` <- ``pagadores_train``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.base_class import BaseAlgorithm

from pagadores_agents.sb3_adapter import SB3Policy, model_class
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.checks import check_choice
from pagadores_env.core.opponents import reseed_opponents
from pagadores_env.core.policies import BasePolicy, Policy, batch_actions, make_policy
from pagadores_env.pagadores.rules import MAX_PLAYERS

from ..run.callbacks import AfterUpdate, isolated_rng
from ..run.config import SAMPLES

POOL_FILE = "pool.json"


class SnapshotPool:
    """Frozen snapshots of the learner of ``game``, saved in ``folder``, and the learner's
    record against each: ``wins[k]`` of ``games[k]`` (see the module docstring)."""

    def __init__(self, folder: str | Path, max_snapshots: int | None = None,
                 game: str = "pagadores") -> None:
        if max_snapshots is not None and (isinstance(max_snapshots, bool)
                                          or not isinstance(max_snapshots, int)
                                          or max_snapshots < 1):
            raise ValueError(f"max_snapshots must be a whole number >= 1 or None, got "
                             f"{max_snapshots!r}")
        self.folder = Path(folder)
        self.max_snapshots = max_snapshots
        self.game = game
        self._model = model_class(game)
        self.timesteps: list[int] = []
        self.files: list[str] = []
        #: None for a retired snapshot (index kept, so records and drawn indices stay put)
        self.snapshots: list[SB3Policy | None] = []
        self.wins = np.zeros(0, np.int64)
        self.games = np.zeros(0, np.int64)
        self._records: list[dict[str, list[int]]] = []  # each entry's record as saved

    def restore(self, up_to: int | None = None) -> SnapshotPool:
        """Replace the pool with the snapshots saved in its folder (none if it has no
        ``pool.json``), only those of steps up to ``up_to`` if given, and the record saved
        with the last of them; returns the pool. Raises ``ValueError`` naming a listing or a
        snapshot file that does not load."""
        listing = self.folder / POOL_FILE
        entries = _read_listing(listing) if listing.exists() else []
        kept = [e for e in entries if up_to is None or e["timesteps"] <= up_to]
        self.timesteps, self.files, self.snapshots, self._records = [], [], [], []
        self.wins, self.games = np.zeros(0, np.int64), np.zeros(0, np.int64)
        for entry in kept:
            if entry["retired"]:
                self._append(entry["file"], entry["timesteps"], None)
            else:
                self._load(entry["file"], entry["timesteps"])
            self._records.append({"wins": entry["wins"], "games": entry["games"]})
        if kept:
            self.wins[:-1], self.games[:-1] = kept[-1]["wins"], kept[-1]["games"]
        return self

    def __len__(self) -> int:
        return len(self.snapshots)

    @property
    def active(self) -> np.ndarray:
        """The indices of the snapshots that may be drawn (all but the retired ones)."""
        return np.flatnonzero([s is not None for s in self.snapshots])

    def add(self, model: BaseAlgorithm, timesteps: int) -> SB3Policy:
        """Save ``model`` as the snapshot of step ``timesteps`` (later than the pool's last)
        and return its frozen copy. Raises ``ValueError`` for a step not after the last."""
        if self.timesteps and timesteps <= self.timesteps[-1]:
            raise ValueError(f"a snapshot must come after the pool's last one (step "
                             f"{self.timesteps[-1]}), got step {timesteps}")
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"snapshot_{timesteps}.zip"
        write_atomic(self.folder / name, model.save)
        record = {"wins": self.wins.tolist(), "games": self.games.tolist()}
        snapshot = self._load(name, timesteps)
        self._records.append(record)
        active = self.active
        retired = active[:-self.max_snapshots] if self.max_snapshots else active[:0]
        for k in retired.tolist():
            self.snapshots[k] = None
        entries = [{"file": f, "timesteps": t} | r | ({"retired": True} if p is None else {})
                   for f, t, r, p in zip(self.files, self.timesteps, self._records,
                                         self.snapshots, strict=True)]
        write_atomic(self.folder / POOL_FILE, json.dumps({"snapshots": entries}, indent=2))
        for k in retired.tolist():  # the listing no longer needs them
            (self.folder / self.files[k]).unlink(missing_ok=True)
        return snapshot

    def count(self, snapshots: np.ndarray, learner_won: np.ndarray) -> None:
        """Add to the learner's record one game against each entry of ``snapshots`` (pool
        indices, one per game and snapshot that played in it), a win where ``learner_won``."""
        np.add.at(self.games, snapshots, 1)
        np.add.at(self.wins, snapshots, np.asarray(learner_won, dtype=np.int64))

    def opponent(self, sample: str = "latest", scripted: Sequence[str | Policy] = (),
                 scripted_share: float = 0.0, seed: int | None = None) -> SelfPlayOpponent:
        """A new ``SelfPlayOpponent`` drawing from this pool (one per env)."""
        return SelfPlayOpponent(self, sample, scripted, scripted_share, seed)

    def _load(self, name: str, timesteps: int) -> SB3Policy:
        snapshot = self._model(str(self.folder / name))
        self._append(name, timesteps, snapshot)
        return snapshot

    def _append(self, name: str, timesteps: int, snapshot: SB3Policy | None) -> None:
        self.files.append(name)
        self.timesteps.append(timesteps)
        self.snapshots.append(snapshot)
        self.wins = np.append(self.wins, 0)
        self.games = np.append(self.games, 0)


def priority_weights(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The chance of drawing each snapshot under ``sample: "priority"``: proportional to
    ``(1 - p)**2`` with ``p = (wins + 1) / (games + 2)``, the learner's win rate against it
    under a Beta(1, 1) prior (why: the module docstring). Needs at least one snapshot."""
    rate = (np.asarray(wins) + 1.0) / (np.asarray(games) + 2.0)
    weights = (1.0 - rate) ** 2
    return weights / weights.sum()


def _read_listing(path: Path) -> list[dict[str, Any]]:
    """The entries of a ``pool.json``, each with the record saved with it (zeros in a
    listing from before records); ``ValueError`` naming the file if it is not one."""
    try:
        entries = json.loads(path.read_text())["snapshots"]
        return [_entry(e, k) for k, e in enumerate(entries)]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path} is not a snapshot pool listing: {err}") from None


def _entry(entry: dict[str, Any], index: int) -> dict[str, Any]:
    """Listing entry ``index``, checked: its record covers the ``index`` snapshots before it,
    with 0 <= wins <= games; else ``ValueError`` saying so."""
    if "wins" not in entry and "games" not in entry:  # saved before records were kept
        wins, games = [0] * index, [0] * index
    else:
        wins, games = [int(w) for w in entry["wins"]], [int(g) for g in entry["games"]]
    if len(wins) != index or len(games) != index or not all(
            0 <= w <= g for w, g in zip(wins, games, strict=True)):
        raise ValueError(f"snapshot {index} has a record of {wins} wins in {games} games; "
                         f"allowed: {index} counts each, 0 <= wins <= games")
    return {"file": str(entry["file"]), "timesteps": int(entry["timesteps"]),
            "wins": wins, "games": games, "retired": entry.get("retired") is True}


class SelfPlayOpponent(BasePolicy):
    """Plays, per game and seat, a snapshot of ``pool`` or a scripted policy (module
    docstring). ``sample`` is ``"latest"``, ``"uniform"`` or ``"priority"``;
    ``scripted_share`` in [0, 1] is the chance a seat gets one of ``scripted`` (specs or
    policy objects) instead."""

    def __init__(self, pool: SnapshotPool, sample: str = "latest",
                 scripted: Sequence[str | Policy] = (), scripted_share: float = 0.0,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        self.pool = pool
        self.sample = check_choice("sample", sample, SAMPLES)
        if isinstance(scripted_share, bool) or not isinstance(scripted_share, int | float) \
                or not 0.0 <= scripted_share <= 1.0:
            raise ValueError(f"scripted_share must be a number from 0 to 1, got "
                             f"{scripted_share!r}")
        if scripted_share > 0 and not scripted:
            raise ValueError("scripted_share > 0 needs at least one scripted policy")
        self.scripted_share = float(scripted_share)
        self.scripted = [make_policy(spec, game=pool.game) for spec in scripted]
        # per game and seat: a snapshot index (>= 0) or -1 - (a scripted policy's index)
        self._drawn = np.zeros((0, MAX_PLAYERS), np.int64)
        self._decided = np.zeros((0, MAX_PLAYERS), bool)  # per game and seat, this game
        # per game and seat: the snapshot drawn, held here so that one the pool retires
        # meanwhile plays on to the end of the games that drew it
        self._players = np.empty((0, MAX_PLAYERS), object)
        self.name = f"selfplay:sample={sample},scripted_share={scripted_share}"

    def reset(self, seed: int | None = None) -> None:
        """Reseed the draws from ``seed`` and the scripted policies from its spawned parts."""
        super().reset(seed)
        reseed_opponents(self.scripted, seed)

    def new_games(self, games: np.ndarray) -> None:
        """Draw what every seat of ``games`` plays until that game ends."""
        games = np.asarray(games, dtype=np.int64)
        if not len(self.pool) and not self.scripted:
            raise RuntimeError(f"the snapshot pool in {self.pool.folder} is empty and there is "
                               "no scripted policy: add the learner's first snapshot first")
        share = self.scripted_share if len(self.pool) else 1.0
        shape = (games.size, MAX_PLAYERS)
        scripted = self.rng.random(shape) < share
        active = self.pool.active
        if self.sample == "uniform":
            snapshot = active[self.rng.integers(0, max(len(active), 1), size=shape)] \
                if len(active) else self.rng.integers(0, 1, size=shape)
        elif self.sample == "priority" and len(active):
            weights = priority_weights(self.pool.wins[active], self.pool.games[active])
            snapshot = active[self.rng.choice(len(active), size=shape, p=weights)]
        else:  # latest, or an empty pool, where every seat is scripted
            snapshot = np.full(shape, len(self.pool) - 1, np.int64)
        other = self.rng.integers(0, max(len(self.scripted), 1), size=shape)
        if games.size and games.max() >= len(self._drawn):
            self._drawn = _grown(self._drawn, games.max() + 1)
            self._decided = _grown(self._decided, games.max() + 1)
            self._players = _grown(self._players, games.max() + 1)
        self._drawn[games] = np.where(scripted, -1 - other, snapshot)
        self._decided[games] = False
        snapshots = np.empty(len(self.pool) + 1, object)  # the last entry: none (scripted)
        for k, held in enumerate(self.pool.snapshots):
            snapshots[k] = held
        self._players[games] = snapshots[np.where(scripted, -1, snapshot)]

    def end_games(self, games: np.ndarray, learner_won: np.ndarray) -> None:
        """Add the learner's result in each of ``games`` (its episode there just ended) to the
        pool's record against every snapshot that decided there, once per game."""
        games = np.asarray(games, dtype=np.int64)
        drawn = self._drawn[games]
        game, seat = np.nonzero(self._decided[games] & (drawn >= 0))
        game, snapshot = np.unique(np.stack([game, drawn[game, seat]]), axis=1)
        self.pool.count(snapshot, np.asarray(learner_won, dtype=bool)[game])

    def act_games(self, games: np.ndarray, seats: np.ndarray, obs: np.ndarray,
                  mask: np.ndarray) -> np.ndarray:
        """The actions of rows taken in ``games`` by ``seats``: each snapshot or scripted
        policy drawn there answers its rows in one batch."""
        games, seats = np.asarray(games), np.asarray(seats)
        drawn = self._drawn[games, seats]
        self._decided[games, seats] = True
        actions = np.zeros(len(drawn), np.int64)
        for who in np.unique(drawn).tolist():
            rows = drawn == who
            first = np.flatnonzero(rows)[0]
            player: Policy = (self._players[games[first], seats[first]] if who >= 0
                              else self.scripted[-1 - who])
            actions[rows] = batch_actions(player, obs[rows], mask[rows])
        return actions

    def drawn(self, game: int) -> np.ndarray:
        """What each seat of ``game`` plays: a snapshot index, or -1 - a scripted index."""
        return self._drawn[game].copy()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Refused: without a game and seat there is no drawn snapshot to ask."""
        raise TypeError("a self-play opponent plays only where it is told each decision's game "
                        "and seat (the Gymnasium env and PagadoresVecEnv call act_games)")


def _grown(table: np.ndarray, games: int) -> np.ndarray:
    """``table`` (one row per game) with zero rows added up to ``games`` rows."""
    grown = np.zeros((games, *table.shape[1:]), table.dtype)
    grown[:len(table)] = table
    return grown


class SnapshotEvery(AfterUpdate):
    """Adds the learner to ``pool`` after the update that is ``every`` timesteps or more past
    the pool's last snapshot (so a resumed run keeps the pace; ``pagadores_train.run.callbacks``:
    a snapshot labelled N holds the policy trained on N steps); the pool must hold the first
    one already."""

    def __init__(self, pool: SnapshotPool, every: int) -> None:
        super().__init__()
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every must be a whole number of timesteps >= 1, got {every!r}")
        self.pool = pool
        self.every = every

    def _after_update(self) -> None:
        if self.num_timesteps - self.pool.timesteps[-1] >= self.every:
            with isolated_rng():  # loading the snapshot builds a network
                self.pool.add(self.model, self.num_timesteps)
