"""``pagadores_train`` (the repository's ``train/`` folder): training agents from YAML configs
and measuring them. Needs the ``train`` extra.

Its jobs, each a subpackage; a job imports only the jobs above it in this table (and the
machinery every job shares), never one below it (``tests/package/test_layers.py``):

==================  ==========================================================================
where               holds
==================  ==========================================================================
``progress``        how long work says what it is doing (shared by every job)
``settings``        the machinery of validated settings every config is built with (shared)
``signals``         what Ctrl-C and SIGTERM do to long work: stop as Ctrl-C does (shared)
``evaluation/``     measuring agents without training them: seat-rotated evaluations, Perudo's,
                    tournaments, the exact yardstick's numbers, the final table's other rows
``run/``            a run folder's life: its config, lock, folder, checkpoints, callbacks, how a
                    run measures its model, its reports
``learners/``       the trainers: SB3 and self-play, training against the exact best response,
                    RLlib, the search learner (``learners/search/``), which trainer a config
                    asks for, the approximate NashConv by learned best responses
``benchmark/``      the benchmark suite (algorithms × tasks × seeds) and its aggregate
==================  ==========================================================================

The modules that lived in this folder before it was grouped by job (``pagadores_train.evaluate``
and the others) still import under their old names, warning once with the new one
(``pagadores_env.core.moved``).
"""

from pagadores_env.core.moved import install

#: Old module → its home since the folder was grouped by job (pagadores-env 0.3.0).
MOVED = {
    "pagadores_train.approximate": "pagadores_train.learners.approximate",
    "pagadores_train.benchmark_stats": "pagadores_train.benchmark.stats",
    "pagadores_train.best_response": "pagadores_train.learners.best_response",
    "pagadores_train.callbacks": "pagadores_train.run.callbacks",
    "pagadores_train.checkpoints": "pagadores_train.run.checkpoints",
    "pagadores_train.compare": "pagadores_train.evaluation.compare",
    "pagadores_train.config": "pagadores_train.run.config",
    "pagadores_train.evaluate": "pagadores_train.evaluation.evaluate",
    "pagadores_train.lock": "pagadores_train.run.lock",
    "pagadores_train.model_eval": "pagadores_train.run.model_eval",
    "pagadores_train.perudo": "pagadores_train.evaluation.perudo",
    "pagadores_train.reports": "pagadores_train.run.reports",
    "pagadores_train.rllib": "pagadores_train.learners.rllib",
    "pagadores_train.rllib_config": "pagadores_train.learners.rllib_config",
    "pagadores_train.run_folder": "pagadores_train.run.folder",
    "pagadores_train.sb3": "pagadores_train.learners.sb3",
    "pagadores_train.search": "pagadores_train.learners.search.trainer",
    "pagadores_train.search_config": "pagadores_train.learners.search.config",
    "pagadores_train.search_fit": "pagadores_train.learners.search.fit",
    "pagadores_train.search_learn": "pagadores_train.learners.search.learn",
    "pagadores_train.selfplay": "pagadores_train.learners.selfplay",
    "pagadores_train.tournament": "pagadores_train.evaluation.tournament",
    "pagadores_train.trainers": "pagadores_train.learners.trainers",
    "pagadores_train.yardstick": "pagadores_train.evaluation.yardstick",
}
install(MOVED)
