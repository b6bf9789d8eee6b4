"""
# Pagadores

Dados de Pagadores, the dice game, for 2–6 players as a PettingZoo AEC environment. Rule ids
R1…R7 below refer to the project's rules contract, explained in `docs/rules/pagadores.md`.

| Import             | `from pagadores_env import pagadores_v1`                 |
|--------------------|----------------------------------------------------------|
| Actions            | Discrete                                                 |
| Parallel API       | No                                                       |
| Manual Control     | No                                                       |
| Agents             | `agents= ['player_0', 'player_1', ...]` (seat order)     |
| Agents             | 2–6 (`num_players`)                                      |
| Action Shape       | Discrete(2)                                              |
| Action Values      | 0 = stop, 1 = throw again                                |
| Observation Shape  | `observation`: (49,) float32, `action_mask`: (2,) int8   |
| Observation Values | [-1, 1]                                                  |

Each player starts with `cards` Pagadder cards (R1.1). A round's insteker throws three dice
up to three times, stopping when they like; that number of throws is the round's throw limit,
and everyone else in turn throws up to it (R3). The last throw is a player's score; the lowest
score loses a card (ties play kampen, R5). Special throws cost every other player cards at
once (Celebro 3, Hermana 2, Puerta 1), a Picaro costs its thrower 2 and ends the round (R4).
A player without cards is out; the last player holding cards wins (R1.5).

All the dice are thrown by the environment. An agent is selected only when it has a decision
(R3.6): after a throw, with throws left, stop or throw again. So one agent step is one
decision, and everything in between — the other players' throws, rounds ending, kampen,
specials — happens inside `step()` (or `reset()`), in one call of the compiled rules kernel
(the first `reset()` of a process compiles it if it is not cached on disk yet: seconds, once).
`env.unwrapped.game` is the game as an `engine.Game`, rebuilt from its inputs when read (read
it again after a step); its `log` records it all.

```python
from pagadores_env import pagadores_v1
from pagadores_env.pagadores.observation import SLICES

env = pagadores_v1.env(num_players=3, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None  # a finished agent leaves with step(None)
    else:  # throw again while my throw is below strength 0.5 * 41
        action = int(observation["observation"][SLICES["my_strength"]][0] < 0.5)
    env.step(action)
print(env.render())
```

### Arguments

`pagadores_v1.env(num_players=2, cards=10, render_mode=None, reward="win",
illegal_action="raise", eliminated="stay", info_events=False, info_mask=False)`;
`pagadores_v1.raw_env` takes
the same arguments, and so does `pettingzoo.make("aec", "pagadores-v1", ...)` where
PettingZoo has a registry (importing `pagadores_env` registers the id; older PettingZoo
versions have no registry and simply skip this).

| argument         | values                          | meaning                                     |
|------------------|---------------------------------|---------------------------------------------|
| `num_players`    | 2–6                             | players, seats 0…n−1 (R1.1)                 |
| `cards`          | 1–10 (10 = official game), or   | cards each player starts with (R1.1), or    |
|                  | a list of n counts 0–10         | per seat (see below)                        |
| `render_mode`    | None, "ansi", "human",          | see Rendering                               |
|                  | "rgb_array"                     |                                             |
| `reward`         | "win", "placement"              | see Rewards                                 |
| `illegal_action` | "raise", "replace", "penalty"   | see Illegal actions                         |
| `eliminated`     | "stay", "leave"                 | see Termination and agent removal           |
| `info_events`    | False, True                     | see Infos                                   |
| `info_mask`      | False, True                     | see Infos                                   |

A value outside these raises `ValueError` naming the argument and what it allows. A list of
`cards` starts from a chosen position, as `engine.Game` and the Gymnasium env take it: at
least two seats need cards, and seat 0 too (it insteeks first, R1.3); a seat dealt 0 cards
is out from the start and places last. `cards`, `reward`, `illegal_action`, `info_events`
and `render_mode` take the same values in the Gymnasium env `Pagadores-v1` (whose info
always holds the mask).

`env()` wraps `raw_env` in PettingZoo's `OrderEnforcingWrapper` (a subclass that also raises
on a step after the game is over, and forwards the per-step calls directly). The classic
envs' other two wrappers are not used because `raw_env` does their work with clearer
errors: see Illegal actions.

### Agents

`player_0 … player_{n-1}` in seat order; play passes from seat i to seat i+1 (R1.2).
`player_0` is the oldest player and insteeks the first round (R1.3, R3.1).

### Observation Space

The observation is a dict: `observation` is the float32 vector below and `action_mask` the
legal actions. Every agent can be observed at any time, always from its own seat: seats are
rotated so the observer is slot 0 and the next seat clockwise slot 1; slots beyond the
table's size are padding (`present` = 0), so all table sizes share one vector size. Strengths
are the dense throw ranks 0 (Picaro) … 41 (Celebro), where higher beats lower and equal
strengths tie (R2.3).

```text
=====  ===========  ======================================================================
index  field        meaning
=====  ===========  ======================================================================
0–5    cards        cards held / 10 (R1.1, R1.4)
6–11   present      1 if the slot is a seat at this table (else padding)
12–17  insteker     one-hot: who insteeks this round (R3.1)
18–23  scores       score this round / 41 if it is the score to beat, else -1 (R3.5)
24–29  lowest       1 if the seat holds the score to beat (R3.5)
30–35  to_throw     1 if the seat still throws after me this round (R3.4)
36–36  limit_set    1 once the insteker has fixed the throw limit (R3.2)
37–37  throw_limit  throw limit / 3; 0 while unset
38–38  throws_used  my throws so far this turn / 3
39–39  throws_left  throws I may still use / 3 (R3.2, R3.4)
40–40  my_strength  strength of my current throw / 41 (R2.3)
41–46  my_kind      one-hot kind of my current throw, Celebro … Picaro (R2.2)
47–47  to_beat      score to beat (lowest final score so far) / 41; -1 if none
48–48  versus       my throw against the score to beat: 1 above, 0 equal, -1 below or none
=====  ===========  ======================================================================
```

#### Legal Actions Mask

`action_mask` is `[1, 1]` for the selected agent (both actions are always legal at a
decision, R3.6) and `[0, 0]` for every other agent, including knocked-out and terminated
ones. With `info_mask=True`, `info["action_mask"]` also holds the mask an agent will act
with when it is next selected (a shared read-only array).

### Action Space

`Discrete(2)`: 0 = stop (the current throw is my score, R3.3), 1 = throw again (R3.2, R3.4).
An action is an integer: a Python int, a NumPy integer, or a 0-d integer array (what a
policy's `predict` returns). Booleans and floats (`True`, `1.0`, `np.float32(1)`) are not
actions, even when they equal 0 or 1: one rule, `engine.as_action`, decides this for
`Game`, this env and the Gymnasium env alike. A terminated agent must step `None`.

### Rewards

Every agent receives exactly one non-zero reward per game, at the step at which it is
terminated: with `eliminated="stay"` (default) every agent at the step that ends the game,
knocked-out ones included; with `"leave"` a knocked-out agent at the step that knocks it out
(its place is final then: it can no longer win or move up), the others when the game ends.
Its cumulative reward over the game is therefore the scheme's value for its final place:

| scheme            | reward for place p of n players                          |
|-------------------|----------------------------------------------------------|
| `"win"` (default) | +1 for the winner (p = 1), −1 for every other place      |
| `"placement"`     | 1 − 2(p−1)/(n−1): +1 for 1st, linear down to −1 for last |

The schemes live in `pagadores_env.core.rewards`, shared with the Gymnasium env. Places come from
`Game.placements()`: players knocked out later place higher. Under
`"placement"`, players knocked out by the same throw share the places they span and get the
mean of those places' rewards (two players out together in places 3 and 4 of 4 both get
−2/3), so a game's rewards always sum to 0. With two players both schemes are the same. An
agent's reward shows in `last()` when it is next selected, which is for its dead step.

### Termination and agent removal

`eliminated="stay"` (default): a knocked-out agent stays in `agents`, is not terminated and
is never selected again (its mask is `[0, 0]`); when the game ends, every agent is terminated
at once, and each is then selected in seat order and must `step(None)`, which removes it
(PettingZoo's dead-step protocol); the loop over `agent_iter()` then stops. So the agent
selected after `reset()` and after every step of a game in progress always has a decision,
which is what the usual AEC drivers (PettingZoo's SB3 action-masking tutorial, Tianshou's and
RLlib's `PettingZooEnv`) expect. A game that is over before anyone has a decision (possible
with 1 card: a special on the first throw) is no episode: `reset()` deals a new game from the
same dice stream.

`eliminated="leave"` (v0's only behaviour): a knocked-out agent is terminated at once and is
selected next, before anyone decides again, for its dead step; when the game ends every
remaining agent is terminated and leaves the same way. `reset()` terminates nobody
(PettingZoo's API: every agent is live after a reset): in rare games (few `cards`) someone is
knocked out by the first throws, before any decision, and a seat dealt 0 cards is out from
the start; such an agent stays in `agents`, never selected, until the end of the first step,
which terminates it (with whoever that step knocks out) for its dead step. A game over
before anyone decides is dealt again, as with "stay".

There is no truncation: each round costs at least one card, so every game ends.

### After the game

Once every agent has left, `last()` and `step()` raise `IllegalMoveError` saying that the
game is over and `reset()` starts a new one; `agents`, `rewards` and `infos` are empty.
`observe(agent)` and `render()` still show the final position (every mask `[0, 0]`).

### Infos

`infos[agent]` is `{"illegal_action": bool}`: the same keys and shapes for every agent at
every step, as replay buffers that stack infos need. `illegal_action` is True while the
agent's latest action was not an action (see Illegal actions), until it acts again. With
`info_mask=True` the info also holds `"action_mask"` (see Legal Actions Mask; off by default
because TorchRL's `PettingZooWrapper(use_mask=True)` takes the mask from the observation and
fails on an info of that name). With `info_events=True` the info also holds `"events"`: the engine's
`Event(kind, seat, value)` records since the agent last acted (its own decision first), a
list whose length varies, so that an agent that reads its info whenever it is selected sees
every event of the game exactly once, up to the step it leaves.
`pagadores_env.pagadores.render.describe_events` turns them into sentences. The whole game is
`env.unwrapped.game` (its `log` holds every event).

### Illegal actions

For the agent to act, both actions are always legal, so the only illegal actions are values
that are not actions (2, -1, True, 1.0, None, ...; see Action Space). With
`illegal_action="raise"` (default) `step()` raises `pagadores_env.IllegalMoveError` (a
`ValueError`) with the engine's one-line message, prefixed by the agent that played it, and
nothing changes. With `"replace"`, as in the Gymnasium env, the first legal action (0, stop)
is played instead and the agent's `info["illegal_action"]` is True. With `"penalty"` the
offender forfeits, as with PettingZoo's `TerminateIllegalWrapper`: it gets −1, everyone else
0, its `info["illegal_action"]` is True, and every agent is terminated (not truncated: the
game is decided) and leaves by dead step. Stepping a terminated agent with anything but
`None`, or stepping after every agent has left, raises `IllegalMoveError` in every mode.

`TerminateIllegalWrapper` and `AssertOutOfBoundsWrapper` themselves are not stacked: the
first looks the action up in the mask, so 2 raises an `IndexError`, -1 reads the mask from
the end and passes, and `None` fails on an ambiguous array truth value; the second answers
with a bare `AssertionError` that names no legal action.

### Chance and seeding

The dice are the only chance (R7). `reset(seed=s)` seeds the env's
`np.random.default_rng(s)`; every throw is an ordered outcome drawn uniformly from 216 (R7.2).
The same seed and the same actions give the same game, bit for bit, in both `eliminated`
modes (they differ only in when agents are selected for dead steps, and in the games "stay"
deals again because nobody had a decision). `reset()` without a seed continues the dice
stream.

### Rendering

`render_mode="ansi"`: `render()` returns the table of the position (seats, cards, insteker,
throw limit, current throw, score to beat; `pagadores_env.pagadores.render.render_table`).
`render_mode="human"`: after `reset()` and every step the env prints the events since its
last print as sentences, then the table; `render()` prints the table.
`render_mode="rgb_array"`: `render()` returns a picture of the table, an RGB uint8 array
of `picture.HEIGHT × picture.WIDTH × 3` (`pagadores_env.pagadores.picture.draw`: seats, cards, the
latest dice, the score to beat, the player to act framed in gold), for video recorders;
`metadata["render_fps"]` is 2. Without a `render_mode`, `render()` warns in one line and
returns None.

### Version History

* v0: Initial release (pagadores-env 0.1.0), `from pagadores_env import pagadores_v0`.
* v1 (pagadores-env 0.2.0): this module, `pagadores_v1` (metadata name `pagadores_v1`,
  PettingZoo registry id `pagadores-v1`; the v0 names raise `ImportError` in one line naming
  v1). What changed since v0:
  - `eliminated="stay"` is the new default: knocked-out agents stay in `agents` unselected
    and every agent is terminated and rewarded together at the end (`eliminated="leave"`
    keeps v0's dead step at the knock-out); a game over before anyone decides is dealt again.
  - Infos hold `illegal_action` only, the same keys for every agent at every step;
    `action_mask` only with `info_mask=True` (v0 always put it there, which TorchRL's
    `PettingZooWrapper(use_mask=True)` cannot take); `events` only with `info_events=True`.
  - Booleans and floats are no longer actions (`engine.as_action`, one rule in every layer).
  - Observation: of the round's scores, `scores` shows only the score to beat; a higher score
    reads -1 (`to_throw` tells it from a seat yet to throw). Two-player observations are
    unchanged; at 3+ players a model trained on v0 observations sees other values there.
  - A seed other than None or an integer ≥ 0 is refused in one line (`ValueError`,
    `core.checks.check_seed`) and leaves the env as it was (was numpy's error).
  - New: per-seat `cards` lists, `illegal_action="replace"` and `"penalty"`,
    `render_mode="rgb_array"`, the PettingZoo registry id, a one-line `IllegalMoveError` from
    `last()` after the game (was `KeyError: 'player_0'`).
  - The game plays on the compiled rules kernel: `env.unwrapped.game` is rebuilt from the
    game's inputs when read (read it again after a step). Seeded games are the same for the
    same decisions, except the ones `"stay"` deals again; what `agent_iter()` yields changes
    with the default mode, since knocked-out agents no longer step mid-game.
* v1 (pagadores-env 0.3.0): with `eliminated="leave"`, `reset()` terminates nobody, which
  PettingZoo's `api_test` requires ("terminations must all be False after reset"; it failed
  at 3 players with 1 card): a seat out before the first decision is terminated by the first
  step, and a game over before anyone decides is dealt again, as with "stay". Seeded games
  are the same for the same decisions, except those "leave" now deals again.
"""

from .pagadores.aec import env, raw_env

__all__ = ["env", "raw_env"]
