"""What every game's PettingZoo AEC env shares: ``TableEnv``, the base with the text table and
the reason there is no agent to act, and ``StrictOrderEnforcing``, the order-enforcing wrapper
each game's ``env()`` returns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from .checks import check_seed
from .errors import IllegalMoveError


class TableEnv(AECEnv):
    """What both games' AEC envs share: the text table (``render``'s text modes and the
    human-mode news) and the reason there is no agent to act. A game's env sets ``game``
    once reset, ``render_mode`` and ``_printed`` (log entries already printed), and names
    its ``describe_events`` and ``render_table``."""

    game: Any
    render_mode: str | None
    _printed: int
    #: the game's ``render.describe_events`` and ``render.render_table``
    _describe_events: Callable[[Sequence[Any]], Sequence[str]]
    _render_table: Callable[[Any], str]

    def _render_text(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: print it and return None."""
        text = self._render_table(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _no_agent_reason(self) -> str:
        if not hasattr(self, "game"):
            return "reset() was never called; call reset() to start a game"
        return "the game is over and every agent has left; call reset() to start a new game"

    def _print_news(self) -> None:
        """Human mode: print what happened since the last print, then the table."""
        log = self.game.log
        for line in self._describe_events(log[self._printed:]):
            print(line)
        self._printed = len(log)
        print(self._render_table(self.game), end="\n\n")


class _OrderEnforcingIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):
    """The stock iterator's checks in one call, reading the unwrapped env directly (the
    wrapper's ``agents`` and ``agent_selection`` are the env's once it has been reset)."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class StrictOrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with two changes. Stepping a finished game raises
    (the stock wrapper only warns and does nothing, which hides driver bugs). And the
    attributes and calls of every agent step (``agents``, ``agent_selection``, ``last``,
    ``step``, the ``agent_iter`` iterator) go straight to the env instead of through
    ``__getattr__`` forwarding chains: the same results, at a fraction of the per-step cost."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the env, checking ``seed`` before the wrapper marks itself reset."""
        # the stock wrapper marks itself reset before the env checks the seed: check it first
        super().reset(seed=check_seed(seed), options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """The agents in turn, checked as the stock iterator checks them."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        """The env's agents once reset."""
        if not self._has_reset:
            return self.__getattr__("agents")  # raises "cannot be accessed before reset"
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        """The env's selected agent once reset."""
        if not self._has_reset:
            return self.__getattr__("agent_selection")
        return self.env.agent_selection

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's ``last()`` once reset."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        """Step the env; a finished game raises ``IllegalMoveError``."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        if not env.agents:
            raise IllegalMoveError(f"step(): {env._no_agent_reason()}")
        self._has_updated = True
        env.step(action)

    def __str__(self) -> str:
        return str(self.env)  # the env's name, as the stock wrapper prints itself
