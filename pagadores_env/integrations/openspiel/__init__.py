"""The package's dice games as OpenSpiel Python games.

They need the optional extra ``openspiel`` (``pip install 'pagadores-env[openspiel]'``).
Importing this package registers them with ``pyspiel.register_game``:

- ``python_pagadores`` (``.pagadores``): Dados de Pagadores, parameters ``players`` and
  ``cards``; perfect information with the 56 unordered throws as chance outcomes;
- ``python_perudo`` and ``python_perudo_small`` (``.perudo``): Perudo, and its one-round
  two-player game with one die each;
- ``python_paye`` (``.paye``) and ``python_pasch`` (``.pasch``): Paye's dobbelspel and
  Pasch, both the one adapter of ``.spec_game`` over their entry in the table of games
  (``core.games``), perfect information with the engine's ``chance_outcomes()`` as chance
  actions.

``pyspiel.load_game("python_pagadores", {"players": 3, "cards": 3})`` then works like any
OpenSpiel game.
"""

from .pagadores import PagadoresGame, PagadoresObserver, PagadoresState
from .pasch import PaschGame
from .paye import PayeGame
from .perudo import (
    SHORT_NAME,
    SMALL_NAME,
    PerudoGame,
    PerudoObserver,
    PerudoState,
    SmallPerudoGame,
    efg_game,
)
from .spec_game import SpecGame, SpecObserver, SpecState, SpielSpec

__all__ = ["SHORT_NAME", "SMALL_NAME", "PagadoresGame", "PagadoresObserver", "PagadoresState",
           "PaschGame", "PayeGame", "PerudoGame", "PerudoObserver", "PerudoState",
           "SmallPerudoGame", "SpecGame", "SpecObserver", "SpecState", "SpielSpec", "efg_game"]
