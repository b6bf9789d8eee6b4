"""``engine.replay_record``: the one replay-and-check step of both games' ``from_dict``."""

import pytest

from pagadores_env.core.records import replay_record


def _replay(history, state):
    applied = []

    def apply(item):
        if item < 0:
            raise ValueError(f"no input {item}")
        applied.append(item)

    replay_record(history, apply, state, lambda: {"n": len(applied), "done": True})
    return applied


def test_replays_every_input_in_order_and_accepts_a_matching_state() -> None:
    assert _replay([3, 1, 2], {"n": 3, "done": True}) == [3, 1, 2]


def test_names_the_first_input_that_cannot_be_replayed() -> None:
    with pytest.raises(ValueError, match=r"^history\[1\] cannot be replayed: no input -1$"):
        _replay([0, -1, -2], {"n": 1, "done": True})


@pytest.mark.parametrize(("state", "message"), [
    ([], r"^state must be a dict with keys \['done', 'n'\]$"),
    ({"n": 2}, r"^state must be a dict with keys \['done', 'n'\]$"),
    ({"n": 1, "done": True}, r"^state\.n is 1 but replaying the history gives 2$"),
    ({"n": 2, "done": 1}, r"^state\.done is 1 but replaying the history gives True$"),
])
def test_names_what_is_wrong_with_the_state(state, message) -> None:
    with pytest.raises(ValueError, match=message):
        _replay([0, 1], state)
