"""A saved stable-baselines3 model as a player like any other (spec ``"model:path=..."``).

The algorithm is read from the zip (its ``data`` entry names the policy class and holds the
algorithm's hyper-parameters) or given as ``algo=`` (``maskable_ppo``, ``ppo``, ``a2c``,
``dqn``, ``qrdqn``, ``recurrent_ppo``). A model is checked when it is loaded: its observation
and action spaces must be the environment's (``Box(49,)``, ``Discrete(2)``), so a model of
another environment is refused at once with both spaces named, not at its first decision.
Play is deterministic.

**Every game of the table** (``pagadores_env.core.games``) has its ``model`` player, registered
in its namespace (``make_policy("model:path=…", game="paye")``): a ``GameSB3Policy`` whose
observations are that game's (``GameSpec.obs_size`` floats; Perudo ``Box(267,)``), checked
at load, and whose action count is checked at every decision against the width of the action
mask, as a game's count may follow its table options (Pasch's follows the hand, X8.1). These
players also state the distribution the model samples from (``action_probabilities``), so an
exact yardstick that measures stochastic policies (Perudo's, Paye's) can measure the policy
the model was trained as.
``path`` is the model's file; a run folder is refused naming the spec that plays it: an SB3
run's ``model:path=<run>/model.zip`` (or its newest checkpoint), an RLlib run's or
checkpoint's ``rllib:path=…`` (``rllib_adapter``).
MaskablePPO gets the action mask; the other algorithms cannot take one, so an illegal choice
is replaced by the legal action. torch and SB3 are imported only when a model is loaded, so
importing ``pagadores_agents`` stays light.

**A recurrent model** (RecurrentPPO's LSTM policy) is asked, like every player here, about
single decisions without the game's history: the exact solver and the Monte Carlo evaluators
hand a policy rows of observations, not games. So it answers every decision from a fresh LSTM
state, as at an episode's start (``predict(obs, state=None, episode_start=ones)``): its
memoryless projection. In Pagadores that loses nothing an optimal player needs, because the
observation is Markov: it holds everything the rules need to decide
(``tests/solver/test_observation_sufficiency``), so an optimal policy needs no memory. And it is the
only version of a recurrent policy the exact solver can score, since the solver's passes ask
about positions, not games.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from pagadores_env.core.games import GAME_SPECS, GameSpec, game_spec
from pagadores_env.core.policies import BasePolicy, register_policy
from pagadores_env.pagadores.engine import Action
from pagadores_env.pagadores.observation import OBS_SIZE

from .run_folders import is_rllib_run, sb3_run_model

#: algo name -> (module, class). MaskablePPO lives in sb3-contrib.
ALGORITHMS: dict[str, tuple[str, str]] = {
    "maskable_ppo": ("sb3_contrib", "MaskablePPO"),
    "ppo": ("stable_baselines3", "PPO"),
    "a2c": ("stable_baselines3", "A2C"),
    "dqn": ("stable_baselines3", "DQN"),
    "qrdqn": ("sb3_contrib", "QRDQN"),
    "recurrent_ppo": ("sb3_contrib", "RecurrentPPO"),
}


def detect_algo(path: str | Path) -> str:
    """The algorithm that saved ``path``, from its policy class and hyper-parameters:
    a recurrent policy means RecurrentPPO, a maskable policy MaskablePPO, a QR-DQN policy
    QR-DQN, a DQN policy DQN, a ``clip_range`` PPO, else A2C."""
    try:
        with zipfile.ZipFile(path) as archive:
            data: dict[str, Any] = json.loads(archive.read("data"))
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a saved stable-baselines3 model: {err}") from None
    module = str(data.get("policy_class", {}).get("__module__", ""))
    if "recurrent" in module:
        return "recurrent_ppo"
    if "maskable" in module:
        return "maskable_ppo"
    if "qrdqn" in module:
        return "qrdqn"
    if "dqn" in module:
        return "dqn"
    return "ppo" if "clip_range" in data else "a2c"


def describe_space(space: Any) -> str:
    """A space in short: ``Box(49,)``, ``Discrete(2)``, else its class name."""
    if isinstance(space, spaces.Box):
        return f"Box{space.shape}"
    if isinstance(space, spaces.Discrete):
        return f"Discrete({int(space.n)})"
    return type(space).__name__


def check_spaces(model: Any, game: str = "Pagadores", obs_size: int = OBS_SIZE,
                 num_actions: int | None = len(Action)) -> None:
    """``ValueError`` unless ``model`` takes ``game``'s observations (``obs_size`` floats) and
    answers with its actions (``Discrete(num_actions)``; Pagadores': stop, throw again; None:
    any count, for a game whose count follows its table, checked at the first decision)."""
    obs, act = model.observation_space, model.action_space
    count = int(act.n) if num_actions is None and isinstance(act, spaces.Discrete) else num_actions
    ours = (f"Box({obs_size},)", f"Discrete({count if count is not None else 'N'})")
    if (describe_space(obs), describe_space(act)) != ours:
        raise ValueError(
            f"the model expects observations {describe_space(obs)} and actions "
            f"{describe_space(act)}, but {game} gives observations {ours[0]} and actions "
            f"{ours[1]}: was it trained on another environment?")

#: Rows per forward pass in ``SB3Policy._logits``: the hidden activations stay in cache.
LOGIT_ROWS = 4096


class SB3Policy(BasePolicy):
    """Deterministic play of a saved SB3 model; ``act_batch`` is one forward pass."""

    #: The game whose observations and actions the model must take (``check_spaces``).
    game: str = "Pagadores"
    obs_size: int = OBS_SIZE
    #: None: the game's action count follows its table (checked against each mask's width)
    num_actions: int | None = len(Action)
    #: What ``path`` is, as a spec that leaves it out is told (``policies.make_policy``).
    parameter_forms = {"path": "FILE"}

    def __init__(self, path: str, algo: str | None = None, device: str = "cpu",
                 seed: int | None = None) -> None:
        super().__init__(seed)
        file = Path(str(path))
        if file.is_dir():
            raise ValueError(self._folder_problem(file))
        if not file.is_file():
            raise ValueError(f"model file {str(file)!r} does not exist")
        algo = detect_algo(file) if algo is None else str(algo).lower()
        if algo not in ALGORITHMS:
            raise ValueError(f"algo must be one of {', '.join(ALGORITHMS)}, got {algo!r}")
        module, cls = ALGORITHMS[algo]
        try:
            model = getattr(__import__(module, fromlist=[cls]), cls).load(file, device=device)
        except Exception as err:  # SB3, torch and pickle raise many kinds; name the file
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise ValueError(f"{str(file)!r} does not load as a {cls} model: {reason}") from None
        self._adopt(model, algo, f"model:path={path}")

    @staticmethod
    def _folder_problem(folder: Path) -> str:
        """Why the folder ``folder`` is no model path, with the spec that plays what it holds:
        an SB3 run folder's model, an RLlib run or checkpoint as ``rllib:path=``."""
        if is_rllib_run(folder):
            return (f"model path {str(folder)!r} is an RLlib run folder or checkpoint, not a "
                    f"stable-baselines3 model: play it as rllib:path={folder}")
        model = sb3_run_model(folder)
        if model is not None:
            return (f"model path {str(folder)!r} is a run folder, not a model file: play its "
                    f"model as model:path={model}")
        return (f"model path {str(folder)!r} is a directory; expected the .zip file a "
                "stable-baselines3 model was saved to (e.g. runs/<name>/model.zip)")

    @classmethod
    def of_model(cls, model: Any, seed: int | None = None) -> SB3Policy:
        """The player of a model in memory, such as the learner during training: not a copy,
        so it plays the model as it stands at each call."""
        algo = {name: key for key, (_, name) in ALGORITHMS.items()}.get(type(model).__name__)
        if algo is None:
            raise ValueError(f"algo must be one of {', '.join(ALGORITHMS)}, got a "
                             f"{type(model).__name__} model")
        policy = cls.__new__(cls)
        BasePolicy.__init__(policy, seed)
        policy._adopt(model, algo, f"the {type(model).__name__} model in training")
        return policy

    def _adopt(self, model: Any, algo: str, name: str) -> None:
        """Play ``model`` (of ``algo``) once its spaces are this game's."""
        check_spaces(model, self.game, self.obs_size, self.num_actions)
        self.model, self.algo, self.masked, self.name = model, algo, algo == "maskable_ppo", name
        self.actions = int(model.action_space.n)

    def fingerprint(self) -> str:
        """SHA-256 of the policy's weights and the algorithm (``solver.results_cache``): the
        same weights under another file name are the same player."""
        digest = hashlib.sha256(self.algo.encode())
        for name, tensor in sorted(self.model.policy.state_dict().items()):
            digest.update(name.encode() + tensor.detach().cpu().numpy().tobytes())
        return digest.hexdigest()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The model's deterministic action at one observation."""
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The model's deterministic actions at rows of observations: the most likely legal
        action (MaskablePPO) or the model's action, replaced by the legal one if illegal."""
        obs = np.asarray(obs, dtype=np.float32)
        mask = self._mask(mask)
        logits = self._logits(obs)
        if logits is not None:  # the actor's forward pass only (what predict computes)
            if self.masked:
                logits = np.where(mask, logits, -np.inf)
            actions = logits.argmax(axis=1)
        else:
            extra = {"action_masks": mask} if self.masked else {}
            actions, _ = self.model.predict(obs, deterministic=True, **extra)
            actions = np.asarray(actions, dtype=np.int64).reshape(len(obs))
        legal = mask[np.arange(len(obs)), actions]
        return np.where(legal, actions, mask.argmax(axis=1)).astype(np.int64)

    def _mask(self, mask: np.ndarray) -> np.ndarray:
        """``mask`` as booleans; ``ValueError`` in one line if its width is not the model's
        action count (a table with another action count than the one it was trained at)."""
        mask = np.asarray(mask).astype(bool)
        if mask.shape[-1] != self.actions:
            raise ValueError(f"the model answers {self.actions} actions but this {self.game} "
                             f"table has {mask.shape[-1]}: was it trained at another table?")
        return mask

    def _logits(self, obs: np.ndarray) -> np.ndarray | None:
        """The actor's action logits for an actor-critic policy on flat observations (the
        deterministic action is their argmax), or None for other policies (DQN). About
        twice as fast as ``predict``, which builds a distribution object per call: the exact
        solver asks a model about hundreds of millions of rows. A recurrent policy's actor
        LSTM takes each row as one step from a fresh (zero) state: its memoryless projection
        (see the module docstring), what ``predict`` answers with ``episode_start`` set."""
        policy = self.model.policy
        if not all(hasattr(policy, name) for name in
                   ("action_net", "mlp_extractor", "pi_features_extractor")):
            return None
        import torch

        lstm = getattr(policy, "lstm_actor", None)

        # float32 rows as they come (a copy only for read-only or strided ones, which torch
        # cannot share); cache-sized pieces on one thread: a small network's matrices are
        # too small to split, and a second thread waiting for work costs more CPU than it
        # saves, most of all on a busy machine
        rows = np.require(obs, np.float32, ["C_CONTIGUOUS", "WRITEABLE"])
        out = np.empty((len(rows), self.actions), np.float32)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                for at in range(0, len(rows), LOGIT_ROWS):
                    features = policy.pi_features_extractor(
                        torch.from_numpy(rows[at:at + LOGIT_ROWS]))
                    if lstm is not None:  # a sequence of one step, torch's zero state
                        features = lstm(features.unsqueeze(0))[0][0]
                    out[at:at + LOGIT_ROWS] = policy.action_net(
                        policy.mlp_extractor.forward_actor(features)).numpy()
        finally:
            torch.set_num_threads(threads)
        return out


class GameSB3Policy(SB3Policy):
    """A saved model of a game of the table other than Pagadores (``model:path=...`` of that
    game; the subclass per game, ``game_model_class``, sets ``game`` and ``obs_size``)."""

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(B, actions): the stochastic policy the model was trained as, so an exact yardstick
        (``perudo.exact.strategy``, ``paye.exact``) measures it and not only its ``act``: the
        softmax of the actor's logits over the legal actions (MaskablePPO's sampling
        distribution; for PPO, its distribution given a legal action). A model without
        logits (DQN, QR-DQN) plays greedily: all its mass on ``act_batch``'s action."""
        obs = np.asarray(obs, dtype=np.float32)
        mask = self._mask(mask)
        logits = self._logits(obs)
        if logits is None:
            probs = np.zeros(mask.shape)
            probs[np.arange(len(obs)), self.act_batch(obs, mask)] = 1.0
            return probs
        legal = np.where(mask, logits.astype(np.float64), -np.inf)
        weights = np.exp(legal - legal.max(axis=1, keepdims=True))  # stable: max term is 1
        return weights / weights.sum(axis=1, keepdims=True)


def game_model_class(spec: GameSpec) -> type[GameSB3Policy]:
    """The ``model`` player class of ``spec``'s game: its observations from the table of games
    checked at load, its action count at each decision (the mask's width: a game's count may
    follow its options, as Pasch's follows the hand)."""
    return type(f"{spec.name.capitalize()}SB3Policy", (GameSB3Policy,), {
        "__doc__": f"A saved model trained on ``{spec.gym_id}`` (``model:path=...`` of game "
                   f"``{spec.name}``).",
        "__module__": __name__, "game": spec.title, "obs_size": spec.obs_size,
        "num_actions": None})


#: The ``model`` player of every game of the table but Pagadores (``SB3Policy``), by game.
GAME_MODELS: dict[str, type[GameSB3Policy]] = {
    name: game_model_class(spec) for name, spec in GAME_SPECS.items() if name != "pagadores"}
#: Perudo's (``Box(267,)``, ``Discrete(181)``), by the name it has always had.
PerudoSB3Policy = GAME_MODELS["perudo"]
register_policy("model", SB3Policy)
for _game, _model in GAME_MODELS.items():
    register_policy("model", _model, game=_game)


def model_class(game: str) -> type[SB3Policy]:
    """The ``model`` player class of ``game`` (``SB3Policy`` for Pagadores,
    ``GAME_MODELS``' for the others), e.g. to play a model in memory (``of_model``);
    ``ValueError`` in one line for a game the table of games does not have."""
    game_spec(game)
    return GAME_MODELS.get(game, SB3Policy)
