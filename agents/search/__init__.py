"""The search player, one place for its playing side (its learner is
``pagadores_train.learners.search``): ``player`` searches the round at hand exactly over the
dice and scores its ends by ``value_net``, a small learned value net; ``memory`` keeps what its
searches hold within budget; ``shipped`` holds the nets trained once for 2, 3 and 4 players
(``search-2p``, ``search-3p``, ``search-4p``). Importing it registers those players and
``search``.

This package took the name of the module that held the player: that module's names are found
in ``player``, with a warning naming it; ``pagadores_agents.value_net`` and
``pagadores_agents.search_memory`` import their new homes, warning too.
"""

from pagadores_env.core.moved import forward_names, install

from . import player, shipped

install({"pagadores_agents.value_net": "pagadores_agents.search.value_net",
         "pagadores_agents.search_memory": "pagadores_agents.search.memory"})
__getattr__ = forward_names("pagadores_agents.search", "pagadores_agents.search.player")

__all__ = ["player", "shipped"]
