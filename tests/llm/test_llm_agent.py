"""The LLM agent on the simulated phone, its model a chat-completions server on loopback that answers from a script:
what the prompts say (goal, UI elements, history, the screenshot), unreadable replies and failed requests as
invalid steps that the episode survives, token accounting, and a whole episode solved by a scripted model that
replies with the task oracle's actions in JSON."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from chat_server import ChatServer, Failure, Reply
from PIL import Image

from android_gym.actions import Action, ActionType, InvalidAction
from android_gym.env import to_ascii_xml
from android_gym.errors import LLMConfigError
from android_gym.llm import LLMAgent, make_agent
from android_gym.llm.client import ChatClient
from android_gym.tasks.oracle import OraclePolicy
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump
from android_gym.wrappers.compression import compress_ui
from android_gym.wrappers.set_of_mark import draw_marks

FIXTURES = Path(__file__).parent.parent / "fixtures" / "uiautomator"
OPEN_SMS = ('Reason: the message is sent from the SMS app.\n'
            'Action: {"action_type": "open_app", "app_name": "Simple SMS Messenger"}')
WAIT = 'Reason: nothing to do yet.\nAction: {"action_type": "wait"}'


def agent_for(server: ChatServer, sleeps: list[float] | None = None, **options) -> LLMAgent:
    client = ChatClient("test-model", base_url=server.base_url, api_key="k", max_retries=2,
                        sleep=(sleeps if sleeps is not None else []).append, prices={"test-model": (1.0, 4.0)})
    return LLMAgent(client, **options)


def user_text(request: dict) -> str:
    content = request["messages"][1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def image_of(request: dict) -> np.ndarray:
    url = request["messages"][1]["content"][1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))


def start(make_env, agent: LLMAgent, message: str = "It is 49°F, take a coat", **env_kwargs):
    env = make_env("AndroidWorld/SendSms-v0", **{"pixels": False, **env_kwargs})
    observation, info = env.reset(seed=0, options={"params": {"number": "+18727035111", "message": message}})
    agent.reset(env)
    return env, observation, info


def test_the_prompt_holds_the_goal_the_ui_elements_and_the_history(make_env):
    with ChatServer([OPEN_SMS, WAIT]) as server:
        agent = agent_for(server)
        env, observation, info = start(make_env, agent)
        action = agent.act(observation, info)
        assert action == Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger")
        observation, _, _, _, info = env.step(action)
        agent.act(observation, info)
    first, second = server.requests
    system = first["messages"][0]
    assert system["role"] == "system" and "You operate an Android phone" in system["content"]
    assert '{"action_type": "click", "index": <index>}' in system["content"]  # the dialect's syntax
    assert "[12]" in system["content"] and "green" not in system["content"]  # text mode: no screenshot talk
    text = user_text(first)
    goal = "Goal: Send a text message using Simple SMS Messenger to +18727035111 with message: It is 49°F, take a coat"
    assert text.startswith(goal + "\n")  # the characters themselves, not &#176;
    assert "None yet: this is the first step." in text
    lines = re.findall(r"^\[(\d+)\] TextView \"(Clock|SMS Messenger)\"", text, re.MULTILINE)
    assert len(lines) == 2  # the launcher's icons, labelled with their element index
    history = user_text(second)
    assert re.search(r'Step 1: \{"action_type": "open_app", "app_name": "Simple SMS Messenger"\}\. Reason: the '
                     r"message is sent from the SMS app\. The screen changed\.", history), history
    assert "App: com.simplemobiletools.smsmessenger" in history


@pytest.mark.parametrize(("dump", "shown"), [
    ("systemui_lockscreen_weather_960x2142", '"13°C Cloudy 13°C" <click>'),
    ("futu_trader_rebalance_history_1080x1920", '"CoreWeave 18.09%->0.00% CRWV 参考成交价 133.785" <click>'),
])
def test_prompts_on_real_dumps_carry_their_non_ascii_characters(dump, shown):
    xml = (FIXTURES / f"{dump}.xml").read_text(encoding="utf-8")
    observation = {"a11y_tree": to_ascii_xml(xml), "goal": to_ascii_xml("How warm is it? Say it in °C.")}
    with ChatServer(['Action: {"action_type": "answer", "text": "13°C"}']) as server:
        action = agent_for(server).act(observation, {"ui_elements": parse_ui_dump(xml)})
    assert action == Action(ActionType.ANSWER, text="13°C")
    text = user_text(server.requests[0])
    assert text.startswith("Goal: How warm is it? Say it in °C.\n") and shown in text
    assert "&#" not in text and "\\u" not in text


def test_index_labels_are_the_element_indices_the_actions_take(make_env):
    with ChatServer([OPEN_SMS]) as server:
        agent = agent_for(server)
        env, observation, info = start(make_env, agent)
        agent.act(observation, info)
    for index, label in re.findall(r'^\[(\d+)\][^"\n]*"([^"]+)"', user_text(server.requests[0]), re.MULTILINE):
        assert info["ui_elements"][int(index)].label in label


def test_multimodal_mode_attaches_the_screenshot_marked_with_the_ui_lines_numbers(make_env):
    with ChatServer([OPEN_SMS]) as server:
        agent = agent_for(server, mode="multimodal")
        env, observation, info = start(make_env, agent, pixels=True)
        agent.act(observation, info)
    request = server.requests[0]
    assert "boxed in green and labelled with the same numbers" in request["messages"][0]["content"]
    assert "The screenshot of the current screen is attached." in user_text(request)
    image = image_of(request)
    numbers = sorted(int(n) for n in re.findall(r"^\s*\[(\d+)\]", user_text(request), re.MULTILINE))
    marked = draw_marks(observation["pixels"], [info["ui_elements"][i] for i in numbers])
    assert image.shape == observation["pixels"].shape and np.array_equal(image, marked)
    assert not np.array_equal(image, observation["pixels"])


def test_androidarena_lines_keep_their_ids_and_the_screenshot_goes_unmarked(make_env):
    with ChatServer(["I open the messenger. #start [Simple SMS Messenger]#"]) as server:
        agent = agent_for(server, mode="multimodal", dialect="androidarena")
        env, observation, info = start(make_env, agent, pixels=True)
        assert agent.act(observation, info) == Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger")
    request = server.requests[0]
    ids = set(re.findall(r"^\s*\[(n[0-9a-f]+)\]", user_text(request), re.MULTILINE))
    assert ids and ids <= set(compress_ui(observation["a11y_tree"]).nodes)
    assert np.array_equal(image_of(request), observation["pixels"])


def test_an_unreadable_reply_is_an_invalid_step_and_the_model_is_told_so_next_time(make_env):
    replies = ["I would open the messenger app.", 'Action: {"action_type": "tap", "index": 3}', OPEN_SMS]
    with ChatServer(replies) as server:
        agent = agent_for(server)
        env, observation, info = start(make_env, agent)
        for _ in range(2):
            action = agent.act(observation, info)
            assert isinstance(action, InvalidAction)
            observation, _, terminated, truncated, info = env.step(action)
            assert info["invalid_action"] == action.reason and not (terminated or truncated)
        assert agent.act(observation, info).action_type is ActionType.OPEN_APP
    third = user_text(server.requests[2])
    assert "Step 1: your reply could not be read as an action (the reply has no JSON object" in third
    assert "Step 2: your reply could not be read as an action (the action" in third and "'tap'" in third
    assert agent.stats()["unreadable_replies"] == 2 and agent.usage.requests == 3


def test_a_failing_model_is_retried_then_the_step_is_invalid_and_the_episode_ends_cleanly(make_env):
    sleeps: list[float] = []
    with ChatServer(lambda request: Failure(500)) as server:
        agent = agent_for(server, sleeps)
        env = make_env("AndroidWorld/SendSms-v0", pixels=False)
        result = run_episode(env, agent, seed=0)
    budget = env.spec.max_episode_steps
    assert result.truncated and not result.terminated and result.steps == budget and result.score == 0.0
    assert len(result.invalid_actions) == budget
    assert result.invalid_actions[0].startswith("no action: the model could not be asked: chat request to test-model")
    assert "failed after 3 attempts: HTTP 500" in result.invalid_actions[0]
    assert len(agent.errors) == budget and len(server.requests) == 3 * budget and sleeps == [1.0, 2.0] * budget
    assert (agent.usage.failures, agent.usage.retries, agent.usage.requests) == (budget, 2 * budget, 0)
    assert "Step 1: no reply came (the model could not be asked" in user_text(server.requests[-1])


def test_tokens_and_cost_add_up_over_the_episode_and_start_again_at_reset(make_env):
    replies = [Reply(WAIT, prompt_tokens=100 * n, completion_tokens=10 * n) for n in (1, 2, 3)]
    with ChatServer([Failure(429), *replies, Reply(WAIT, prompt_tokens=7, completion_tokens=1)]) as server:
        agent = agent_for(server)
        env, observation, info = start(make_env, agent)
        for _ in range(3):
            observation, *_, info = env.step(agent.act(observation, info))
        assert (agent.usage.prompt_tokens, agent.usage.completion_tokens) == (600, 60)
        assert (agent.usage.requests, agent.usage.retries) == (3, 1)
        assert agent.usage.cost == pytest.approx((600 * 1.0 + 60 * 4.0) / 1e6)
        stats = agent.stats()
        assert json.loads(json.dumps(stats)) == stats and stats["prompt_tokens"] == 600 and stats["steps"] == 3
        observation, info = env.reset(seed=1)
        agent.reset(env)
        agent.act(observation, info)
        assert (agent.usage.prompt_tokens, agent.usage.requests) == (7, 1)


def test_summaries_from_a_second_request_make_the_history(make_env):
    replies = [OPEN_SMS, "Opened Simple SMS Messenger; its conversation list shows. Next: start a new chat.", WAIT]
    with ChatServer(replies) as server:
        agent = agent_for(server, summarize=True)
        env, observation, info = start(make_env, agent)
        observation, *_, info = env.step(agent.act(observation, info))
        agent.act(observation, info)
    summary_request = server.requests[1]["messages"][1]["content"]
    assert "The action taken: {\"action_type\": \"open_app\"" in summary_request
    assert "The screen before the step:\nApp: com.google.android.apps.nexuslauncher" in summary_request
    assert "The screen after the step:\nApp: com.simplemobiletools.smsmessenger" in summary_request
    assert ('Step 1: {"action_type": "open_app", "app_name": "Simple SMS Messenger"}. Opened Simple SMS Messenger; '
            "its conversation list shows. Next: start a new chat.") in user_text(server.requests[2])
    assert agent.usage.requests == 3


def test_a_failed_summary_request_falls_back_to_the_plain_history_line(make_env):
    with ChatServer([OPEN_SMS, Failure(401), WAIT]) as server:
        agent = agent_for(server, summarize=True)
        env, observation, info = start(make_env, agent)
        observation, *_, info = env.step(agent.act(observation, info))
        assert isinstance(agent.act(observation, info), Action)
    assert "Step 1: {\"action_type\": \"open_app\", \"app_name\": \"Simple SMS Messenger\"}. Reason: the message is " \
        "sent from the SMS app. The screen changed." in user_text(server.requests[2])
    assert len(agent.errors) == 1 and "HTTP 401" in agent.errors[0] and agent.steps[0].error is None
    assert (agent.usage.requests, agent.usage.failures) == (2, 1)


def test_a_scripted_model_replaying_the_oracle_solves_the_task_end_to_end(make_env):
    env = make_env("AndroidWorld/SendSms-v0", pixels=False)

    def oracle_model(request: dict) -> str:
        """The model: the oracle's next step on the phone's current screen, as AndroidWorld JSON."""
        assert "The current screen:\nApp: " in user_text(request)
        action = policy.act(parse_ui_dump(env.unwrapped.device.ui_dump()))
        return f"Reason: the next step of the plan.\nAction: {action.to_json()}"

    with ChatServer(oracle_model) as server:
        agent = agent_for(server)
        env.reset(seed=3)
        policy = OraclePolicy(env.unwrapped.task.oracle())
        result = run_episode(env, agent, seed=3)
    assert result.score == 1.0 and result.terminated and not result.invalid_actions
    assert result.steps == len(server.requests) == agent.usage.requests
    assert agent.usage.prompt_tokens == 120 * result.steps


def test_make_agent_reads_keyword_arguments_then_the_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("ANDROID_GYM_LLM_MODEL", "env-model")
    monkeypatch.setenv("ANDROID_GYM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("ANDROID_GYM_LLM_DIALECT", "appagent")
    monkeypatch.setenv("ANDROID_GYM_LLM_SUMMARIZE", "yes")
    monkeypatch.setenv("ANDROID_GYM_LLM_PRICES", '{"env-model": [0.5, 1.5]}')
    agent = make_agent(mode="multimodal", timeout=5)
    assert (agent.client.model, agent.mode, agent.dialect.name, agent.summarize) == ("env-model", "multimodal",
                                                                                     "appagent", True)
    assert agent.client.base_url.startswith("http://127.0.0.1:9/v1") and agent.client.timeout == 5.0
    assert agent.client.prices == {"env-model": (0.5, 1.5)}
    assert make_agent(model="kw-model").client.model == "kw-model"
    monkeypatch.setenv("ANDROID_GYM_LLM_API_KEY_ENV", "OTHER_KEY")
    with pytest.raises(LLMConfigError, match="OTHER_KEY"):
        make_agent()


def test_bad_configuration_is_an_llm_config_error(monkeypatch, make_env):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.delenv("ANDROID_GYM_LLM_MODEL", raising=False)
    with pytest.raises(LLMConfigError, match="unknown LLM agent setting.*'temprature'"):
        make_agent(model="m", temprature=0.5)
    with pytest.raises(LLMConfigError, match="no model given"):
        make_agent()
    with pytest.raises(LLMConfigError, match="unknown mode 'vision'"):
        make_agent(model="m", mode="vision")
    with pytest.raises(LLMConfigError, match="unknown dialect 'json'"):
        make_agent(model="m", dialect="json")
    monkeypatch.setenv("ANDROID_GYM_LLM_TIMEOUT", "soon")
    with pytest.raises(LLMConfigError, match="ANDROID_GYM_LLM_TIMEOUT='soon' cannot be read"):
        make_agent(model="m")
    monkeypatch.delenv("ANDROID_GYM_LLM_TIMEOUT")
    agent = make_agent(model="m", mode="multimodal", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(LLMConfigError, match="pixels=True"):
        agent.reset(make_env("AndroidWorld/SendSms-v0", pixels=False))
