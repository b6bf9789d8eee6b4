"""What needs an optional extra and is not a game: each module imports its extra itself and is
imported only when used (``import pagadores_env`` imports none of them).

- ``openspiel``: Pagadores and Perudo registered with OpenSpiel (the ``openspiel`` extra,
  ``pyspiel``).
- ``ray_cluster``: joining a Ray cluster or starting a local Ray (the ``ray`` extra): for the
  exact passes' Ray backend (``solver.passes``), the benchmark's and RLlib training.
"""
