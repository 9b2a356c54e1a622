"""Oracle demonstrations as Minari datasets, for behaviour cloning and offline RL (``android-gym record``).

``record_dataset`` plays a task's oracle (``Task.oracle()``, the UI steps a person takes) over the seeds
``seed, seed + 1, ...`` (one episode per seed: fresh task parameters, reproducible) and stores each solved episode
in a Minari dataset (HDF5): observations (one row more than actions), actions, rewards, terminations, truncations.

Views:

* ``rl`` (default): the spaces of ``android_gym.wrappers.make_rl_env``, which BC / offline-RL learners take as
  they are. Actions are ``ElementActions`` ids (the oracle's action turned into the id that does the same on the
  screen it was chosen on, ``ElementActions.encode``), observations the ``ElementFeatureObservation`` dict.
  ``infos["action_mask"]`` holds the mask of every observation (rows aligned with the observations, so row ``t``
  is the mask the action ``t`` was chosen under) and ``infos["score"]`` the task score.
* ``raw``: the env itself (``a11y_tree`` and ``goal`` text, ``pixels`` with ``pixels=True``; Minari stores text
  as UTF-8 strings and screens as JPEG, its default for image spaces). Actions are the oracle's actions as
  AndroidWorld JSON strings (a ``Text`` space), the form ``env.step`` takes: the env's ``Dict`` action space cannot
  carry every field an oracle uses (``clear_text``, exact pixels), so replaying the JSON is exact.

An episode is stored only when the oracle solves it: it ends terminated with score 1, no step was an invalid
action, and (``rl``) every oracle step has an id. Other seeds are skipped and reported (``RecordResult.skipped``),
never hidden. Each stored episode's metadata holds its seed, goal and task parameters (JSON) besides Minari's
reward statistics; the dataset's metadata holds ``android_gym`` (env id, view, seeds, skipped seeds, the action
layout). ``dataset.recover_environment()`` makes the env the data came from (the ``rl`` view's spec carries its
wrappers).

Written with ``minari.create_dataset_from_buffers`` and the storage's ``update_episodes``, not ``minari.DataCollector``
(which needs jax, Minari's ``create`` extra, and would store the failed episodes too). With pixels, Minari writes the
pixel space's bounds in full into metadata.json (18 MB at 540x1200, 74 MB at 1080x2400, seconds to load): prefer a
small ``sim:WxH`` screen. Minari (``pip install -e ".[rl]"``) is imported only when a dataset is recorded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import string
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from tqdm import tqdm

import android_gym
from android_gym.actions import MAX_TEXT_LENGTH, Action
from android_gym.agents import OracleAgent
from android_gym.errors import AndroidGymError, UnknownTaskError
from android_gym.tasks.oracle import OracleError
from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_observations import ELEMENT_FEATURES, RL_VIEW_VERSION, TEXT_FEATURES

VIEWS = ("rl", "raw")
#: An episode succeeds when its final score reaches 1 (rewards, the score's increases, then sum to 1).
SUCCESS = 1.0 - 1e-6
#: Solved episodes are written to the dataset in batches of about this many bytes (see ``_Writer``).
FLUSH_BYTES = 64 << 20
#: The raw view's actions: an AndroidWorld JSON action, ASCII (``ensure_ascii``), room for the longest text.
JSON_ACTION_SPACE = spaces.Text(4 * MAX_TEXT_LENGTH, min_length=2, charset=string.printable)


class DatasetError(AndroidGymError):
    """A dataset that cannot be recorded as asked (malformed id, one that exists, a bad option)."""


class MinariNotInstalledError(DatasetError):
    """Minari (with h5py) is missing: it comes with the ``rl`` extra."""


class DatasetExistsError(DatasetError):
    """The dataset id is taken and ``overwrite`` was not asked for."""


def require_minari() -> ModuleType:
    """The ``minari`` module (with its HDF5 storage); ``MinariNotInstalledError`` saying how to install it."""
    try:
        import h5py  # noqa: F401  # Minari's default storage
        import minari
    except ImportError as error:
        raise MinariNotInstalledError(f"recording datasets needs Minari with HDF5 ({error.name} is missing): "
                                      'pip install -e ".[rl]"') from error
    return minari


@contextlib.contextmanager
def datasets_root(data_path: str | os.PathLike | None) -> Iterator[Path]:
    """Inside, Minari's datasets live under ``data_path`` (it reads ``MINARI_DATASETS_PATH`` on every call; set
    here and restored on exit); ``None`` keeps Minari's default (``MINARI_DATASETS_PATH`` or ~/.minari/datasets).
    Yields the root."""
    previous = os.environ.get("MINARI_DATASETS_PATH")
    if data_path is not None:
        os.environ["MINARI_DATASETS_PATH"] = str(Path(data_path).expanduser().resolve())
    try:
        from minari.storage import get_dataset_path

        yield get_dataset_path()
    finally:
        if previous is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = previous


def default_dataset_id(env_id: str, view: str = "rl") -> str:
    """``androidworld/<Task>/oracle-v1`` (the RL view's ``RL_VIEW_VERSION``; ``oracle-raw-v0`` for the raw view),
    Minari's namespace/env/name form."""
    task = env_id.rsplit("/", 1)[-1].removesuffix("-v0")
    return f"androidworld/{task}/oracle-v{RL_VIEW_VERSION}" if view == "rl" else f"androidworld/{task}/oracle-{view}-v0"


@dataclass(frozen=True)
class SkippedEpisode:
    """A seed whose episode was not stored, and why."""

    seed: int
    reason: str


@dataclass
class RecordResult:
    """What ``record_dataset`` wrote."""

    dataset_id: str
    env_id: str
    view: str
    root: Path
    path: Path
    seeds: range
    episodes: int = 0
    steps: int = 0
    skipped: list[SkippedEpisode] = field(default_factory=list)
    size_bytes: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """A few lines for people: what was recorded, what was skipped, where it is, how to load it."""
        seeds = f"seeds {self.seeds.start}..{self.seeds.stop - 1}"
        lines = [f"recorded {self.episodes}/{len(self.seeds)} episodes ({self.steps} steps) of {self.env_id}, "
                 f"{seeds}, view {self.view}, in {self.seconds:.1f} s",
                 f"dataset {self.dataset_id} at {self.path} ({_human_size(self.size_bytes)} on disk)"]
        if self.skipped:
            lines.append(f"skipped {len(self.skipped)} episode(s), not stored:")
            lines += [f"  seed {skip.seed}: {skip.reason}" for skip in self.skipped]
        lines.append(f"load it with MINARI_DATASETS_PATH={self.root} and minari.load_dataset({self.dataset_id!r})")
        return "\n".join(lines)


def _human_size(size: int) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError("unreachable")


def _disk_size(path: Path) -> int:
    return sum(file.stat().st_size for file in path.rglob("*") if file.is_file())


class _Skip(Exception):
    """An episode that is not stored (the reason is the message)."""


class _View:
    """How one view makes its env, turns an oracle action into a stored action, and what of ``info`` it keeps."""

    name = ""

    def __init__(self, env: gym.Env) -> None:
        self.env = env
        self.action_space = env.action_space

    def action(self, action: Action, info: dict[str, Any]) -> tuple[Any, list[Action]]:
        """The stored (and stepped) form of the oracle's ``action`` on the screen of ``info`` — or of its first
        step — and what remains of it after that step."""
        raise NotImplementedError

    def info(self, info: dict[str, Any]) -> dict[str, Any]:
        """The part of ``info`` stored with each observation."""
        return {"score": np.float32(info["score"])}

    def metadata(self) -> dict[str, Any]:
        """What the dataset's ``android_gym`` metadata says about the view."""
        return {}


class _RLView(_View):
    name = "rl"

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self._encode_next = env.get_wrapper_attr("encode_next")

    def action(self, action: Action, info: dict[str, Any]) -> tuple[int, list[Action]]:
        encoded = self._encode_next(action, info["ui_elements"])
        if encoded is None:
            raise _Skip(f"the oracle's action {Action.parse(action).to_json()} has no id in the rl view's action "
                        "space")
        return int(encoded[0]), encoded[1]

    def info(self, info: dict[str, Any]) -> dict[str, Any]:
        return {"action_mask": np.asarray(info["action_mask"], dtype=bool), **super().info(info)}

    def metadata(self) -> dict[str, Any]:
        layout = self.env.get_wrapper_attr("layout")
        return {"action_layout": {kind: [ids.start, ids.stop] for kind, ids in layout.ranges.items()},
                "max_elements": self.env.get_wrapper_attr("max_elements"),
                "text_slots": self.env.get_wrapper_attr("text_slots"),
                "element_features": list(ELEMENT_FEATURES), "text_features": list(TEXT_FEATURES)}


class _RawView(_View):
    name = "raw"

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.action_space = JSON_ACTION_SPACE

    def action(self, action: Action, info: dict[str, Any]) -> tuple[str, list[Action]]:
        return json.dumps(json.loads(action.to_json())), []  # ASCII: non-ASCII text as \\u escapes, same action

    def metadata(self) -> dict[str, Any]:
        return {"action_format": "AndroidWorld JSON action (android_gym.Action.to_json), as env.step takes it"}


def _make_view(env_id: str, view: str, device: str, pixels: bool, device_config: Any) -> _View:
    if view == "rl":
        if pixels:
            raise DatasetError("pixels apply to the raw view (--view raw); the rl view's observation is "
                               "make_rl_env's element features")
        return _RLView(make_rl_env(env_id, device=device, device_config=device_config))
    return _RawView(gym.make(env_id, device=device, pixels=pixels, device_config=device_config))


@dataclass
class _Episode:
    observations: list[Any]
    infos: list[dict[str, Any]]
    goal: str
    params: dict[str, Any]
    actions: list[Any] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    terminations: list[bool] = field(default_factory=list)
    truncations: list[bool] = field(default_factory=list)


def _play(view: _View, seed: int) -> _Episode:
    """One oracle episode from ``reset(seed=seed)``; ``_Skip`` when it is not a clean success."""
    env = view.env
    observation, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env)
    episode = _Episode([observation], [view.info(info)], env.unwrapped.task.goal, dict(info["params"]))
    done = False
    while not done:
        step = len(episode.actions)
        try:
            pending = [agent.act(observation, info)]
        except OracleError as error:
            raise _Skip(f"the oracle's step {step} found nothing to act on: {error}") from None
        while pending and not done:
            action, rest = view.action(pending.pop(0), info)
            pending[:0] = rest
            observation, reward, terminated, truncated, info = env.step(action)
            if info["invalid_action"]:
                raise _Skip(f"the oracle's step {step} ({action!r}) was invalid: {info['invalid_action']}")
            episode.observations.append(observation)
            episode.infos.append(view.info(info))
            episode.actions.append(action)
            episode.rewards.append(float(reward))
            episode.terminations.append(bool(terminated))
            episode.truncations.append(bool(truncated))
            done = terminated or truncated
    if info.get("backend_error"):
        raise _Skip(f"the device failed: {info['backend_error']}")
    if not (episode.terminations[-1] and info["score"] >= SUCCESS):
        raise _Skip(f"the oracle did not solve the task: score {info['score']:.2f} after {len(episode.actions)} "
                    f"step(s) ({'truncated' if episode.truncations[-1] else 'ended'})")
    return episode


def _stack(values: Sequence[Any]) -> Any:
    """A list of per-step values as Minari stores them: dicts key by key, strings as a list, arrays stacked."""
    if isinstance(values[0], dict):
        return {key: _stack([value[key] for value in values]) for key in values[0]}
    if isinstance(values[0], str):
        return list(values)
    return np.stack([np.asarray(value) for value in values])


def _buffer(minari: ModuleType, episode: _Episode, seed: int) -> Any:
    return minari.data_collector.EpisodeBuffer(
        seed=seed, observations=_stack(episode.observations), actions=_stack(episode.actions),
        rewards=episode.rewards, terminations=episode.terminations, truncations=episode.truncations,
        infos=_stack(episode.infos))


def _episode_metadata(minari: ModuleType, episode: _Episode) -> dict[str, Any]:
    statistics = minari.EpisodeMetadataCallback()({"rewards": np.asarray(episode.rewards)})
    return {**statistics, "goal": episode.goal, "params": json.dumps(episode.params, sort_keys=True, default=str)}


def _nbytes(value: Any) -> int:
    """Roughly the memory of an episode's stored values (arrays, strings, dicts and lists of them)."""
    if isinstance(value, dict):
        return sum(_nbytes(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(item) for item in value)
    if isinstance(value, str):
        return len(value)
    return int(np.asarray(value).nbytes)


class _Writer:
    """Appends solved episodes to the dataset in batches of about ``FLUSH_BYTES``: every Minari write rewrites the
    dataset's metadata.json, which holds a pixel space's bounds in full (18 MB at 540x1200), so episodes are not
    written one by one; a batch bounds the memory held."""

    def __init__(self, minari: ModuleType, storage: Any) -> None:
        self._minari, self._storage = minari, storage
        self._pending: list[tuple[Any, dict[str, Any]]] = []
        self._bytes = 0
        self.written = 0

    def add(self, episode: _Episode, seed: int) -> None:
        """Queue an episode; write the queue once it holds ``FLUSH_BYTES``."""
        self._pending.append((_buffer(self._minari, episode, seed), _episode_metadata(self._minari, episode)))
        self._bytes += _nbytes([episode.observations, episode.actions, episode.infos])
        if self._bytes >= FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write the queued episodes and their metadata."""
        if not self._pending:
            return
        buffers, metadata = zip(*self._pending)
        self._storage.update_episodes(buffers)
        self._storage.update_episode_metadata(metadata, range(self.written, self.written + len(buffers)))
        self.written += len(buffers)
        self._pending, self._bytes = [], 0


def _check_dataset_id(dataset_id: str) -> None:
    from minari.dataset.minari_dataset import parse_dataset_id

    try:
        parse_dataset_id(dataset_id)
    except (ValueError, TypeError):  # TypeError: no version (minari 0.5 does int(None))
        raise DatasetError(f"malformed dataset id {dataset_id!r}: Minari ids look like "
                           "'namespace/name-v0', e.g. 'androidworld/SendSms/oracle-v1'") from None


def record_dataset(env_id: str, episodes: int, seed: int = 0, *, dataset_id: str | None = None, view: str = "rl",
                   device: str = "sim", pixels: bool = False, device_config: Any = None,
                   data_path: str | os.PathLike | None = None,
                   overwrite: bool = False, author: str | None = None, author_email: str | None = None,
                   code_permalink: str | None = None, progress: bool = True) -> RecordResult:
    """Play the oracle of ``env_id`` on seeds ``seed .. seed + episodes - 1`` and store the solved episodes as the
    Minari dataset ``dataset_id`` (default ``default_dataset_id``) under ``data_path`` (default: Minari's).

    ``view`` is ``"rl"`` (``make_rl_env``'s spaces) or ``"raw"`` (the env's own observations, JSON actions;
    ``pixels=True`` keeps the screen). ``device_config`` configures the phone per episode (``AndroidEnv``'s
    argument, e.g. ``"train"``). An existing dataset is replaced only with ``overwrite`` (it is kept if
    recording fails). Seeds whose episode is not a clean oracle success are skipped and listed in the result;
    if none succeeds, no dataset is written (``DatasetError``). ``progress`` shows a tqdm bar over episodes.
    """
    minari = require_minari()
    if view not in VIEWS:
        raise DatasetError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    if episodes < 1:
        raise DatasetError(f"episodes must be at least 1, got {episodes}")
    try:
        gym.spec(env_id)
    except gym.error.Error as error:
        raise UnknownTaskError(f"{error} (`android-gym list` lists the tasks)") from None
    dataset_id = dataset_id or default_dataset_id(env_id, view)
    _check_dataset_id(dataset_id)
    with datasets_root(data_path) as root:
        from minari.storage import get_dataset_path

        path = get_dataset_path(dataset_id)
        if path.exists() and not overwrite:
            raise DatasetExistsError(f"dataset {dataset_id} already exists at {path}: choose another id (bump its "
                                     "version, e.g. -v1), delete it, or pass --overwrite")
        recording = _make_view(env_id, view, device, pixels, device_config)
        result = RecordResult(dataset_id, env_id, view, root, path, range(seed, seed + episodes))
        backup = path.with_name(f".{path.name}.replaced") if path.exists() else None  # hidden: Minari skips it
        new_namespaces = [parent for parent in path.parents if root in parent.parents and not parent.exists()]
        try:
            if backup is not None:
                shutil.rmtree(backup, ignore_errors=True)
                path.rename(backup)
            _record(minari, recording, result, author, author_email, code_permalink, progress)
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)
            if backup is not None:
                backup.rename(path)
            for namespace in new_namespaces:  # deepest first; only the ones this call made, if still empty
                if namespace.is_dir() and {file.name for file in namespace.iterdir()} <= {"namespace_metadata.json"}:
                    shutil.rmtree(namespace)
            raise
        finally:
            recording.env.close()
        if backup is not None:
            shutil.rmtree(backup)
    result.size_bytes = _disk_size(path)
    return result


def _record(minari: ModuleType, view: _View, result: RecordResult, author: str | None, author_email: str | None,
            code_permalink: str | None, progress: bool) -> None:
    """Create the dataset, then play the episodes and append the solved ones (in batches, ``_Writer``)."""
    start = time.perf_counter()
    env = view.env
    seeds = result.seeds
    description = (f"Oracle demonstrations of {result.env_id}: android_gym's "
                   f"Task.oracle() played on seeds {seeds.start}..{seeds.stop - 1}, one episode per seed, only "
                   f"solved episodes kept; {view.name} view"
                   + (" (make_rl_env: ElementActions ids, ElementFeatureObservation, infos action_mask and score)."
                      if view.name == "rl" else " (the env's observations, AndroidWorld JSON actions)."))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"`\w+` is set to None", category=UserWarning)
        dataset = minari.create_dataset_from_buffers(
            result.dataset_id, [], env=env, eval_env=env.spec, algorithm_name="oracle", author=author,
            author_email=author_email, code_permalink=code_permalink, action_space=view.action_space,
            observation_space=env.observation_space, description=description,
            requirements=[f"android-gym=={android_gym.__version__}"])
    writer = _Writer(minari, dataset.storage)
    with tqdm(seeds, desc=f"record {result.env_id}", unit="episode", disable=not progress or len(seeds) < 2) as bar:
        for seed in bar:
            try:
                episode = _play(view, seed)
            except _Skip as skip:
                result.skipped.append(SkippedEpisode(seed, str(skip)))
                tqdm.write(f"seed {seed}: skipped: {skip}")
            else:
                writer.add(episode, seed)
                result.episodes += 1
                result.steps += len(episode.actions)
            bar.set_postfix(stored=result.episodes, skipped=len(result.skipped), steps=result.steps)
    writer.flush()
    if result.episodes == 0:
        reasons = "; ".join(f"seed {skip.seed}: {skip.reason}" for skip in result.skipped[:3])
        hint = ("; the rl view's ElementActions cannot express some oracle steps (free text, element scrolls, "
                "answers, ...): --view raw records the oracle's own actions") if view.name == "rl" else ""
        raise DatasetError(f"the oracle solved none of the {len(seeds)} episode(s), no dataset written ({reasons})"
                           f"{hint}")
    dataset.storage.update_metadata({"android_gym": {
        "env_id": result.env_id, "view": view.name, "seeds": [seeds.start, seeds.stop - 1],
        "skipped": [{"seed": skip.seed, "reason": skip.reason} for skip in result.skipped], **view.metadata()}})
    result.seconds = time.perf_counter() - start
