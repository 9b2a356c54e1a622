"""``RecordTrajectory``: writes each episode's goal, a JSONL trajectory and an animated GIF of the screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from android_gym.actions import InvalidAction, to_action
from android_gym.errors import InvalidActionError


def _action_record(action: Any, screen_size: tuple[int, int]) -> Any:
    """The action as AndroidWorld JSON when it can be read as one, else as passed (made JSON-safe)."""
    try:
        return json.loads(to_action(action, screen_size).to_json())
    except InvalidActionError:
        pass
    if isinstance(action, InvalidAction):
        return {"invalid_action": action.reason}
    if isinstance(action, dict):
        return {key: (value.tolist() if isinstance(value, np.ndarray) else
                      value.item() if isinstance(value, np.generic) else value) for key, value in action.items()}
    return action if isinstance(action, (str, int, float, list)) else repr(action)


class RecordTrajectory(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Records episodes under ``directory/episode_NNN/``: ``goal.txt``, ``trajectory.jsonl``, ``screen.gif``.

    Each step's line is written and flushed at once, so a crash loses nothing already done. Screens come from
    the observation's ``pixels`` (or ``render()``), scaled by ``gif_scale``.
    """

    def __init__(self, env: gym.Env, directory: str | Path, gif_scale: float = 0.25, gif_frame_ms: int = 600):
        gym.utils.RecordConstructorArgs.__init__(self, directory=str(directory), gif_scale=gif_scale,
                                                 gif_frame_ms=gif_frame_ms)
        gym.Wrapper.__init__(self, env)
        self.directory = Path(directory)
        self.gif_scale = gif_scale
        self.gif_frame_ms = gif_frame_ms
        self.episode = -1
        self._frames: list[Image.Image] = []
        self._log = None
        self._step = 0

    def _frame(self, observation: dict[str, Any]) -> None:
        pixels = observation.get("pixels") if isinstance(observation, dict) else None
        if pixels is None:
            pixels = self.env.unwrapped.device.screenshot()
        image = Image.fromarray(pixels)
        size = (max(1, int(image.width * self.gif_scale)), max(1, int(image.height * self.gif_scale)))
        self._frames.append(image.resize(size, Image.BILINEAR))

    def reset(self, **kwargs):
        """Finish the previous episode's files and start a new episode directory."""
        self._finish()
        observation, info = self.env.reset(**kwargs)
        self.episode += 1
        self._step = 0
        episode_dir = self.directory / f"episode_{self.episode:03d}"
        episode_dir.mkdir(parents=True, exist_ok=True)
        (episode_dir / "goal.txt").write_text(self.env.unwrapped.task.goal + "\n", encoding="utf-8")
        self._log = open(episode_dir / "trajectory.jsonl", "w", encoding="utf-8")
        self._frames = []
        self._frame(observation)
        return observation, info

    def step(self, action):
        """Step the env and append the step to the trajectory."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._step += 1
        action_json = _action_record(action, self.env.unwrapped.device.screen_size)
        record = {"step": self._step, "action": action_json, "reward": reward, "score": info["score"],
                  "invalid_action": info["invalid_action"], "backend_error": info["backend_error"],
                  "terminated": terminated, "truncated": truncated}
        if self._log is not None:
            self._log.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._log.flush()
        self._frame(observation)
        return observation, reward, terminated, truncated, info

    def _finish(self) -> None:
        if self._log is None:
            return
        self._log.close()
        self._log = None
        if self._frames:
            path = self.directory / f"episode_{self.episode:03d}" / "screen.gif"
            self._frames[0].save(path, save_all=True, append_images=self._frames[1:], duration=self.gif_frame_ms,
                                 loop=0)
        self._frames = []

    def close(self) -> None:
        """Write the last episode's GIF and close the env."""
        self._finish()
        super().close()
