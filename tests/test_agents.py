"""Agents by name: the built-in ones, ``module:callable`` with its error messages, the random agent over valid
actions, and what ``run --agent ... --record --record-frames`` keeps of an episode."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent, RandomAgent, RandomValidAgent, load_agent, valid_actions
from android_gym.cli import main
from android_gym.errors import AgentSpecError
from android_gym.metrics import from_jsonl, reasonable_operation_ratio
from android_gym.testing import run_episode
from android_gym.wrappers import RecordTrajectory


class _Logged:
    """Wraps an agent and keeps the actions it chose."""

    def __init__(self, agent) -> None:
        self.agent, self.actions = agent, []

    def reset(self, env) -> None:
        self.agent.reset(env)

    def act(self, observation, info):
        self.actions.append(self.agent.act(observation, info))
        return self.actions[-1]


@pytest.mark.parametrize("task", ["SendSms", "MarkorCreateNote", "SimpleCalendarAddOneEvent", "FilesMoveFile"])
def test_random_valid_makes_no_invalid_action(make_env, task):
    env = make_env(android_gym.env_id(task), pixels=False)
    agent = _Logged(RandomValidAgent(seed=0))
    kinds = set()
    for seed in (0, 1):
        result = run_episode(env, agent, seed=seed)
        assert result.steps == env.unwrapped.task_class.max_steps() and result.invalid_actions == []
        kinds |= {action.action_type.value for action in agent.actions}
    assert "click" in kinds and len(kinds) >= 3  # it does more than tap


def test_random_valid_scrolls_only_lists_that_can_scroll(make_env):
    env = make_env(android_gym.env_id("SystemWifiTurnOn"), pixels=False)
    env.reset(seed=0)
    settings_list = "com.android.settings:id/main_content_scrollable_container"
    for app, scrolled in (("Files", set()), ("Settings", {settings_list})):
        *_, info = env.step(Action(ActionType.OPEN_APP, app_name=app))
        elements = info["ui_elements"]
        scrolls = [(index, way) for kind, index, way in valid_actions(elements, (), env.unwrapped.device.screen_size)
                   if kind is ActionType.SCROLL]
        assert {elements[index].resource_name for index, _ in scrolls} == scrolled  # Files: a few folders fit
        assert len(scrolls) == 4 * len(scrolled)


def test_random_valid_is_seeded_per_episode(make_env):
    env = make_env(android_gym.env_id("ContactsAddContact"), pixels=False)

    def played(agent, seed):
        logged = _Logged(agent)
        run_episode(env, logged, seed=seed)
        return logged.actions

    first = RandomValidAgent(seed=7)
    episode_3, episode_4 = played(first, 3), played(first, 4)
    assert played(RandomValidAgent(seed=7), 4) == episode_4  # whichever episodes the agent played before
    assert episode_3 != episode_4 and played(RandomValidAgent(seed=8), 4) != episode_4


def test_load_agent_by_name():
    assert isinstance(load_agent("oracle"), OracleAgent)
    assert isinstance(load_agent("random", seed=1), RandomAgent)
    assert isinstance(load_agent("random-valid", seed=1), RandomValidAgent)
    assert type(load_agent("sample_agents:make_idle")).__name__ == "Idle"
    assert type(load_agent("sample_agents:Chatty")).__name__ == "Chatty"  # a class is a callable too


@pytest.mark.parametrize("spec, message", [
    ("orcale", "not a built-in agent (oracle, random, random-valid) nor module:callable"),
    ("no_such_module:make", "cannot import module 'no_such_module' (No module named 'no_such_module'); install it "
                            "or put its folder on PYTHONPATH"),
    ("sample_agents:make_idel", "sample_agents.py) has no attribute 'make_idel'"),
    ("sample_agents:Idle.nothing", "Idle has no attribute 'nothing'"),
    ("sample_agents:NOT_CALLABLE", "NOT_CALLABLE is a int, not a callable that returns an agent"),
    ("sample_agents:needs_a_model", "needs_a_model must be callable with no argument (missing a required argument: "
                                    "'model'); wrap it in a function that builds the agent"),
    ("sample_agents:not_an_agent", "sample_agents:not_an_agent() returned a dict, which has no reset() and no act()"),
    ("sample_agents:", "nor module:callable"),
])
def test_agent_spec_errors_say_what_to_fix(spec, message, capsys):
    with pytest.raises(AgentSpecError) as error:
        load_agent(spec)
    assert message in str(error.value)
    assert main(["run", "SendSms", "--agent", spec]) == 2
    assert message in capsys.readouterr().err


def test_run_a_user_agent_recording_frames(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "SendSms", "--agent", "sample_agents:Chatty", "--seed", "4", "--record", str(out),
                 "--record-frames"]) == 0
    assert "success rate: 1/1 = 1.00" in capsys.readouterr().out
    folder = out / "episode_000"
    about = json.loads((folder / "episode.json").read_text())
    assert about["task"] == "SimpleSmsSend" and about["env_id"] == "AndroidWorld/SendSms-v0" and about["seed"] == 4
    assert about["params"]["number"] in about["goal"]
    lines = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]
    steps = len(lines)
    assert [line["agent"]["reasoning"] for line in lines] == [f"Step {i}: <the oracle> knows & acts."
                                                              for i in range(1, steps + 1)]
    assert all(line["agent"]["prompt_tokens"] == 100 for line in lines)
    assert all(line["screen_changed"] for line in lines)  # every oracle step changes the screen
    taps = [line for line in lines if line["action"]["action_type"] == "click"]
    for tap in taps:  # a tap by index records its point, inside the element it names
        (x, y), (x1, y1, x2, y2) = tap["touch"][0], tap["element"]["bounds"]
        assert x1 <= x < x2 and y1 <= y < y2 and (tap["element"]["label"] or tap["element"]["resource_id"])
    assert taps and lines[0]["touch"] == []  # open_app touches nothing
    frames = sorted((folder / "frames").iterdir())
    assert [frame.name for frame in frames] == [f"step_{i:03d}.png" for i in range(steps + 1)]
    with Image.open(frames[0]) as frame:
        assert frame.size == (1080, 2400)
    trees = sorted((folder / "ui").iterdir())
    assert len(trees) == steps + 1 and trees[-1].read_text().startswith("<?xml")
    episode = from_jsonl(folder)  # the task comes from episode.json, the screen changes from the log
    assert episode.task == "SimpleSmsSend" and episode.success and reasonable_operation_ratio(episode) == 1.0


def test_record_frames_needs_record(capsys):
    with pytest.raises(SystemExit):
        main(["run", "SendSms", "--record-frames"])
    assert "--record-frames needs --record DIR" in capsys.readouterr().err


def test_scroll_records_its_drag(make_env, tmp_path):
    env = RecordTrajectory(make_env(pixels=True), tmp_path)
    env.reset(seed=0)
    env.step({"action_type": "scroll", "direction": "down"})
    env.step({"action_type": "swipe", "direction": "up"})
    env.step({"action_type": "navigate_home", "index": 999})  # an index home does not use
    env.close()
    scroll, swipe, home = [json.loads(line) for line in (tmp_path / "episode_000" / "trajectory.jsonl").open()]
    assert scroll["touch"] == [[540, 1200], [540, 0]] and swipe["touch"] == [[540, 2399], [540, 0]]
    assert home["touch"] == [] and "element" not in home and home["invalid_action"] is None


def test_a_recorded_episode_replays_to_the_same_screens(tmp_path, make_env):
    """What `--record-frames` keeps is enough to replay an episode: its env id, seed, screen size and actions give
    the same screens and UI trees, step by step (on a half-size phone: its frames cost a quarter to draw, write
    and read; test_run_a_user_agent_recording_frames records full-size ones)."""
    assert main(["run", "MarkorCreateNote", "--agent", "random-valid", "--seed", "2", "--device", "sim:540x1200",
                 "--record", str(tmp_path), "--record-frames"]) == 0
    folder = tmp_path / "episode_000"
    about = json.loads((folder / "episode.json").read_text())
    width, height = about["screen_size"]
    env = make_env(about["env_id"], device=f"sim:{width}x{height}")
    observation, _ = env.reset(seed=about["seed"])
    lines = [json.loads(line) for line in (folder / "trajectory.jsonl").open()]
    for step, line in enumerate([None, *lines]):
        if line is not None:
            observation, *_ = env.step(line["action"])
        with Image.open(folder / "frames" / f"step_{step:03d}.png") as frame:
            assert np.array_equal(np.asarray(frame), observation["pixels"]), f"step {step}"
        assert (folder / "ui" / f"step_{step:03d}.xml").read_text() == observation["a11y_tree"]
    assert len(lines) == env.unwrapped.task_class.max_steps()
