"""The policy protocol every player follows, its optional capabilities, and the registry that
names the players.

A policy (``Policy``) maps one observation vector (Pagadores: ``pagadores.observation``) and
its action mask (Pagadores: ``[stop allowed, throw-again allowed]``) to an action (Pagadores:
0 = stop or 1 = throw again). Beyond that a policy may offer capabilities, each declared once
below as a ``runtime_checkable`` ``typing.Protocol`` of one method or attribute, and found by
``isinstance`` (never by probing for an attribute by name):

================================  ==========================================================
``SupportsActBatch``              ``act_batch``: many rows in one call (``batch_actions``)
``SupportsReset``                 ``reset(seed)``: a seeded generator, so seeded runs repeat
``SupportsCheckTable``            ``check_table``: refuses the tables it cannot play
                                  (``check_tables``)
``SupportsForSeat``               ``for_seat``: its copy for one seat, for a player that must
                                  know its seat (``equilibrium`` at 4+ players)
``SupportsActionProbabilities``   ``action_probabilities``: the distribution a stochastic
                                  player draws its action from, for the exact yardsticks
``SupportsNewGames``,             the per-game hooks of a policy that plays differently from
``SupportsActGames``,             game to game (a self-play opponent), called by the envs
``SupportsEndGames``              through ``core.opponents``
``DeclaresTableFacts``            ``table_facts``: played by the batch engine from a decision
                                  table (``pagadores.vector.tables``)
``DeclaresScoreView``             ``score_view``: which scores its actions depend on
                                  (``reads_lowest_only``)
``Named``                         ``name``: how tables and reports label it
================================  ==========================================================

A capability of one game only is declared in that game: Pagadores' ``throw_probabilities`` and
``act_fields`` for the exact solver (``pagadores.policies``). ``BasePolicy`` offers a seeded
``reset``, a looping ``act_batch`` and a ``name``, and holds the defaults of the declared facts
(no decision table, ``score_view = "lowest"``); a policy need not subclass it: any object
with the attribute has the capability. An ``isinstance`` check looks at the attribute's name
only, not its signature (and, from Python 3.12, not at attributes made by ``__getattr__``): a
method of that name must take what the Protocol says.

Policies are created from strings such as ``"threshold:min_points=100"``: the name before the
colon, then comma-separated ``key=value`` parameters (ints, floats, booleans or words). A
factory's parameters without a default must be given (``model:path=FILE``):
``required_parameters`` names them, so listings can leave out such players, ``spec_form``
shows a player's spec with them (a factory that is ``DeclaresParameterForms`` says what each
value is, ``{"path": "FILE"}``; else the name in capitals), and a spec that leaves one out is
refused showing that form. The
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

ENTRY_POINT_GROUP = "pagadores_env.policies"  # a group name (pyproject), not a module path


#: Which of a round's scores a policy's actions depend on (``DeclaresScoreView``).
ScoreView = Literal["lowest", "all"]
#: What a game says of a table beyond its number of players when it asks players whether they
#: can play it (``SupportsCheckTable``, ``check_tables``): Pagadores' start cards and Perudo's
#: start dice (one count for every seat or one per seat), Paye's number of rounds, Pasch's
#: hand of cards.
Table = int | Sequence[int]


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(obs, mask) -> action`` plays."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action (0 stop, 1 throw again) for one observation row and its legal mask."""


# ------------------------------------------------------------------ capabilities
@runtime_checkable
class SupportsActBatch(Protocol):
    """A policy that answers many rows in one call (a network: one forward pass); the rows
    are independent decisions. Whoever has rows to answer asks through ``batch_actions``,
    which asks a policy without it row by row."""

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions for the rows of ``obs`` (one observation a row) and ``mask``."""


@runtime_checkable
class SupportsReset(Protocol):
    """A policy that owns a seeded generator, so that seeded runs repeat exactly: the envs
    reseed their opponents through ``core.opponents.reseed_opponents``, the evaluators each
    agent (``pagadores_train.evaluation.evaluate``). Any ``reset`` passes the check, so it must take
    the seed."""

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator from ``seed``; ``None`` lets it run on."""


@runtime_checkable
class SupportsCheckTable(Protocol):
    """A policy built for some tables only (the two-player solver's ``optimal``, a solved
    ``equilibrium``). ``check_tables`` asks it, and whoever seats policies asks that
    (``core.opponents.seat_opponents``, the evaluators, the exact solver), so a table it cannot
    play is refused at construction instead of at its first decision there. A policy without
    it plays any table."""

    def check_table(self, num_players: int, table: Table, /) -> None:
        """``ValueError`` unless it can play ``num_players`` seats at ``table`` (what its game
        says of a table beyond its size, ``Table``)."""


@runtime_checkable
class SupportsForSeat(Protocol):
    """A player that must know its seat (the observation does not say it; ``equilibrium`` at
    4+ players). Whoever seats one player at several seats (the evaluators' rotation,
    ``pagadores.vector.evaluate.seated``) plays each seat with the player ``for_seat`` gives;
    a player without it plays every seat itself."""

    def for_seat(self, seat: int, num_players: int) -> Policy:
        """The player for ``seat`` of a ``num_players`` table (the same object each time it is
        asked), or ``ValueError`` for a seat it cannot play."""


@runtime_checkable
class SupportsActionProbabilities(Protocol):
    """A stochastic policy that states the distribution it plays from, so an exact yardstick
    measures that mixture and not one draw of it (Perudo's ``exact.strategy``, Paye's
    ``exact`` and ``sweep``, Pasch's ``last_round``; the trainer's and the evaluator's exact
    numbers). A game whose actions are one index of a fixed range states it per action;
    Pagadores, with its one yes-or-no decision, has its own ``throw_probabilities``."""

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(B, A)``: per row of ``obs`` and ``mask`` (``B`` rows of ``A`` actions), the
        probability of each action, zero at the illegal ones and summing to 1."""


@runtime_checkable
class SupportsNewGames(Protocol):
    """A policy that plays differently from game to game (a self-play opponent drawing a
    frozen snapshot of the learner per game and seat) hears which games start: the envs call
    it through ``core.opponents.GameHooks`` before any decision in them."""

    def new_games(self, games: np.ndarray) -> None:
        """The games ``games`` (game indices) start now."""


@runtime_checkable
class SupportsActGames(Protocol):
    """A policy that plays differently from game to game is told the game and seat of each
    row: the envs ask it through ``core.opponents.GameHooks`` instead of through
    ``act``/``act_batch``."""

    def act_games(self, games: np.ndarray, seats: np.ndarray, obs: np.ndarray,
                  mask: np.ndarray) -> np.ndarray:
        """``act_batch`` on rows taken in ``games`` by ``seats``."""


@runtime_checkable
class SupportsEndGames(Protocol):
    """A policy that learns from the results (a self-play opponent drawing the snapshots the
    learner loses to more often) hears how the learner's episodes ended: the envs call it
    through ``core.opponents.GameHooks``."""

    def end_games(self, games: np.ndarray, learner_won: np.ndarray) -> None:
        """The learner's episodes in ``games`` ended; ``learner_won`` is its share of the win
        in each (``core.rewards.win_share``): 1 won, 0 lost, 1/k a first place shared by k
        seats (only in games where seats can share first place: Paye, Pasch)."""


@runtime_checkable
class DeclaresTableFacts(Protocol):
    """A policy whose decisions depend only on a few facts of the decision (whether it fixes
    the throw limit, its throws used, its strength, the score to beat, whether it or another
    seat holds its last card) says so with ``table_facts = True``: the batch engine then plays
    it inside its compiled kernel from a table of its ``act_batch``'s answers
    (``pagadores.vector.tables.decision_table``). A policy that does not declare it has
    ``BasePolicy``'s ``False``."""

    table_facts: bool


@runtime_checkable
class DeclaresScoreView(Protocol):
    """Which of the round's scores a policy's actions depend on: ``"lowest"``, the score to
    beat and which seats hold it (every policy that reads the observation: it shows no other
    score), or ``"all"`` (a policy told more some other way). The exact solver asks through
    ``reads_lowest_only``; a policy that does not declare it has ``BasePolicy``'s
    ``"lowest"``."""

    score_view: ScoreView


@runtime_checkable
class Named(Protocol):
    """A policy with a readable ``name``, by which evaluation tables label a policy object
    (``pagadores_train.evaluation.evaluate``; one without it by ``str(policy)``)."""

    name: str


@runtime_checkable
class DeclaresParameterForms(Protocol):
    """A registered policy factory that says how the value of each parameter it requires looks
    in a spec (``{"path": "FILE"}``), for ``spec_form`` to show."""

    parameter_forms: Mapping[str, str]


class BasePolicy:
    """Convenience base: a seeded generator (``SupportsReset``), a looping ``act_batch``
    (``SupportsActBatch``), a readable name (``Named``) and the defaults of the declared facts
    (``DeclaresTableFacts``, ``DeclaresScoreView``), which a subclass overrides as class
    attributes."""

    name = "policy"
    table_facts = False
    score_view: ScoreView = "lowest"

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
        return _row_by_row(self, obs, mask)

    def __repr__(self) -> str:
        return self.name


class UniformPolicy(BasePolicy):
    """Uniform over the legal actions its mask marks, in any game whose mask has one entry
    per action (a baseline: the ``random`` player of Perudo, Paye and Pasch)."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


class StatedUniformPolicy(UniformPolicy):
    """``UniformPolicy`` that states its mixture (``SupportsActionProbabilities``), so an
    exact yardstick measures uniform play itself, not one draw of it."""

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(B, A)``: every legal action of each row alike."""
        legal = np.atleast_2d(np.asarray(mask, dtype=np.float64))
        return legal / legal.sum(axis=1, keepdims=True)


def batch_actions(policy: Policy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``policy``'s actions for the rows of ``obs``/``mask``: its ``act_batch`` if it has one
    (``SupportsActBatch``), else ``act`` row by row."""
    # BasePolicy first, a plain class check: the Protocol's costs microseconds (Python 3.11),
    # and the evaluators and self-play opponents call this per player and round of decisions
    if isinstance(policy, BasePolicy | SupportsActBatch):
        return np.asarray(policy.act_batch(obs, mask))
    return _row_by_row(policy, obs, mask)


def _row_by_row(policy: Policy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``policy``'s ``act`` on each row of ``obs``/``mask``, as int64."""
    return np.array([policy.act(o, m) for o, m in zip(obs, mask, strict=True)], dtype=np.int64)


def reads_lowest_only(policy: Policy) -> bool:
    """Whether ``policy``'s actions depend on the round's scores only through the score to
    beat and which seats hold it (``DeclaresScoreView``). For one that declares
    ``score_view = "all"`` the exact solver asks about one row per combination of scores
    instead of one per (score to beat, holders) (``solver.scores``)."""
    view = policy.score_view if isinstance(policy, DeclaresScoreView) else BasePolicy.score_view
    return view != "all"


def monte_carlo_only(policy: Policy | str, game: str = "pagadores") -> bool:
    """Whether ``policy`` (or the registered player of that name) declares itself too slow
    for the exact passes (a class attribute ``monte_carlo_only = True``: a player that
    searches at every decision, which an exact pass would ask about millions of rows): the
    exact yardsticks refuse it, evaluations leave their exact columns out, the exact report
    leaves it out of its default agents."""
    found = _factory(policy, game) if isinstance(policy, str) else policy
    return bool(getattr(found, "monte_carlo_only", False))


def check_tables(policies: Iterable[Policy], num_players: int, table: Table) -> None:
    """Raise ``ValueError`` if one of ``policies`` cannot play at a table of ``num_players``
    seats and ``table`` (``Table``): every ``SupportsCheckTable`` policy is asked; the others
    play any table."""
    for policy in policies:
        if isinstance(policy, SupportsCheckTable):
            policy.check_table(num_players, table)


#: The games whose players the registry names, each in a namespace of its own, so that one
#: name (``"random"``) can mean each game's player; Pagadores' is the default everywhere. Each
#: game adds its own when its package is imported (``register_game``), in the order
#: ``import pagadores_env`` imports them: the core names no game.
GAMES: list[str] = []
_REGISTRY: dict[str, dict[str, Callable[..., Policy]]] = {}
_plugins_loaded = False


def register_game(game: str) -> str:
    """Open the registry's namespace of ``game`` (once; again is a no-op) and return the
    name, for the game's package to keep as its ``GAME``."""
    if game not in _REGISTRY:
        GAMES.append(game)
        _REGISTRY[game] = {}
    return game


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


def takes_parameter(spec: str, parameter: str, game: str = "pagadores") -> bool:
    """Whether the player the spec string ``spec`` names accepts ``parameter`` (as ``extra``
    of ``make_policy``, which gives it only to factories that take it); ``ValueError`` for
    an unknown name."""
    accepted = inspect.signature(_factory(parse_spec(spec)[0], game)).parameters
    return parameter in accepted or any(p.kind is p.VAR_KEYWORD for p in accepted.values())


def spec_form(name: str, game: str = "pagadores") -> str:
    """How a spec of the registered player ``name`` of ``game`` looks with the parameters it
    needs (``required_parameters``), each as the form of its value: ``"model:path=FILE"``;
    a player needing none is its bare name. The form is the factory's ``parameter_forms``
    entry (``DeclaresParameterForms``), else the parameter's name in capitals."""
    factory = _factory(name, game)
    forms: Mapping[str, str] = (factory.parameter_forms
                                if isinstance(factory, DeclaresParameterForms) else {})
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
