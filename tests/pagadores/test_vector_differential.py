"""The batch engine's compiled kernel is pinned to the scalar engine, throw by throw (R1–R7).

``TwinGame`` is a ``VectorGame`` whose ``draw_dice`` hook gives the kernel one die at a time
and also drives one scalar ``engine.Game`` per row: before each throw it compares the full
state of the throwing game in both engines (cards, eliminations, round, phase, insteker,
current player, throw limit, throws, the current throw, round scores, who plays the round, the
kampen and its scores, winner), then applies the same die to the scalar game. The test
applies the same random decisions to both, compares every decision node, and compares each
finished game's winner, placements, rounds, final cards and final observation (auto-reset,
``pop_finished``). Every state the kernel reaches is therefore compared: each transition ends
at a chance node, a decision node or the end of a game.

Games use random start positions (equal or per-seat card counts, empty seats, any first
insteker) and random decision styles, so Picaro, specials in rounds and kampen, repeated
kampen and single and multiple eliminations (R4–R6) all occur many times; the test checks that
they did.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.rules import THROWS, Kind
from pagadores_env.pagadores.vector import KAMPEN, OVER, ROUND, SORTED_DICE, Finished, VectorGame
from pagadores_env.pagadores.vector import kernel as kn

PHASE_CODE = {"round": 0, "kampen": 1, "over": 2}
NOT_IN_KAMPEN, WAITING = -3, -2


def _dice_code(dice: tuple[int, int, int] | None) -> int:
    return -1 if dice is None else dice[0] * 100 + dice[1] * 10 + dice[2]


_VECTOR_DICE_CODE = np.array([_dice_code(d) for d in SORTED_DICE] + [-1])
_DICE_CODE = _VECTOR_DICE_CODE.tolist()  # [-1]: no throw


def scalar_state(game: Game) -> list[int]:
    """Everything the scalar engine's future depends on, as a flat list of ints."""
    n = game.num_players
    kampen = [NOT_IN_KAMPEN] * n
    if game.phase == "kampen":
        for k, s in enumerate(game.kampen):
            kampen[s] = game.kampen_scores[k] if k < game.kampen_pos else WAITING
    order = set(game.order) if game.phase == "round" else set()
    return [
        PHASE_CODE[game.phase], game.round,
        -1 if game.insteker is None else game.insteker, game.current_player,
        game.throw_limit or 0, game.throws, int(game.decision),
        -1 if game.winner is None else game.winner,
        _dice_code(None if game.current is None else game.current.dice),
        game.eliminations,
        *game.cards, *game.scores, *game.out, *(int(s in order) for s in range(n)), *kampen,
    ]


def vector_states(vg: VectorGame, rows: np.ndarray) -> list[list[int]]:
    """The same quantities for the games in ``rows``, read from the batch engine's arrays."""
    n = vg.num_players
    rows = np.asarray(rows)
    members = (vg.members[rows, None] >> np.arange(n)) & 1
    thrown = ((vg.members[rows] & ~vg.todo[rows])[:, None] >> np.arange(n)) & 1
    phase = vg.phase[rows]
    kampen = np.where(thrown == 1, vg.kampen_scores[rows], WAITING)
    kampen = np.where((members == 1) & (phase == KAMPEN)[:, None], kampen, NOT_IN_KAMPEN)
    columns = np.column_stack([
        phase, vg.round[rows], vg.insteker[rows], vg.seat[rows], vg.throw_limit[rows],
        vg.throws[rows], vg.decision[rows], vg.winner[rows], _VECTOR_DICE_CODE[vg.current[rows]],
        vg.eliminations[rows], vg.cards[rows], vg.scores[rows], vg.out[rows],
        np.where((phase == ROUND)[:, None], members, 0), kampen,
    ])
    return columns.tolist()


def kernel_state(vg: VectorGame, i: int) -> list[int]:
    """``vector_states(vg, [i])[0]``, read in one go from game ``i``'s row of the packed
    state (``kernel``'s layout): what the per-throw comparison reads."""
    st = vg.state[i].tolist()
    n = vg.num_players
    phase, members, todo, scored = st[kn.PHASE], st[kn.MEMBERS], st[kn.TODO], st[kn.SCORED]
    in_kampen = phase == KAMPEN
    kampen = [NOT_IN_KAMPEN if not (in_kampen and members >> s & 1) else
              WAITING if todo >> s & 1 else st[kn.KAMPEN_SCORE + s] for s in range(n)]
    return [
        phase, st[kn.ROUND_NO], st[kn.INSTEKER], st[kn.SEAT], st[kn.LIMIT], st[kn.THROWS_USED],
        st[kn.DECISION], st[kn.WINNER], _DICE_CODE[st[kn.CURRENT]], st[kn.ELIMINATIONS],
        *st[kn.CARDS:kn.CARDS + n],
        *(st[kn.SCORE + s] if scored >> s & 1 else -1 for s in range(n)),
        *st[kn.OUT:kn.OUT + n],
        *(members >> s & 1 if phase == ROUND else 0 for s in range(n)), *kampen,
    ]


def start_positions(rng: np.random.Generator, batch: int, n: int) -> np.ndarray:
    """Half equal counts 1–10 (R1.1), half per-seat counts 0–10 with two or more seated."""
    equal = np.repeat(rng.integers(1, 11, size=(batch, 1)), n, axis=1)
    mixed = rng.integers(0, 11, size=(batch, n))
    thin = (mixed > 0).sum(axis=1) < 2
    mixed[thin, :2] = rng.integers(1, 11, size=(thin.sum(), 2))
    return np.where(rng.random((batch, 1)) < 0.5, equal, mixed)


class TwinGame(VectorGame):
    """A ``VectorGame`` that plays every throw on a scalar twin as well and compares first:
    its ``draw_dice`` gives one die at a time, to the game about to throw."""

    def __init__(self, batch: int, n: int, seed: int, check_obs: bool,
                 auto_reset: bool = True) -> None:
        self.twin_rng = np.random.default_rng(seed)
        cards = start_positions(self.twin_rng, batch, n)
        first = np.array([self.twin_rng.choice(np.flatnonzero(c)) for c in cards])
        self.twins = [Game(n, c.tolist(), int(f)) for c, f in zip(cards, first, strict=True)]
        self.archive: list[list[Game]] = [[] for _ in range(batch)]
        self.check_obs = check_obs
        self.throws_compared = 0
        self.games_checked = 0
        self.seen: Counter[str] = Counter()
        self.kinds_thrown: Counter[tuple[str, int]] = Counter()
        self.coming: list[int] = []  # the twin's dice, the next one last
        super().__init__(batch, n, cards, first_insteker=first, observer=first,
                         auto_reset=auto_reset)

    def draw_dice(self, row: int, count: int) -> np.ndarray:
        game = self.twins[row]
        if game.is_terminal():  # the vector game was restarted (auto-reset)
            self.archive[row].append(game)
            game = self.twins[row] = Game(game.num_players, game.start_cards,
                                          game.first_insteker)
        want = scalar_state(game)
        if kernel_state(self, row) != want:
            self.compare(np.array([row]))  # fails, saying how
        if self.check_obs:
            np.testing.assert_array_equal(self.observations(np.array([row]))[0],
                                          encode(game, game.current_player))
        if not self.coming:
            self.coming = self.twin_rng.integers(0, len(THROWS), size=4096).tolist()[::-1]
        die = self.coming.pop()
        self.kinds_thrown[game.phase, int(THROWS[die].kind)] += 1
        game.apply_throw(THROWS[die])
        self.throws_compared += 1
        return np.array([die])

    def compare(self, rows: np.ndarray) -> None:
        got = vector_states(self, rows)
        want = [scalar_state(self.twins[i]) for i in rows.tolist()]
        if got != want:
            k = next(k for k in range(len(rows)) if got[k] != want[k])
            game = self.twins[rows[k]]
            pytest.fail(
                f"game {rows[k]} ({game.num_players} players, start {game.start_cards}) differs"
                f"\nvector {got[k]}\nscalar {want[k]}\nlast events {game.log[-8:]}"
                f"\nhistory {game.history}"
            )
        if self.check_obs:
            expected = np.stack([encode(self.twins[i], self.twins[i].current_player)
                                 for i in rows.tolist()])
            np.testing.assert_array_equal(self.observations(rows), expected)


def play_twins(n: int, batch: int, steps: int, seed: int, check_obs: bool) -> TwinGame:
    """Random decisions (each row throws again with its own probability) for ``steps`` steps,
    comparing both engines throughout; returns the twin for its counters."""
    vg = TwinGame(batch, n, seed, check_obs)
    again_p = vg.twin_rng.random(batch)
    for _ in range(steps):
        assert vg.decision.all(), "with auto_reset every game waits for a decision"
        vg.compare(np.arange(batch))
        actions = (vg.twin_rng.random(batch) < again_p).astype(np.int64)
        for game, a in zip(vg.twins, actions.tolist(), strict=True):
            game.apply_action(a)
        vg.step(actions)
        check_finished(vg)
    return vg


def check_finished(vg: TwinGame) -> None:
    """Each game the vector engine finished matches its archived scalar twin."""
    done = vg.pop_finished()
    for k, i in enumerate(done.rows.tolist()):
        game = vg.archive[i].pop(0)
        assert game.is_terminal()
        assert done.winner[k] == game.winner
        assert done.placements[k].tolist() == game.placements()
        assert done.rounds[k] == game.round
        assert done.cards[k].tolist() == game.cards
        np.testing.assert_array_equal(done.obs[k], encode(game, game.first_insteker))
        note_rare_paths(vg.seen, game)
    assert not any(vg.archive), "a scalar game ended without the vector engine reporting it"
    vg.games_checked += done.rows.size


def note_rare_paths(seen: dict[str, int], game: Game) -> None:
    """Count the rare rule paths a finished game went through, read from its event log."""
    kinds = [e.kind for e in game.log]
    for prev, kind in zip(kinds, kinds[1:], strict=False):
        if kind == "kampen" and prev == "throw":  # settled by kampen throws, not round scores
            seen["R5.3 kampen again"] += 1
        if kind == "out" and prev == "special":
            seen["R6.2 special empties"] += 1
        if kind == "out" and prev == "out":
            seen["R6.2 several out at once"] += 1
        if kind == "out" and prev == "picaro":
            seen["R4.4 picaro empties"] += 1


# (players, batch, steps, finished games at least): 50,000 games in all, about 40 s. Each rare
# path below was met at least 77 times per table at these sizes (measured with seeds 1002–1006).
SIZES = [(2, 1000, 140, 20_000), (3, 750, 180, 11_000), (4, 750, 185, 8_000),
         (5, 700, 180, 6_000), (6, 650, 180, 5_000)]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "batch", "steps", "games"), SIZES)
def test_R1_to_R7_vector_engine_matches_scalar_engine(n: int, batch: int, steps: int,
                                                      games: int) -> None:
    vg = play_twins(n, batch, steps, seed=1000 + n, check_obs=False)
    assert vg.games_checked >= games
    # the rare paths were exercised: Picaro and every special, in rounds and in kampen, ...
    for phase in ("round", "kampen"):
        for kind in (Kind.PICARO, Kind.CELEBRO, Kind.HERMANA, Kind.PUERTA):
            assert vg.kinds_thrown.get((phase, int(kind)), 0) > 0, (phase, kind)
    # ... repeated kampen and every way out (several at once needs three players or more)
    rare = ["R5.3 kampen again", "R6.2 special empties", "R4.4 picaro empties"]
    rare += ["R6.2 several out at once"] if n > 2 else []
    assert all(vg.seen[path] > 0 for path in rare), vg.seen


@pytest.mark.slow
def test_R7_observations_equal_encode_at_every_node() -> None:
    """``observations()`` equals ``observation.encode`` at every chance node, decision node
    and game end (2–6 players)."""
    for n in range(2, 7):
        vg = play_twins(n, batch=64, steps=60, seed=n, check_obs=True)
        assert vg.games_checked > 50


@pytest.mark.parametrize("n", [2, 3, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 5, 6))])
def test_R1_5_without_auto_reset_games_end_as_in_the_scalar_engine(n: int) -> None:
    """Decisions for a subset of games (``step(actions, rows)``), games left over when they
    end: the path ``evaluate_batch`` and the VecEnv use."""
    vg = TwinGame(600, n, seed=77 + n, check_obs=False, auto_reset=False)
    while True:
        rows = np.flatnonzero(vg.decision)
        if not rows.size:
            break
        vg.compare(rows)
        rows = rows[vg.twin_rng.random(rows.size) < 0.7]  # the others wait a step
        actions = vg.twin_rng.integers(0, 2, size=rows.size)
        for i, a in zip(rows.tolist(), actions.tolist(), strict=True):
            vg.twins[i].apply_action(a)
        vg.step(actions, rows)
    assert vg.done.all() and all(game.is_terminal() for game in vg.twins)
    vg.compare(np.arange(600))
    assert vg.placements().tolist() == [game.placements() for game in vg.twins]
    assert vg.pop_finished().rows.size == 0


def test_vector_game_is_seeded() -> None:
    a, b = (VectorGame(32, 4, 5, seed=7) for _ in range(2))
    for _ in range(30):
        actions = a.rng.integers(0, 2, 32)
        b.rng.integers(0, 2, 32)  # keep both generators in step
        a.step(actions)
        b.step(actions)
    np.testing.assert_array_equal(a.observations(), b.observations())
    np.testing.assert_array_equal(a.pop_finished().winner, b.pop_finished().winner)


def test_without_auto_reset_games_stop_at_the_end() -> None:
    vg = VectorGame(50, 3, 2, seed=3, auto_reset=False)
    while vg.decision.any():
        vg.step(np.ones(50, np.int64))
    assert vg.done.all() and (vg.phase == OVER).all()
    assert ((vg.winner >= 0) & (vg.cards[np.arange(50), vg.winner] > 0)).all()
    assert ((vg.cards > 0).sum(axis=1) == 1).all()  # R1.5
    assert (vg.placements()[np.arange(50), vg.winner] == 1).all()
    assert vg.pop_finished().rows.size == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch": 0, "num_players": 2}, "batch"),
        ({"batch": 2, "num_players": 7}, "num_players"),
        ({"batch": 2, "num_players": 2, "cards": 11}, "cards"),
        ({"batch": 2, "num_players": 3, "cards": [0, 0, 4]}, "cards"),
        ({"batch": 2, "num_players": 3, "cards": [3, 0, 4], "first_insteker": 1},
         "first_insteker"),
        ({"batch": 2, "num_players": 3, "first_insteker": 3}, "first_insteker"),
    ],
)
def test_bad_construction_is_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorGame(**kwargs)


def test_bad_actions_change_nothing() -> None:
    vg = VectorGame(4, 2, seed=1)
    before = vector_states(vg, np.arange(4))
    with pytest.raises(ValueError, match="0 \\(stop\\) or 1"):
        vg.step(np.array([0, 1, 2, 0]))
    with pytest.raises(ValueError, match="shape"):
        vg.step(np.array([0, 1]))
    assert vector_states(vg, np.arange(4)) == before


class Scripted(VectorGame):
    """Two games whose dice come one at a time from a fixed list, or ``bad`` when set."""

    def __init__(self) -> None:
        self.coming = np.random.default_rng(5).integers(0, 216, size=1000).tolist()
        self.bad: np.ndarray | None = None
        super().__init__(2, 2, seed=1, auto_reset=False)

    def draw_dice(self, row: int, count: int) -> np.ndarray:
        return np.array([self.coming.pop()]) if self.bad is None else self.bad


@pytest.mark.parametrize("dice", [np.array([0, 216, 5]), np.array([-1, 0]),
                                  np.array([], np.int64), np.array([[1, 2]]), np.array([1.5])])
def test_bad_injected_dice_are_refused_before_a_throw(dice: np.ndarray) -> None:
    """Dice from an overriding ``draw_dice`` are checked (1 or more ordered outcomes 0–215);
    a bad draw raises before any of them is thrown: the game that asked for it waits at its
    chance node, the next game has not moved, and good dice take them on."""
    vg = Scripted()
    before = vector_states(vg, np.arange(2))
    vg.bad = dice
    with pytest.raises(ValueError, match="ordered outcomes 0–215"):
        vg.step(np.ones(2, np.int64))  # throw again: game 0 asks for a die
    assert vg.chance_rows().tolist() == [0] and vg.decision.tolist() == [False, True]
    assert vector_states(vg, np.arange(2))[1] == before[1]
    assert vg.throws.tolist() == [before[0][5], before[1][5]]  # no throw counted
    vg.bad = None
    vg.advance()
    assert vg.decision.all() or vg.done.any()


@pytest.mark.parametrize("call", [
    lambda vg: vg.observations(np.array([0, 4])),
    lambda vg: vg.observations(np.array([-1])),
    lambda vg: vg.observations(np.array([0.0])),
    lambda vg: vg.observations(np.array([0, 1]), np.array([0, 2])),
    lambda vg: vg.observations(np.array([0, 1]), np.array([0])),
    lambda vg: vg.advance(np.array([4])),
    lambda vg: vg.reset_games(np.array([[0]])),
])
def test_bad_rows_and_seats_are_refused_before_the_kernel_reads_them(call) -> None:
    """The kernel does not check bounds: a game index or seat out of range must be refused
    (one line) and change nothing."""
    vg = VectorGame(4, 2, seed=1)
    before = vector_states(vg, np.arange(4))
    with pytest.raises(ValueError, match="rows must be|seats must be"):
        call(vg)
    assert vector_states(vg, np.arange(4)) == before


def test_finished_games_kept_across_many_steps_are_those_popped_step_by_step() -> None:
    """Games that finish while nobody pops them are kept (in buffers set aside as they fill)
    and come out of one ``pop_finished`` in order, equal to popping after every step."""
    kept, popped = (VectorGame(64, 2, 1, seed=4, observer=1) for _ in range(2))
    parts = []
    for actions in np.random.default_rng(4).integers(0, 2, size=(300, 64)):
        kept.step(actions)
        popped.step(actions)
        parts.append(popped.pop_finished())
    assert kept.games_finished == popped.games_finished > 3 * 1024  # several buffers filled
    everything = kept.pop_finished()
    for name, got in zip(Finished._fields, everything, strict=True):
        want = np.concatenate([getattr(part, name) for part in parts])
        np.testing.assert_array_equal(got, want, err_msg=name)
    assert kept.pop_finished().rows.size == 0 and kept.games_finished == popped.games_finished
