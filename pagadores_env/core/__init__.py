"""The game-neutral core every game builds on; it imports no game.

=================  ============================================================================
module             holds
=================  ============================================================================
``protocol``       the game protocol (``GameState``: players, chance and decision nodes, legal
                   actions, apply, terminal, returns, clone, records) and ``Event``
``records``        saved games: the digest, the envelope check, replay; ``Replayable``, the
                   engines' base (clone and equality from the start and the inputs)
``errors``         ``IllegalMoveError``; the one-line error of a retired v0 name
``seats``          the circle of seats (``CLOCKWISE``, ``next_with_cards``), placements, agent
                   names
``fields``         observation layouts: field slices and the docs' field table
``checks``         argument checks, each error in one line naming the argument; the one rule
                   for what counts as an action (``check_action``)
``seeding``        seed derivation: named and numbered parts of a run seed
``dice``           the environments' seeded dice: a stream of faces 1–6 (``FaceStream``)
``atomic``         atomic file writes
``rewards``        the reward schemes (``win``, ``placement``)
``options``        option values every env takes alike (render modes and fps, illegal-action
                   modes), the picture drawer ``rgb_array`` loads
``policies``       the policy protocol, its capabilities, the uniform random player, and the
                   registry of players, one namespace per game
``opponents``      seating and seeding a learner's scripted opponents; the per-game hooks
``aec``            the AEC envs' base (``TableEnv``: agents, spaces, seeding, ``last``,
                   render, final rewards, forfeits), the whole env of a game whose agents all
                   play to its end (``WholeGameEnv``: Paye, Pasch), order enforcing
                   (``StrictOrderEnforcing``)
``single_agent``   the Gymnasium envs' base (``SingleAgentEnv``): options, episodes, illegal
                   actions, play up to the learner, the one final reward, infos, masks, render
``memory``         the memory this process may use (machine, control group, ``ulimit -v``),
                   which the exact yardsticks size themselves by before any work
``pool``           independent work in a pool of spawned processes that end with the command
``moved``          import paths that moved keep working, warning with the new home
``picture``        the pieces of every game's ``rgb_array`` picture: canvas, colours, seats'
                   panels round the table, dice faces, text, badges, boxes, discs (imports
                   Pillow)
=================  ============================================================================
"""
