"""Every seat's win probability as a round is about to start, learned: the search player's leaf
values (``pagadores_agents.search.player``), trained by ``pagadores_train.learners.search.trainer``.

A round-start position is the card counts per seat and the insteker (R3.1, R3.5): between
rounds nothing else matters (R7.1). The net reads it **turned to the insteker** (slot 0 is the
insteker, then clockwise, R1.2), so the same play from a turned table is learned once: at 2–3
players the game looks the same from every seat, and the net's values turn with the table
exactly. At 4 or more players it also reads the insteker's absolute seat, because R6.2's
"youngest player left insteeks" tells seats apart there. Features per position
(``features``): cards per slot / ``MAX_CARDS``, whether each slot has cards, and at 4+
players the insteker's seat one-hot (``inputs(n)`` numbers).

Its outputs are one logit per slot; the seats without cards get probability 0 and the others
a softmax, so the values always sum to 1 over the seats still in (exactly one seat wins,
R1.5) and a finished game needs no net. Hidden layers are ``tanh``: a smooth surface, whose
errors largely cancel between a decision's two actions (``../shared`` learning note: the
search compares values of neighbouring positions).

It is plain numpy, so the search player needs no torch; ``forward`` keeps the activations
for the trainer's gradient (``pagadores_train.learners.search.fit``). Saved as ``.npz``: the layers
``w0, b0, w1, b1, ...`` and ``meta`` (format, players, and the start cards per seat of the
table it was trained at), written atomically and checked on load (a damaged file is refused
in one line). A net used at a table starting with more cards than that warns in one line
(``pagadores_agents.search.player.SearchPolicy.check_table``): it never saw such positions.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pagadores_env.core.atomic import write_atomic
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver.npz import open_npz

#: The saved file's format; a file of another format is refused.
FORMAT = 1
#: The hidden layers of a new net.
HIDDEN = (128, 128)
#: From this many players on, R6.2 tells seats apart (with three, a special that empties two
#: players ends the game).
SEATS_TOLD_APART = 4


def turned(num_players: int, insteker: np.ndarray) -> np.ndarray:
    """``[B, n]``: the seat in each slot of a table turned to the insteker (slot 0)."""
    return (np.asarray(insteker)[:, None] + np.arange(num_players)[None, :]) % num_players


def inputs(num_players: int) -> int:
    """How many numbers describe a position of ``num_players`` seats (``features``)."""
    return 2 * num_players + (num_players if num_players >= SEATS_TOLD_APART else 0)


def features(cards: np.ndarray, insteker: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The net's input ``[B, inputs(n)]`` for positions ``cards`` ``[B, n]`` with
    ``insteker`` ``[B]`` (see the module docstring), and which turned slots have cards."""
    cards = np.asarray(cards)
    n = cards.shape[1]
    slots = turned(n, insteker)
    held = np.take_along_axis(cards, slots, axis=1)
    alive = held > 0
    parts = [held / MAX_CARDS, alive]
    if n >= SEATS_TOLD_APART:
        seat = np.zeros((len(cards), n))
        seat[np.arange(len(cards)), insteker] = 1.0
        parts.append(seat)
    return np.concatenate(parts, axis=1), alive


class ValueNet:
    """A multilayer perceptron from a round-start position to every seat's win probability.
    ``cards`` are the start cards per seat of the table it was trained at (None: not recorded,
    a file of an older version): positions with more cards it never saw."""

    def __init__(self, num_players: int, layers: Sequence[tuple[np.ndarray, np.ndarray]],
                 cards: Sequence[int] | None = None) -> None:
        self.num_players = num_players
        self.cards = None if cards is None else tuple(int(c) for c in cards)
        if self.cards is not None and (len(self.cards) != num_players or not all(
                0 <= c <= MAX_CARDS for c in self.cards)):
            raise ValueError(f"value net trained at cards {list(self.cards)}: not one count "
                             f"0–{MAX_CARDS} per seat of {num_players}")
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64))
                       for w, b in layers]
        sizes = [inputs(num_players)] + [w.shape[1] for w, _ in self.layers]
        for (w, b), fan_in, fan_out in zip(self.layers, sizes, sizes[1:], strict=False):
            if w.shape != (fan_in, fan_out) or b.shape != (fan_out,):
                raise ValueError(f"value net layers do not chain: {w.shape} after {fan_in} "
                                 f"inputs (bias {b.shape})")
        if sizes[-1] != num_players:
            raise ValueError(f"value net gives {sizes[-1]} values for {num_players} players")

    @classmethod
    def new(cls, num_players: int, hidden: Sequence[int] = HIDDEN, seed: int = 0,
            cards: Sequence[int] | None = None) -> ValueNet:
        """A net with small random weights (Glorot-uniform) and a zero last layer, so that it
        starts at a fair share for everyone still in; to be trained at ``cards``."""
        rng = np.random.default_rng(seed)
        sizes = [inputs(num_players), *hidden, num_players]
        layers = []
        for fan_in, fan_out in zip(sizes, sizes[1:], strict=False):
            bound = np.sqrt(6.0 / (fan_in + fan_out))
            layers.append((rng.uniform(-bound, bound, (fan_in, fan_out)), np.zeros(fan_out)))
        layers[-1] = (np.zeros_like(layers[-1][0]), layers[-1][1])
        return cls(num_players, layers, cards)

    def forward(self, x: np.ndarray, alive: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Win probabilities per turned slot ``[B, n]`` at inputs ``x``, and every layer's
        output (the input first) for a gradient."""
        outputs = [x]
        for i, (w, b) in enumerate(self.layers):
            z = outputs[-1] @ w + b
            outputs.append(np.tanh(z) if i < len(self.layers) - 1 else z)
        logits = np.where(alive, outputs[-1], -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True), outputs

    def __call__(self, cards: np.ndarray, insteker: np.ndarray) -> np.ndarray:
        """Every seat's win probability ``[B, n]`` at positions ``cards`` ``[B, n]`` (each with
        two or more seats holding cards) as ``insteker`` ``[B]`` starts the round."""
        cards = np.asarray(cards)
        insteker = np.asarray(insteker)
        x, alive = features(cards, insteker)
        probs, _ = self.forward(x, alive)
        values = np.empty_like(probs)
        np.put_along_axis(values, turned(self.num_players, insteker), probs, axis=1)
        return values

    def one(self, cards: Sequence[int], insteker: int) -> np.ndarray:
        """``__call__`` for one position, ``[n]``: what a search asks thousands of times a
        round, so without the batch's index arrays (a quarter of the time)."""
        n = self.num_players
        slots = [(insteker + k) % n for k in range(n)]
        held = np.array([cards[s] for s in slots], np.float64)
        alive = held > 0
        x = np.concatenate([held / MAX_CARDS, alive, np.eye(n)[insteker]]
                           if n >= SEATS_TOLD_APART else [held / MAX_CARDS, alive])
        for w, b in self.layers[:-1]:
            x = np.tanh(x @ w + b)
        w, b = self.layers[-1]
        logits = np.where(alive, x @ w + b, -np.inf)
        weights = np.exp(logits - logits.max())
        values = np.empty(n)
        values[slots] = weights / weights.sum()
        return values

    # ------------------------------------------------------------------ saving
    def save(self, path: str | Path) -> Path:
        """Write the net to ``path`` (``.npz``) in one step (``core.atomic``)."""
        arrays = {f"{kind}{i}": array for i, layer in enumerate(self.layers)
                  for kind, array in zip("wb", layer, strict=True)}
        meta = json.dumps({"format": FORMAT, "num_players": self.num_players}
                          | ({} if self.cards is None else {"cards": list(self.cards)}))
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.array(meta), **arrays)
        return write_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """The net saved at ``path``; ``ValueError`` in one line for a file that is missing,
        damaged or not a value net of this format."""
        try:
            with open_npz(path) as saved:
                meta = json.loads(str(saved["meta"]))
                count = sum(1 for key in saved.files if key.startswith("w"))
                layers = [(saved[f"w{i}"], saved[f"b{i}"]) for i in range(count)]
            players = int(meta["num_players"])
            if meta.get("format") != FORMAT or not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise ValueError(f"format {meta.get('format')!r}, players {players}")
            return cls(players, layers, meta.get("cards"))
        except FileNotFoundError:
            raise ValueError(f"value net {str(path)!r} does not exist") from None
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as err:
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise ValueError(f"value net {str(path)!r} is damaged or not a value net of format "
                             f"{FORMAT} ({reason})") from None
