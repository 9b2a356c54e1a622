"""The example scripts run as a user would run them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
from chat_server import ChatServer

import android_gym
from android_gym.tasks.oracle import OraclePolicy

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_quickstart_solves_sendsms():
    result = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True, text=True,
                            check=True, timeout=120)
    assert "goal: Send a text message" in result.stdout
    assert result.stdout.strip().endswith("solved: True")


def oracle_replies(task: str, seed: int) -> list[str]:
    """A scripted model's replies for one episode: the task oracle's actions, in AndroidWorld's JSON."""
    env = gym.make(android_gym.env_id(task), pixels=False)
    _, info = env.reset(seed=seed)
    policy, replies, ended = OraclePolicy(env.unwrapped.task.oracle()), [], False
    while not ended:
        action = policy.act(info["ui_elements"])
        replies.append(f"Reason: the next step of the plan.\nAction: {action.to_json()}")
        _, _, terminated, truncated, info = env.step(action)
        ended = terminated or truncated
    env.close()
    return replies


def test_llm_agent_plays_a_model_served_over_http():
    replies = oracle_replies("SendSms", 0)
    with ChatServer(replies) as server:
        result = subprocess.run([sys.executable, str(EXAMPLES / "llm_agent.py"), "--model", "scripted", "--base-url",
                                 server.base_url, "--mode", "multimodal", "--prices", '{"scripted": [1.0, 2.0]}'],
                                capture_output=True, text=True, timeout=120, env={**os.environ, "OPENAI_API_KEY": "k"})
    assert result.returncode == 0, result.stderr
    assert "goal: Send a text message" in result.stdout and "(multimodal, androidworld actions)" in result.stdout
    steps = len(replies)
    cost = (120 * 1.0 + 30 * 2.0) * steps / 1e6
    assert result.stdout.strip().endswith(f"score: 1.00  steps: {steps}  unreadable replies: 0  failed requests: 0  "
                                          f"tokens: {120 * steps} in, {30 * steps} out  cost: ${cost:.4f}")
    assert len(server.requests) == steps
    assert all(request["messages"][1]["content"][1]["type"] == "image_url" for request in server.requests)


def test_llm_agent_without_a_model_or_key_says_what_to_set(load_script, monkeypatch, capsys):
    """Its ``main()`` in this process under the user's command lines (the script itself runs as a user runs it in
    the test above)."""
    for name in os.environ:
        if name.startswith(("ANDROID_GYM_LLM_", "OPENAI_")):
            monkeypatch.delenv(name)
    llm_agent = load_script("examples/llm_agent.py")
    monkeypatch.setattr(sys, "argv", ["llm_agent.py"])
    assert llm_agent.main() == 2 and "cannot start the LLM agent: no model given" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["llm_agent.py", "--model", "m"])
    assert llm_agent.main() == 2 and "set the environment variable OPENAI_API_KEY" in capsys.readouterr().err
