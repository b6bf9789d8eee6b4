"""Measuring agents without training them. May import ``pagadores_train.progress`` and the
layers below ``pagadores_train`` (the agents, the environments), nothing else of
``pagadores_train``.

=================  ===========================================================================
module             holds
=================  ===========================================================================
``evaluate``       seat-rotated evaluations of Pagadores agents with 95% intervals
                   (``evaluate_agents``), on the compiled batch engine
``perudo``         Perudo's evaluation through its engine, with the same statistics
``tournament``     round-robin tournaments and Bradley–Terry ratings
``yardstick``      the exact yardstick's numbers straight from the solver: win probabilities,
                   % of the best response, exploitability, NashConv
``compare``        the final table's other rows, with their exact numbers kept on disk
=================  ===========================================================================
"""
