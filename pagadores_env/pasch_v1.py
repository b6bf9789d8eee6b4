# ruff: noqa: D400  # the module docstring is the env page, in PettingZoo's markdown
"""
# Pasch

Pasch for 2–6 players as a PettingZoo AEC environment: in each round every player plays a
card, throws five dice up to three times to make the best combination (a *Pasch*), may fix
the result with action blocks, and marks it on a board; the round's cards then go to the
players by the rank of their Pasch. Rule ids X1…X9 refer to the project's Pasch rules
contract.

| Import             | `from pagadores_env import pasch_v1`                        |
|--------------------|-------------------------------------------------------------|
| Actions            | Discrete                                                    |
| Parallel API       | No                                                          |
| Manual Control     | No                                                          |
| Agents             | `agents= ['player_0', 'player_1', ...]` (seat order)        |
| Agents             | 2–6 (`num_players`)                                         |
| Action Shape       | Discrete(C + 49): Discrete(55) with the default hand        |
| Action Values      | cards, then the 49 dice actions (see Action Space)          |
| Observation Shape  | `observation`: (164,) float32, `action_mask`: (C+49,) int8  |
| Observation Values | [-1, 1]                                                     |

Every player starts with the same hand of cards and the same number of action blocks
(X1.3). A round is played seat by seat from its starter (X2.1, X2.2): the player plays a card
face up (X5), throws all five dice, and after the first and the second throw either stops or
names the dice to throw again, any of them, also dice kept before (X3). After the throws the
player may spend action blocks, each to throw one die again or to raise or lower one die by
one (X4), and then places a disc on the board: the highest row the dice make (pair, two
pairs, triple, full house, four, five of a kind) in the column of the dice that make it, or
beside the board with no Pasch (X6). When everyone has placed, the lowest Pasch takes every
−1 card played and the other cards go by rank, the highest to the best (X7.2). After as many
rounds as there are cards, the most points win; tied players share the win (X1.4).

The dice are thrown by the environment (X8.2) and a point with one legal action only (the
last card in the hand, a placement without choice and without blocks left) is played by the
engine (X8.3), so every agent step is one real decision; `env.unwrapped.game.log` records
everything.

```python
from pagadores_env import pasch_v1

env = pasch_v1.env(num_players=3, hand=[-1, 2, 5], blocks=1, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None  # a finished agent leaves with step(None)
    else:  # the highest legal action: play the highest card, stop, place
        action = int(observation["action_mask"].nonzero()[0][-1])
    env.step(action)
print(env.render())
```

### Arguments

`pasch_v1.env(num_players=2, hand=(-1, 1, 2, 3, 4, 5), blocks=3, render_mode=None,
reward="win", illegal_action="raise")`; `pasch_v1.raw_env` takes the same arguments, and so
does `pettingzoo.make("aec", "pasch-v1", ...)` where PettingZoo has a registry.

| argument         | values                               | meaning                              |
|------------------|--------------------------------------|--------------------------------------|
| `num_players`    | 2–6                                  | players, seats 0…n−1 (X1.1)          |
| `hand`           | 1–10 cards, whole numbers −1…10      | every player's cards; as many rounds |
|                  | (duplicates allowed)                 | as cards (X1.3, X1.4)                |
| `blocks`         | 0–10, or one count per seat          | blocks each player starts with (X1.3) |
| `render_mode`    | None, "ansi", "human", "rgb_array"   | see Rendering                        |
| `reward`         | "win", "placement"                   | see Rewards                          |
| `illegal_action` | "raise", "replace", "penalty"        | see Action Space                     |

A value outside these raises `ValueError` in one line naming the argument and what it
allows. The Gymnasium env `Pasch-v1` takes the same `num_players`, `hand`, `blocks`,
`reward`, `illegal_action` (default there: "replace") and `render_mode` values, and plays
the other seats with scripted players (`opponents`).

### Agents

`player_0 … player_{n-1}` in seat order. Round r (0-based) is started by `player_{r mod n}`
and goes clockwise (X2.1); within a round a player acts for its whole turn (card, throws,
blocks, disc) before the next player's turn.

### Observation Space

The observation is a dict: `observation` is the float32 vector below and `action_mask` the
legal actions. Everything in Pasch is public except the dice still to come (X8.2), so every
agent sees the same facts, from its own seat: seats are rotated so the observer is slot 0
and the next seat clockwise slot 1; slots beyond the table's size are padding (`present` =
0), so all table sizes and hands share one vector size. A disc's *class* numbers the board's
places in the order of X7.1: 0 beside the board, then pair 1 … pair 6, two pairs 1 … 6, …,
five of a kind 6 (36).

```text
=======  ==========  ==========================================================================
index    field       meaning
=======  ==========  ==========================================================================
0–71     hands       per slot, its cards of value -1, 0, 1 … 10 still in hand / 10 (X1.3, X8.2)
72–77    present     1 if the slot is a seat at this table (else padding)
78–83    starter     one-hot: who started this round (X2.1)
84–89    turn        one-hot: whose turn it is (zeros once the game is over)
90–90    round       rounds played before this one / 10 (X1.4)
91–91    last_round  1 in the game's last round (X1.4)
92–97    scores      points so far / 100 (X7.3)
98–103   blocks      action blocks left / 10 (X1.3, X4.1)
104–109  has_played  1 if the slot has played its card this round (X5.1)
110–115  played      the card it played this round / 10 (X5.1)
116–121  disc        its disc this round: (class + 1) / 37, 0 for none (X6, X7.1)
122–127  disc_order  when it placed its disc: (1 + place in order) / 6 (X6.4)
128–128  best_disc   the round's highest-ranked disc so far: (class + 1) / 37, 0 for none
129–158  dice        one-hot per sorted position 0 … 4: the face 1 … 6 it shows (X3.3)
159–159  dice_disc   the dice's placement now (two pairs: the higher column), as disc
160–160  throws      throws used this turn / 3 (X3.2)
161–163  phase       one-hot: play a card, stop or throw again, spend a block or place
=======  ==========  ==========================================================================
```

The layout is `pagadores_env.pasch.observation.FIELDS` (`SLICES` gives each field's slice);
`pagadores_env.pasch.observation.decode` reads the integers back.

#### Legal Actions Mask

`action_mask` marks exactly the legal actions of the agent to act (X8.1): the cards it
holds; after throws 1 and 2 every subset and stop; after the throws, with blocks left, a
rethrow of any die, a raise of any die below 6 and a lower of any die above 1 (X4.1), and
placing (in the lower pair's column too with two pairs, X6.2). Every other agent's mask, and
every mask once the game is over, is all zeros.

### Action Space

`Discrete(C + 49)`, C the number of distinct card values in `hand` (6 by default, 55
actions), dice positions naming the five dice sorted low to high (X3.3):

| action            | meaning                                                             |
|-------------------|---------------------------------------------------------------------|
| 0 … C − 1         | play a card of the i-th smallest value of the hand (X5)             |
| C + m − 1         | m = 1 … 31: throw again the dice of m's bits (bit i = die i, X3.2)  |
| C + 31            | stop throwing (X3.2)                                                |
| C + 32 + i        | spend a block: throw die i again (X4.1)                             |
| C + 37 + i        | spend a block: raise die i by one                                   |
| C + 42 + i        | spend a block: lower die i by one                                   |
| C + 47            | place the disc (with two pairs: in the higher pair's column, X6)    |
| C + 48            | place the disc in the lower pair's column (two pairs only)          |

`pagadores_env.pasch.rules.Actions.of(hand)` names them (`card`, `rethrow`, `describe`). An
action is an integer: a Python int, a NumPy integer or a 0-d integer array. A value that is
no action (55, -1, True, 1.0, None) or an action the mask forbids is handled as
`illegal_action` says: `"raise"` (default) raises `pagadores_env.IllegalMoveError` (a
`ValueError`) in one line, prefixed by the agent, naming what is allowed, and nothing
changes; `"replace"` plays the first legal action instead and sets the agent's
`infos[agent]["illegal_action"]`; `"penalty"` ends the game: the offender gets −1, the others
0. A terminated agent must step `None`.

### Rewards

Every agent receives one non-zero reward per game, at the step that ends the game: the
`pagadores_env.core.rewards` scheme's value for its final place by points (X1.4). `"win"`
(default): +1 for the winner and −1 for everyone else; k players sharing the most points get
2/k − 1 each. `"placement"`: 1 − 2(p−1)/(n−1), +1 for first down to −1 for last; players
with equal points share the mean of the places they span. With two players they are the
same.

### Termination

When the last round is shared out every agent is terminated at once, and each is then
selected in seat order and must `step(None)`, which removes it (PettingZoo's dead-step
protocol); the loop over `agent_iter()` then stops. There is no truncation: a game has as
many rounds as the hand has cards. Afterwards `last()` and `step()` raise `IllegalMoveError`
saying that `reset()` starts a new game.

### Infos

`infos[agent]` is `{"illegal_action": bool}`: True when that agent's latest action was
replaced (`illegal_action="replace"`) or forfeited. The legal actions are in the
observation's mask, and the whole game is `env.unwrapped.game` (its `log` holds every event,
`pagadores_env.pasch.render.describe_events` turns them into sentences).

### Chance and seeding

The dice are the only chance (X8.2). `reset(seed=s)` seeds the env's
`np.random.default_rng(s)`, from which every die is drawn uniformly on 1–6. The same seed and
the same actions give the same game, bit for bit. `reset()` without a seed continues the
dice stream.

### Rendering

`render_mode="ansi"`: `render()` returns the table as text (round and starter, each seat's
score, blocks, hand, card played and disc with its rank this round, the dice of the turn
being played). `render_mode="human"`: after `reset()` and every step the env prints the
events since its last print as sentences, then the table. `render_mode="rgb_array"`:
`render()` returns a 480 × 640 RGB picture (the board with its stacked discs, the dice with
the kept ones set apart, each seat's hand, blocks and score). Without a `render_mode`,
`render()` warns in one line and returns None.

### Version History

* v1 (pagadores-env 0.3.0): first release, as this module, `pasch_v1` (metadata name
  `pasch_v1`, PettingZoo registry id `pasch-v1`, Gymnasium id `Pasch-v1`).
"""

from .pasch.aec import env, raw_env

__all__ = ["env", "raw_env"]
