"""``pagadores_cli`` (the repository's ``cli/`` folder): the ``pagadores`` command line
(``main``), terminal play (``play``), the benchmarks (``bench``, ``bench_aec``,
``bench_vector``), the exact report (``exact_report``) and the solver's commands (``solve``,
``best_response``). It uses the other packages and nothing uses it: ``pagadores_env`` ←
``pagadores_agents`` ← ``pagadores_train`` ← ``pagadores_cli``.
"""
