"""``aec.TableEnv``: the text table and human-mode news both games' AEC envs share."""

import pytest

from pagadores_env import pagadores_v1, perudo_v1
from pagadores_env.core.errors import IllegalMoveError
from pagadores_env.pagadores import render
from pagadores_env.perudo import render as perudo_render

GAMES = [(pagadores_v1, render), (perudo_v1, perudo_render)]


@pytest.mark.parametrize(("module", "game_render"), GAMES)
def test_ansi_render_is_the_games_table(module, game_render) -> None:
    env = module.env(render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == game_render.render_table(env.unwrapped.game)


@pytest.mark.parametrize(("module", "game_render"), GAMES)
def test_human_mode_prints_the_news_then_the_table(module, game_render, capsys) -> None:
    env = module.env(render_mode="human")
    env.reset(seed=3)
    game = env.unwrapped.game
    news = game_render.describe_events(game.log)
    out = capsys.readouterr().out
    assert out == "".join(line + "\n" for line in news) + game_render.render_table(game) + "\n\n"
    assert env.render() is None
    assert capsys.readouterr().out == game_render.render_table(game) + "\n"


@pytest.mark.parametrize("module", [pagadores_v1, perudo_v1])
def test_render_before_reset_names_the_fix(module) -> None:
    with pytest.raises(IllegalMoveError, match=r"^render\(\): reset\(\) was never called; "
                                               r"call reset\(\) to start a game$"):
        module.raw_env(render_mode="ansi").render()
