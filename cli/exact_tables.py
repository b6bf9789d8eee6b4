"""What the exact commands (``pagadores solve``, ``nashconv``, ``best-response``) share for the
games beyond Pagadores, which each command reaches through ``--game`` and the table of games
(``main.add_game_options``): which games each command covers, the refusal of a flag of
another game, Paye's table (its players, variant, special dice and rounds, checked against
its exact yardstick before any work) and a profile of agents as the exact yardsticks measure
it.

A trained model (``model:path=...``) is measured **as it acts**, the deterministic play
evaluations see (``pagadores_train.evaluation.evaluate.Acting``), as a training run's exact
columns measure it; the scripted players as they are (``random``, which states its
probabilities, as its mixture).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pagadores_env.core.games import game_spec
from pagadores_env.core.policies import Policy, make_policy

from .main import game_options

#: The games each exact command covers: Pagadores by its solver, the others by their exact
#: yardsticks (``pagadores_env.paye.exact``, ``pagadores_env.pasch.exact``).
COVERED = {"solve": ("pagadores", "paye", "pasch"),
           "nashconv": ("pagadores", "paye", "pasch"),
           "best-response": ("pagadores", "paye")}
#: The end of ``--game``'s help in the exact commands (``main.add_game_options``).
ABOUT = ("exact where the game's yardstick covers the table: Pagadores' solver, Paye's base "
         "game at 2–4 players and its expansion at 2 (Y8), Pasch's single turn and last round "
         "(X9)")
#: Where the commands' flags come from that belong to Pagadores' solver alone.
PAGADORES = ("pagadores",)


def check_covered(command: str, game: str) -> None:
    """``ValueError`` in one line unless ``command`` covers ``game`` (``COVERED``)."""
    games = COVERED[command]
    if game not in games:
        raise ValueError(f"--game {game}: pagadores {command} covers "
                         f"{', '.join(games)} ({game_spec(game).title} has no exact {command} "
                         "here)")


def refuse_flags(args: argparse.Namespace, owners: Mapping[str, Sequence[str]]) -> None:
    """``ValueError`` in one line for the first flag of ``owners`` (``--flag`` → the games it
    is for) given on the command line (not None, not False) for another ``--game``."""
    for flag, games in owners.items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        if value is not None and value is not False and args.game not in games:
            raise ValueError(f"{flag} is for {' or '.join(f'--game {g}' for g in games)}, not "
                             f"--game {args.game}")


@dataclass(frozen=True)
class PayeTable:
    """A table of Paye's dobbelspel an exact command works on."""

    players: int
    variant: str
    dice: tuple[tuple[int, ...], ...]
    rounds: int
    default_dice: bool

    def keywords(self) -> dict[str, Any]:
        """The table as ``pagadores_env.paye.exact``'s keywords (after ``num_players``)."""
        return {"dice": self.dice, "rounds": self.rounds, "variant": self.variant}

    def text(self) -> str:
        """``Paye's dobbelspel, 3 players, base game (to 50), 10 rounds, the default dice``."""
        from pagadores_env.paye.rules import TARGETS

        dice = "the default dice" if self.default_dice else \
            f"dice {json.dumps([list(die) for die in self.dice], separators=(',', ':'))}"
        return (f"Paye's dobbelspel, {self.players} players, {self.variant} game (to "
                f"{TARGETS[self.variant]}), {self.rounds} rounds, {dice}")


def named_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--game``'s table options by name, the game's defaults filled in, checked by the
    game (``main.game_options``)."""
    given = game_options(args, own=("cards",))
    return {o.name: given.get(o.name, o.default) for o in game_spec(args.game).options}


def paye_table(args: argparse.Namespace, players: int, beyond: str = "") -> PayeTable:
    """The table ``--players`` (``players`` if not given), ``--variant``, ``--faces`` and
    ``--rounds`` name, checked by the game (``main.game_options``: one line naming the flag)
    and by its exact yardstick (``paye.exact.check_exact_table``: the base game at 2–4
    players, the expansion at 2; ``beyond`` ends the line refusing another table)."""
    from pagadores_env.paye.exact import check_exact_table

    n = players if args.players is None else args.players
    args.players = n  # the game's own check of the table (game_options) sees it
    options = game_spec("paye").table_options(**game_options(args, own=("cards",)))
    try:
        checked = check_exact_table(n, options["dice"], options["rounds"], options["variant"])
    except ValueError as err:
        raise ValueError(f"{err}{beyond}") from None
    return PayeTable(checked[0], checked[3], checked[1], checked[2], options["dice"] is None)


def exact_profile(game: str, agents: Sequence[str], players: int) -> list[Policy]:
    """One policy per seat (``agents``: one for every seat or one per seat), one object per
    distinct spec so an exact pass asks each distinct observation once; trained models as
    they act (module docstring). ``ValueError`` in one line for a bad count or spec."""
    from pagadores_agents.sb3_adapter import SB3Policy
    from pagadores_train.evaluation.evaluate import Acting

    if len(agents) not in (1, players):
        raise ValueError(f"give one AGENT for every seat or {players} (one per seat), got "
                         f"{len(agents)}")
    built: dict[str, Policy] = {}
    for spec in agents:
        if spec not in built:
            policy = make_policy(spec, game=game)
            built[spec] = Acting(policy) if isinstance(policy, SB3Policy) else policy
    seats = list(agents) if len(agents) == players else [agents[0]] * players
    return [built[spec] for spec in seats]
