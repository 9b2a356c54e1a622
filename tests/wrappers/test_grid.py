"""AppAgent's grid mode: the grid's geometry, the dialect's grid actions mapped to points and carried out on the
simulated phone, and the LLM agent showing the grid after ``grid()``."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from chat_server import ChatServer
from PIL import Image

from android_gym.actions import Action, ActionType
from android_gym.errors import InvalidActionError
from android_gym.llm import LLMAgent
from android_gym.llm.client import ChatClient
from android_gym.wrappers import ParseLLMActions
from android_gym.wrappers.dialects import GRID, AppAgentDialect, Screen
from android_gym.wrappers.grid import Grid, cell_side, draw_grid

APPAGENT = AppAgentDialect()


def test_the_grid_has_appagents_cells_and_subareas():
    grid = Grid(1080, 2400)
    assert (cell_side(1080), cell_side(2400), cell_side(1794), cell_side(1000)) == (120, 120, 138, 125)
    assert (grid.rows, grid.cols, grid.areas) == (20, 9, 180)
    assert grid.point(1, "top-left") == (30, 30) and grid.point(1, "bottom-right") == (90, 90)
    assert grid.point(10) == (60, 180) and grid.point(11, "top") == (180, 150)
    assert grid.point(180, "bottom-right") == (1050, 2370) and grid.point(9, "right") == (1050, 60)
    assert Grid(1080, 1794).point(10, "left") == (30, 207)
    for area, subarea in ((0, "center"), (181, "center"), (5, "middle")):
        with pytest.raises(InvalidActionError):
            grid.point(area, subarea)


def test_the_drawn_grid_numbers_its_cells():
    pixels = np.full((2400, 1080, 3), 255, np.uint8)
    drawn = draw_grid(pixels)
    assert drawn.shape == pixels.shape and (pixels == 255).all()
    assert tuple(drawn[600, 120]) == tuple(drawn[120, 600]) == (255, 116, 113)  # cell borders
    assert (drawn[65:115, 5:115] == 255).all()  # below the number, the cell is untouched
    assert (drawn[5:40, 125:175] != 255).any()  # the number 2


def test_the_dialect_reads_grid_actions_as_points(launcher_dump):
    from android_gym.ui import parse_ui_dump

    screen = Screen(parse_ui_dump(launcher_dump), launcher_dump, (1080, 1794))
    assert APPAGENT.parse("Action: grid()", screen) == GRID and APPAGENT.format(GRID, screen) == "grid()"
    assert APPAGENT.parse('Action: tap(10, "left")', screen) == Action(ActionType.CLICK, x=30, y=207)
    assert APPAGENT.parse('long_press(area=2, subarea="top-right")', screen) == Action(ActionType.LONG_PRESS, x=210,
                                                                                       y=34)
    assert APPAGENT.parse('tap(5)', screen) == Action(ActionType.CLICK, index=5)  # element mode still
    with pytest.raises(InvalidActionError, match="area 500 is not on the grid: areas are numbered 1 to 117"):
        APPAGENT.parse('tap(500, "center")', screen)
    with pytest.raises(InvalidActionError, match="grid actions need the screen's size"):
        APPAGENT.parse('tap(5, "center")', Screen(screen.elements))


def _area(grid: Grid, point: tuple[int, int]) -> int:
    return point[1] // grid.cell_height * grid.cols + point[0] // grid.cell_width + 1


def test_grid_actions_act_on_the_phone(make_env):
    env = ParseLLMActions(make_env("AndroidWorld/ExpenseAddMultiple-v0", pixels=False), dialect="appagent")
    env.reset(seed=0)
    *_, info = env.step('Action: open_app("expense")')
    grid = Grid(*env.unwrapped.device.screen_size)
    listed = next(e for e in info["ui_elements"] if e.resource_name.endswith("rv_home"))
    _, _, _, _, info = env.step(f'swipe({_area(grid, listed.bbox_pixels.center)}, "center", "up", "medium")')
    assert info["invalid_action"] is None
    assert env.screen.elements and "Totals" not in {e.text for e in info["ui_elements"] if e.bbox_pixels.area}
    add = next(e for e in info["ui_elements"] if e.resource_name.endswith("fb_main_add"))
    _, _, _, _, info = env.step(f'Thought: the + button.\nAction: tap({_area(grid, add.bbox_pixels.center)}, "center")')
    assert info["invalid_action"] is None
    assert "Expense Entry" in {element.text for element in info["ui_elements"]}


def test_the_llm_agent_shows_the_grid_after_grid(make_env):
    with ChatServer(["Action: grid()", 'Action: tap(1, "center")']) as server:
        agent = LLMAgent(ChatClient("test-model", base_url=server.base_url, api_key="k"), mode="multimodal",
                         dialect="appagent")
        env = make_env("AndroidWorld/ExpenseAddMultiple-v0", device="sim:540x1200")
        observation, info = env.reset(seed=0)
        agent.reset(env)
        assert agent.act(observation, info) == GRID
        observation, *_, info = env.step(GRID)
        assert agent.act(observation, info) == Action(ActionType.CLICK, x=67, y=60)  # 135x120 px cells
        first, second = (request["messages"][1]["content"] for request in server.requests)
    assert "Grid mode" not in first[0]["text"] and "Grid mode, as you asked with grid()" in second[0]["text"]
    url = second[1]["image_url"]["url"]
    shown = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))
    assert np.array_equal(shown, draw_grid(observation["pixels"]))
