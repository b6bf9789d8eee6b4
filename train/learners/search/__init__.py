"""The search learner, one place for its training side (its player is
``pagadores_agents.search``): ``trainer`` runs a search self-play run, ``config`` reads its
``search:`` section, ``learn`` is the fitted value iteration on round-start positions, ``fit``
fits the value net in numpy.
"""
