"""
# Paye's dobbelspel

Paye's dobbelspel, a dice race to exactly 50 points, for 2–6 players as a PettingZoo AEC
environment, in its base game and its expansion (to 100, with red and blue dice). Rule ids
Y1…Y8 refer to the project's Paye rules contract.

| Import             | `from pagadores_env import paye_v1`                         |
|--------------------|-------------------------------------------------------------|
| Actions            | Discrete                                                    |
| Parallel API       | No                                                          |
| Manual Control     | No                                                          |
| Agents             | `agents= ['player_0', 'player_1', ...]` (seat order)        |
| Agents             | 2–6 (`num_players`, default 6)                              |
| Action Shape       | Discrete(13)                                                |
| Action Values      | 0–5 special dice S0…S5, 6 traditional red die, 7–12 blue S0…S5 |
| Observation Shape  | `observation`: (85,) float32, `action_mask`: (13,) int8     |
| Observation Values | [0, 1]                                                      |

Everyone starts at 0 points. On a turn a player chooses one of six special dice, each with
its own faces, and throws it twice; the sum is added to their score (Y3.1, Y3.2). A score
above 50 is halved, again and again while it is above 50 (Y3.3). Whoever reaches exactly 50
wins at once (Y4.1); after the last round (10 by default) the highest score wins, and tied
players share the win (Y4.3, Y4.4). Who starts is thrown for with a traditional die (Y2.1).
In the expansion the target is 100, the dice used in a round are set aside until the round
ends, and a player with 50 or more at the start of their turn also chooses a blue die,
whose sum counts against them (Y6).

All the dice are thrown by the environment, and a choice with one legal die is made by the
engine (Y7.3). So an agent is selected only to choose a die; the start throws, the throws of
every turn and the forced choices happen inside `step()` (and `reset()`), and
`env.unwrapped.game.log` records them all.

```python
from pagadores_env import paye_v1

env = paye_v1.env(num_players=3, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None  # a finished agent leaves with step(None)
    else:  # the highest legal die: S5, the gamble, in the base game
        action = int(observation["action_mask"].nonzero()[0][-1])
    env.step(action)
print(env.render())
```

### Arguments

`paye_v1.env(num_players=6, variant="base", dice=None, rounds=10, render_mode=None,
reward="win", illegal_action="raise")`; `paye_v1.raw_env` takes the same arguments, and so
does `pettingzoo.make("aec", "paye-v1", ...)` where PettingZoo has a registry.

| argument         | values                            | meaning                                  |
|------------------|-----------------------------------|------------------------------------------|
| `num_players`    | 2–6                               | players, seats 0…n−1 (Y1.1)              |
| `variant`        | "base", "expansion"               | to 50, or to 100 with blue dice (Y6)     |
| `dice`           | None, or six lists of six whole   | the faces of S0…S5 (Y1.2); None: the     |
|                  | numbers ≥ 0                       | default dice (Y1.3)                      |
| `rounds`         | ≥ 1                               | the most rounds a game lasts (Y2.2)      |
| `render_mode`    | None, "ansi", "human", "rgb_array"| see Rendering                            |
| `reward`         | "win", "placement"                | see Rewards                              |
| `illegal_action` | "raise", "replace", "penalty"     | see Illegal actions                      |

A value outside these raises `ValueError` in one line naming the argument and what it
allows. The Gymnasium env `Paye-v1` takes the same `num_players`, `variant`, `dice`,
`rounds`, `reward`, `illegal_action` (there "replace" by default) and `render_mode`
values. The default special dice are S0 = 0 0 1 1 1 2, S1 = 2 2 2 3 3 3, S2 = 1 2 3 4 5 6,
S3 = 0 0 0 7 7 7, S4 = 4 4 5 5 6 6 and S5 = 0 0 0 0 10 20.

### Agents

`player_0 … player_{n-1}` in seat order. The player with the highest start throw moves
first in every round, and play passes clockwise, seat i to seat i + 1 (Y2.1, Y2.2). Nobody
is eliminated.

### Observation Space

The observation is a dict: `observation` is the float32 vector below and `action_mask` the
legal actions. Everything in the game is public (Y5.1), and every agent can be observed at any
time, from its own seat: seats are rotated so the observer is slot 0 and the next seat
clockwise slot 1; slots beyond the table's size are padding (`present` = 0), so all table
sizes and both variants share one vector. Scores are divided by the target (50, or 100 in
the expansion); a face f of a special die shows as f / (f + target), 0 for 0 and ½ for the
target (a face may exceed the target), read back exactly for faces below 10,000.

```text
=====  ===========  =======================================================================
index  field        meaning
=====  ===========  =======================================================================
0–5    scores       score / target (Y3.3)
6–11   present      1 if the slot is a seat at this table (else padding)
12–17  first        one-hot: the round's first player (Y2.1); 0s before it is known
18–23  mover        one-hot: whose turn it is (Y2.2); 0s before play and at the end
24–24  round        round / rounds (Y2.2)
25–25  rounds       1 / rounds: the game's length in rounds (Y2.2)
26–26  expansion    1 in the expansion (Y6, target 100), 0 in the base game (target 50)
27–27  blue_due     1 if the player to move throws a blue die too this turn (Y6.3)
28–28  blue_choice  1 at the blue choice (Y6.6)
29–35  chosen       one-hot: the (red) die chosen this turn, action 0–6
36–48  aside        1 for each die set aside this round, by action id (Y6.4)
49–84  faces        the faces f of S0 … S5 as f / (f + target), each die's ascending (Y1.2)
=====  ===========  =======================================================================
```

The vector holds the whole position, so optimal play needs nothing else (Y8.1): the scores,
the round, the turn within the round (`mover` and `first`), in the expansion the dice aside,
whether a blue die is due and, at the blue choice, the red die chosen. The faces make one
policy play any `dice`. The layout is `pagadores_env.paye.observation.FIELDS` (`SLICES`
gives each field's slice; `decode` reads a vector back as integers).

#### Legal Actions Mask

`action_mask` marks exactly the legal actions of the agent to act: in the base game the six
special dice, always (Y7.1); in the expansion at a red choice the red dice in the middle
that leave a blue die of another design where one is due (Y6.5), at a blue choice the blue
dice in the middle not of the red die's design (Y6.3). Every other agent's mask, and every
mask once the game is over, is all zeros.

### Action Space

`Discrete(13)` for both variants (Y7): `0`–`5` choose the special die S0…S5 (red in the
expansion), `6` the traditional red die (expansion only), `7`–`12` the blue S0…S5
(expansion only). An action is an integer: a Python int, a NumPy integer or a 0-d integer
array.

### Illegal actions

A value that is no action (13, -1, True, 1.0, None) or a die that is not legal now:
`illegal_action="raise"` (default) raises `pagadores_env.IllegalMoveError` (a `ValueError`)
in one line, prefixed by the agent, naming what is allowed, and nothing changes;
`"replace"` plays the lowest legal action instead and sets `infos[agent]["illegal_action"]`;
`"penalty"` ends the game at once, the offender getting −1 and everyone else 0
(PettingZoo's `TerminateIllegalWrapper`). A terminated agent must step `None`.

### Rewards

Every agent receives one non-zero reward per game, at the step that ends the game: the
`pagadores_env.core.rewards` scheme's value for its final place. `"win"` (default): +1 for
the winner, −1 for everyone else; k players sharing the win after the last round get
2/k − 1 each (Y4.4), so a reward is always 2 × (share of the win) − 1. `"placement"`:
1 − 2(p−1)/(n−1) for place p by score, tied players getting the mean of the places they
span.

### Termination

A game ends when a player hits the target exactly (Y4.1; the players after them in that round
do not play) or after the last round (Y4.3). Every agent is then terminated at once, and each
is selected in seat order and must `step(None)`, which removes it (PettingZoo's dead-step
protocol). There is no truncation. Afterwards `last()` and `step()` raise
`IllegalMoveError` saying that `reset()` starts a new game.

### Infos

`infos[agent]` is `{"illegal_action": bool}`: whether the agent's latest action was
replaced (see Illegal actions). The whole game is `env.unwrapped.game` (its `log` holds
every event, `pagadores_env.paye.render.describe_events` turns them into sentences).

### Chance and seeding

The dice are the only chance (Y5.1). `reset(seed=s)` seeds the env's
`np.random.default_rng(s)`, from which every throw draws one of the die's six faces
uniformly (`paye.dice.ThrowStream`). The same seed and the same actions give the same game,
bit for bit. `reset()` without a seed continues the dice stream.

### Rendering

`render_mode="ansi"`: `render()` returns the table as text (scores as bars to the target,
this turn's dice and throws, the dice aside, the special dice's faces).
`render_mode="human"`: after `reset()` and every step the env prints the events since its
last print as sentences, then the table. `render_mode="rgb_array"`: `render()` returns a
480 × 640 × 3 picture: the dice in the middle, the scores as race tracks to the target
(`paye.picture.draw`). Without a `render_mode`, `render()` warns in one line and returns
None.

### Version History

* v1 (pagadores-env 0.3.0): first release, as this module, `paye_v1` (metadata name
  `paye_v1`, PettingZoo registry id `paye-v1`, Gymnasium id `Paye-v1`).
"""

from .paye.aec import env, raw_env

__all__ = ["env", "raw_env"]
