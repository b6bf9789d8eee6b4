"""Perudo's own pieces of evaluation and training; its games are played by the engine-driven
evaluator every game without a compiled kernel shares (``pagadores_train.evaluation.engine``:
``evaluate_game("perudo", ...)``, ``tournament_game``).

``exact_measures`` is Perudo's one exact number: the exploitability of a player at 2 players
with 1 die each (``pagadores_env.perudo.exact``), as it samples and as it acts.

``DiceShaping`` is the training env's optional dense reward (``env.shaping``): on top of the
game's reward, every step pays ``shaping`` per die the other seats lost (averaged over them)
minus ``shaping`` per die the learner lost, so each round's dudo (P4.2) is felt when it
happens, not only at the game's end. It changes what is optimised (dice, not only the win);
evaluations still count wins.
"""

from __future__ import annotations

from typing import Any

from pagadores_env.core.policies import Policy
from pagadores_env.perudo import exact
from pagadores_env.perudo.policies import SupportsActionProbabilities

from .evaluate import Acting
from .shaping import TallyShaping

#: Why a Perudo run's evaluations carry no exact columns.
EXACT_NOTE = ("exact: skipped: Perudo's exact yardstick (eval.exact) solves 2 players with 1 "
              "die each only; Monte Carlo only at this table")


def exact_measures(player: Policy, num_players: int, dice: Any) -> tuple[float | None, str]:
    """The exact numbers of ``eval.exact`` on a Perudo table: at 2 players with 1 die each,
    the player's exact exploitability (``exact.exploitability``: 0 at an equilibrium) as it
    samples (its ``action_probabilities``, if it states them, else as it acts) and a note with
    that and its exploitability as it acts; else no number and ``EXACT_NOTE``, as no other
    table is solved."""
    if (num_players, dice) != (exact.PLAYERS, exact.DICE):
        return None, EXACT_NOTE
    label = f"exact exploitability ({exact.PLAYERS} players, {exact.DICE} die)"
    acted = exact.exploitability(Acting(player))
    if not isinstance(player, SupportsActionProbabilities):
        return acted, f"{label}: {acted:.4f}"
    sampled = exact.exploitability(player)
    return sampled, f"{label}: {sampled:.4f} as sampled, {acted:.4f} at its act"


class DiceShaping(TallyShaping):
    """``Perudo-v1`` with the dice each step cost the learner and the others added to its
    reward (see the module docstring): a die lost is a tally's loss."""

    TALLY = "dice_counts"
