"""The exact yardstick for two-player agents: exact win probabilities, % of the best
response's value and exploitability, straight from the solver (``pagadores_env.solver``).

An agent is tabulated once (``policy_table``: its action at every two-player decision state,
asked in a few large ``act_batch`` calls) into a :class:`Yardstick`, which also holds the exact
best response against it. Comparing two yardsticks is then one backward pass:

- **exact win probability** of A against B, averaged over who insteeks the first round (R3.1):
  the very quantity a seat-rotated ``evaluate_agents`` (``pagadores_train.evaluate``)
  estimates by Monte Carlo;
- **% of best-response value**: A's exact win probability against B divided by the best
  response's against B, × 100. 100 means A beats B as well as anything can; a training curve
  climbing towards 100 against a fixed opponent is learning to exploit it;
- **exploitability** of A: the best response's exact win probability against A − ½, which is
  ``pagadores_env.solver.exploitability`` (the two first-insteker game values add up to 1);
  0 for optimal play.

Stochastic agents: a policy that reports its action probabilities (``throw_probabilities``,
as ``random`` does) is tabulated as those probabilities and evaluated exactly as the mixture.
A stochastic agent without that hook can only be evaluated as the deterministic table its
calls drew; :attr:`Yardstick.exact` is False for such a table (asking again gave
different answers), and reports mark it with ``†``.

``exact_metrics(policy, opponent)`` is the training-loop hook (the opponent's yardstick is
cached); the README's table of every agent against every other is ``pagadores exact``
(``pagadores_cli.exact_report``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from pagadores_env.policies import Policy, check_tables, make_policy
from pagadores_env.rules import MAX_CARDS
from pagadores_env.solver import (
    BestResponse,
    PolicyTable,
    best_response,
    policy_table,
    win_probabilities,
)
from pagadores_env.solver.model import check_cards

#: Marks an exact number that belongs to the deterministic table a stochastic agent drew.
DRAWN = "†"
#: Opponent yardsticks kept by ``exact_metrics`` (oldest dropped first).
CACHE_SIZE = 16

Agent = str | Policy | PolicyTable


@dataclass(frozen=True)
class ExactMetrics:
    """One agent measured exactly against one opponent (see the module docstring)."""

    win_probability: float
    best_response_win_probability: float
    percent_of_best_response: float
    exploitability: float


@dataclass(frozen=True)
class Yardstick:
    """An agent tabulated at every decision with 1…``cards`` cards a side, and the exact best
    response against it."""

    cards: int
    table: PolicyTable  # may cover more cards than ``cards`` (a table passed in as it is)
    response: BestResponse
    exact: bool  # False: the numbers are for one drawn table of a stochastic agent (†)

    @property
    def exploitability(self) -> float:
        """Best response's win probability against this agent − ½ (0 for optimal play)."""
        return self.response.win_mean - 0.5

    def against(self, other: Yardstick) -> ExactMetrics:
        """This agent's exact metrics against ``other`` (same cards)."""
        if other.cards != self.cards:
            raise ValueError(f"yardsticks for {self.cards} and {other.cards} cards cannot meet")
        win = win_probabilities(self.table, other.table, self.cards).win_mean
        ceiling = other.response.win_mean
        return ExactMetrics(win, ceiling, 100.0 * win / ceiling, self.exploitability)


def yardstick(agent: Agent, cards: int = MAX_CARDS, seed: int = 0) -> Yardstick:
    """Tabulate ``agent`` (a spec string built with ``seed``, a policy, or a ``PolicyTable``)
    and solve the best response against it: one ``policy_table`` pass + one backward pass."""
    cards = check_cards(cards)
    if isinstance(agent, PolicyTable):
        return Yardstick(cards, agent, best_response(agent, cards), True)
    policy = make_policy(agent, seed=seed) if isinstance(agent, str) else make_policy(agent)
    check_tables([policy], 2, cards)
    table = policy_table(policy, cards)
    exact = table.mixed or _answers_again(policy, table)
    return Yardstick(cards, table, best_response(table, cards), exact)


def _answers_again(policy: Policy, table: PolicyTable) -> bool:
    """Ask once more at the one-card-each position (5 125 decisions): a stochastic policy's
    fresh draws disagree with the table somewhere, a deterministic one's never do."""
    again = policy_table(policy, 1)
    return all(np.array_equal(getattr(again, side)[1, 1], getattr(table, side)[1, 1])
               for side in ("insteker", "follower"))


# ---------------------------------------------------------------------- training-loop hook
_cache: dict[tuple[object, int], tuple[Agent, Yardstick]] = {}


def opponent_yardstick(opponent: Agent, cards: int = MAX_CARDS) -> Yardstick:
    """``yardstick(opponent, cards)``, cached per process: spec strings by their text, other
    opponents by identity (held, so the identity stays theirs). An opponent object must not
    change while cached; call ``clear_cache()`` after changing one (e.g. in self-play)."""
    key = (opponent if isinstance(opponent, str) else id(opponent), check_cards(cards))
    hit = _cache.get(key)
    if hit is None:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        hit = _cache[key] = (opponent, yardstick(opponent, cards))
    return hit[1]


def clear_cache() -> None:
    """Forget every cached opponent yardstick."""
    _cache.clear()


def exact_metrics(policy: Agent | Yardstick, opponent: Agent,
                  cards: int = MAX_CARDS) -> dict[str, float]:
    """``policy``'s exact two-player metrics against ``opponent`` with ``cards`` each:
    ``win_probability`` (averaged over who insteeks first), ``best_response_win_probability``,
    ``percent_of_best_response`` and ``exploitability``. The opponent's table and best response
    are cached (``opponent_yardstick``); the policy costs one tabulation (a few ``act_batch``
    calls over 512 500 rows at 10 cards) and two backward passes, unless it is passed as its
    ``yardstick`` already (to measure one learner against several opponents)."""
    mine = policy if isinstance(policy, Yardstick) else yardstick(policy, cards)
    return asdict(mine.against(opponent_yardstick(opponent, cards)))


def decimals(value: float, places: int = 4) -> str:
    """``value`` rounded for a report, with rounding noise around 0 shown as 0 (not -0.0000)."""
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text
