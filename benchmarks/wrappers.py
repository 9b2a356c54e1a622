"""What the agent-facing wrappers cost: env steps/s of SendSms under each wrapper stack, one process.

Each stack plays the same seeded random policy of its own action space (masked for ``ElementActions``).

Usage: python benchmarks/wrappers.py [--steps 300]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import android_gym  # noqa: F401
from android_gym.wrappers import (
    CompressUITree,
    ElementActions,
    ElementFeatureObservation,
    ParseLLMActions,
    PixelObservation,
    SetOfMark,
    TouchGridActions,
    VisitCountHints,
)

ENV_ID = "AndroidWorld/SendSms-v0"


def _plain(pixels: bool) -> gym.Env:
    return gym.make(ENV_ID, pixels=pixels)


STACKS: dict[str, Callable[[], gym.Env]] = {
    "no wrapper, a11y only": lambda: _plain(False),
    "no wrapper, 1080x2400 pixels": lambda: _plain(True),
    "CompressUITree": lambda: CompressUITree(_plain(False)),
    "VisitCountHints (per candidate)": lambda: VisitCountHints(_plain(False), per_candidate=True),
    "SetOfMark (pixels)": lambda: SetOfMark(_plain(True)),
    "LLM stack: compress + SoM + hints + Arena dialect": lambda: ParseLLMActions(
        VisitCountHints(SetOfMark(CompressUITree(_plain(True))), per_candidate=True), dialect="androidarena"),
    "ElementActions + ElementFeatureObservation": lambda: ElementFeatureObservation(ElementActions(_plain(False))),
    "TouchGridActions + PixelObservation (128x64)": lambda: PixelObservation(TouchGridActions(_plain(True))),
}


def _sampler(env: gym.Env, rng: np.random.Generator) -> Callable[[], object]:
    """A random action of the env's own space (masked when it has a mask)."""
    if isinstance(env.action_space, gym.spaces.Discrete):
        try:
            masks = env.get_wrapper_attr("action_masks")
        except AttributeError:
            return lambda: int(rng.integers(env.action_space.n))
        return lambda: int(rng.choice(np.flatnonzero(masks())))
    env.action_space.seed(int(rng.integers(1 << 31)))
    return env.action_space.sample


def steps_per_second(make: Callable[[], gym.Env], steps: int, seed: int = 0) -> float:
    """Env steps per second of a seeded random policy (resets included when episodes end)."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    sample = _sampler(env, rng)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(sample())
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def main() -> None:
    """Print steps/s per stack."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    print(f"{'stack':<52} {'steps/s':>8}")
    for name, make in STACKS.items():
        print(f"{name:<52} {steps_per_second(make, args.steps):>8.0f}")


if __name__ == "__main__":
    main()
