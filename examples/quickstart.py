"""Quickstart: make an env, look at an observation, solve the task with JSON actions as an LLM agent would.

Run: python examples/quickstart.py
"""

from __future__ import annotations

import gymnasium as gym

import android_gym  # noqa: F401  (registers AndroidWorld/<Task>-v0)


def find(elements, **wanted) -> int:
    """Index of the first element of ``info["ui_elements"]`` whose fields equal ``wanted``."""
    return next(e.index for e in elements if all(getattr(e, k) == v for k, v in wanted.items()))


def main() -> None:
    env = gym.make("AndroidWorld/SendSms-v0")
    obs, info = env.reset(seed=0)
    print("goal:", obs["goal"])
    print("screen:", obs["pixels"].shape, "| elements on screen:", len(info["ui_elements"]))
    number, message = info["params"]["number"], info["params"]["message"]
    sms = "com.simplemobiletools.smsmessenger:id/"

    obs, reward, terminated, truncated, info = env.step(
        '{"action_type": "open_app", "app_name": "Simple SMS Messenger"}')
    steps = [
        lambda els: {"action_type": "click", "index": find(els, resource_name=sms + "conversations_fab")},
        lambda els: {"action_type": "input_text", "text": number,
                     "index": find(els, resource_name=sms + "new_conversation_address")},
        lambda els: {"action_type": "click", "index": find(els, resource_name=sms + "new_conversation_confirm")},
        lambda els: {"action_type": "input_text", "text": message,
                     "index": find(els, resource_name=sms + "thread_type_message")},
        lambda els: {"action_type": "click", "index": find(els, text="SMS")},
    ]
    for step in steps:
        action = android_gym.Action.parse(step(info["ui_elements"]))
        obs, reward, terminated, truncated, info = env.step(action.to_json())
        print(f"{action.to_json():90s} reward={reward} invalid={info['invalid_action']}")
    print("solved:", terminated and info["score"] == 1.0)
    env.close()


if __name__ == "__main__":
    main()
