"""Two-player decision states: read from a real game, encoded as observations, and decoded.

A decision (R3.6) in a two-player game is fully described by a :class:`Decision`. The
solver's tables index it by *(insteker cards, follower cards)*; observations put the acting
player first. ``encode_decisions`` writes observation rows for many decisions at once through
the observation codec (``observation.encode_batch``), so a policy can be asked about every
decision state in one ``act_batch`` call; ``decode_batch`` reads decisions back
(``observation.decode``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine import Game
from ..observation import OBS_SIZE, ObsFields, decode, encode_batch
from ..rules import MAX_THROWS, NUM_STRENGTHS, TOP
from .model import FOLLOWER, INSTEKER, PICARO, PolicyTable


class Decision(NamedTuple):
    """A stop / throw-again decision at a two-player table, from the acting player's side.

    ``role`` is 0 for the insteker and 1 for the follower; ``throws_used`` ≥ 1 and
    ``strength`` (1…41) describe the acting player's turn so far. ``throw_limit`` and
    ``insteker_score`` matter for the follower only (the insteker's are 3 and -1).
    """

    role: int
    my_cards: int
    other_cards: int
    throws_used: int
    strength: int
    throw_limit: int = MAX_THROWS
    insteker_score: int = -1

    def check(self, cards: int) -> None:
        """Raise ``ValueError`` naming the first field outside what the rules allow."""
        check_decisions(np.array([self]), cards)


def decision_from_game(game: Game) -> Decision:
    """The decision the current player of a two-player game faces (R3.6)."""
    if game.num_players != 2 or not game.is_decision_node():
        raise ValueError(
            f"need a decision node of a 2-player game, got {game.num_players} players "
            f"at a {'decision' if game.is_decision_node() else 'non-decision'} node"
        )
    me = game.current_player
    other = 1 - me
    current = game.current
    assert current is not None  # a decision follows a throw (R3.6)
    if me == game.insteker:
        return Decision(INSTEKER, game.cards[me], game.cards[other], game.throws,
                        current.strength)
    assert game.throw_limit is not None  # the insteker's stop set it (R3.2)
    return Decision(FOLLOWER, game.cards[me], game.cards[other], game.throws,
                    current.strength, game.throw_limit, game.scores[other])


def _requirements(decisions: np.ndarray, cards: int) -> list[tuple[np.ndarray, str]]:
    role, mine, other, used, s, limit, score = decisions.T
    ins = role == INSTEKER
    left_limit = np.where(ins, MAX_THROWS, limit)
    return [
        ((role == INSTEKER) | (role == FOLLOWER), "role must be 0 (insteker) or 1 (follower)"),
        ((mine >= 1) & (mine <= cards) & (other >= 1) & (other <= cards),
         f"my_cards and other_cards must be 1–{cards}"),
        (ins | ((limit >= 1) & (limit <= MAX_THROWS)),
         f"a follower's throw_limit must be 1–{MAX_THROWS}"),
        ((used >= 1) & (used < left_limit),
         "throws_used must be at least 1 and below the throw limit (3 for the insteker): "
         "a decision needs throws left (R3.6)"),
        ((s > PICARO) & (s <= TOP), f"strength must be {PICARO + 1}–{TOP}"),
        (ins | ((score > PICARO) & (score <= TOP)),
         f"a follower's insteker_score must be {PICARO + 1}–{TOP}"),
    ]


def check_decisions(decisions: np.ndarray, cards: int) -> np.ndarray:
    """The decisions ``[B, 7]`` (``Decision`` fields) as ints; ``ValueError`` naming the
    first that is not a real decision with 1…``cards`` cards a side."""
    decisions = np.asarray(decisions, dtype=np.int64).reshape(-1, len(Decision._fields))
    for ok, message in _requirements(decisions, cards):
        if not ok.all():
            raise ValueError(f"{message}; got {Decision(*map(int, decisions[np.argmin(ok)]))}")
    return decisions


def table_actions(table: PolicyTable, decisions: np.ndarray) -> np.ndarray:
    """The table's actions (0 stop, 1 throw again) at decisions ``[B, 7]``."""
    role, mine, other, used, s, limit, score = check_decisions(decisions, table.cards).T
    ins = role == INSTEKER
    actions = np.empty(len(role), dtype=np.int64)
    actions[ins] = table.insteker[mine[ins], other[ins], used[ins], s[ins]]
    f = ~ins
    actions[f] = table.follower[other[f], mine[f], limit[f], score[f], used[f], s[f]]
    return actions


def decode_batch(obs: np.ndarray) -> np.ndarray:
    """Decisions from observation rows ``[B, OBS_SIZE]`` as an int array ``[B, 7]`` with
    the :class:`Decision` fields in order. Raises ``ValueError`` unless every row is a
    two-player table."""
    seen = decode(np.reshape(obs, (-1, OBS_SIZE)))
    if not np.all(seen.players == 2):
        bad = sorted({int(n) for n in seen.players[seen.players != 2]})
        raise ValueError(f"the two-player solver needs 2-seat observations, got {bad} seats")
    follower = seen.insteker != 0  # the other seat (slot 1) insteeks
    return np.stack([follower, seen.cards[:, 0], seen.cards[:, 1], seen.throws_used,
                     seen.my_strength, np.where(follower, seen.throw_limit, MAX_THROWS),
                     np.where(follower, seen.scores[:, 1], -1)], axis=1).astype(np.int64)


def encode_decisions(decisions: np.ndarray) -> np.ndarray:
    """Observation rows (float32 ``[B, OBS_SIZE]``) of the acting player at two-player
    decisions ``[B, 7]`` (``Decision`` fields in order): ``observation.encode_batch`` of
    what the acting player sees (R7.1)."""
    role, my_cards, other_cards, used, mine, throw_limit, insteker_score = (
        np.asarray(decisions, dtype=np.int64).reshape(-1, len(Decision._fields)).T)
    follower = role == FOLLOWER
    return encode_batch(ObsFields(
        players=np.asarray(2),
        cards=np.stack([my_cards, other_cards], axis=1),
        insteker=follower.astype(np.int64),  # slot 0 (me) or 1 (the other seat)
        # the insteker's score is the only one so far; the follower throws after it (R3.4)
        scores=np.stack([np.full(len(role), -1), np.where(follower, insteker_score, -1)],
                        axis=1),
        to_throw=np.stack([np.zeros(len(role), np.int64), ~follower], axis=1),
        throw_limit=np.where(follower, throw_limit, 0),  # the insteker is fixing it (R3.2)
        throws_used=used,
        throws_left=np.where(follower, throw_limit, MAX_THROWS) - used,
        my_strength=mine,
    ))


def _grid() -> np.ndarray:
    """Every decision at one card position, as rows (role, used, strength, limit, score)."""
    thrown = range(PICARO + 1, NUM_STRENGTHS)
    rows = [(INSTEKER, t, s, MAX_THROWS, -1) for t in range(1, MAX_THROWS) for s in thrown]
    rows += [(FOLLOWER, u, s, limit, score)
             for limit in range(2, MAX_THROWS + 1) for u in range(1, limit)
             for score in thrown for s in thrown]
    return np.array(rows, dtype=np.int64)


#: The decision states of one card position (same for every position), see ``_grid``.
GRID = _grid()


def grid_observations(insteker_cards: int, follower_cards: int) -> np.ndarray:
    """Observation rows for ``GRID`` at the given cards (insteker's, follower's)."""
    role, used, strength, limit, score = GRID.T
    mine = np.where(role == INSTEKER, insteker_cards, follower_cards)
    other = np.where(role == INSTEKER, follower_cards, insteker_cards)
    return encode_decisions(np.stack([role, mine, other, used, strength, limit, score], axis=1))
