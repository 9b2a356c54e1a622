"""``AppDocs``: the documentation of the elements on screen in the observation, as AppAgent's deployment phase
gives its model the documents its exploration wrote (``android_gym.appdocs``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from android_gym.appdocs.store import DocStore, as_stores, render_docs, screen_docs
from android_gym.device.state import foreground_activity
from android_gym.env import to_ascii_xml
from android_gym.errors import AppDocsError, DeviceError
from android_gym.spaces import SharedText
from android_gym.wrappers.compression import MAX_TEXT_CHARS


class AppDocs(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Adds what exploration or a demonstration documented about the elements on screen.

    ## Observation Space
    The wrapped env's ``Dict`` plus ``key`` (default ``"app_docs"``): one line per documented action of an element
    on screen, labelled with its index (``[12] tap: Tapping it opens the "Expense Entry" page ...``); empty when
    the foreground app or screen has none.

    ## Info
    ``info["app_docs"]``: element index → verb (``tap``, ``long_press``, ``text``, ``scroll``) → text; the LLM
    agent (``android_gym.llm``) puts it in its prompt, labelled as its UI list labels elements.

    ## Arguments
    ``docs``: a docs file or folder written by ``android-gym explore``/``document``, a ``DocStore``, or several.
    """

    def __init__(self, env: gym.Env, docs: str | Path | DocStore | Iterable[str | Path | DocStore],
                 key: str = "app_docs") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, docs=docs, key=key)
        super().__init__(env)
        if not isinstance(env.observation_space, spaces.Dict) or "a11y_tree" not in env.observation_space.spaces \
                or not hasattr(env.unwrapped, "device"):
            raise AppDocsError("AppDocs needs an android_gym env (an observation with 'a11y_tree' and a device)")
        if key in env.observation_space.spaces:
            raise AppDocsError(f"the observation already has {key!r}; pass another key=")
        self.stores, self.key = as_stores(docs), key
        self.observation_space = spaces.Dict({
            **env.observation_space.spaces,
            key: SharedText(MAX_TEXT_CHARS, min_length=0, charset=env.observation_space["a11y_tree"].character_set),
        })

    def reset(self, **kwargs: Any):
        """Reset the env and add the first screen's docs."""
        observation, info = self.env.reset(**kwargs)
        return self._with_docs(observation, info), info

    def step(self, action: Any):
        """Step the env and add the new screen's docs."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._with_docs(observation, info), reward, terminated, truncated, info

    def _with_docs(self, observation: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        activity = None
        if not info.get("backend_error"):
            try:
                activity = foreground_activity(self.env.unwrapped.device)
            except DeviceError:
                pass
        info["app_docs"] = screen_docs(self.stores, activity, info.get("ui_elements", []))
        text = render_docs(info["app_docs"])[:MAX_TEXT_CHARS]
        return {**observation, self.key: to_ascii_xml(text)}
