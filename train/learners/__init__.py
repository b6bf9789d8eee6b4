"""The trainers. May import ``pagadores_train.run``, ``pagadores_train.evaluation`` and the
shared machinery (``progress``, ``settings``); never the benchmark.

=================  ===========================================================================
module             holds
=================  ===========================================================================
``trainers``       which trainer a config asks for (what ``pagadores train`` runs)
``sb3``            stable-baselines3 training on Pagadores-v1 or Perudo-v1
``selfplay``       self-play: opponents drawn from a pool of frozen snapshots
``best_response``  training against the exact best response (1-die Perudo)
``rllib``          RLlib PPO self-play, and its config (``rllib_config``)
``search/``        the search learner: its trainer, config, fitted value iteration, the fit
``approximate``    the approximate NashConv, each seat's best response learned
=================  ===========================================================================
"""
