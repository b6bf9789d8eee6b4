"""
# Perudo

Perudo (Liar's Dice with jokers and palifico) for 2–6 players as a PettingZoo AEC
environment, with hidden information: each player sees only their own dice. Rule ids P1…P7
refer to the project's Perudo rules contract.

| Import             | `from pagadores_env import perudo_v1`                      |
|--------------------|------------------------------------------------------------|
| Actions            | Discrete                                                   |
| Parallel API       | No                                                         |
| Manual Control     | No                                                         |
| Agents             | `agents= ['player_0', 'player_1', ...]` (seat order)       |
| Agents             | 2–6 (`num_players`)                                        |
| Action Shape       | Discrete(181)                                              |
| Action Values      | 0 = dudo, 1 + (q − 1)·6 + (f − 1) = bid (q, f)             |
| Observation Shape  | `observation`: (267,) float32, `action_mask`: (181,) int8  |
| Observation Values | [0, 1]                                                     |

Every player starts with `dice` dice (P1.2). Each round everyone rolls under their cup
(P2.1); the starter opens with a bid "at least q dice on the table show face f", and in turn
each player raises it or calls dudo (P2.3, P3). At a dudo all dice are shown; the 1s are
jokers and count for every face except in a palifico round (P4.1, P5, P6.3). Fewer than q:
the bidder loses a die; q or more: the caller does (P4.2). A player without dice is out; the
last player with dice wins (P1.3).

The dice are rolled by the environment (P7.1), so every agent step is one bid or dudo; the
rolls and the dudos' outcomes happen inside `step()` (and `reset()`), and
`env.unwrapped.game.log` records them all.

```python
from pagadores_env import perudo_v1

env = perudo_v1.env(num_players=3, dice=2, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None  # a finished agent leaves with step(None)
    else:  # the lowest legal action: dudo whenever there is a bid to call
        action = int(observation["action_mask"].argmax())
    env.step(action)
print(env.render())
```

### Arguments

`perudo_v1.env(num_players=2, dice=5, render_mode=None, reward="win",
illegal_action="raise", eliminated="stay", info_events=False, info_mask=False)`;
`perudo_v1.raw_env` takes the same arguments, and so does `pettingzoo.make("aec",
"perudo-v1", ...)` where PettingZoo has a registry. They are `pagadores_v1`'s arguments
(`dice` in place of `cards`), with the same values, defaults and meanings.

| argument         | values                              | meaning                              |
|------------------|-------------------------------------|--------------------------------------|
| `num_players`    | 2–6                                 | players, seats 0…n−1 (P1.1)          |
| `dice`           | 1–5 (5 = official game), or a list  | dice each player starts with (P1.2), |
|                  | of n counts 0–5, two at least > 0   | or per seat (a seat with 0 is out)   |
| `render_mode`    | None, "ansi", "human", "rgb_array"  | see Rendering                        |
| `reward`         | "win", "placement"                  | see Rewards                          |
| `illegal_action` | "raise", "replace", "penalty"       | see Illegal actions                  |
| `eliminated`     | "stay", "leave"                     | see Termination                      |
| `info_events`    | False, True                         | see Infos                            |
| `info_mask`      | False, True                         | see Infos                            |

A value outside these raises `ValueError` in one line naming the argument and what it
allows. The Gymnasium env `Perudo-v1` takes the same `num_players`, `dice`, `reward`,
`illegal_action` and `render_mode` values (its `illegal_action` default is `"replace"`).

### Agents

`player_0 … player_{n-1}` in seat order; play passes from a seat to the next seat after it
that still has dice (P1.1). `player_0` starts round 1; a later round is started by the
player who lost a die, or if that player is out by the next player after it (P2.2).

### Observation Space

The observation is a dict: `observation` is the float32 vector below and `action_mask` the
legal actions. Every agent can be observed at any time, always from its own seat and with
only its own dice (P7.2): seats are rotated so the observer is slot 0 and the next seat
clockwise slot 1; slots beyond the table's size are padding (`present` = 0), so all table
sizes share one vector size. Quantities are divided by 30, the most dice a table can hold.

```text
======  =============  ===================================================================
index   field          meaning
======  =============  ===================================================================
0–5     my_dice        my dice showing face 1 … 6 / 5 (P2.1)
6–11    dice           dice held / 5 (P1.2, P1.3)
12–17   present        1 if the slot is a seat at this table (else padding)
18–23   starter        one-hot: who started this round (P2.2)
24–24   palifico       1 in a palifico round (P6)
25–25   total          dice on the table / 30: the largest quantity (P3.1)
26–61   revealed       dice shown at the last dudo: per slot, faces 1 … 6 / 5 (P4.1, P7.2)
62–62   bid_quantity   quantity of the bid to beat / 30; 0 before the opening bid
63–68   bid_face       one-hot: face 1 … 6 of the bid to beat (P3)
69–74   bidder         one-hot: who made the bid to beat
75–80   last_quantity  quantity of the seat's latest bid this round / 30
81–86   last_face      face of the seat's latest bid this round / 6; 0 for none
87–266  bids           1 for each bid made this round, at its action id - 1 (P7.2)
======  =============  ===================================================================
```

`bids` is the round's public bid history as OpenSpiel's information state holds it: one bit
per bid made. Every legal raise names a later bid in one fixed order
(`perudo.observation.bid_order`), so the set of bits gives the bids' sequence, and the turn
order from the starter gives who made each: with `bids`, `starter` and `dice` the vector is a
perfect-recall view of the round, for algorithms that need one. The layout is
`pagadores_env.perudo.observation.FIELDS` (`SLICES` gives each field's slice).

#### Legal Actions Mask

`action_mask` marks exactly the legal actions of the agent to act (P2.3, P3, P4.1, P6): no
dudo before the opening bid, raises up to the dice on the table. Every other agent's mask,
and every mask once the game is over, is all zeros. With `info_mask=True`,
`info["action_mask"]` also holds the mask an agent will act with when next selected (a
read-only array).

### Action Space

`Discrete(181)`: `0` is dudo (P4); `1 + (q − 1)·6 + (f − 1)` is the bid (q, f), q = 1…30,
f = 1…6 (`perudo.rules.bid_action(q, f)`; `perudo.rules.BIDS[a]` reads an action back).
An action is an integer: a Python int, a NumPy integer or a 0-d integer array. What an
illegal one does is `illegal_action`'s (see Illegal actions). A terminated agent must step
`None`.

### Rewards

Every agent receives exactly one non-zero reward per game, at the step at which it is
terminated (see Termination): with `eliminated="stay"` (default) every agent at the step
that ends the game, with `"leave"` a player who is out at the step that takes its last die
(its place is final then), the others when the game ends. The reward is the
`pagadores_env.core.rewards` scheme's value for its final place (players out earlier place
lower).
`"win"` (default): +1 for the winner, −1 for everyone else (P7.3); `"placement"`:
1 − 2(p−1)/(n−1), +1 for first down to −1 for last. With two players they are the same.

### Termination

`eliminated="stay"` (default): players who are out stay in `agents`, never selected again
(their mask is all zeros). When the game ends every agent is terminated at once, and each is
then selected in seat order and must `step(None)`, which removes it (PettingZoo's dead-step
protocol); the loop over `agent_iter()` then stops. So the agent selected after `reset()`
and after every step of a game in progress always has a decision.

`eliminated="leave"`: a player who loses its last die (P1.3) is terminated at that step and
selected next, before anyone bids again, for its dead step; when the game ends every
remaining agent is terminated and leaves the same way. `reset()` terminates nobody
(PettingZoo's API): a seat dealt 0 dice stays in `agents`, never selected, until the end of
the first step, which terminates it for its dead step.

There is no truncation: every round costs a die (P2.4), so every game ends. Afterwards
`last()` and `step()` raise `IllegalMoveError` saying that `reset()` starts a new game.

### Infos

`infos[agent]` is `{"illegal_action": bool}`: the same keys and shapes for every agent at
every step, as replay buffers that stack infos need. `illegal_action` is True while the
agent's latest action was illegal (see Illegal actions), until it acts again. With
`info_mask=True` the info also holds `"action_mask"` (see Legal Actions Mask; off by
default, as TorchRL's `PettingZooWrapper(use_mask=True)` fails on an info of that name).
With `info_events=True` it also holds `"events"`: the engine's `Event(kind, seat, value)`
records since the agent last acted (its own bid or dudo first), a list whose length varies,
so an agent that reads its info whenever it is selected sees every event of the game once,
up to the step it leaves (`pagadores_env.perudo.render.describe_events` turns them into
sentences). The whole game is `env.unwrapped.game` (its `log` holds every event).

### Illegal actions

An illegal action is a value that is no action (182, -1, True, 1.0, None) or a bid or dudo
the rules do not allow now (no dudo before the opening bid, a bid that does not raise, a
quantity above the dice on the table). With `illegal_action="raise"` (default) `step()`
raises `pagadores_env.IllegalMoveError` (a `ValueError`) in one line, prefixed by the agent,
naming what is allowed, and nothing changes. With `"replace"` the first legal action is
played instead (dudo when there is a bid to call, else the lowest opening bid) and the
agent's `info["illegal_action"]` is True. With `"penalty"` the offender forfeits, as with
PettingZoo's `TerminateIllegalWrapper`: it gets −1, everyone else 0, its
`info["illegal_action"]` is True, and every agent is terminated (not truncated) and leaves
by dead step. Stepping a terminated agent with anything but `None`, or stepping after every
agent has left, raises `IllegalMoveError` in every mode.

Drivers that step unmasked samples of `action_space(agent)` (RLlib's env pre-check steps
one) need `"replace"` or `"penalty"`: most of the 181 actions are illegal at any moment.

### Chance and seeding

The dice are the only chance (P7.1). `reset(seed=s)` seeds the env's
`np.random.default_rng(s)`, from which every die is drawn uniformly on 1–6. The same seed and
the same actions give the same game, bit for bit. `reset()` without a seed continues the
dice stream.

### Rendering

`render_mode="ansi"`: `render()` returns the public table (round, palifico, bid to beat, each
seat's dice count and latest bid, the dice revealed at the last dudo; nobody's hidden dice).
`render_mode="human"`: after `reset()` and every step the env prints the events since its
last print as sentences, then the table. `render_mode="rgb_array"`: `render()` returns a
picture of the table, an RGB uint8 array of `picture.HEIGHT × picture.WIDTH × 3`
(`pagadores_env.perudo.picture.draw`: the seats' cups and dice counts, each seat's latest
bid, the bid to beat, the player to act framed in gold), for video recorders;
`metadata["render_fps"]` is 2. Whose dice it shows: the seat to act's, face up, and every
other cup closed, as that agent sees the table; right after a dudo, until the next bid, every
seat's dice of the round just counted (those that counted bright), as all players see them
then (P4.1, P7.2); once the game is over, the last dudo's. Without a `render_mode`,
`render()` warns in one line and returns None.

### Version History

* v0: the development name (`perudo_v0`, `Perudo-v0`, `perudo-v0`), never released.
* v1 (pagadores-env 0.2.0): first release, as this module, `perudo_v1` (metadata name
  `perudo_v1`, PettingZoo registry id `perudo-v1`, Gymnasium id `Perudo-v1`); the v0 names
  raise `ImportError` in one line naming v1. What changed since v0: nothing in play; the
  Gymnasium env's `opponents` name Perudo's own players only (a Pagadores player is refused
  in one line), and a seed other than None or an integer ≥ 0 is refused in one line.
* v1 (pagadores-env 0.3.0): the same games. No trajectory that was valid before changes,
  so the ids stay v1. What changed:
  - The Gymnasium env `Perudo-v1` replaces an illegal action by default
    (`illegal_action="replace"`, was `"raise"`): Gymnasium's contract is that every element
    of `action_space` is a valid argument of `step()`, which Gymnasium's and SB3's
    `check_env` test by stepping unmasked samples. The replaced step is flagged in
    `info["illegal_action"]`; mask-aware learners never meet it; `"raise"` is still there.
  - `render_mode="rgb_array"` in both envs: a picture of the table (see Rendering), so
    Gymnasium's `RecordVideo` records games and SB3's `make_vec_env` (which asks for it)
    builds `Perudo-v1`.
  - `perudo_v1` takes every option of `pagadores_v1`, with its meanings and defaults:
    `illegal_action` ("raise", "replace", "penalty"), `eliminated` ("stay", "leave"),
    `info_events`, `info_mask`. Its infos are `{"illegal_action": False}` where they were
    `{}`; with the defaults nothing else changes.
"""

from .perudo.aec import env, raw_env

__all__ = ["env", "raw_env"]
