"""An LLM agent plays one task on the simulated phone, through any OpenAI-compatible chat API.

    pip install -e ".[llm]"
    export OPENAI_API_KEY=...                        # or --api-key-env NAME for another variable
    python examples/llm_agent.py --model gpt-4o-mini [--task SendSms] [--mode multimodal] [--dialect appagent]
    python examples/llm_agent.py --model Qwen/Qwen2.5-VL-7B-Instruct --base-url http://localhost:8000/v1  # vLLM

Settings left out come from the ``ANDROID_GYM_LLM_*`` environment variables (``android_gym.llm.ENV_VARS``), so
``--agent android_gym.llm:make_agent`` elsewhere reads the same ones. Without a model or a key it says what to
set and exits with status 2. Each step prints the model's action and what came of it; the end prints the score,
the tokens and, with ``--prices``, the cost.
"""

from __future__ import annotations

import argparse
import json
import sys

import gymnasium as gym

import android_gym
from android_gym.errors import AndroidGymError
from android_gym.llm import MODES, make_agent
from android_gym.wrappers import DIALECTS


def parse_args() -> argparse.Namespace:
    """The command line; settings not given stay ``None`` so the environment variables apply."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="SendSms")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", help="the server's model name (else ANDROID_GYM_LLM_MODEL)")
    parser.add_argument("--base-url", help="an OpenAI-compatible server, e.g. http://localhost:8000/v1")
    parser.add_argument("--api-key-env", help="the environment variable holding the key (default OPENAI_API_KEY)")
    parser.add_argument("--mode", choices=MODES, help="text (default) or multimodal (adds the marked screenshot)")
    parser.add_argument("--dialect", choices=sorted(DIALECTS), help="action syntax (default androidworld)")
    parser.add_argument("--summarize", action="store_true", default=None, help="M3A's summary request per step")
    parser.add_argument("--prices", type=json.loads, help='cost table, e.g. \'{"gpt-4o-mini": [0.15, 0.6]}\' '
                                                          "(US dollars per million input and output tokens)")
    return parser.parse_args()


def main() -> int:
    """Run one episode; 2 when the agent cannot be configured."""
    args = parse_args()
    settings = {name: value for name, value in vars(args).items() if name not in ("task", "seed") and value is not None}
    try:
        agent = make_agent(**settings)
    except AndroidGymError as error:
        print(f"cannot start the LLM agent: {error}", file=sys.stderr)
        return 2
    env = gym.make(android_gym.env_id(args.task), pixels=agent.mode == "multimodal")
    observation, info = env.reset(seed=args.seed)
    agent.reset(env)
    print(f"goal: {env.unwrapped.task.goal}\nmodel: {agent.client.model} at {agent.client.base_url} "
          f"({agent.mode}, {agent.dialect.name} actions)")
    terminated = truncated = False
    while not (terminated or truncated):
        action = agent.act(observation, info)
        observation, reward, terminated, truncated, info = env.step(action)
        step = agent.steps[-1]
        said = step.action.to_json() if step.action is not None else f"(no action: {step.error})"
        print(f"{len(agent.steps):3d} {said[:100]}  reward={reward:.2f}"
              + (f"  refused: {info['invalid_action']}" if step.action is not None and info["invalid_action"] else ""))
    stats = agent.stats()
    cost = "unknown (no --prices for this model)" if stats["cost_usd"] is None else f"${stats['cost_usd']:.4f}"
    print(f"score: {info['score']:.2f}  steps: {stats['steps']}  unreadable replies: {stats['unreadable_replies']}  "
          f"failed requests: {stats['failed_requests']}  tokens: {stats['prompt_tokens']} in, "
          f"{stats['completion_tokens']} out  cost: {cost}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
