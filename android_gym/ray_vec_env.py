"""``RayVecEnv``: a stable-baselines3 ``VecEnv`` whose envs live in Ray actors, for training on a cluster.

    from android_gym.ray_vec_env import RayVecEnv
    envs = RayVecEnv("AndroidWorld/SendSms-v0", devices="adb:emulator-5554@10.0.0.7,adb:emulator-5556@10.0.0.7",
                     address="auto")
    MaskablePPO("MultiInputPolicy", envs).learn(100_000)

Each env is ``Monitor(make_rl_env(env_id, device, **view_kwargs))`` in its own Ray actor, one per entry of
``devices`` (the same device list and ``@PLACE`` pinning as ``android_gym.distributed``: a simulated phone, or one
adb device of the host that has it). It behaves as SB3's ``SubprocVecEnv``: a step steps every actor at once, a
finished episode resets at once with its last observation in ``info["terminal_observation"]``, ``seed(s)`` seeds env
``i`` with ``s + i`` at the next reset. The action mask travels with each step's info, so MaskablePPO's per-step
``env_method("action_masks")`` is answered here without another round trip. Infos come back without ``ui_elements``
(the parsed screen, large and of no use to a learner). Needs the ``rl`` and ``distributed`` extras on every host.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from android_gym.distributed import DistributedError, check_places, init_ray, parse_devices, require_ray
from android_gym.wrappers import make_rl_env

#: The info entries left out of what an actor sends back.
HEAVY_INFO = ("ui_elements",)


def _lean(info: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in info.items() if key not in HEAVY_INFO}


class EnvActor:
    """One RL-view env (``Monitor(make_rl_env(env_id, device, **view_kwargs))``) stepped the way SB3's subprocess
    worker does."""

    def __init__(self, env_id: str, device: str, view_kwargs: Mapping[str, Any]) -> None:
        self.env = Monitor(make_rl_env(env_id, device=device, **view_kwargs))

    def spaces(self) -> tuple[gym.Space, gym.Space]:
        """The observation and action spaces."""
        return self.env.observation_space, self.env.action_space

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[dict[str, np.ndarray], dict]:
        """Reset (``seed`` and ``options`` as given)."""
        observation, info = self.env.reset(seed=seed, options=options)
        return observation, _lean(info)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, dict, dict | None]:
        """Step; a finished episode resets at once (the new episode's reset info comes last)."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        info = {**_lean(info), "TimeLimit.truncated": truncated and not terminated}
        reset_info = None
        if terminated or truncated:
            info["terminal_observation"] = observation
            observation, reset_info = self.env.reset()
            reset_info = _lean(reset_info)
        return observation, float(reward), terminated or truncated, info, reset_info

    def get_attr(self, name: str) -> Any:
        """An attribute of the env or one of its wrappers."""
        return self.env.get_wrapper_attr(name)

    def has_attr(self, name: str) -> bool:
        """Whether the env or one of its wrappers has the attribute (answered here: methods do not pickle)."""
        try:
            self.env.get_wrapper_attr(name)
        except AttributeError:
            return False
        return True

    def set_attr(self, name: str, value: Any) -> None:
        """Set an attribute where the env or a wrapper has it."""
        self.env.set_wrapper_attr(name, value)

    def call(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        """Call a method of the env or one of its wrappers."""
        return self.env.get_wrapper_attr(name)(*args, **kwargs)

    def is_wrapped(self, wrapper_class: type[gym.Wrapper]) -> bool:
        """Whether the env is wrapped in ``wrapper_class``."""
        return is_wrapped(self.env, wrapper_class)

    def close(self) -> None:
        """Close the env (and its device)."""
        self.env.close()


class RayVecEnv(VecEnv):
    """SB3 ``VecEnv`` over Ray actors, one RL-view env per device of ``devices`` (default: ``workers`` simulated
    phones). ``address`` joins a Ray cluster (else a local Ray is started); ``cpus_per_worker`` is what each actor
    reserves; actors not running within ``start_timeout`` seconds are a ``DistributedError``. ``view_kwargs`` go
    to ``make_rl_env`` (``max_elements``, ``text_slots``, ``end_penalty``). See the module docstring."""

    def __init__(self, env_id: str, devices: str | Sequence[str] | None = None, workers: int | None = None,
                 address: str | None = None, cpus_per_worker: float = 1.0, start_timeout: float = 120.0,
                 view_kwargs: Mapping[str, Any] | None = None) -> None:
        slots = parse_devices(devices, workers)
        self._ray = ray = require_ray()
        init_ray(address, workers=len(slots), cpus_per_worker=cpus_per_worker)
        check_places(ray, slots)
        remote = ray.remote(EnvActor)
        self.devices = [str(slot) for slot in slots]
        view_kwargs = dict(view_kwargs or {})
        self.actors = [remote.options(num_cpus=cpus_per_worker, resources=slot.resources())
                       .remote(env_id, slot.spec, view_kwargs) for slot in slots]
        started = [actor.spaces.remote() for actor in self.actors]
        ready, _ = ray.wait(started, num_returns=len(started), timeout=start_timeout)
        if len(ready) < len(started):
            for actor in self.actors:
                ray.kill(actor)
            raise DistributedError(f"{len(started) - len(ready)} of {len(started)} env actors did not start within "
                                   f"{start_timeout:.0f} s: the cluster has no room for actors of {cpus_per_worker} "
                                   f"CPU each (free: {ray.available_resources().get('CPU', 0):g} CPUs), or a "
                                   "device is unreachable; lower cpus_per_worker or add nodes")
        observation_space, action_space = ray.get(started[0])
        super().__init__(len(self.actors), observation_space, action_space)
        self._pending: list[Any] = []
        self._masks: list[np.ndarray | None] = [None] * self.num_envs
        self.closed = False

    def reset(self) -> VecEnvObs:
        """Reset every env (with the seeds and options set since the last reset)."""
        results = self._ray.get([actor.reset.remote(self._seeds[i], self._options[i] or None)
                                 for i, actor in enumerate(self.actors)])
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [info for _, info in results]
        self._remember_masks(self.reset_infos)
        return self._stack([observation for observation, _ in results])

    def step_async(self, actions: np.ndarray) -> None:
        """Send each actor its action."""
        self._pending = [actor.step.remote(int(action)) for actor, action in zip(self.actors, actions)]

    def step_wait(self) -> VecEnvStepReturn:
        """Collect the actors' steps."""
        results = self._ray.get(self._pending)
        self._pending = []
        observations, rewards, dones, infos, reset_infos = zip(*results)
        for i, reset_info in enumerate(reset_infos):
            if reset_info is not None:
                self.reset_infos[i] = reset_info
        self._remember_masks([reset or info for info, reset in zip(infos, reset_infos)])
        return (self._stack(observations), np.array(rewards, dtype=np.float32), np.array(dones, dtype=bool),
                list(infos))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """Call a method in the chosen envs; ``action_masks`` is answered from the masks the last step brought."""
        chosen = self._get_indices(indices)
        if method_name == "action_masks" and not method_args and not method_kwargs \
                and all(self._masks[i] is not None for i in chosen):
            return [self._masks[i].copy() for i in chosen]
        return self._ray.get([self.actors[i].call.remote(method_name, method_args, method_kwargs) for i in chosen])

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of the chosen envs."""
        return self._ray.get([self.actors[i].get_attr.remote(attr_name) for i in self._get_indices(indices)])

    def has_attr(self, attr_name: str) -> bool:
        """Whether every env has the attribute."""
        return all(self._ray.get([actor.has_attr.remote(attr_name) for actor in self.actors]))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute in the chosen envs."""
        self._ray.get([self.actors[i].set_attr.remote(attr_name, value) for i in self._get_indices(indices)])

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """Whether the chosen envs are wrapped in ``wrapper_class``."""
        return self._ray.get([self.actors[i].is_wrapped.remote(wrapper_class) for i in self._get_indices(indices)])

    def close(self) -> None:
        """Close the envs and stop the actors."""
        if self.closed:
            return
        self._ray.get([actor.close.remote() for actor in self.actors])
        for actor in self.actors:
            self._ray.kill(actor)
        self.closed = True

    def _remember_masks(self, infos: Sequence[dict[str, Any]]) -> None:
        self._masks = [info.get("action_mask") for info in infos]

    def _stack(self, observations: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        return {key: np.stack([observation[key] for observation in observations]) for key in observations[0]}
