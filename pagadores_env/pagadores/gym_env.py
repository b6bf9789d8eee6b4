"""``Pagadores-v1``: Dados de Pagadores as a single-agent Gymnasium environment.

One seat is the learner; the other seats are played by fixed policies and all dice are rolled
by the environment, so ``step`` returns at the learner's next decision. The env plays its game
on the compiled rules kernel (``vector.one.OneGame``, as the PettingZoo env does, not through
it); ``env.game`` is the same game as an ``engine.Game`` (event log, history, saved form),
rebuilt from the game's inputs when read, so read it again after a step::

    env = gymnasium.make("Pagadores-v1", num_players=2, cards=10, opponents=["random"],
                         learner_seat="random", reward="win", illegal_action="raise",
                         render_mode=None, info_events=False)

In subprocess workers (``SubprocVecEnv`` with the default forkserver/spawn start) make it as
``gymnasium.make("pagadores_env:Pagadores-v1", ...)``: the ``module:`` prefix imports the
package, which registers the id, in each worker.

Spaces
    observation: ``Box(-1, 1, (49,), float32)``, the same vector the PettingZoo env gives the
    acting seat (``observation.encode``; layout in ``observation.FIELDS``, seats rotated so
    the learner is slot 0). action: ``Discrete(2)``: 0 = stop, 1 = throw again (R3.6).
    The legal actions are ``action_masks()`` (for sb3-contrib's MaskablePPO, which finds it
    through ``gym.make``'s wrappers; they do not forward it, so call it on ``env.unwrapped``)
    and ``info["action_mask"]`` (int8 ``[stop, throw again]``). At every decision both are
    legal.

Options
    ``num_players`` 2–6, or a list of sizes (below); ``cards`` 1–10 each (or one count per
    seat, as ``Game`` takes);
    ``core.opponents``: policy specs (``"threshold:min_points=100"``) or policy objects, one per
    other seat in seat order skipping the learner, or a single one: ONE policy object shared
    by every other seat (``core.opponents.seat_opponents``, as the VecEnv seats them; before 0.2 a
    single spec built one object per seat); ``learner_seat``: a seat number or
    ``"random"`` (drawn per game); ``reward``: ``"win"`` or ``"placement"``
    (``core.rewards.py``, the same mapping the PettingZoo env pays); ``illegal_action``,
    ``info_events`` and ``render_mode`` as below. The PettingZoo env takes the same
    ``cards``, ``reward``, ``illegal_action``, ``info_events`` and ``render_mode`` values.

Table sizes ("one policy for every table size")
    ``num_players=[2, 3, 4, 5, 6]`` makes every game draw its own size, uniformly over the
    list's entries: a size listed twice is drawn twice as often (that is the whole weighting
    API; an empty list or a size outside 2–6 is refused). The spaces are the same at every
    size (the observation pads to six seats, ``observation``'s ``present`` field), so one
    network plays them all. ``env.num_players`` is the current game's size and ``env.sizes``
    the list; ``env.opponents`` the current game's other seats. With several sizes,
    ``cards`` must be one count, ``core.opponents`` a single entry (one object seated in every
    other seat at every size; per-seat lists fit one size only and are refused), and
    ``learner_seat`` ``"random"`` or a seat every size has. The sizes come from their own
    generator, part ``P + 2`` of the seed (``size_rng``), drawn once per game (a game the
    learner never decides in draws too), so a seeded Gym env and a seeded one-game VecEnv
    draw the same sizes, and a single size draws nothing and runs exactly as before.

Episode
    ``reset(seed)`` seeds the dice (blocks of ordered outcomes 0…215 drawn from Gymnasium's
    ``np_random``, i.e. ``np.random.default_rng(seed)``, mapped through ``rules.THROWS``), the
    learner seat draw, the table sizes and the opponents' own generators
    (``core.opponents.reseed_opponents``: the same seeds the VecEnv gives them), so a seeded run
    repeats exactly. It returns the learner's first decision; if a whole game passes without
    one (possible with few cards), it starts another game, and gives up with an error after
    ``MAX_SILENT_GAMES`` such games. The episode ends (``terminated=True``) when the learner
    is knocked out or the game is over; the reward is then paid once and is 0 on every other
    step. Nothing truncates.

Illegal actions (anything ``engine.as_action`` refuses: an action is the integer 0 or 1 — a
Python or numpy integer, or a 0-d integer array; booleans and floats are refused, as by
``Game`` and the PettingZoo env; at a decision both 0 and 1 are legal)
    ``"raise"`` (default): ``IllegalMoveError`` with the engine's message, naming the
    learner's seat, state unchanged. ``"replace"``: the first legal action (0, stop) is
    played instead and ``info["illegal_action"]`` is True. ``"penalty"``: reward -1, the
    episode ends, and the learner counts as last (``info["placement"]``).

Info (the same keys and shapes at every step, as replay buffers need)
    ``action_mask``; ``learner_seat``; ``illegal_action``; ``placement``: the learner's final
    place (1 = winner) once the episode has ended, 0 before. With ``info_events=True`` also
    ``events``: the ``engine.Event`` records since the learner's previous decision (opponents'
    moves, all throws, losses), a tuple whose length varies; the whole game is ``env.game.log``.

Rendering (``render_mode``)
    ``"ansi"``: ``render()`` returns the table as text (``render.render_table``);
    ``"human"``: the table is printed after ``reset()`` and every step; ``"rgb_array"``:
    ``render()`` returns a picture of the table (``picture.draw``, the learner's seat named
    "(learner)"), so Gymnasium's ``RecordVideo`` can record episodes
    (``metadata["render_fps"]`` is 2). Without a ``render_mode``, ``render()`` warns in one
    line and returns None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

from ..core.checks import check_choice, check_flag
from ..core.opponents import GameHooks, Opponents
from ..core.options import ILLEGAL_ACTIONS, RENDER_FPS
from ..core.rewards import check_scheme
from ..core.seats import player
from ..core.single_agent import MAX_SILENT_GAMES, SingleAgentEnv
from .aec import (
    DECIDE_MASK,
    RENDER_MODES,
    WAIT_MASK,
    new_one_game,
    picture_drawer,
)
from .dice import DiceStream
from .engine import Action, Game, as_action
from .observation import OBS_SIZE
from .render import render_table
from .rules import check_table
from .seating import draw_sizes, size_rng, tables

if TYPE_CHECKING:
    from .vector.one import OneGame



class PagadoresGymEnv(SingleAgentEnv):
    """Single-agent Dados de Pagadores; see the module docstring for the full contract."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": RENDER_FPS}
    _render_table = staticmethod(render_table)
    _render_hint = ("render_mode='ansi', 'human' or 'rgb_array' to "
                    "gymnasium.make('Pagadores-v1', ...)")

    def __init__(self, num_players: int | Sequence[int] = 2, cards: int | Sequence[int] = 10,
                 opponents: Opponents = ("random",),
                 learner_seat: int | str = "random", reward: str = "win",
                 illegal_action: str = "raise", render_mode: str | None = None,
                 info_events: bool = False) -> None:
        setup = tables(num_players, cards, opponents, learner_seat)
        self.sizes = setup.sizes
        self.cards = setup.cards
        self.learner_seat = setup.learner_seat
        self._seated = setup.opponents
        self.num_players = self.sizes[0]  # the current game's size: drawn per game from sizes
        self.opponents = self._seated[self.num_players]  # the current game's other seats
        self._hooks = GameHooks([p for seated in self._seated.values() for p in seated])
        self._size_rng: np.random.Generator | None = None  # made with the generator in reset()
        self.render_mode = check_choice("render_mode", render_mode, RENDER_MODES)
        self.info_events = check_flag("info_events", info_events)
        self._draw_picture = picture_drawer() if render_mode == "rgb_array" else None
        self.reward_scheme = check_scheme(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(2)
        self._table: OneGame | None = None  # the game in play, made in reset()
        self.seat = 0
        self._dice: DiceStream | None = None  # made with the generator in reset()
        self._log_at = 0
        self._done = True

    # ------------------------------------------------------------------ gym API
    def action_masks(self) -> np.ndarray:
        """``[stop, throw again]`` legality (int8) for MaskablePPO; zeros once the episode ends."""
        return (WAIT_MASK if self._done else DECIDE_MASK).copy()

    @property
    def game(self) -> Game | None:
        """The game in play as an ``engine.Game`` (None before the first ``reset``): its event
        log, history and saved form, rebuilt from the game's inputs when read. Read it for
        those; changing it does not change the env's game."""
        return None if self._table is None else self._table.game

    # ------------------------------------------------------------------ hooks
    def _picture(self) -> np.ndarray:
        """The table by ``picture.draw``, the learner's seat named "(learner)"."""
        assert self._draw_picture is not None  # made in __init__ for "rgb_array"
        names = [player(s) + (" (learner)" if s == self.seat else "")
                 for s in range(self.num_players)]
        return self._draw_picture(self.game, names)

    def _reseed(self, seed: int | None) -> None:
        if seed is not None or self._dice is None:  # a new seed drops the old seed's dice
            self._dice = DiceStream(self.np_random)
            self._size_rng = size_rng(seed, self.opponents)

    def _make_game(self) -> None:
        self._log_at = 0
        assert self._dice is not None  # made in reset()
        start = check_table(self.num_players, self.cards)[1]
        self._table = new_one_game(self.num_players, start, self._dice, watched=self.seat)

    def _apply_learner(self, action: Any) -> None:
        assert self._table is not None  # an episode is running, so reset() made it
        # as_action: the one rule for every layer; a plain int for the kernel's fast call
        self._table.play(int(as_action(action)), watched=self.seat)

    def _first_legal(self) -> Action:
        return Action.STOP  # legal_actions() at a decision is [STOP, THROW]

    def _placements(self) -> list[int]:
        assert self._table is not None  # an episode is running, so reset() made it
        return self._table.placements()

    def _observe(self) -> np.ndarray:
        assert self._table is not None  # only from reset() and step(), after reset() made it
        return self._table.observe(self.seat)

    def _silent_message(self) -> str:
        return (f"the learner got no decision in {MAX_SILENT_GAMES} games in a row "
                f"(num_players={list(self.sizes)}, cards={self.cards}, "
                f"opponents={self.opponents}): "
                "with these settings it never decides; give more cards or other opponents")

    def _play_until_learner(self) -> None:
        """Let opponents decide (the dice are thrown by ``OneGame.play``) until the learner
        decides or its episode ends: the game is over or the learner holds no cards."""
        table, seat = self._table, self.seat
        assert table is not None  # reset() made it
        who = table.decider
        while who >= 0 and who != seat:
            action = self._decide_of[who](table.observe(who), DECIDE_MASK.copy())
            who = table.play(int(as_action(action)), watched=seat)
        self._done = who < 0

    # ------------------------------------------------------------------ internals
    def _new_game(self) -> None:
        if len(self._seated) > 1:  # several table sizes: every game draws its own
            assert self._size_rng is not None  # reset() made it
            self.num_players = int(draw_sizes(self._size_rng, self.sizes, 1)[0])
            self.opponents = self._seated[self.num_players]
        super()._new_game()

    def _info(self, illegal_action: bool = False, placement: int | None = None) -> dict[str, Any]:
        """The shared info, with ``events`` when ``info_events`` (see the module docstring)."""
        info = super()._info(illegal_action, placement)
        if self.info_events:
            assert self.game is not None  # super()._info checked it
            log = self.game.log
            info["events"] = tuple(log[self._log_at:])
            self._log_at = len(log)
        return info
