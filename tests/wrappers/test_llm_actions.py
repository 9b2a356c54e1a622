"""LLM action dialects and ParseLLMActions: realistic replies, round trips of every task's oracle, garbage."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.errors import AndroidGymError, InvalidActionError
from android_gym.tasks.oracle import OraclePolicy
from android_gym.ui import parse_ui_dump
from android_gym.wrappers.compression import CompressUITree
from android_gym.wrappers.dialects import (
    DIALECTS,
    MAX_OUTPUT_CHARS,
    AndroidArenaDialect,
    AndroidWorldJSON,
    AppAgentDialect,
    InvalidFormatError,
    Screen,
)
from android_gym.wrappers.llm_actions import ParseLLMActions, ParseLLMActionsError

A = ActionType
JSON, ARENA, APPAGENT = AndroidWorldJSON(), AndroidArenaDialect(), AppAgentDialect()


@pytest.fixture(scope="module")
def launcher(launcher_dump) -> Screen:
    """The real Pixel Launcher dump as a Screen."""
    return Screen(parse_ui_dump(launcher_dump), launcher_dump, (1080, 1794))


def element(screen: Screen, label: str) -> int:
    """The index of the kept (compressed) node whose element is labelled ``label``."""
    (index,) = [index for index in screen.ids if screen.elements[index].label == label]
    return index


def arena_id(screen: Screen, label: str) -> str:
    """The compression ID of the element labelled ``label``."""
    return screen.ids[element(screen, label)]


# ----- parsing realistic replies -----------------------------------------------------------------------------------
JSON_GOOD = [
    ('{"action_type": "click", "index": 3}', Action(A.CLICK, index=3)),
    ('Reason: 12 is the Send button.\nAction: {"action_type": "click", "index": 12}', Action(A.CLICK, index=12)),
    ('Reason: type it.\n```json\n{"action_type": "input_text", "text": "Hi \\"Bob\\" {x}", "index": 4}\n```',
     Action(A.INPUT_TEXT, index=4, text='Hi "Bob" {x}')),
    ("Action: {'action_type': 'scroll', 'direction': 'down'}", Action(A.SCROLL, direction="down")),
    ('I could {"action_type": "navigate_back"} but {"action_type": "navigate_home"}', Action(A.NAVIGATE_HOME)),
    ('Action: {"action_type": "wait"}\nSummary: next maybe {"action_type": "navigate_home"}', Action(A.WAIT)),
    ('{"reason": "done", "action": {"action_type": "status", "goal_status": "complete"}}',
     Action(A.STATUS, goal_status="complete")),
    ('**Action:** {"action_type": "open_app", "app_name": "Clock"}', Action(A.OPEN_APP, app_name="Clock")),
    ('[{"action_type": "answer", "text": "42"}]', Action(A.ANSWER, text="42")),
    ('Action:\n  {"action_type":"long_press","x":540,"y":900}  ', Action(A.LONG_PRESS, x=540, y=900)),
]
JSON_BAD = [
    ("", "the reply is empty"),
    ("   \n", "the reply is empty"),
    ("I will tap the Send button.", 'has no JSON object with an "action_type"'),
    ('{"action_type": "tap", "index": 3}', "action_type must be one of"),
    ('{"action_type": "click", "index": 3, "reason": "x"}', "unknown action field(s) ['reason']"),
    ('Action: {"action_type": "click", "index": 3', 'has no JSON object with an "action_type"'),
    ('{"index": 3}', 'has no JSON object with an "action_type"'),
    ('{"action_type": "click", "index": "three"}', "index must be a finite number"),
    ("{'action_type': __import__('os').getpid()}", 'has no JSON object with an "action_type"'),
    ("x" * (MAX_OUTPUT_CHARS + 1), "at most 100,000 are read"),
]


@pytest.mark.parametrize(("reply", "expected"), JSON_GOOD)
def test_androidworld_reads_realistic_replies(reply, launcher, expected):
    assert JSON.parse(reply, launcher) == expected


@pytest.mark.parametrize(("reply", "reason"), JSON_BAD)
def test_androidworld_says_why_it_cannot_read_a_reply(reply, launcher, reason):
    with pytest.raises(InvalidFormatError, match=re.escape(reason)):
        JSON.parse(reply, launcher)


def test_arena_ids_resolve_through_the_compression_of_the_real_launcher(launcher):
    messages, chrome, search = (arena_id(launcher, label) for label in ("Messages", "Chrome", "Search"))
    cases = [
        (f"#click [{messages}]#", Action(A.CLICK, index=element(launcher, "Messages"))),
        (f"In summary, the next action I will perform is #[set_text] [{search}] [Kaggle]#",
         Action(A.INPUT_TEXT, index=element(launcher, "Search"), text="Kaggle", clear_text=True)),
        (f"#long_click [{chrome}]#", Action(A.LONG_PRESS, index=element(launcher, "Chrome"))),
        (f"Earlier I did #click [{chrome}]#. Now: #click [{messages}]#", Action(A.CLICK, index=19)),
        (f"Action: #click [{messages}]#\nThought: then #press_home#", Action(A.CLICK, index=19)),
        (f"#set_text [{search}] [a [b] c # d]#", Action(A.INPUT_TEXT, index=21, text="a [b] c # d", clear_text=True)),
        (f"#CLICK [{messages.upper()}]", Action(A.CLICK, index=19)),
        ("#start [Clock]#", Action(A.OPEN_APP, app_name="Clock")),
        ("#start Clock#", Action(A.OPEN_APP, app_name="Clock")),
        ("#swipe_up#", Action(A.SWIPE, direction="up")),
        ("#swipe_down#", Action(A.SWIPE, direction="down")),
        ("#swipe_left#", Action(A.SWIPE, direction="right")),  # uiautomator2 names the finger's motion
        ("#swipe_right#", Action(A.SWIPE, direction="left")),
        ("#scroll_down#", Action(A.SWIPE, direction="up")),
        ("#press_back#", Action(A.NAVIGATE_BACK)),
        ("#press_enter#", Action(A.KEYBOARD_ENTER)),
        ("#press_home#", Action(A.NAVIGATE_HOME)),
        ("The task is done. #finish#", Action(A.STATUS, goal_status="complete")),
        ("#finish [N/A]#", Action(A.STATUS, goal_status="infeasible")),
        ("#finish [3 unread messages]#", Action(A.ANSWER, text="3 unread messages")),
    ]
    assert (element(launcher, "Messages"), element(launcher, "Search")) == (19, 21)  # the fixture's document order
    for reply, expected in cases:
        assert ARENA.parse(reply, launcher) == expected, reply


@pytest.mark.parametrize(("reply", "error", "reason"), [
    ("#click [n0000]#", InvalidActionError, "Invalid node id n0000"),
    ("#click#", InvalidFormatError, "click needs a node id: expected #click [id]#"),
    ("#set_text [nad0e]#", InvalidFormatError, "set_text needs its text in brackets"),
    ("#tap [n1]#", InvalidFormatError, "has no action between a pair of #"),
    ("I am done.", InvalidFormatError, "has no action between a pair of #"),
])
def test_arena_says_why_it_cannot_read_a_reply(reply, error, reason, launcher):
    with pytest.raises(error, match=re.escape(reason)) as raised:
        ARENA.parse(reply, launcher)
    assert (raised.type is InvalidFormatError) == (error is InvalidFormatError)  # unknown IDs are not format errors


@pytest.mark.parametrize(("reply", "expected"), [
    ("Observation: a list\nThought: open it\nAction: tap(5)\nSummary: I opened the chat.", Action(A.CLICK, index=5)),
    ('Action: text("He said \\"hi\\" (twice)")', Action(A.INPUT_TEXT, text='He said "hi" (twice)')),
    ("Action: long_press(12)", Action(A.LONG_PRESS, index=12)),
    ('Action: swipe(21, "up", "medium")', Action(A.SCROLL, index=21, direction="down")),
    ("Action: swipe(element=3, direction='left', dist='long')", Action(A.SCROLL, index=3, direction="right")),
    ("Thought: all done.\nAction: FINISH\nSummary: finished", Action(A.STATUS, goal_status="complete")),
    ("Action: back()", Action(A.NAVIGATE_BACK)),
    ('Action: `open_app("Clock")`', Action(A.OPEN_APP, app_name="Clock")),
    ("answer(\"It's 3 o'clock\")", Action(A.ANSWER, text="It's 3 o'clock")),
    ("I could tap(3) but tap(4) is better", Action(A.CLICK, index=4)),
    ("Action: tap(2)\nSummary: next, tap(9) perhaps", Action(A.CLICK, index=2)),
    ('Action: text("tap(5) later")', Action(A.INPUT_TEXT, text="tap(5) later")),
    ("Action: Tap( element = 7 )", Action(A.CLICK, index=7)),
])
def test_appagent_reads_realistic_replies(reply, expected, launcher):
    assert APPAGENT.parse(reply, launcher) == expected


@pytest.mark.parametrize(("reply", "reason"), [
    ("Action: tap(five)", "'tap(five)' is not a call with literal arguments"),
    ('Action: tap("5")', "tap's element must be a number"),
    ("Action: tap(True)", "tap's element must be a number"),
    ('Action: swipe(3, "sideways", "medium")', "swipe's direction must be up, down, left or right"),
    ('Action: text("unclosed)', "cannot read the arguments of text("),
    ('text(__import__("os").system("true"))', "cannot read the arguments of text("),
    ('Action: tap(3, "middle")', "tap's area must be a grid cell's number and its subarea one of top-left"),
    ('Action: tap(3, "center", 4)', "tap takes (element)"),
    ('Action: swipe(3, "center", "up", "far")', "swipe's direction must be up, down, left or right"),
    ("Action: click(3)", "has no function call (such as tap(5)) or FINISH"),
])
def test_appagent_says_why_it_cannot_read_a_reply(reply, reason, launcher):
    with pytest.raises(InvalidFormatError, match=re.escape(reason)):
        APPAGENT.parse(reply, launcher)


def test_format_writes_what_the_dialect_can_say_and_nothing_else(launcher):
    messages = element(launcher, "Messages")
    passive = next(e.index for e in launcher.elements if e.text and e.index not in launcher.ids)
    assert ARENA.format(Action(A.CLICK, index=messages), launcher) == f"#click [{launcher.ids[messages]}]#"
    assert APPAGENT.format(Action(A.SCROLL, index=3, direction="left"), launcher) == 'swipe(3, "right", "medium")'
    assert APPAGENT.format(Action(A.INPUT_TEXT, text='say "hi"'), launcher) == 'text("say \\"hi\\"")'
    for action in (Action(A.CLICK, x=5, y=5), Action(A.CLICK, index=passive), Action(A.SCROLL, index=6, direction="up"),
                   Action(A.INPUT_TEXT, index=messages, text="hi"), Action(A.ANSWER, text="N/A"),
                   Action(A.INPUT_TEXT, index=messages, text="a]#b", clear_text=True), Action(A.WAIT)):
        assert ARENA.format(action, launcher) is None, action
    for action in (Action(A.INPUT_TEXT, index=3, text="hi"), Action(A.SWIPE, direction="up"),
                   Action(A.STATUS, goal_status="infeasible"), Action(A.DOUBLE_TAP, index=3),
                   Action(A.CLICK, index=3, text="stray")):
        assert APPAGENT.format(action, launcher) is None, action


def test_every_example_in_the_prompts_is_well_formed(launcher):
    examples = {
        JSON: re.findall(r"\{[^{}<>.]*\}", JSON.describe()),  # not the placeholders
        ARENA: re.findall(r"#[^#\n]+#", ARENA.describe()),
        APPAGENT: re.findall(r"\b\w+\([^():]*\)", APPAGENT.describe()),
    }
    for dialect, found in examples.items():
        assert len(found) >= 6, (dialect.name, found)
        for example in found:
            try:
                dialect.parse(example, launcher)
            except InvalidFormatError as error:
                pytest.fail(f"{dialect.name}: the prompt's example {example!r} does not parse: {error}")
            except InvalidActionError:
                pass  # an example ID such as [n51d6] that is not on this screen


# ----- oracle episodes, through the wrapper -----------------------------------------------------------------------
#: One task per set of apps whose whole seed-0 oracle episode the dialect can write. Every task's oracle, replayed
#: in AndroidWorld JSON, and each of its actions' round trip through every dialect are checked in
#: tests/wrappers/test_every_task.py (the LLM agent stack).
WRITABLE = {
    ARENA: ["AudioRecorderRecordAudio", "BrowserMaze", "ClockStopWatchPausedVerify", "CopyPicturesListedInMarkor",
            "DeletePicturesListedInJoplin", "ExpenseAmountOfItem", "JoplinCompleteTodo", "OpenAppTaskEval",
            "OsmAndDeleteFavorite", "RetroDeletePlaylist", "SaveCopyOfReceiptTaskEval", "SimpleCalendarAnyEventsOnDate",
            "SportsTrackerActivitiesCountForWeek", "SystemBluetoothTurnOff", "TasksCompleteTask",
            "TurnOnWifiAndOpenApp", "VlcDeletePlaylist"],
    APPAGENT: ["AudioRecorderRecordAudio", "BrightScreenThenStopwatch", "BrowserDraw", "CameraTakePhoto",
               "ClockStopWatchPausedVerify", "CopyPicturesListedInMarkor", "DeletePicturesListedInJoplin",
               "EventLengthTimerThenWifiOff", "ExpenseAmountOfItem", "JoplinCompleteTodo", "OpenAppTaskEval",
               "OsmAndDeleteFavorite", "RecipeDeleteDuplicateRecipes", "RetroDeletePlaylist",
               "SaveCopyOfReceiptTaskEval", "SimpleCalendarAnyEventsOnDate", "SportsTrackerActivitiesCountForWeek",
               "SystemBluetoothTurnOff", "TasksCompleteTask", "TurnOnWifiAndOpenApp", "VlcAddToExistingPlaylist"],
}


@pytest.mark.parametrize(("dialect", "task"), [(dialect, task) for dialect, tasks in WRITABLE.items()
                                               for task in tasks], ids=lambda value: getattr(value, "name", value))
def test_oracle_episodes_the_dialect_can_write_score_one(dialect, task):
    """Replayed in the dialect, the oracle's replies (each one writable) solve the task."""
    env = ParseLLMActions(gym.make(android_gym.env_id(task), pixels=False), dialect=dialect.name)
    try:
        _, info = env.reset(seed=0)
        policy, done = OraclePolicy(env.unwrapped.task.oracle()), False
        while not done:
            action = policy.act(info["ui_elements"])
            written = dialect.format(action, env.screen)
            assert written is not None, f"{dialect.name} cannot write {action}"
            _, _, terminated, truncated, info = env.step(f"Thought: next step.\nAction: {written}")
            assert info["invalid_action"] is None, (written, info["invalid_action"])
            done = terminated or truncated
        assert info["score"] == 1.0
    finally:
        env.close()


# ----- the wrapper -------------------------------------------------------------------------------------------------
def test_arena_ids_of_the_compressed_text_resolve_on_a_simulated_screen(make_env):
    env = ParseLLMActions(CompressUITree(make_env("AndroidWorld/SystemWifiTurnOn-v0", pixels=False)),
                          dialect="androidarena")
    env.reset(seed=0)
    assert "#click [id]#" in env.prompt
    observation, *_ = env.step("I need the Settings app. #start [Settings]#")
    row = re.search(r"\[(n[0-9a-f]+)\][^\n]*Network & internet", observation["ui_text"]).group(1)
    _, _, _, _, info = env.step(f"Network settings are in the row [{row}], so the next action is #click [{row}]#")
    assert info["invalid_action"] is None and info["invalid_format"] is None
    assert "Internet" in [e.text for e in info["ui_elements"]]
    _, _, _, _, info = env.step(f"#click [{row}]#")  # that row is not on the new screen
    assert info["invalid_action"].startswith(f"Invalid node id {row}.") and info["invalid_format"] is None
    assert (info["invalid_action_count"], info["invalid_format_count"]) == (1, 0)


def test_counters_count_per_episode_and_actions_pass_through(make_env):
    env = ParseLLMActions(make_env("AndroidWorld/SystemWifiTurnOn-v0", pixels=False))
    _, info = env.reset(seed=0)
    assert (info["invalid_format"], info["invalid_format_count"], info["invalid_action_count"]) == (None, 0, 0)
    _, _, _, _, info = env.step("no action here")
    assert info["invalid_format"] == info["invalid_action"] and "has no JSON object" in info["invalid_format"]
    _, _, _, _, info = env.step('Action: {"action_type": "click", "index": 999}')  # well-formed, not on screen
    assert info["invalid_format"] is None and "index 999 is out of range" in info["invalid_action"]
    _, _, _, _, info = env.step(Action(A.NAVIGATE_HOME))
    assert (info["invalid_format"], info["invalid_action"]) == (None, None)
    assert (info["invalid_format_count"], info["invalid_action_count"]) == (1, 2)
    _, info = env.reset(seed=1)
    assert (info["invalid_format_count"], info["invalid_action_count"]) == (0, 0)


def test_bad_configuration_raises_a_clear_error(make_env):
    with pytest.raises(ParseLLMActionsError, match=r"unknown dialect 'klingon'; use one of \['androidarena'"):
        ParseLLMActions(make_env(pixels=False), dialect="klingon")
    with pytest.raises(ParseLLMActionsError, match="needs an android_gym env"):
        ParseLLMActions(gym.make("CartPole-v1"))
    assert issubclass(ParseLLMActionsError, AndroidGymError) and set(DIALECTS) == {
        "androidworld", "androidarena", "appagent"}


GARBAGE = [
    "", " \t\n", "x" * (2 * MAX_OUTPUT_CHARS), "\x00\x01\x7f\ufffd\ud800 binary \U0010ffff",
    "{{{{[[[[((((", "]]]]}}}})))", "[1, 2, 3]", "[]", "null", '"just a string"', "Action:", "Action: ",
    '{"a": ' * 15000, '{"a": ' * 3000 + "1" + "}" * 3000, "[" * 90000, "#" * 90000, "tap(" * 20000,
    "#set_text [" * 8000, '{"action": {"action": {"type": "click"}}}', "{'action_type': __import__('os')}",
    'text(__import__("os").system("true"))', "#click#", "#set_text [n1]#", "tap(1, 2, 3, 4)",
    bytes(np.random.default_rng(0).integers(0, 256, 5000, dtype=np.uint8)).decode("latin-1"),
]


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_garbage_never_raises_is_counted_and_leaves_the_phone_usable(dialect, make_env):
    env = ParseLLMActions(make_env("AndroidWorld/SystemWifiTurnOn-v0", pixels=False, max_episode_steps=100),
                          dialect=dialect)
    observation, info = env.reset(seed=0)
    for count, reply in enumerate(GARBAGE, start=1):
        after, reward, terminated, truncated, info = env.step(reply)
        assert isinstance(info["invalid_format"], str) and info["invalid_action"] == info["invalid_format"], reply[:40]
        assert (info["invalid_format_count"], info["invalid_action_count"]) == (count, count)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert after["a11y_tree"] == observation["a11y_tree"]  # nothing happened on the phone
    policy, done = OraclePolicy(env.unwrapped.task.oracle()), False
    while not done:
        _, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
        done = terminated or truncated
    assert info["score"] == 1.0 and info["invalid_action_count"] == len(GARBAGE)
