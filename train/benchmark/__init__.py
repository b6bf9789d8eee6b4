"""The benchmark: ``suite`` runs algorithms × tasks × seeds, each trial a seeded training run
and a normalised score; ``stats`` aggregates the trial records with rliable. May import every
other job of ``pagadores_train``.

This package took the name of the module that held the suite before the folder was grouped
by job: that module's names are found in ``suite``, with a warning naming it.
"""

from pagadores_env.core.moved import forward_names

__getattr__ = forward_names("pagadores_train.benchmark", "pagadores_train.benchmark.suite")
