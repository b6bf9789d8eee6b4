"""The search players shipped as package data (issue 48): each is at most 1 MB, carries its
provenance (config, commit, measure), is the net that provenance names, and plays as
``make_policy`` names it, without training."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from pagadores_agents.search.shipped import SHIPPED, provenance, shipped_net
from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.pagadores.solver import exploitability

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_player_is_small_and_says_where_it_came_from(name: str) -> None:
    net = shipped_net(name)
    assert net.stat().st_size <= 1_000_000
    record = provenance(name)
    assert hashlib.sha256(net.read_bytes()).hexdigest() == record["sha256"]
    assert record["measure"] in ("exploitability", "NashConv") and record["value"] >= 0
    assert len(record["commit"]) >= 12 and record["command"].startswith("pagadores ")
    config = yaml.safe_load((CONFIGS / Path(record["config"]).name).read_text())
    # the settings it was trained with are the config's (the run adds what it filled in)
    for section in ("env", "search"):
        assert config[section].items() <= record["settings"][section].items()
    assert config["total_timesteps"] == record["settings"]["total_timesteps"]


@pytest.mark.parametrize("name", SHIPPED)
def test_make_policy_plays_a_shipped_player_at_its_table(name: str) -> None:
    player = make_policy(name)
    assert name in registered_policies()
    players = provenance(name)["players"]
    assert player.net.num_players == players
    with pytest.raises(ValueError, match=f"trained at {players} players"):
        player.check_size(players + 1)


def test_the_shipped_two_player_net_is_as_exploitable_as_published() -> None:
    record = provenance("search-2p")
    assert exploitability(make_policy("search-2p")) == pytest.approx(record["value"], rel=0.05)


def test_an_unknown_shipped_name_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^no shipped search player 'search-9p'; shipped: "):
        shipped_net("search-9p")
