"""ApplyConstraints and the constrained variants: oracles keep the constraints, scripted agents break them."""

from __future__ import annotations

import json
import math

import gymnasium as gym
import pytest

import android_gym.envs.constrained as constrained
from android_gym import InvalidAction
from android_gym.actions import ACTION_TYPES, Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.envs.constrained import CONSTRAINED_VARIANTS, NEW_CONVERSATION_ACTIVITY
from android_gym.errors import AndroidGymError, UnknownTaskError
from android_gym.tasks import get_task
from android_gym.tasks.oracle import Selector
from android_gym.testing import run_episode
from android_gym.wrappers import constraints as constraints_module
from android_gym.wrappers.constraints import (
    ApplyConstraints,
    ConstraintError,
    ForbiddenApp,
    ForbiddenElement,
    ForbiddenPage,
    parse_constraint,
)

SMS_APP, SMS_PACKAGE = "Simple SMS Messenger", "com.simplemobiletools.smsmessenger"
STOPWATCH_TAB = Selector(content_desc="Stopwatch", class_suffix="FrameLayout")
STOPWATCH_LABEL = Selector(text="Stopwatch")
TIMER_TAB = Selector(content_desc="Timer", class_suffix="FrameLayout")


def variant_id(name: str) -> str:
    return f"AndroidWorld/{name}-v0"


def act(env: gym.Env, action, info=None):
    """Step ``env``; check the observation is in the space and the violation keys are there."""
    observation, reward, terminated, truncated, info = env.step(action)
    assert env.observation_space.contains(observation)
    assert isinstance(info["constraint_violations"], list)
    return observation, reward, terminated, truncated, info


def tap(env: gym.Env, info, selector: Selector):
    """Click the element ``selector`` finds on the current screen."""
    return act(env, Action(ActionType.CLICK, index=selector.find(info["ui_elements"]).index))


def open_clock(make_env, **kwargs):
    """The timer variant, on the Clock's first tab (no violation yet)."""
    env = make_env(variant_id("ClockTimerEntryWithoutStopwatch"), pixels=False, **kwargs)
    env.reset(seed=0)
    *_, info = act(env, Action(ActionType.OPEN_APP, app_name="Clock"))
    assert info["constraint_violations"] == []
    return env, info


# ----- the variants ------------------------------------------------------------------------------------------
def test_at_least_five_variants_covering_every_kind():
    kinds = {constraint.kind for variant in CONSTRAINED_VARIANTS.values() for constraint in variant.constraints}
    assert len(CONSTRAINED_VARIANTS) >= 5 and kinds == {"app", "page", "element"}
    pages = [c for v in CONSTRAINED_VARIANTS.values() for c in v.constraints if isinstance(c, ForbiddenPage)]
    assert any(page.activity for page in pages) and any(page.text for page in pages)


@pytest.mark.parametrize("name", sorted(CONSTRAINED_VARIANTS))
def test_oracle_solves_variant_without_violation(make_env, name):
    base, constraints = CONSTRAINED_VARIANTS[name]
    spec = gym.spec(variant_id(name))
    assert spec.max_episode_steps == get_task(base).max_steps()
    assert json.loads(spec.to_json())["kwargs"] == {"variant": name}
    env = make_env(variant_id(name), pixels=False)
    for seed in (0, 1, 2):
        result = run_episode(env, OracleAgent(), seed=seed)
        assert result.score == 1.0 and math.isclose(result.total_reward, 1.0), (name, seed)
        assert not result.invalid_actions
        assert result.info["constraint_violation_count"] == 0 and result.info["constraint_violations"] == []


@pytest.mark.parametrize("name", sorted(CONSTRAINED_VARIANTS))
def test_goal_shows_constraint_sentences(make_env, name):
    _, constraints = CONSTRAINED_VARIANTS[name]
    env = make_env(variant_id(name), pixels=False)
    observation, info = env.reset(seed=3)
    sentences = [constraint.describe() for constraint in constraints]
    assert observation["goal"] == "\n".join([env.unwrapped.task.goal, *sentences])
    assert all(sentence.startswith("Do not ") and sentence.endswith(".") for sentence in sentences)
    assert env.observation_space.contains(observation)
    assert info["constraint_violations"] == [] and info["constraint_violation_count"] == 0


def test_variant_with_pixels_stays_in_its_space(make_env):
    env = make_env(variant_id("SystemWifiTurnOffWithoutQuickSettings"))
    observation, _ = env.reset(seed=0)
    assert "pixels" in observation and env.observation_space.contains(observation)
    observation, *_ = act(env, Action(ActionType.SWIPE, direction="down"))
    assert env.observation_space.contains(observation)


def test_unknown_variant_names_the_close_ones():
    with pytest.raises(UnknownTaskError, match="ClockTimerEntryWithoutStopwatch"):
        constrained.make_env("ClockTimerEntryWithoutStopwach")


def test_spec_of_made_env_is_json_and_remakes_the_same_env(make_env):
    env = make_env(variant_id("ContactsAddContactWithoutSms"), pixels=False, penalty=0.25)
    wrappers = json.loads(env.spec.to_json())["additional_wrappers"]
    assert wrappers[0]["kwargs"]["constraints"] == [{"kind": "app", "package": SMS_PACKAGE, "app_name": SMS_APP}]
    again = make_env(env.spec)
    observation, _ = again.reset(seed=0)
    assert observation["goal"].count("Do not open the Simple SMS Messenger app.") == 1
    assert again.get_wrapper_attr("penalty") == 0.25


# ----- app constraints ---------------------------------------------------------------------------------------
def test_open_app_of_forbidden_app_is_a_penalized_violation(make_env):
    env = make_env(variant_id("ContactsAddContactWithoutSms"), pixels=False, penalty=0.5)
    env.reset(seed=0)
    _, reward, terminated, _, info = act(env, Action(ActionType.OPEN_APP, app_name="sms"))
    assert reward == -0.5 and not terminated
    assert info["constraint_violations"] == [{"constraint": "Do not open the Simple SMS Messenger app.",
                                              "kind": "app", "step": 1, "detail": "open_app 'sms'"}]
    _, reward, *_, info = act(env, Action(ActionType.WAIT))  # staying there is the same violation
    assert reward == 0.0 and info["constraint_violations"] == [] and info["constraint_violation_count"] == 1
    act(env, Action(ActionType.NAVIGATE_HOME))
    *_, info = act(env, {"action_type": "open_app", "app_name": SMS_PACKAGE})  # by package, as JSON mapping
    assert [v["step"] for v in info["constraint_violations"]] == [4] and info["constraint_violation_count"] == 2
    env.reset(seed=1)
    *_, info = act(env, Action(ActionType.WAIT))
    assert info["constraint_violation_count"] == 0  # counted per episode


def test_forbidden_app_on_screen_terminates_when_asked(make_env):
    env = make_env(variant_id("SystemWifiTurnOffWithoutQuickSettings"), pixels=False, penalty=1.0,
                   terminate_on_violation=True)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = act(env, Action(ActionType.SWIPE, direction="down"))
    assert terminated and not truncated and reward == -1.0
    assert info["constraint_violations"][0]["kind"] == "app"
    assert info["constraint_violations"][0]["detail"] == "com.android.systemui came on screen"


# ----- page constraints --------------------------------------------------------------------------------------
@pytest.mark.parametrize("activity", [NEW_CONVERSATION_ACTIVITY, f"{SMS_PACKAGE}/.activities.NewConversationActivity"])
def test_forbidden_page_by_activity(make_env, activity):
    env = ApplyConstraints(make_env("AndroidWorld/SimpleSmsReply-v0", pixels=False),
                           [ForbiddenPage(activity=activity, name="the new conversation screen")], penalty=0.1)
    env.reset(seed=0)
    *_, info = act(env, Action(ActionType.OPEN_APP, app_name=SMS_APP))
    assert info["constraint_violations"] == []
    _, reward, *_, info = tap(env, info, Selector(resource_id=f"{SMS_PACKAGE}:id/conversations_fab"))
    assert math.isclose(reward, -0.1)
    assert info["constraint_violations"] == [{"constraint": "Do not open the new conversation screen.", "kind": "page",
                                              "step": 2, "detail": f"entered {activity}"}]
    *_, info = act(env, "{not json")  # an invalid action on the forbidden page adds nothing
    assert info["invalid_action"] and info["constraint_violations"] == []
    *_, info = act(env, Action(ActionType.NAVIGATE_BACK))
    assert info["constraint_violation_count"] == 1


def test_forbidden_page_by_screen_text(make_env):
    env = make_env(variant_id("SystemBrightnessMaxWithoutAdaptiveBrightness"), pixels=False)
    env.reset(seed=0)
    *_, info = act(env, Action(ActionType.OPEN_APP, app_name="Settings"))
    *_, info = tap(env, info, Selector(text="Display", resource_id="android:id/title"))
    assert info["constraint_violations"] == []  # the row "Adaptive brightness" is not the page
    *_, info = tap(env, info, Selector(text="Adaptive brightness", resource_id="android:id/title"))
    assert info["constraint_violations"] == [{
        "constraint": "Do not open the Adaptive brightness page.", "kind": "page", "step": 3,
        "detail": 'entered a screen showing "Use adaptive brightness"'}]


def test_page_by_activity_and_text_needs_both(make_env):
    subsettings = "com.android.settings/com.android.settings.SubSettings"
    page = ForbiddenPage(activity=subsettings, text="Display")
    assert page.describe() == f'Do not open the {subsettings} screen showing "Display".'
    env = ApplyConstraints(make_env("AndroidWorld/SystemBrightnessMax-v0", pixels=False), [page])
    env.reset(seed=0)
    *_, info = act(env, Action(ActionType.OPEN_APP, app_name="Settings"))
    assert info["constraint_violations"] == []  # the homepage shows "Display", but is not SubSettings
    *_, info = tap(env, info, Selector(text="Network & internet", resource_id="android:id/title"))
    assert info["constraint_violations"] == []  # SubSettings, but not showing "Display"
    *_, info = act(env, Action(ActionType.NAVIGATE_BACK))
    *_, info = tap(env, info, Selector(text="Display", resource_id="android:id/title"))
    assert [v["detail"] for v in info["constraint_violations"]] == [f'entered {subsettings} showing "Display"']


def test_activity_is_read_once_per_step_and_only_when_needed(make_env, monkeypatch):
    calls = []
    real = constraints_module.state.foreground_activity
    monkeypatch.setattr(constraints_module.state, "foreground_activity", lambda device: calls.append(1) or real(device))
    for name, per_step in (("ContactsAddContactWithoutSms", 0), ("SimpleSmsReplyWithoutNewConversation", 1)):
        calls.clear()
        result = run_episode(make_env(variant_id(name), pixels=False), OracleAgent(), seed=0)
        assert len(calls) == per_step * (result.steps + 1), name


# ----- element constraints -----------------------------------------------------------------------------------
@pytest.mark.parametrize("selector", [STOPWATCH_TAB, STOPWATCH_LABEL])
def test_forbidden_element_by_index(make_env, selector):
    env, info = open_clock(make_env, penalty=2.0)
    _, reward, terminated, _, info = tap(env, info, selector)
    assert reward == -2.0 and not terminated
    [violation] = info["constraint_violations"]
    assert violation["kind"] == "element" and violation["constraint"] == "Do not tap the Stopwatch tab."
    assert violation["detail"].startswith("click on element ") and violation["detail"].endswith("(Stopwatch)")
    *_, info = tap(env, info, STOPWATCH_TAB)  # every touch is a new violation
    assert len(info["constraint_violations"]) == 1 and info["constraint_violation_count"] == 2


def test_forbidden_element_by_coordinates(make_env):
    env, info = open_clock(make_env, terminate_on_violation=True)
    timer = TIMER_TAB.find(info["ui_elements"]).bbox_pixels
    *_, terminated, _, info = act(env, Action(ActionType.CLICK, x=timer.center[0], y=timer.center[1]))
    assert not terminated and info["constraint_violations"] == []
    icon = next(e for e in info["ui_elements"] if e.resource_name.endswith("navigation_bar_item_icon_view")
                and e.bbox_pixels.x_min >= STOPWATCH_TAB.find(info["ui_elements"]).bbox_pixels.x_min)
    _, reward, terminated, _, info = act(env, Action(ActionType.LONG_PRESS, x=icon.bbox_pixels.center[0],
                                                     y=icon.bbox_pixels.center[1]))
    assert terminated and reward == 0.0
    assert info["constraint_violations"][0]["detail"].startswith("long_press on element ")


def test_forbidden_element_through_the_action_space(make_env):
    env, info = open_clock(make_env)
    box, (width, height) = STOPWATCH_TAB.find(info["ui_elements"]).bbox_pixels, env.unwrapped.device.screen_size
    sample = env.action_space.sample()
    sample.update(action_type=ACTION_TYPES.index(ActionType.CLICK), index=-1,
                  touch_position=[box.center[0] / width, box.center[1] / height])
    *_, info = act(env, sample)
    assert info["invalid_action"] is None and len(info["constraint_violations"]) == 1


def test_invalid_actions_never_violate(make_env):
    env, info = open_clock(make_env, penalty=1.0)
    tab = STOPWATCH_TAB.find(info["ui_elements"])
    for action in ("{not json", InvalidAction("the model said nothing"), {"action_type": "click", "index": 10_000},
                   {"action_type": "click", "x": 10_000, "y": tab.bbox_pixels.center[1]},
                   {"action_type": "click", "index": True}, {"action_type": "fly"}, 42, None,
                   {"action_type": "open_app", "app_name": "No Such App"}, {"action_type": "unknown"},
                   {"action_type": "input_text", "index": tab.index, "text": ""},  # parses, fails to execute
                   {"action_type": ACTION_TYPES.index(ActionType.CLICK), "index": -1, "touch_position": [2.0, 0.5]}):
        _, reward, terminated, truncated, info = act(env, action)
        assert info["invalid_action"], action
        assert info["constraint_violations"] == [] and reward == 0.0 and not terminated, action
    assert info["constraint_violation_count"] == 0


def test_other_actions_on_the_element_do_not_count(make_env):
    env, info = open_clock(make_env)
    tab = STOPWATCH_TAB.find(info["ui_elements"])
    *_, info = act(env, Action(ActionType.SCROLL, index=tab.index, direction="down"))
    assert info["invalid_action"] is None and info["constraint_violations"] == []


# ----- configuration -----------------------------------------------------------------------------------------
def test_mappings_are_read_like_constraints(make_env):
    declared = [{"kind": "element", "content_desc": "Stopwatch", "name": "the Stopwatch tab"},
                {"kind": "page", "text": "Use adaptive brightness"},
                {"kind": "app", "package": SMS_PACKAGE, "app_name": SMS_APP}]
    parsed = [parse_constraint(value) for value in declared]
    assert parsed[0] == CONSTRAINED_VARIANTS["ClockTimerEntryWithoutStopwatch"].constraints[0]
    assert [constraint.to_dict() for constraint in parsed] == declared
    env = ApplyConstraints(make_env("AndroidWorld/ClockTimerEntry-v0", pixels=False), declared)
    observation, _ = env.reset(seed=0)
    assert observation["goal"].endswith('\nDo not tap the Stopwatch tab.\nDo not open any screen showing "Use '
                                        'adaptive brightness".\nDo not open the Simple SMS Messenger app.')


def test_goal_space_grows_and_keeps_ascii(make_env):
    inner = make_env("AndroidWorld/ClockTimerEntry-v0", pixels=False)
    long_name = "the " + "very " * 600 + "long tab"
    env = ApplyConstraints(inner, [ForbiddenElement(text="Caf\u00e9"), ForbiddenElement(text="x", name=long_name)])
    observation, _ = env.reset(seed=0)
    assert 'Do not tap any element with text "Caf&#233;".' in observation["goal"]
    assert len(observation["goal"]) > inner.observation_space["goal"].max_length
    assert env.observation_space.contains(observation)
    assert env.observation_space["a11y_tree"] == inner.observation_space["a11y_tree"]


@pytest.mark.parametrize("build", [
    lambda: ForbiddenPage(),
    lambda: ForbiddenPage(activity="NewConversationActivity"),
    lambda: ForbiddenElement(),
    lambda: ForbiddenElement(name="the Send button"),
    lambda: ForbiddenApp("", "Contacts"),
    lambda: ForbiddenApp("com.google.android.contacts", ""),
    lambda: ForbiddenElement(text=3),
    lambda: parse_constraint({"kind": "screen", "text": "x"}),
    lambda: parse_constraint({"kind": "element", "txt": "Send"}),
    lambda: parse_constraint("Do not tap Send"),
])
def test_bad_constraints_raise(build):
    with pytest.raises(ConstraintError) as raised:
        build()
    assert isinstance(raised.value, AndroidGymError)


def test_unknown_field_gets_a_suggestion():
    with pytest.raises(ConstraintError, match="did you mean 'text'"):
        parse_constraint({"kind": "element", "txt": "Send"})


@pytest.mark.parametrize("kwargs", [{"penalty": -1.0}, {"penalty": float("nan")}, {"penalty": True},
                                    {"penalty": "1"}, {"constraints": ForbiddenElement(text="Send")}])
def test_bad_wrapper_configuration_raises(make_env, kwargs):
    arguments = {"constraints": [ForbiddenElement(text="Send")], **kwargs}
    with pytest.raises(ConstraintError):
        ApplyConstraints(make_env("AndroidWorld/ClockTimerEntry-v0", pixels=False), **arguments)


def test_env_without_goal_is_refused(make_env):
    with pytest.raises(ConstraintError, match="Text 'goal'"):
        ApplyConstraints(make_env("CartPole-v1"), [ForbiddenElement(text="Send")])
