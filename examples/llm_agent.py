"""An LLM-agent loop on the simulated phone: build the prompt an LLM sees, read its reply as the action.

    python examples/llm_agent.py [--task SimpleSmsReply] [--dialect androidarena] [--seed 0] [--show-prompt]

No language model ships with android_gym, so ``stand_in_model`` plays one: it writes the task oracle's next
action in the chosen dialect, with a line of reasoning in front, as a model would. Where a dialect cannot say
an oracle step exactly it does what a model using that dialect must: AndroidArena's ``set_text`` clears the
field before typing, AppAgent's ``text()`` types into the focused field (so it taps the field first). Replace it
with a call to your model; everything else stays.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import replace

import gymnasium as gym

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.tasks.oracle import OraclePolicy
from android_gym.wrappers import CompressUITree, ParseLLMActions, SetOfMark, VisitCountHints

Model = Callable[[str], str]


def make_env(task: str, dialect: str) -> gym.Env:
    """The task with what an LLM agent reads: compressed UI, numbered screenshot, visit-count hints."""
    env = gym.make(android_gym.env_id(task))
    env = VisitCountHints(SetOfMark(CompressUITree(env)), per_candidate=True)
    return ParseLLMActions(env, dialect=dialect)


def build_prompt(observation: dict, syntax: str) -> str:
    """The text part of the prompt (send ``observation["som_pixels"]`` along as the image)."""
    return (f"You operate an Android phone to reach this goal:\n{observation['goal']}\n\n"
            f"The screen, as UI text:\n{observation['ui_text']}\n\n{observation['exploration_hint']}\n\n"
            f"How to write your action:\n{syntax}")


def stand_in_model(env: gym.Env) -> Model:
    """A 'model' that answers every prompt with the oracle's next action in the env's dialect."""
    wrapper = env  # the ParseLLMActions wrapper: it knows the dialect and the screen the reply is read against
    policy = OraclePolicy(env.unwrapped.task.oracle())
    pending: list[Action] = []

    def say(action: Action) -> str | None:
        return wrapper.dialect.format(action, wrapper.screen)

    def reply(prompt: str) -> str:
        action = pending.pop() if pending else policy.act(wrapper.screen.elements)
        written = say(action)
        if written is None and action.action_type is ActionType.INPUT_TEXT and action.index is not None:
            written = say(replace(action, clear_text=True))  # AndroidArena: set_text clears, then types
            if written is None:  # AppAgent: tap the field now, type into it next time
                pending.append(replace(action, index=None))
                written = say(Action(ActionType.CLICK, index=action.index))
        if written is None:
            return f"I cannot write {action.to_json()} in this dialect."
        return f"Thought: the next step of the plan.\nAction: {written}"

    return reply


def main() -> None:
    """Run one episode and print each reply with what came of it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="SimpleSmsReply")
    parser.add_argument("--dialect", default="androidarena", choices=("androidworld", "androidarena", "appagent"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show-prompt", action="store_true", help="print the first prompt in full")
    args = parser.parse_args()
    env = make_env(args.task, args.dialect)
    observation, info = env.reset(seed=args.seed)
    model = stand_in_model(env)
    print(f"goal: {env.unwrapped.task.goal}")
    if args.show_prompt:
        print(build_prompt(observation, env.prompt))
    terminated = truncated = False
    while not (terminated or truncated):
        reply = model(build_prompt(observation, env.prompt))
        observation, reward, terminated, truncated, info = env.step(reply)
        print(f"{reply.splitlines()[-1]!s:60.60}  reward={reward:.2f}  invalid={info['invalid_action']}")
    print(f"score: {info['score']:.2f}  unreadable replies: {info['invalid_format_count']}  "
          f"invalid actions: {info['invalid_action_count']}")
    env.close()


if __name__ == "__main__":
    main()
