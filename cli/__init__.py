"""``pagadores_cli`` (the repository's ``cli/`` folder): the ``pagadores`` command line
(``main``), terminal play (``play``), the benchmarks (``bench``, ``bench_aec``,
``bench_vector``), the exact report (``exact_report``) and the solver's commands (``solve``,
``best_response``). It uses the other packages and nothing uses it: ``pagadores_env`` ←
``pagadores_agents`` ← ``pagadores_train`` ← ``pagadores_cli``.
"""

import os

# numpy's BLAS multiplies only small matrices here (the search player's value net, its fits),
# where threads gain nothing and, on a busy 2-core machine, spin against the work beside them:
# a 6-player search's net batch took 33 ms with OpenBLAS's threads there and 10 ms with one.
# Set before numpy is first imported; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
