"""The Gymnasium contract of every registered env, determinism, invalid input and the SendSms task end to end."""

from __future__ import annotations

import html
import json
import shlex
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import android_gym
from android_gym import Action, ActionType, actions
from android_gym.agents import OracleAgent, RandomAgent, RandomValidAgent
from android_gym.device import state
from android_gym.device.sim import SimDevice
from android_gym.env import _copier
from android_gym.errors import InvalidActionError
from android_gym.tasks import get_task
from android_gym.tasks.oracle import OraclePolicy
from android_gym.tasks.validators import SMS_DB, was_sent
from android_gym.testing import check_task, play_steps, run_episode
from android_gym.wrappers import RecordTrajectory

ALL_IDS = sorted(env_id for env_id in gym.registry if env_id.startswith("AndroidWorld/"))
SMS_TASKS = ["SimpleSmsSend", "SimpleSmsReply", "SimpleSmsReplyMostRecent", "SimpleSmsResend",
             "SimpleSmsSendReceivedAddress"]


def test_every_sms_task_is_registered():
    for name in [*SMS_TASKS, "SendSms"]:
        spec = gym.spec(android_gym.env_id(name))
        assert spec.entry_point == "android_gym.env:AndroidEnv"
        assert spec.max_episode_steps == 10 * android_gym.get_task(name).complexity


TASK_IDS = {android_gym.env_id(task) for task in android_gym.task_names(include_aliases=False)}


@pytest.mark.parametrize("env_id, kwargs", [(env_id, {"device": "sim:270x600"}) for env_id in ALL_IDS
                                            if env_id not in TASK_IDS]
                         + [("AndroidWorld/SendSms-v0", {}), ("AndroidWorld/SendSms-v0", {"pixels": False}),
                            ("AndroidWorld/BrowserMaze-v0", {"device": "sim:270x600"})])
def test_check_env(env_id, kwargs):
    """Gymnasium's whole checker with its render check: on SendSms at full size and without pixels, on a task
    whose screen is a Chromium page, and on the ids that are not tasks of their own (aliases, constrained
    variants), on a small screen (the checker compares whole frames with ``allclose``). What it checks that can
    differ per task, ``test_task_passes_the_task_checks`` checks on every task (``check_task``)."""
    env = gym.make(env_id, **kwargs).unwrapped
    try:
        check_env(env, skip_render_check=False)
    finally:
        env.close()


def test_observation_shape_and_goal(make_env):
    env = make_env()
    obs, info = env.reset(seed=0)
    assert set(obs) == {"pixels", "a11y_tree", "goal"}
    assert obs["pixels"].shape == (2400, 1080, 3) and obs["pixels"].dtype == np.uint8
    assert obs["goal"] == env.unwrapped.task.goal
    assert obs["goal"].startswith("Send a text message using Simple SMS Messenger to +1")
    assert obs in env.observation_space
    assert info["score"] == 0.0 and info["invalid_action"] is None and info["backend_error"] is None
    assert info["ui_elements"] and info["ui_elements"][0].bbox_pixels.x_max == 1080


def test_same_seed_same_episode(make_env):
    first, second = make_env(), make_env()
    obs1, info1 = first.reset(seed=7)
    obs2, info2 = second.reset(seed=7)
    assert obs1["goal"] == obs2["goal"] and info1["params"] == info2["params"]
    assert np.array_equal(obs1["pixels"], obs2["pixels"]) and obs1["a11y_tree"] == obs2["a11y_tree"]
    # After a different episode, the same seed restores the same state.
    first.reset(seed=8)
    obs3, info3 = first.reset(seed=7)
    assert info3["params"] == info1["params"] and np.array_equal(obs3["pixels"], obs1["pixels"])
    assert make_env().reset(seed=9)[1]["params"] != info1["params"]


def test_same_seed_same_initial_state(make_env):
    """Two envs seeded alike hold identical SMS stores after reset (including row ids and dates)."""
    rows = []
    for _ in range(2):
        env = make_env("AndroidWorld/SimpleSmsReply-v0")
        env.reset(seed=3)
        rows.append(state.sqlite_query(env.unwrapped.device, SMS_DB,
                                       "SELECT _id, thread_id, address, body, date, type, read FROM sms"))
    assert rows[0] == rows[1] and len(rows[0]) >= 2


def _mutable_parts(value) -> list:
    """The lists, dicts and sets in ``value``, itself included."""
    parts = [value] if isinstance(value, (list, dict, set)) else []
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ():
        parts += _mutable_parts(item)
    return parts


def test_info_params_copies_share_nothing_that_changes():
    """Every task's parameters, copied as ``info["params"]`` is at each step: equal to them, in their order, and
    sharing no list or dict with them or with another copy, also after a copy was changed."""
    for name in android_gym.task_names(include_aliases=False):
        params = get_task(name).generate_params(np.random.default_rng(0))
        copy = _copier(params)
        first, second = copy(), copy()
        assert first == params and list(first) == list(params), name
        held = {id(part) for part in _mutable_parts(params) + _mutable_parts(second)}
        assert not held & {id(part) for part in _mutable_parts(first)}, name
        for part in _mutable_parts(first):
            part.clear()
        assert copy() == params, name


def test_params_can_be_pinned(make_env):
    env = make_env()
    obs, info = env.reset(seed=0, options={"params": {"number": "+15550001111", "message": "pinned"}})
    assert info["params"]["number"] == "+15550001111"
    assert obs["goal"].endswith("to +15550001111 with message: pinned")


@pytest.mark.parametrize("task", android_gym.task_names(include_aliases=False))
def test_task_passes_the_task_checks(task):
    """Every registered task: check_env's per-task checks, seed determinism (pixels too) and doing nothing scores
    0, on a small screen, natively drawn. The oracle's part of ``check_task`` runs elsewhere, once per parameter
    draw: seed 1's oracle is replayed for every task through the LLM agent's stack on the same screen with pixels
    (``tests/wrappers/test_every_task.py``: touches and bounds through the screen's scale, every icon on the
    oracle's screens drawn, ``icons.glyph`` refusing a name it does not map), and seed 0's through the RL view
    (``tests/wrappers/test_rl_catalogue.py``), and a long-horizon task's step by step in its own test file; so
    each task's oracle solves two parameter draws in the suite, and ``benchmarks/config_sweep.py`` sweeps more
    seeds."""
    check_task(task, seeds=(1,), oracle=False, device="sim:270x600")


def test_check_task_catches_a_broken_oracle(monkeypatch):
    task_class = android_gym.get_task("SimpleSmsSend")
    monkeypatch.setattr(task_class, "oracle", lambda self: [])
    with pytest.raises(AssertionError, match="oracle scored 0.0"):
        check_task("SimpleSmsSend", seeds=(0,), pixels=False)


def test_check_task_catches_a_task_that_ignores_the_seed(monkeypatch):
    """Parameters drawn from outside the env's generator: a seeded reset does not repeat after an episode."""
    draws = iter(range(100))
    task_class = android_gym.get_task("SimpleSmsSend")
    draw = task_class.generate_params.__func__
    monkeypatch.setattr(task_class, "generate_params",
                        classmethod(lambda cls, rng: {**draw(cls, rng), "message": f"draw {next(draws)}"}))
    with pytest.raises(AssertionError, match=r"SimpleSmsSend: reset\(seed=0\) gives another observation"):
        check_task("SimpleSmsSend", seeds=(0,), pixels=False)


def test_random_policy_scores_zero(make_env):
    env = make_env(pixels=False)
    agent = RandomAgent(seed=0)
    for episode in range(5):
        result = run_episode(env, agent, seed=episode)
        assert result.steps >= 1 and result.score == 0.0


@pytest.mark.parametrize("action, reason", [
    ("{not json", "not valid JSON"),
    ('{"action_type": "fly"}', "action_type must be one of"),
    ({"action_type": "click", "x": 5000, "y": 10}, "off the 1080x2400 screen"),
    ({"action_type": "click", "x": -1, "y": 10}, "off the 1080x2400 screen"),
    ({"action_type": "click", "index": 10_000}, "out of range"),
    ({"action_type": "click"}, "needs an element index or both x and y"),
    ({"action_type": "scroll", "direction": "sideways"}, "direction must be one of"),
    ({"action_type": "open_app", "app_name": "Nonexistent App"}, "unknown app"),
    ({"action_type": "input_text", "text": "x" * 5000}, "limit is 1000"),
    ({"action_type": "click", "x": "ten", "y": 3}, "x must be a finite number"),
    ({"action_type": "click", "x": float("nan"), "y": 3}, "x must be a finite number"),
    ('{"action_type": "click", "x": 5, "y": Infinity}', "y must be a finite number"),
    ({"action_type": "click", "index": 10**40}, "index must be a finite number"),
    ({"action_type": "input_text", "text": "a", "clear_text": "yes"}, "clear_text must be true or false"),
    ({"action_type": "click", "bogus": 1}, "unknown action field"),
    (42, "must be a JSON object"),
    ({"action_type": 0, "index": -1, "touch_position": np.array([1.5, 0.2]), "direction": 0, "text": "",
      "app_name": ""}, "touch_position must lie in"),
    ({"action_type": -1, "index": -1, "touch_position": np.zeros(2), "direction": 0, "text": "", "app_name": ""},
     "action_type must lie in [0, 14)"),
    ({"action_type": np.int64(0), "index": 513, "touch_position": np.zeros(2), "direction": 0, "text": "",
      "app_name": ""}, "index must lie in [-1, 512)"),
    ({"action_type": 0, "index": -1, "touch_position": ("x", 1), "direction": 0, "text": "", "app_name": ""},
     "touch_position must be two numbers"),
    # JSON the parser cannot take: deep nesting (RecursionError), a number past int's digit limit (ValueError)
    pytest.param("[" * 100_000, "nested too deeply", id="deeply-nested-json"),
    pytest.param('{"action_type": "click", "x": ' + "9" * 5000 + ', "y": 1}', "a number of 5000 digits",
                 id="5000-digit-json-number"),
    ({"action_type": "click", 1: "a", "b": 2}, "unknown action field(s) ['b', 1];"),  # unsortable field names
    ({"action_type": "click", "index": 10**5000}, "index must be a finite number"),  # an int too long to print
    # Actions built by hand with fields of the wrong types
    (Action(ActionType.INPUT_TEXT, text=5), "text must be a string, got 5"),
    (Action(ActionType.CLICK, index="a"), "index must be a finite number (a pixel or an element index), got 'a'"),
    (Action(ActionType.CLICK, x="x", y=1), "x must be a finite number"),
    (Action(ActionType.SCROLL, direction=None), "direction must be one of"),
    (Action(ActionType.SCROLL, direction=["up"]), "direction must be a string"),
    (Action(ActionType.OPEN_APP, app_name=5), "app_name must be a string"),
    (Action(ActionType.INPUT_TEXT, text="a", clear_text="yes"), "clear_text must be true or false"),
    (Action("fly"), "action_type must be one of"),
    (Action(None), "action_type must be one of"),
    # Samples of the Dict space with values too big to print or convert, text that is not a string or not Unicode
    ({"action_type": 0, "direction": 10**5000}, "direction must lie in [0, 4), got a"),
    ({"action_type": 0, "touch_position": 10**5000}, "touch_position must be two numbers"),
    ({"action_type": 5, "text": 10**5000}, "text must be a string"),
    ({"action_type": 5, "text": "ok\ud800"}, "text 'ok\\ud800' is not valid Unicode text"),
    # Lone surrogates (JSON's "\\ud800" escape decodes to one): not text UTF-8, apps or adb can take
    ('{"action_type": "input_text", "text": "ok\\ud800"}', "text 'ok\\ud800' is not valid Unicode text"),
    ({"action_type": "answer", "text": "\udfff"}, "position 0 is a lone surrogate"),
    (Action(ActionType.OPEN_APP, app_name="Clock\ud83d"), "app_name 'Clock\\ud83d' is not valid Unicode"),
])
def test_invalid_actions_are_reported_not_raised(make_env, action, reason):
    env = make_env(pixels=False)
    obs, info = env.reset(seed=0)
    before = obs["a11y_tree"]
    obs, reward, terminated, truncated, info = env.step(action)
    assert reason in info["invalid_action"]
    assert reward == 0.0 and not terminated and not truncated and obs["a11y_tree"] == before


def test_a_lone_surrogate_typed_into_an_app_is_an_invalid_action(make_env):
    """It used to crash the SMS app's search (SQLite cannot bind it); the episode goes on and is still solved."""
    env = make_env(pixels=False)
    env.reset(seed=0)
    *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))
    search = next(e for e in info["ui_elements"] if e.resource_name.endswith("top_toolbar_search"))
    *_, terminated, truncated, info = env.step(Action(ActionType.INPUT_TEXT, index=search.index, text="ok\ud800"))
    assert "lone surrogate" in info["invalid_action"] and not (terminated or truncated)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert info["score"] == 1.0 and not invalid


def test_json_actions_as_androidworld_writes_them(make_env):
    env = make_env(pixels=False)
    obs, info = env.reset(seed=0)
    obs, *_ , info = env.step('{"action_type": "open_app", "app_name": "Simple SMS Messenger"}')
    assert info["invalid_action"] is None
    assert state.foreground_package(env.unwrapped.device) == "com.simplemobiletools.smsmessenger"
    obs, *_, info = env.step(json.dumps({"action_type": "navigate_home"}))
    assert state.foreground_package(env.unwrapped.device) == "com.google.android.apps.nexuslauncher"
    assert Action.parse('{"action_type": "click", "index": 3}') == Action(ActionType.CLICK, index=3)
    assert json.loads(Action(ActionType.INPUT_TEXT, text="hé", index=2).to_json()) == {
        "action_type": "input_text", "text": "hé", "index": 2}


def test_parse_returns_a_well_formed_action_itself_and_converts_the_others():
    """An agent's action of plain ints and strs needs no conversion (parse is on every step's path); NumPy numbers,
    bools and lone surrogates still go the long way, converted or refused."""
    action = Action(ActionType.CLICK, index=3)
    assert Action.parse(action) is action
    converted = Action.parse(Action(ActionType.CLICK, x=np.int64(5), y=np.float32(7.0)))
    assert converted == Action(ActionType.CLICK, x=5, y=7) and type(converted.x) is int and type(converted.y) is int
    with pytest.raises(InvalidActionError, match="index must be a finite number"):
        Action.parse(Action(ActionType.CLICK, index=True))
    with pytest.raises(InvalidActionError, match="lone surrogate"):
        Action.parse(Action(ActionType.INPUT_TEXT, text="a\ud800"))
    with pytest.raises(InvalidActionError, match="index must be a finite number"):
        Action.parse(Action(ActionType.CLICK, index=2**40))


class _Text(str):
    """A str subclass whose ``str()`` is itself (as a rich-text or markup string's may be)."""

    def __str__(self) -> str:
        return self


def test_parse_makes_plain_strs_of_str_subclasses():
    """A check hands back the value it was given only when it is of the type made: a str subclass, even one whose
    ``str()`` is itself, comes out as a plain str, by an Action or a mapping."""
    for value in (Action(ActionType.INPUT_TEXT, text=_Text("hi")), {"action_type": "input_text", "text": _Text("hi")}):
        parsed = Action.parse(value)
        assert parsed.text == "hi" and type(parsed.text) is str and parsed is not value


@pytest.mark.parametrize("fields", [
    {"index": 3}, {"x": np.int64(5), "y": 7.0}, {"index": True}, {"index": 2**40}, {"x": float("nan"), "y": 1},
    {"text": "a\ud800"}, {"text": "ok", "clear_text": np.bool_(True)}, {"text": "ok", "clear_text": 1},
    {"app_name": 5}, {"direction": "up"}], ids=repr)
def test_an_action_and_its_mapping_parse_alike(fields):
    """One set of rules: an Action built by hand parses as the mapping of its fields does (same action or the same
    refusal), and comes back as itself exactly when nothing in it needed converting."""
    def outcome(value):
        try:
            return Action.parse(value)
        except InvalidActionError as error:
            return str(error)

    action = Action(ActionType.INPUT_TEXT, **fields)
    by_action, by_mapping = outcome(action), outcome({"action_type": "input_text", **fields})
    assert by_action == by_mapping
    converted = any(type(value) not in (int, str) for value in fields.values())
    assert (by_action is action) == (isinstance(by_action, Action) and not converted)


def test_space_samples_refuse_what_is_no_integer_of_the_space():
    """The space's fields are NumPy or Python integers; a float, a bool or a NumPy bool is no field value."""
    base = {"action_type": 0, "index": -1, "touch_position": np.zeros(2, np.float32), "direction": 0}
    for value in (1.0, True, np.bool_(True), None):
        with pytest.raises(InvalidActionError, match="action_type must be an integer"):
            actions.to_action({**base, "action_type": value}, (1080, 2400))
    with pytest.raises(InvalidActionError, match=r"index must lie in \[-1, 512\)"):
        actions.to_action({**base, "index": np.int64(600)}, (1080, 2400))
    assert actions.to_action({**base, "action_type": np.int8(0)}, (1080, 2400)) == Action(ActionType.CLICK, x=0, y=0)
    swipe = {**base, "action_type": list(ActionType).index(ActionType.SWIPE), "direction": np.int64(1)}
    assert actions.to_action(swipe, (1080, 2400)) == Action(ActionType.SWIPE, direction="down")


def test_the_score_is_read_again_only_when_what_the_check_read_may_have_changed(make_env, monkeypatch):
    """An action refused before it reached the phone changes nothing there: the score read last still holds. Nor is
    it read again while what the check read of the simulated phone reads the same (``SimDevice.noting``: SendSms's
    check reads the focused app, and in the SMS app the SMS database's versions too). A change to what it read, a
    check that asked the phone more than it notes (a shell command), and the episode's end (an answer is the
    task's to check) have it read again."""
    env = make_env(pixels=False)
    env.reset(seed=0)
    task, device = env.unwrapped.task, env.unwrapped.device
    reads = []
    check = task.is_successful
    monkeypatch.setattr(task, "is_successful", lambda dev: reads.append(dev) or check(dev))
    *_, info = env.step(Action(ActionType.CLICK, index=400))
    assert info["invalid_action"] and reads == []
    env.step(Action(ActionType.NAVIGATE_HOME))  # the launcher keeps the focus
    device.shell("input keyevent HOME")
    env.step(Action(ActionType.UNKNOWN))
    assert reads == []
    env.step(Action(ActionType.OPEN_APP, app_name="SMS Messenger"))  # the focus moved
    assert len(reads) == 1
    env.step(Action(ActionType.WAIT))
    device.push(b"x", "/sdcard/Download/x.txt")  # a file the check does not read
    env.step(Action(ActionType.UNKNOWN))
    assert len(reads) == 1
    device.receive_sms("+15550100000", "hello")  # a write to the database it reads
    env.step(Action(ActionType.UNKNOWN))
    assert len(reads) == 2
    monkeypatch.setattr(task, "is_successful", lambda dev: reads.append(dev) or dev.shell("true") and check(dev))
    env.step(Action(ActionType.WAIT))  # the check's last read was the same: not read
    assert len(reads) == 2
    device.receive_sms("+15550100000", "again")
    for count in (3, 4):  # a check that asked a shell command is read again after every step that reached the phone
        env.step(Action(ActionType.WAIT))
        assert len(reads) == count
    env.step(Action(ActionType.ANSWER, text="42"))
    assert len(reads) == 5




@pytest.mark.parametrize(("task", "elsewhere", "write"), [
    ("SystemWifiTurnOff", "settings put global wifi_on 1", lambda params: "settings put global wifi_on 0"),
    ("MarkorCreateNote", "echo x > /sdcard/Download/x.txt",
     lambda params: f"echo {shlex.quote(params['text'])} > /sdcard/Documents/Markor/{params['file_name']}"),
])
def test_a_check_of_settings_or_a_folder_is_read_again_only_when_they_changed(monkeypatch, task, elsewhere, write):
    """A setting read through ``state.settings_get`` (``SimDevice.setting``) and a folder read with ``find`` and
    ``md5sum`` (``files.tree_snapshot``: ``SimDevice.tree_read``, by the folder's tree version) are noted on the
    simulated phone, not asked of the shell: the Wi-Fi task's and Markor's checks are not run again after steps (and a
    write of the value Wi-Fi has, a file outside the notebook) that left them as they were."""
    env = gym.make(f"AndroidWorld/{task}-v0", pixels=False)
    try:
        env.reset(seed=0)
        checked, device = env.unwrapped.task, env.unwrapped.device
        reads = []
        check = checked.is_successful
        monkeypatch.setattr(checked, "is_successful", lambda dev: reads.append(dev) or check(dev))
        env.step(Action(ActionType.OPEN_APP, app_name="Settings"))
        assert device.shell(elsewhere).exit_code == 0
        env.step(Action(ActionType.NAVIGATE_HOME))
        assert reads == []
        assert device.shell(write(checked.params)).exit_code == 0
        *_, info = env.step(Action(ActionType.WAIT))
        assert len(reads) == 1 and info["score"] == 1.0
    finally:
        env.close()

def test_dict_actions_from_the_space(make_env):
    env = make_env(pixels=False)
    obs, info = env.reset(seed=0)
    icon = next(e for e in info["ui_elements"] if e.text == "SMS Messenger" or "SMS" in e.text)
    click = {"action_type": list(ActionType).index(ActionType.CLICK), "index": icon.index,
             "touch_position": np.zeros(2, np.float32), "direction": 0, "text": "", "app_name": ""}
    assert click in env.action_space
    obs, reward, terminated, truncated, info = env.step(click)
    assert info["invalid_action"] is None
    assert state.foreground_package(env.unwrapped.device) == "com.simplemobiletools.smsmessenger"


def test_hostile_text_is_stored_verbatim_and_runs_nothing(make_env):
    hostile = "'; rm -rf /sdcard; \"$(reboot)\" `id` && echo pwned > /sdcard/x; DROP TABLE sms;--"
    env = make_env(pixels=False)
    device = env.unwrapped.device
    state.write_file(device, "/sdcard/Download/keep.txt", "still here")
    assert run_episode(env, OracleAgent(), seed=0, options={"params": {"message": hostile}}).score == 1.0
    bodies = [row["body"] for row in state.sqlite_query(device, SMS_DB, "SELECT body FROM sms WHERE type = 2")]
    assert bodies == [hostile]
    assert state.read_file(device, "/sdcard/Download/keep.txt") == b"still here"
    assert "x" not in state.list_dir(device, "/sdcard")


def test_non_ascii_goal_and_tree_are_lossless(make_env):
    env = make_env(pixels=False)
    message = "Café ☕ at 5? 日本語 😀"
    obs, info = env.reset(seed=0, options={"params": {"message": message}})
    assert obs["goal"].isascii() and obs in env.observation_space
    assert "&#128512;" in obs["goal"] and html.unescape(obs["goal"]).endswith(message)
    policy = OraclePolicy(env.unwrapped.task.oracle())
    for _ in range(5):  # open app, new conversation, number, confirm, message typed
        obs, reward, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
    assert obs["a11y_tree"].isascii() and obs in env.observation_space
    texts = [e.text for e in android_gym.ui.parse_ui_dump(obs["a11y_tree"])]
    assert any(message in text for text in texts)


def test_envs_are_isolated(make_env):
    a, b = make_env(pixels=False), make_env(pixels=False)
    a.reset(seed=0)
    b.reset(seed=0)
    state.write_file(a.unwrapped.device, "/sdcard/Download/only-in-a.txt", "a")
    assert "only-in-a.txt" not in state.list_dir(b.unwrapped.device, "/sdcard/Download")


def test_close_removes_the_phone(make_env):
    env = make_env(pixels=False)
    env.reset(seed=0)
    root = env.unwrapped.device.phone.fs.root
    assert root.exists()
    env.close()
    env.close()
    assert not root.exists()


class _CopyingDevice(SimDevice):
    """A simulated phone whose screenshots are fresh writable arrays, as a real device's are."""

    def screenshot(self) -> np.ndarray:
        return super().screenshot().copy()


@pytest.mark.parametrize("device", [SimDevice, _CopyingDevice])
def test_shared_pixels_are_read_only_and_the_same_array_while_the_screen_does_not_change(make_env, device):
    env = make_env(device=device(), share_pixels=True)
    observation, _ = env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unchanged, *_ = env.step(Action("fly"))  # an invalid action: nothing happens
    shared = any("share an object" in str(warning.message) for warning in caught)  # gym.make's checker says so
    assert shared == (device is SimDevice)
    assert not observation["pixels"].flags.writeable and not unchanged["pixels"].flags.writeable
    assert np.array_equal(unchanged["pixels"], observation["pixels"])
    assert (unchanged["pixels"] is observation["pixels"]) == (device is SimDevice)
    changed, *_ = env.step(Action(ActionType.OPEN_APP, app_name="Clock"))
    assert not np.array_equal(changed["pixels"], observation["pixels"])


@pytest.mark.parametrize("device", [SimDevice, _CopyingDevice])
def test_pixels_are_read_only_and_share_no_memory_with_a_held_observation(make_env, device):
    env = make_env(device=device())
    observation, _ = env.reset(seed=0)
    unchanged, *_ = env.step(Action("fly"))  # the same screen while the caller holds the last observation: a copy
    assert not np.shares_memory(unchanged["pixels"], observation["pixels"])
    assert np.array_equal(unchanged["pixels"], observation["pixels"])
    for pixels in (observation["pixels"], unchanged["pixels"], unchanged["pixels"][10:20]):
        with pytest.raises(ValueError):
            pixels[0, 0] = 1
        with pytest.raises(ValueError):
            pixels.flags.writeable = True


def test_a_held_screen_that_stays_the_same_is_handed_in_the_phone_s_other_frame(make_env):
    """The caller holding the last observation of a screen that did not change is handed the simulated phone's kept
    frame brought up to date (``SimDevice.screenshot_again``), the screen the phone gives from then on, not a copy."""
    env = make_env()
    observation, _ = env.reset(seed=0)
    for _ in range(3):
        unchanged, *_ = env.step(Action("fly"))  # an invalid action: nothing happens
        assert np.shares_memory(unchanged["pixels"], env.unwrapped.device.screenshot())
        assert not np.shares_memory(unchanged["pixels"], observation["pixels"])
        assert np.array_equal(unchanged["pixels"], observation["pixels"]) and not unchanged["pixels"].flags.writeable
        observation = unchanged


def test_a_held_observation_never_changes_and_one_let_go_is_not_copied(make_env):
    """A walk through changing screens that keeps every third observation: the renderer draws each new frame into
    memory nothing holds any more, never into a kept observation's; a changed screen comes without a copy."""
    env = make_env(disable_env_checker=True)
    agent = RandomValidAgent(seed=3)
    observation, info = env.reset(seed=3)
    agent.reset(env)
    kept, uncopied = [], 0
    for step in range(45):
        observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
        uncopied += np.shares_memory(observation["pixels"], env.unwrapped.device.screenshot())
        if step % 3 == 0:
            kept.append((observation["pixels"], observation["pixels"].tobytes()))
        if terminated or truncated:
            observation, info = env.reset()
            agent.reset(env)
    assert all(pixels.tobytes() == shown for pixels, shown in kept)
    assert len({shown for _, shown in kept}) > 5  # the screens changed
    assert uncopied > 20


def test_render_rgb_array(make_env):
    env = make_env(render_mode="rgb_array", pixels=False)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (2400, 1080, 3) and frame.dtype == np.uint8


def test_smaller_screen(make_env):
    env = make_env(device="sim:540x1200")
    obs, info = env.reset(seed=0)
    assert obs["pixels"].shape == (1200, 540, 3)
    assert max(e.bbox_pixels.x_max for e in info["ui_elements"]) <= 540
    assert run_episode(env, OracleAgent(), seed=0).score == 1.0


@pytest.mark.parametrize("kwargs, message", [
    ({"options": "x"}, r"reset\(options='x'\): options are None or a dict, such as \{'params'"),
    ({"options": 5}, r"options are None or a dict, .*SimpleSmsSend's parameters are \['message', 'number'\]"),
    ({"options": {"params": 5}}, r"'params' is a dict of parameter name to value \(SimpleSmsSend's parameters"),
    ({"options": {"params": None}}, r"reset\(options=\{'params': None\}\): .*leave it out to draw every"),
    ({"options": {"params": {"numbr": "+15550001111"}}},
     r"unknown parameter\(s\) \['numbr'\] for SimpleSmsSend; its parameters are \['message', 'number'\]"),
    ({"options": {"params": {"numbr": 1, 3: 2}}}, r"unknown parameter\(s\) \['numbr', 3\]"),  # unsortable names
    ({"seed": -1}, r"reset\(seed=-1\): a seed is None or a non-negative Python int"),
    ({"seed": np.int64(3)}, r"int\(seed\) converts a NumPy integer"),
    ({"seed": "7"}, r"reset\(seed='7'\)"),
])
def test_bad_reset_arguments_raise_a_config_error_and_leave_the_episode_alone(make_env, kwargs, message):
    env = make_env(pixels=False)
    env.reset(seed=0)
    *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))
    with pytest.raises(android_gym.errors.ConfigError, match=message):
        env.reset(**kwargs)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())  # the episode under way goes on
    assert info["score"] == 1.0 and not invalid


def test_reset_options_for_wrappers_are_left_alone(make_env):
    """Keys other than "params" belong to wrappers (MultiTaskRLEnv's "task" reaches the env); an empty
    "params" pins nothing."""
    env = make_env(pixels=False)
    assert env.reset(seed=4, options={"task": "x", "params": {}})[1]["params"] == env.reset(seed=4)[1]["params"]


def test_bad_configuration_raises_clear_errors():
    with pytest.raises(android_gym.errors.UnknownTaskError, match="Did you mean"):
        android_gym.AndroidEnv(task="SimpleSmsSnd")
    with pytest.raises(android_gym.errors.DeviceSpecError, match="unknown device"):
        android_gym.AndroidEnv(task="SendSms", device="floppy")
    with pytest.raises(android_gym.AndroidGymError, match="render_mode"):
        android_gym.AndroidEnv(task="SendSms", render_mode="human")


def test_device_failure_truncates_and_next_reset_reconnects(make_env, tmp_path):
    env = RecordTrajectory(make_env(pixels=True), tmp_path)
    env.reset(seed=0)
    broken = env.unwrapped.device
    broken.close()  # the phone goes away mid-episode
    obs, reward, terminated, truncated, info = env.step(Action(ActionType.NAVIGATE_HOME))
    assert truncated and not terminated and reward == 0.0
    assert "closed" in info["backend_error"] and obs in env.observation_space
    obs, info = env.reset(seed=1)
    assert env.unwrapped.device is not broken and info["backend_error"] is None
    assert run_episode(env, OracleAgent(), seed=2).score == 1.0
    env.close()
    log = (tmp_path / "episode_000" / "trajectory.jsonl").read_text().splitlines()
    assert len(log) == 1 and json.loads(log[0])["backend_error"]


def test_sent_message_reads_back_as_androidworld_parses_it(make_env):
    """AndroidWorld's check: `content query --uri content://sms/sent`, rows split on ', ' around `body=`."""
    env = make_env(pixels=False)
    message = "Hi, it's me, call back"
    assert run_episode(env, OracleAgent(), seed=5, options={"params": {"message": message}}).score == 1.0
    output = env.unwrapped.device.shell("content query --uri content://sms/sent").output
    assert output.startswith("Row: 0 _id=") and output.count("Row: ") == 1
    fields = dict(part.split("=", 1) for part in output.split(", body=")[0].split(", ") if "=" in part)
    body = output.split(", body=")[1].rsplit(", service_center=", 1)[0]
    now_ms = int(env.unwrapped.device.shell("date +%s").output) * 1000
    assert fields["address"] == env.unwrapped.task.params["number"] and body == message
    age_ms = now_ms - int(fields["date"])  # `date +%s` is whole seconds: the age can be slightly negative
    assert fields["type"] == "2" and -1000 < age_ms <= 5 * 60 * 1000


def test_a_sent_message_counts_for_five_minutes_and_the_clock_is_read_only_for_one(monkeypatch):
    """AndroidWorld's window: a matching sent message counts while it is at most 5 min old; the device's time is
    asked only when one matches (no round trip per step before anything was sent)."""
    device = SimDevice()
    asked = []
    shell = device.shell
    monkeypatch.setattr(device, "shell", lambda cmd, **kw: asked.append(cmd) or shell(cmd, **kw))
    assert not was_sent(device, "+15550101234", "hello there") and "date +%s" not in asked
    device.shell("content insert --uri content://sms/sent --bind address:s:+15550101234 --bind 'body:s:hello there'")
    assert was_sent(device, "+15550101234", "hello there") and "date +%s" in asked
    assert not was_sent(device, "+15550101234", "something else")
    device.shell("sleep 299")
    assert was_sent(device, "+15550101234", "hello there")
    device.shell("sleep 2")
    assert not was_sent(device, "+15550101234", "hello there")
    device.close()


def test_scroll_swipe_and_long_press_actions(make_env):
    env = make_env(pixels=False)
    env.reset(seed=0)
    device = env.unwrapped.device
    for i in range(25):
        device.receive_sms(f"+1555010{i:04d}", f"message {i}")
        device.shell("sleep 1")
    obs, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))

    def first_conversation(info) -> str:
        return next(e.text for e in info["ui_elements"] if e.resource_name.endswith("conversation_address"))

    top = first_conversation(info)
    assert top == "+15550100024"  # newest first
    listing = next(e for e in info["ui_elements"] if e.resource_name.endswith("conversations_list"))
    obs, *_, info = env.step({"action_type": "scroll", "direction": "down", "index": listing.index})
    assert info["invalid_action"] is None and first_conversation(info) != top
    obs, *_, info = env.step({"action_type": "scroll", "direction": "up"})  # the whole screen
    assert first_conversation(info) == top
    obs, *_, info = env.step({"action_type": "swipe", "direction": "left"})
    assert info["invalid_action"] is None
    obs, *_, info = env.step({"action_type": "long_press", "index": listing.index + 1})
    assert info["invalid_action"] is None


class GarbledDump(SimDevice):
    """A simulated phone whose UI dump turns unreadable once ``garble`` is set."""

    garble = False

    def ui_dump(self) -> str:
        return "<hierarchy><node" if self.garble else super().ui_dump()


def test_unreadable_ui_dump_is_a_backend_error():
    device = GarbledDump()
    env = android_gym.AndroidEnv(task="SendSms", device=device, pixels=False)
    env.reset(seed=0)
    device.garble = True
    obs, reward, terminated, truncated, info = env.step(Action(ActionType.WAIT))
    assert truncated and "unreadable UI dump" in info["backend_error"] and obs["a11y_tree"] == ""
    env.close()
    assert device.shell("echo still mine").output == "still mine\n"  # the env does not close a device it was given
    device.close()


def _steps_after_the_end(env, final_obs, terminated: bool, truncated: bool) -> None:
    """Two steps after the episode ended: one warning, nothing done on the phone, the final observation again."""
    device = env.unwrapped.device
    foreground, dump = state.foreground_package(device), device.ui_dump()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for action in (Action(ActionType.NAVIGATE_HOME), Action(ActionType.OPEN_APP, app_name="Clock")):
            obs, reward, *flags, info = env.step(action)
            assert (reward, flags) == (0.0, [terminated, truncated])
            assert info["invalid_action"] == "the episode has ended: call reset()" and info["backend_error"] is None
            assert obs.keys() == final_obs.keys() and obs["a11y_tree"] == final_obs["a11y_tree"]
            assert "pixels" not in obs or np.array_equal(obs["pixels"], final_obs["pixels"])
    assert [str(warning.message).count("call reset()") for warning in caught] == [1]  # once per episode
    assert (state.foreground_package(device), device.ui_dump()) == (foreground, dump)


def test_stepping_after_termination_warns_and_does_nothing(make_env):
    env = make_env()  # gym.make's checker, order enforcing and TimeLimit around the env
    for seed in (0, 1):  # reset starts a new episode, which warns again
        env.reset(seed=seed)
        env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))
        final_obs, reward, terminated, truncated, _ = env.step({"action_type": "status", "goal_status": "complete"})
        assert terminated and not truncated and reward == 0.0
        _steps_after_the_end(env, final_obs, terminated=True, truncated=False)
    env.reset(seed=2)
    *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Clock"))
    assert info["invalid_action"] is None
    assert state.foreground_package(env.unwrapped.device) == "com.google.android.deskclock"


@pytest.mark.filterwarnings("ignore:.*step\\(\\) was called after the episode ended")
@pytest.mark.parametrize("share_pixels", [False, True])
def test_the_final_pixels_repeated_after_the_end_are_as_first_shown(share_pixels: bool) -> None:
    """Without ``share_pixels`` each repeat shares no memory with the one before it, which the caller holds; with it,
    each is the same screen, not a copy. Either is read-only."""
    env = android_gym.AndroidEnv(task="SendSms", share_pixels=share_pixels)
    try:
        env.reset(seed=0)
        final_obs, *_ = env.step({"action_type": "status", "goal_status": "complete"})
        shown = np.array(final_obs["pixels"])
        first, *_ = env.step(Action(ActionType.WAIT))
        second, *_ = env.step(Action(ActionType.WAIT))
        assert np.array_equal(first["pixels"], shown) and np.array_equal(second["pixels"], shown)
        assert not first["pixels"].flags.writeable and not second["pixels"].flags.writeable
        assert (first["pixels"] is second["pixels"]) == share_pixels
        assert np.shares_memory(first["pixels"], second["pixels"]) == share_pixels
    finally:
        env.close()


def test_stepping_after_the_device_truncated_the_episode_warns_and_does_nothing():
    device = GarbledDump()
    env = gym.wrappers.TimeLimit(android_gym.AndroidEnv(task="SendSms", device=device, pixels=False), 10)
    try:
        env.reset(seed=0)
        env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))
        device.garble = True
        final_obs, reward, terminated, truncated, info = env.step(Action(ActionType.WAIT))
        assert truncated and not terminated and info["backend_error"] and final_obs["a11y_tree"] == ""
        device.garble = False  # the phone answers again, but the episode is over
        _steps_after_the_end(env, final_obs, terminated=False, truncated=True)
        env.reset(seed=0)
        *_, info = env.step(Action(ActionType.NAVIGATE_HOME))
        assert info["invalid_action"] is None
    finally:
        env.close()
        device.close()

class _CountingCheck(android_gym.Task):
    """A task whose check disturbs the device, so it is scored at the end; it counts the checks."""

    name = "CountingCheck"
    scored_at_end = True
    template = "Wait"

    @classmethod
    def generate_params(cls, rng):
        return {}

    def is_successful(self, device):
        type(self).checks += 1
        return 1.0

    def oracle(self):
        return []


def test_a_task_scored_at_the_end_is_checked_only_on_the_last_step():
    _CountingCheck.checks = 0
    env = android_gym.AndroidEnv(_CountingCheck, pixels=False)
    try:
        env.reset(seed=0)
        _, reward, terminated, _, info = env.step(Action(ActionType.WAIT))
        assert (_CountingCheck.checks, reward, terminated, info["score"]) == (0, 0.0, False, 0.0)
        _, reward, terminated, _, info = env.step(Action(ActionType.STATUS, goal_status="complete"))
        assert (_CountingCheck.checks, reward, terminated, info["score"]) == (1, 1.0, True, 1.0)
    finally:
        env.close()


def test_a_task_scored_at_the_end_is_checked_when_the_budget_runs_out():
    """The env checks on the step that uses up the task's budget, where the registered TimeLimit truncates."""
    _CountingCheck.checks = 0
    env = android_gym.AndroidEnv(_CountingCheck, pixels=False)
    try:
        env.reset(seed=0)
        for _ in range(_CountingCheck.max_steps() - 1):
            env.step(Action(ActionType.WAIT))
        assert _CountingCheck.checks == 0
        _, reward, _, _, info = env.step(Action(ActionType.WAIT))
        assert (_CountingCheck.checks, reward, info["score"]) == (1, 1.0, 1.0)
    finally:
        env.close()


def test_verify_tasks_score_at_reset_and_their_report_variants_need_state_and_answer(make_env):
    verify = make_env("AndroidWorld/SystemWifiTurnOnVerify-v0", pixels=False)
    _, info = verify.reset(seed=0)
    assert info["score"] == 1.0 and android_gym.get_task("SystemWifiTurnOnVerify").succeeds_without_action
    report = make_env("AndroidWorld/SystemWifiTurnOnVerifyReport-v0", pixels=False)
    device = report.unwrapped.device
    report.reset(seed=0, options={"params": {"initially_on": False}})
    assert state.settings_get(device, "global", "wifi_on") == "0"
    *_, info = report.step(Action(ActionType.ANSWER, text="yes"))
    assert info["score"] == 0.0  # the right answer, but Wi-Fi is still off
    report.reset(seed=0, options={"params": {"initially_on": False}})
    device.shell("svc wifi enable")
    *_, info = report.step(Action(ActionType.ANSWER, text="no"))
    assert info["score"] == 0.0  # on now, but it had to change
    report.reset(seed=0, options={"params": {"initially_on": False}})
    device.shell("svc wifi enable")
    *_, info = report.step(Action(ActionType.ANSWER, text=" Yes."))
    assert info["score"] == 1.0
    report.reset(seed=0, options={"params": {"initially_on": True}})
    *_, info = report.step(Action(ActionType.ANSWER, text="no"))
    assert info["score"] == 1.0
    brightness = make_env("AndroidWorld/SystemBrightnessMinVerifyReport-v0", pixels=False)
    brightness.reset(seed=0, options={"params": {"initial_brightness": 128}})
    brightness.unwrapped.device.shell("settings put system screen_brightness 1")
    *_, info = brightness.step(Action(ActionType.ANSWER, text="yes"))
    assert info["score"] == 1.0


def test_envs_of_one_screen_size_share_the_pixels_space(make_env):
    """The pixels' Box (four screen-sized arrays, 30 MB at 1080x2400) exists once per screen size."""
    first, second, small = make_env(), make_env("AndroidWorld/SimpleSmsReply-v0"), make_env(device="sim:540x1200")
    assert first.observation_space["pixels"] is second.observation_space["pixels"]
    assert small.observation_space["pixels"].shape == (1200, 540, 3)
    assert small.observation_space["pixels"] is not first.observation_space["pixels"]
