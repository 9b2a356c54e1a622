"""The chat client against a real HTTP server on loopback: retries with backoff (an injected sleep, so nothing
waits), giving up, timeouts, usage and cost, and configuration errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from chat_server import ChatServer, Failure, Hang, Reply

from android_gym.errors import AndroidGymError, LLMConfigError, LLMDependencyError, LLMRequestError
from android_gym.llm.client import ChatClient

MESSAGES = [{"role": "user", "content": "Which app shows the time?"}]


def client(server: ChatServer, sleeps: list[float], **options) -> ChatClient:
    return ChatClient("test-model", base_url=server.base_url, api_key="test-key", sleep=sleeps.append, **options)


def test_a_reply_with_its_usage_and_cost():
    with ChatServer([Reply("Clock", prompt_tokens=1_000, completion_tokens=200)]) as server:
        reply = client(server, [], prices={"test-model": (2.0, 8.0)}, max_tokens=50).complete(MESSAGES)
    assert reply.text == "Clock"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.requests) == (1_000, 200, 1)
    assert reply.usage.cost == pytest.approx((1_000 * 2.0 + 200 * 8.0) / 1e6)
    sent = server.requests[0]
    assert sent["model"] == "test-model" and sent["messages"] == MESSAGES
    assert sent["temperature"] == 0.0 and sent["max_tokens"] == 50


def test_rate_limits_and_server_errors_are_retried_with_exponential_backoff():
    sleeps: list[float] = []
    with ChatServer([Failure(429), Failure(500), Failure(503), "Clock"]) as server:
        reply = client(server, sleeps).complete(MESSAGES)
    assert reply.text == "Clock" and reply.usage.retries == 3 and len(server.requests) == 4
    assert sleeps == [1.0, 2.0, 4.0]


def test_retry_after_is_honoured_and_waits_are_capped():
    sleeps: list[float] = []
    with ChatServer([Failure(429, retry_after="7"), Failure(429, retry_after="600"), Failure(502), "ok"]) as server:
        client(server, sleeps, backoff=0.5, max_backoff=10.0).complete(MESSAGES)
    assert sleeps == [7.0, 10.0, 2.0]


def test_giving_up_after_the_retries_says_what_failed():
    sleeps: list[float] = []
    with ChatServer([Failure(500)] * 3) as server:
        with pytest.raises(LLMRequestError, match=r"test-model at http://127\.0\.0\.1:\d+/v1/ failed after 3 "
                                                   r"attempts: HTTP 500") as raised:
            client(server, sleeps, max_retries=2).complete(MESSAGES)
    assert raised.value.attempts == 3 and len(server.requests) == 3 and sleeps == [1.0, 2.0]


def test_a_refusal_is_not_retried():
    sleeps: list[float] = []
    with ChatServer([Failure(401)]) as server:
        with pytest.raises(LLMRequestError, match="HTTP 401") as raised:
            client(server, sleeps).complete(MESSAGES)
    assert raised.value.attempts == 1 and len(server.requests) == 1 and sleeps == []


def test_a_request_that_outlasts_its_timeout_is_retried_then_given_up():
    sleeps: list[float] = []
    with ChatServer([Hang(), Hang()]) as server:
        with pytest.raises(LLMRequestError, match="after 2 attempts: APITimeoutError"):
            client(server, sleeps, timeout=0.2, max_retries=1).complete(MESSAGES)
    assert len(server.requests) == 2 and sleeps == [1.0]


def test_a_server_without_usage_is_counted_as_unreported():
    with ChatServer([Reply("ok", prompt_tokens=None)]) as server:
        usage = client(server, [], prices={"test-model": (1.0, 1.0)}).complete(MESSAGES).usage
    assert (usage.prompt_tokens, usage.unreported, usage.cost) == (0, 1, 0.0)


def test_configuration_errors_say_what_to_fix(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMConfigError, match="set the environment variable OPENAI_API_KEY"):
        ChatClient("m")
    with pytest.raises(LLMConfigError, match="MY_KEY"):
        ChatClient("m", api_key_env="MY_KEY")
    monkeypatch.setenv("MY_KEY", "k")
    assert ChatClient("m", api_key_env="MY_KEY", base_url="http://127.0.0.1:9/v1").model == "m"
    with pytest.raises(LLMConfigError, match="no model given"):
        ChatClient("", api_key="k")
    with pytest.raises(LLMConfigError, match="timeout must be a number of seconds > 0"):
        ChatClient("m", api_key="k", timeout=0)
    with pytest.raises(LLMConfigError, match="max_retries must be an integer >= 0"):
        ChatClient("m", api_key="k", max_retries=-1)
    with pytest.raises(LLMConfigError, match=r"prices\['m'\] must be \[input, output\]"):
        ChatClient("m", api_key="k", prices={"m": (1.0,)})


def test_without_the_openai_client_the_error_says_what_to_install(monkeypatch):
    core = "import sys; sys.modules['openai'] = None; import android_gym.llm, android_gym.wrappers"
    subprocess.run([sys.executable, "-c", core], check=True, timeout=120)  # the core imports without it
    monkeypatch.setitem(sys.modules, "openai", None)  # import openai now raises ImportError
    with pytest.raises(LLMDependencyError, match=r'pip install -e "\.\[llm\]"') as raised:
        ChatClient("m", api_key="k")
    assert isinstance(raised.value, AndroidGymError)
