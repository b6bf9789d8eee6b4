"""A run folder's life, the same for every trainer. May import ``pagadores_train.progress``,
``pagadores_train.settings`` and ``pagadores_train.evaluation``; never the learners.

=================  ===========================================================================
module             holds
=================  ===========================================================================
``config``         an SB3 run's config: dataclasses loaded from YAML and validated
``algorithms``     the SB3 algorithms a config may name and their hyperparameters' checks
``folder``         the folder's lifecycle: new, resumed or ``--fresh``, its saved config
``lock``           one run per folder
``memory``         what a run needs of memory, measured, checked before the folder is touched
``checkpoints``    saving checkpoints after updates and resuming from the newest good one
``callbacks``      when step-labelled work happens: after an update, never inside a rollout
``model_eval``     how a run measures its model (Monte-Carlo games and exact numbers)
``reports``        its CSV rows, learning curve, final table and ``results.md``
=================  ===========================================================================
"""
