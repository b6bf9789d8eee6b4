"""The exact solver's per-seat passes as Ray tasks (``solver.passes.measure(backend="ray")``,
``pagadores nashconv --backend ray [--address HOST:PORT]``; the ``ray`` extra). Each task
declares the memory its pass needs, so Ray never puts two on a node that cannot hold both;
the numbers are those of the passes run here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..pagadores.solver.sweep import Progress
from .ray_cluster import join_or_start


def ray_passes(call: Callable[..., Any], jobs: list[tuple[Any, ...]], memory: float,
               workers: int, address: str | None, progress: Progress | None, positions: int
               ) -> Iterator[Any]:
    """``call(*job)`` (``solver.passes.indexed_pass``) of every job as a Ray task of one CPU
    and ``memory`` bytes, on a local Ray of ``workers`` CPUs started here or on the cluster
    at ``address``; yielded as they finish, ``progress`` told of each finished pass
    (``positions`` a pass)."""
    started = join_or_start(address, workers, ValueError)
    import ray

    remote = ray.remote(num_cpus=1, memory=int(memory), max_retries=0)(call)
    running: list[Any] = []
    try:
        running = [remote.remote(*job) for job in jobs]
        finished = 0
        while running:
            ready, running = ray.wait(running, num_returns=1)
            found = ray.get(ready[0])
            finished += 1
            if progress is not None:
                progress(finished * positions, len(jobs) * positions)
            yield found
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
