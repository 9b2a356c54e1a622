"""``RecordTrajectory``: writes each episode's goal, task, seed and parameters, a JSONL trajectory and an animated
GIF of the screen; on request each step's full-size frame and UI tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from android_gym.actions import Action, InvalidAction, to_action, touch_points
from android_gym.errors import InvalidActionError
from android_gym.metrics.episode import EPISODE_FILE, TRAJECTORY_FILE
from android_gym.metrics.lab import screen_changed
from android_gym.ui import UIElement


def _json_safe(value: Any) -> Any:
    """``value`` with numpy arrays and scalars as lists and numbers, anything else unknown as its repr."""
    if isinstance(value, dict):
        return {str(key): _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


def _action_record(action: Any, parsed: Action | None) -> Any:
    """The action as AndroidWorld JSON when it can be read as one, else as passed (made JSON-safe)."""
    if parsed is not None:
        return json.loads(parsed.to_json())
    if isinstance(action, InvalidAction):
        return {"invalid_action": action.reason}
    return _json_safe(action)


def _element_record(element: UIElement) -> dict[str, Any]:
    box = element.bbox_pixels
    return {"label": element.label, "resource_id": element.resource_name, "class": element.class_name,
            "bounds": [box.x_min, box.y_min, box.x_max, box.y_max]}


class RecordTrajectory(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Records episodes under ``directory/episode_NNN/``: ``goal.txt``, ``episode.json`` (task, env id, seed,
    options, parameters, goal, screen size, the GIF's time per screen), ``trajectory.jsonl``, ``screen.gif``; with
    ``frames=True`` also ``frames/step_NNN.png`` (the full-size screen after step NNN; step 000: after the reset)
    and ``ui/step_NNN.xml`` (the UI tree then: what the agent saw when it chose step NNN + 1).

    A step's line holds the action (AndroidWorld JSON when readable), the reward, score, ``invalid_action`` and
    ``backend_error``, ``terminated``/``truncated``, ``touch`` (the screen points the action touched, in pixels:
    one for a tap, start and end of a scroll or swipe), ``element`` (label, resource id, class and bounds of the
    element an ``index`` named), ``screen_changed`` (AndroidLab's pixel test between the screens before and after)
    and ``agent`` (what the agent said about the action, ``annotate``). Each line is written and flushed at once,
    so a crash loses nothing already done. Screens come from the observation's ``pixels`` (or the device's
    screenshot), scaled by ``gif_scale`` for the GIF, each shown ``gif_frame_ms``; a screen equal to the one before
    is merged into it (one GIF frame shown that much longer).
    """

    def __init__(self, env: gym.Env, directory: str | Path, gif_scale: float = 0.25, gif_frame_ms: int = 600,
                 frames: bool = False):
        gym.utils.RecordConstructorArgs.__init__(self, directory=str(directory), gif_scale=gif_scale,
                                                 gif_frame_ms=gif_frame_ms, frames=frames)
        gym.Wrapper.__init__(self, env)
        self.directory = Path(directory)
        self.gif_scale = gif_scale
        self.gif_frame_ms = gif_frame_ms
        self.frames = frames
        self.episode = -1
        self._gif: list[Image.Image] = []
        self._log = None
        self._step = 0
        self._pixels: np.ndarray | None = None
        self._elements: list[UIElement] = []
        self._notes: dict[str, Any] = {}

    @property
    def episode_dir(self) -> Path:
        """The folder of the current (or last) episode."""
        return self.directory / f"episode_{self.episode:03d}"

    def annotate(self, notes: dict[str, Any]) -> None:
        """Keep ``notes`` (what the agent said about its next action: reasoning, token counts) for the next step's
        line, under ``agent``."""
        self._notes = _json_safe(notes)

    def _observe(self, observation: dict[str, Any], info: dict[str, Any]) -> None:
        """Keep the screen for the GIF (and as a frame), and the elements the next action refers to."""
        pixels = observation.get("pixels") if isinstance(observation, dict) else None
        if pixels is None:
            pixels = self.env.unwrapped.device.screenshot()
        self._pixels, self._elements = pixels, list(info.get("ui_elements", []))
        image = Image.fromarray(pixels)
        if self.frames:
            image.save(self.episode_dir / "frames" / f"step_{self._step:03d}.png", compress_level=1)
            tree = observation.get("a11y_tree", "") if isinstance(observation, dict) else ""
            (self.episode_dir / "ui" / f"step_{self._step:03d}.xml").write_text(tree, encoding="utf-8")
        size = (max(1, int(image.width * self.gif_scale)), max(1, int(image.height * self.gif_scale)))
        # The GIF's 256 colours, picked now by fast octree: a quarter of the CPU of the median cut the GIF writer
        # would run on each frame, and a third of the memory while the episode lasts
        self._gif.append(image.resize(size, Image.BILINEAR).quantize(method=Image.Quantize.FASTOCTREE))

    def reset(self, **kwargs):
        """Finish the previous episode's files and start a new episode directory."""
        self.end_episode()
        observation, info = self.env.reset(**kwargs)
        self.episode += 1
        self._step = 0
        episode_dir = self.episode_dir
        for folder in (episode_dir, *((episode_dir / "frames", episode_dir / "ui") if self.frames else ())):
            folder.mkdir(parents=True, exist_ok=True)
        task = self.env.unwrapped.task
        (episode_dir / "goal.txt").write_text(task.goal + "\n", encoding="utf-8")
        about = {"task": task.name, "env_id": self.env.spec.id if self.env.spec else None,
                 "seed": kwargs.get("seed"), "options": kwargs.get("options"), "params": info.get("params", {}),
                 "goal": task.goal, "screen_size": list(self.env.unwrapped.device.screen_size),
                 "gif_frame_ms": self.gif_frame_ms}
        (episode_dir / EPISODE_FILE).write_text(json.dumps(_json_safe(about), ensure_ascii=False, indent=1) + "\n",
                                                encoding="utf-8")
        self._log = open(episode_dir / TRAJECTORY_FILE, "w", encoding="utf-8")
        self._gif, self._notes = [], {}
        self._observe(observation, info)
        return observation, info

    def step(self, action):
        """Step the env and append the step to the trajectory."""
        screen_size = self.env.unwrapped.device.screen_size
        before, elements = self._pixels, self._elements
        try:
            parsed = to_action(action, screen_size)
        except InvalidActionError:
            parsed = None
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._step += 1
        record = {"step": self._step, "action": _action_record(action, parsed), "reward": reward,
                  "score": info["score"], "invalid_action": info["invalid_action"],
                  "backend_error": info["backend_error"], "terminated": terminated, "truncated": truncated}
        if parsed is not None and not info["invalid_action"]:
            record["touch"] = [list(point) for point in touch_points(parsed, elements, screen_size)]
            if parsed.index is not None and record["touch"]:  # an index the action used (back ignores one)
                record["element"] = _element_record(elements[parsed.index])
        self._observe(observation, info)
        if before is not None:
            record["screen_changed"] = screen_changed(before, self._pixels)
        if self._notes:
            record["agent"], self._notes = self._notes, {}
        if self._log is not None:
            self._log.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._log.flush()
        return observation, reward, terminated, truncated, info

    def end_episode(self) -> None:
        """Close the current episode's log and write its GIF (``reset`` and ``close`` do it too)."""
        if self._log is None:
            return
        self._log.close()
        self._log = None
        if self._gif:
            self._gif[0].save(self.episode_dir / "screen.gif", save_all=True, append_images=self._gif[1:],
                              duration=self.gif_frame_ms, loop=0)
        self._gif = []

    def close(self) -> None:
        """Write the last episode's GIF and close the env."""
        self.end_episode()
        super().close()
