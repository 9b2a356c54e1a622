"""An oracle agent that notes the taps it makes on rows a list cuts at its edge, for the tests of oracles that must
tap only rows shown whole (``tasks/oracle.py``'s ``scroll_until``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.tasks.oracle import touch_target


class CutTapsNoted(OracleAgent):
    """The oracle, keeping in ``cut_taps`` the action and row of each tap or long press on a row the simulated phone
    laid out crossing a list's edge (its view has a ``whole``)."""

    def __init__(self) -> None:
        super().__init__()
        self.cut_taps: list[tuple[Action, str]] = []

    def reset(self, env: gym.Env) -> None:
        """The oracle's reset; the phone whose last dump's views tell a cut row."""
        super().reset(env)
        self._phone = env.unwrapped.device.phone

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        """The oracle's action, noted when it touches a cut row."""
        action, elements = super().act(observation, info), info["ui_elements"]
        if action.action_type in (ActionType.CLICK, ActionType.LONG_PRESS):
            touched = elements[action.index] if action.index is not None else next(
                element for element in reversed(elements) if element.bbox_pixels.contains(action.x, action.y)
                and (element.is_clickable or element.is_long_clickable))
            row = touch_target(touched, elements)
            view = self._phone.window.dumped()[1][row.index][0]  # the node the dump wrote for the row
            if view.whole is not None:
                self.cut_taps.append((action, row.resource_name))
        return action
