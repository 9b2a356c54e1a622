"""Random walks steered clear of Chrome, for the checks about something else."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from android_gym.actions import Action
from android_gym.agents import Agent


class AwayFromChrome:
    """``agent`` not shown the elements named Chrome (the launcher's icons of it), so it does not open Chrome: a page
    there is a real Chromium's, whose captures and accessibility trees cost seconds of CPU in a walk that reaches
    it. The walks meant to reach Chrome play their agent as it is."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def reset(self, env: gym.Env) -> None:
        self.agent.reset(env)

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        return self.agent.act(observation, {**info, "ui_elements": [
            element for element in info["ui_elements"] if "Chrome" not in (element.text, element.content_description)]})
