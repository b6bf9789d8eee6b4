"""Fitting the search player's value net (``pagadores_agents.search.value_net``) to target values:
cross-entropy between the target win probabilities and the net's, minimised with Adam
(Kingma & Ba 2015) in numpy, so a search run needs no torch."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pagadores_agents.search.value_net import ValueNet, features, turned


@dataclass
class Adam:
    """Adam's moments for every array of a net, kept across fits (a run's optimiser state)."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    steps: int = 0
    moments: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def update(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        """One step on ``params`` in place."""
        if not self.moments:
            self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
        self.steps += 1
        t = self.steps
        for p, g, (m, v) in zip(params, grads, self.moments, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= self.lr * (m / (1 - self.beta1**t)) / (np.sqrt(v / (1 - self.beta2**t))
                                                        + self.eps)


def gradients(net: ValueNet, x: np.ndarray, alive: np.ndarray, target: np.ndarray
              ) -> tuple[float, list[np.ndarray]]:
    """The mean cross-entropy of ``net`` on turned targets ``target`` ``[B, n]`` and its
    gradient per array (``w0, b0, w1, ...``)."""
    probs, outputs = net.forward(x, alive)
    safe = np.where(target > 0, np.log(np.where(probs > 0, probs, 1.0)), 0.0)
    loss = float(-(target * safe).sum(axis=1).mean())
    delta = (probs - target) / len(x)  # d loss / d logits (dead slots: 0 - 0)
    grads: list[np.ndarray] = []
    for i in range(len(net.layers) - 1, -1, -1):
        w, _ = net.layers[i]
        grads = [outputs[i].T @ delta, delta.sum(axis=0), *grads]
        if i:
            delta = (delta @ w.T) * (1.0 - outputs[i] ** 2)  # tanh'
    return loss, grads


def fit(net: ValueNet, adam: Adam, cards: np.ndarray, insteker: np.ndarray,
        targets: np.ndarray, epochs: int, batch: int, rng: np.random.Generator) -> float:
    """Train ``net`` in place on positions ``cards`` ``[B, n]``, ``insteker`` ``[B]`` towards
    every seat's target win probability ``targets`` ``[B, n]``; the last epoch's mean loss."""
    x, alive = features(cards, insteker)
    target = np.take_along_axis(np.asarray(targets), turned(net.num_players, insteker), axis=1)
    params = [array for layer in net.layers for array in layer]
    loss = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            rows = order[start:start + batch]
            part, grads = gradients(net, x[rows], alive[rows], target[rows])
            adam.update(params, grads)
            total += part * len(rows)
        loss = total / len(x)
    return loss
