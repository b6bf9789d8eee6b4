"""``single_agent.SingleAgentEnv``: the episode plumbing and ``render`` both games' Gym envs
share, checked on both."""

import gymnasium
import pytest

import pagadores_env  # noqa: F401  # registers the envs
from pagadores_env.pagadores import render
from pagadores_env.perudo import render as perudo_render

GAMES = [("Pagadores-v1", render, "render_mode='ansi', 'human' or 'rgb_array'"),
         ("Perudo-v1", perudo_render, "render_mode='ansi', 'human' or 'rgb_array'")]


@pytest.mark.parametrize(("env_id", "game_render", "modes"), GAMES)
def test_render_modes(env_id, game_render, modes, capsys) -> None:
    env = gymnasium.make(env_id, render_mode="ansi", illegal_action="replace").unwrapped
    with pytest.raises(RuntimeError, match=r"^render\(\): there is no game yet; call reset"):
        env.render()
    env.reset(seed=1)
    assert env.render() == game_render.render_table(env.game)
    env.render_mode = "human"
    assert env.render() is None
    assert capsys.readouterr().out == game_render.render_table(env.game) + "\n\n"
    env.render_mode = None
    with pytest.warns(UserWarning, match=f"pass {modes} to gymnasium.make\\('{env_id}'"):
        assert env.render() is None


@pytest.mark.parametrize(("env_id", "game_render", "modes"), GAMES)
def test_penalty_ends_the_episode_last(env_id, game_render, modes) -> None:
    env = gymnasium.make(env_id, illegal_action="penalty").unwrapped
    env.reset(seed=2)
    _, reward, terminated, truncated, info = env.step(-1)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and info["placement"] == env.num_players
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step(0)
