"""The policy protocol every player follows, and the registry that names them.

A policy maps one observation vector (Pagadores: ``pagadores.observation``) and its action mask
(``[stop allowed, throw-again allowed]``) to an action, 0 = stop or 1 = throw again.
``act_batch`` does the same for a batch (rows are independent decisions); policies that can
vectorise override it, others inherit a loop. A stochastic policy may also offer
``throw_probabilities(obs[B,49], mask[B,2]) -> float array`` (its probability of throwing again
per row), so the exact solver evaluates its mixture rather than one draw of it. A policy that
reads the observation through ``pagadores.observation.decode`` may offer ``act_fields(fields,
mask)``: ``act_batch`` on the decoded integers (``pagadores.observation.ObsFields``, one leading
axis of rows), which the exact solver calls instead of writing vectors for it to read. A policy
whose decisions depend only on a few facts of the decision (whether it fixes the throw limit,
its throws used, its strength, the score to beat, whether it or another seat holds its last
card) declares ``table_facts = True``: the batch engine then plays it inside its compiled kernel
from a table of its ``act_batch``'s answers (``pagadores.vector.tables``). A policy may own a
seeded generator (``reset(seed)``) so seeded runs repeat exactly. A policy built for some tables
only (the two-player solver's ``optimal``) offers ``check_table(num_players, cards)``, raising
``ValueError`` for a table it cannot play; ``check_tables`` asks it, so whoever seats policies
refuses such a table at construction instead of failing at the policy's first decision there. A
policy that plays differently from game to game (a self-play opponent drawing a frozen snapshot
of the learner per game and seat) offers ``new_games(games)``, called with the indices of games
as they start, and ``act_games(games, seats, obs, mask)``: ``act_batch`` told each row's game
and seat; the envs call both through ``opponents.start_games`` and ``opponents.game_actions``. A
player that must know its seat (the observation does not say it; ``equilibrium`` at 4+ players)
offers ``for_seat(seat, num_players)``: the player for that seat (the same object each time it
is asked), or ``ValueError`` for a seat it cannot play; whoever seats one player at several
seats (the evaluators' rotation, ``pagadores.vector.evaluate.seat_players``) plays each seat
with its copy.

Policies are created from strings such as ``"threshold:min_points=100"``: the name before the
colon, then comma-separated ``key=value`` parameters (ints, floats, booleans or words). A
factory's parameters without a default must be given (``model:path=FILE``):
``required_parameters`` names them, so listings can leave out such players, ``spec_form``
shows a player's spec with them (a factory's ``parameter_forms``, ``{"path": "FILE"}``, says
what each value is; else the name in capitals), and a spec that leaves one out is refused
showing that form. The
environment package only holds the registry; the ``pagadores_agents`` package registers its
players through the ``pagadores_env.policies`` entry-point group, so nothing here imports it
and the dependency arrow stays ``pagadores_env`` ← ``pagadores_agents``. Each game has its own
namespace of names (``GAMES``): ``register_policy``, ``registered_policies`` and
``make_policy`` take ``game="pagadores"`` unless told ``game="perudo"``, so ``"random"`` is
each game's own random player and listings of one game's players show no other game's.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

import numpy as np

ENTRY_POINT_GROUP = "pagadores_env.policies"  # a group name (pyproject), not a module path


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(obs, mask) -> action`` plays."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action (0 stop, 1 throw again) for one observation row and its legal mask."""


class BasePolicy:
    """Convenience base: a seeded generator, a looping ``act_batch`` and a readable name."""

    name = "policy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator from ``seed``; ``None`` lets it run on."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action for one row (see ``Policy.act``); subclasses define it."""
        raise NotImplementedError

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions for the rows of ``obs``/``mask``, asking ``act`` row by row."""
        actions = [self.act(o, m) for o, m in zip(obs, mask, strict=True)]
        return np.asarray(actions, dtype=np.int64)

    def __repr__(self) -> str:
        return self.name


def batch_actions(policy: Policy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``policy``'s actions for the rows of ``obs``/``mask``: its ``act_batch`` if it has one,
    else ``act`` row by row."""
    batch = getattr(policy, "act_batch", None)
    if batch is not None:
        return np.asarray(batch(obs, mask))
    return np.array([policy.act(o, m) for o, m in zip(obs, mask, strict=True)], dtype=np.int64)


def reads_lowest_only(policy: Policy) -> bool:
    """Whether ``policy``'s actions depend on the round's scores only through the score to
    beat and which seats hold it. True for every policy that reads the observation: it shows
    no other score (``observation``). A policy that learns more from elsewhere declares
    ``score_view = "all"``; the exact solver then asks it about one row per combination of
    scores instead of one per (score to beat, holders) (``solver.scores``)."""
    return getattr(policy, "score_view", "lowest") != "all"


def check_tables(policies: Iterable[Policy], num_players: int,
                 cards: int | Sequence[int]) -> None:
    """Raise ``ValueError`` if one of ``policies`` cannot play at a table of ``num_players``
    with ``cards`` (one count for all, or one per seat): every policy that has
    ``check_table(num_players, cards)`` is asked; the others play any table."""
    for policy in policies:
        check = getattr(policy, "check_table", None)
        if check is not None:
            check(num_players, cards)


#: The games whose players the registry names, each in a namespace of its own, so that one
#: name (``"random"``) can mean each game's player; Pagadores' is the default everywhere.
GAMES = ("pagadores", "perudo")
_REGISTRY: dict[str, dict[str, Callable[..., Policy]]] = {game: {} for game in GAMES}
_plugins_loaded = False


def register_policy(name: str, factory: Callable[..., Policy], game: str = "pagadores") -> None:
    """Make ``factory(**params)`` available as ``make_policy("name:params", game=game)``."""
    _REGISTRY[_checked_game(game)][name] = factory


def registered_policies(game: str = "pagadores") -> list[str]:
    """The names ``make_policy`` knows for ``game``, sorted (plugins' entry points loaded
    first)."""
    _load_plugins()
    return sorted(_REGISTRY[_checked_game(game)])


def required_parameters(name: str, game: str = "pagadores") -> list[str]:
    """The parameters the registered player ``name`` of ``game`` cannot do without (its
    factory's parameters without a default, such as ``model``'s ``path``), in the factory's
    order; ``[]`` for a player that plays as its bare name. ``ValueError`` for an unknown
    name, as ``make_policy`` says it."""
    return _required(_factory(name, game))


def spec_form(name: str, game: str = "pagadores") -> str:
    """How a spec of the registered player ``name`` of ``game`` looks with the parameters it
    needs (``required_parameters``), each as the form of its value: ``"model:path=FILE"``;
    a player needing none is its bare name. The form is the factory's ``parameter_forms``
    entry, else the parameter's name in capitals."""
    factory = _factory(name, game)
    forms = getattr(factory, "parameter_forms", {})
    needed = ",".join(f"{k}={forms.get(k, k.upper())}" for k in _required(factory))
    return f"{name}:{needed}" if needed else name


def _checked_game(game: str) -> str:
    if game not in _REGISTRY:
        raise ValueError(f"game must be one of {', '.join(map(repr, GAMES))}, got {game!r}")
    return game


def _load_plugins() -> None:
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            ep.load()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name:a=1,b=x"`` → ``("name", {"a": 1, "b": "x"})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"a policy spec must be a non-empty string like 'threshold:min_points=100', "
            f"got {spec!r}"
        )
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"policy parameter {part!r} in {spec!r} must look like key=value")
        params[key.strip()] = _value(raw.strip())
    return name.strip(), params


def _value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return raw


def make_policy(spec: str | Policy, *, game: str = "pagadores", **extra: Any) -> Policy:
    """A policy from a spec string naming a player of ``game`` (or the policy itself, passed
    through).

    ``extra`` keyword arguments (such as ``seed``) are given to factories that accept them.
    Unknown names and parameters raise ``ValueError`` listing what is allowed; a required
    parameter left out (``required_parameters``) raises it showing the spec it needs.
    """
    if not isinstance(spec, str):
        if isinstance(spec, Policy):
            return spec
        raise ValueError(f"a policy must be a spec string or have act(obs, mask), got {spec!r}")
    name, params = parse_spec(spec)
    factory = _factory(name, game)
    accepted = inspect.signature(factory).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    unknown = [k for k in params if k not in accepted and not takes_any]
    if unknown:
        allowed = [k for k in accepted if k != "seed"]
        raise ValueError(
            f"policy {name!r} has no parameter {', '.join(map(repr, unknown))}; "
            f"allowed: {', '.join(allowed) or 'none'}"
        )
    params.update({k: v for k, v in extra.items() if k in accepted or takes_any})
    missing = [k for k in _required(factory) if k not in params]
    if missing:
        raise ValueError(f"policy {name!r} needs its {' and '.join(missing)}: "
                         f"{spec_form(name, game)}")
    try:
        return factory(**params)
    except (TypeError, ValueError) as err:
        raise ValueError(f"policy {spec!r}: {err}") from None


def _factory(name: str, game: str) -> Callable[..., Policy]:
    """The factory registered as ``name`` for ``game`` (plugins loaded if it is not yet
    known), else ``ValueError`` listing the known names."""
    players = _REGISTRY[_checked_game(game)]
    if name not in players:
        _load_plugins()
    if name not in players:
        of = "" if game == "pagadores" else f" of {game}"
        raise ValueError(f"unknown policy{of} {name!r}; known: "
                         f"{', '.join(registered_policies(game))}")
    return players[name]


def _required(factory: Callable[..., Policy]) -> list[str]:
    """``factory``'s parameters that a spec must give: those without a default (``*args``
    and ``**kwargs`` need nothing)."""
    return [k for k, p in inspect.signature(factory).parameters.items()
            if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
