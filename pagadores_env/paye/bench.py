"""How long Paye's exact yardstick takes and how much memory, with the default dice and 10
rounds: ``python -m pagadores_env.paye.bench [case ...]`` prints one line per case (all cases
without arguments), each measured in a process of its own so its peak memory is its own.

=============  =========================================================================
case           what it measures
=============  =========================================================================
``solve-2``    the optimum at 2 players (``exact.solve``, its choices kept)
``solve-3``    the equilibrium at 3 players
``solve-4``    the equilibrium at 4 players
``expansion``  the expansion's optimum at 2 players (``expansion.solve_expansion``)
``nashconv-4`` the NashConv of a batch player at 4 players: a 64x64 network with fixed
               random weights (numpy), asked in batches as a trained network would be
=============  =========================================================================
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from ..core.policies import BasePolicy
from .observation import OBS_SIZE
from .rules import NUM_ACTIONS


class NetworkStandIn(BasePolicy):
    """A 64x64 tanh network with fixed random weights, asked in batches: the cost of a
    trained network's questions without its training."""

    name = "network"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        rng = np.random.default_rng(seed)
        sizes = (OBS_SIZE, 64, 64, NUM_ACTIONS)
        self.weights = [rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32)
                        for a, b in zip(sizes[:-1], sizes[1:], strict=True)]

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked argmax of the network's logits at every row."""
        x = np.asarray(obs, dtype=np.float32)
        for w in self.weights[:-1]:
            x = np.tanh(x @ w)
        logits = x @ self.weights[-1]
        return np.where(np.asarray(mask) > 0, logits, -np.inf).argmax(axis=1)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one row."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])


def _solve(players: int) -> str:
    from .exact import solve

    return " ".join(f"{v:.6f}" for v in solve(players).values)


def _expansion() -> str:
    from .expansion import solve_expansion

    return " ".join(f"{v:.6f}" for v in solve_expansion(2).values)


def _nashconv() -> str:
    from .exact import nash_conv

    return f"NashConv {nash_conv(NetworkStandIn(), 4).total:.6f}"


MODULE = "pagadores_env.paye.bench"  # run as a module, so ``__name__`` is "__main__"
CASES: dict[str, Callable[[], str]] = {
    "solve-2": lambda: _solve(2),
    "solve-3": lambda: _solve(3),
    "solve-4": lambda: _solve(4),
    "expansion": _expansion,
    "nashconv-4": _nashconv,
}


def run(case: str) -> dict[str, object]:
    """Measure one case in this process: its result, wall seconds and peak memory."""
    began = time.perf_counter()
    result = CASES[case]()
    return {"case": case, "result": result, "seconds": round(time.perf_counter() - began, 1),
            "peak_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2)}


def main(argv: list[str] | None = None) -> None:
    """Run each case named in ``argv`` (all without) in a process of its own; print a line
    per case."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--in-process"]:
        print(json.dumps(run(args[1])))
        return
    unknown = [a for a in args if a not in CASES]
    if unknown:
        raise SystemExit(f"unknown case {unknown[0]!r}; cases: {', '.join(CASES)}")
    for case in args or CASES:
        out = subprocess.run([sys.executable, "-m", MODULE, "--in-process", case],
                             capture_output=True, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        print(f"{row['case']:<11} {row['seconds']:>8.1f} s  {row['peak_gib']:>6.2f} GiB peak  "
              f"{row['result']}", flush=True)


if __name__ == "__main__":
    main()
