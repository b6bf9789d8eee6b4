"""Both dice games as OpenSpiel Python games.

They need the optional extra ``openspiel`` (``pip install 'pagadores-env[openspiel]'``).
Importing this package registers them with ``pyspiel.register_game``:

- ``python_pagadores`` (``.pagadores``): Dados de Pagadores, parameters ``players`` and
  ``cards``; perfect information with the 56 unordered throws as chance outcomes;
- ``python_perudo`` and ``python_perudo_small`` (``.perudo``): Perudo, and its one-round
  two-player game with one die each.

``pyspiel.load_game("python_pagadores", {"players": 3, "cards": 3})`` then works like any
OpenSpiel game.
"""

from .pagadores import PagadoresGame, PagadoresObserver, PagadoresState
from .perudo import (
    SHORT_NAME,
    SMALL_NAME,
    PerudoGame,
    PerudoObserver,
    PerudoState,
    SmallPerudoGame,
    efg_game,
)

__all__ = ["SHORT_NAME", "SMALL_NAME", "PagadoresGame", "PagadoresObserver", "PagadoresState",
           "PerudoGame", "PerudoObserver", "PerudoState", "SmallPerudoGame", "efg_game"]
