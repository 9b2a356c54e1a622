"""What a new process pays before its first step: CPU seconds (``time.process_time``) of a fresh interpreter, and of
its env workers, for each scenario, the median of ``--runs`` runs.

  phone      ``from android_gym.sim.phone import Phone; Phone()``
  reset      ``import android_gym; gym.make("AndroidWorld/SendSms-v0").reset()``
  subproc    SB3's ``SubprocVecEnv`` of two SendSms envs (forkserver workers): made and reset, the parent's CPU and
             each worker's (needs the rl extra)

Run it from the checkout to measure, e.g. ``python benchmarks/startup.py --runs 3``. Compiling modules counts
(where ``PYTHONDONTWRITEBYTECODE`` is set, every process compiles what has no up-to-date ``.pyc``): compare
checkouts in the same state, e.g. each with its own warmed ``PYTHONPYCACHEPREFIX``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

SCENARIOS = {
    "phone": """
        from android_gym.sim.phone import Phone
        Phone()
        """,
    "reset": """
        import gymnasium as gym
        import android_gym
        gym.make("AndroidWorld/SendSms-v0").reset(seed=0)
        """,
    "subproc": """
        import time
        import gymnasium as gym
        from stable_baselines3.common.vec_env import SubprocVecEnv

        class Timed(gym.Wrapper):
            def cpu_seconds(self):
                return time.process_time()

        def make_env():
            import android_gym  # noqa: F401  (registers the ids in the worker)
            return Timed(gym.make("AndroidWorld/SendSms-v0"))

        envs = SubprocVecEnv([make_env] * 2, start_method="forkserver")
        envs.reset()
        workers = sum(envs.env_method("cpu_seconds"))
        envs.close()
        """,
}

_MEASURED = """
import json, time
workers = 0.0
{code}
print(json.dumps(time.process_time() + workers))
"""


def cpu_seconds(scenario: str) -> float:
    """CPU seconds of one fresh interpreter running ``scenario`` (its children's included)."""
    code = _MEASURED.format(code=textwrap.dedent(SCENARIOS[scenario]))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("scenarios", nargs="*", metavar="scenario", help=f"of {', '.join(SCENARIOS)} (default: all)")
    args = parser.parse_args()
    if unknown := set(args.scenarios) - set(SCENARIOS):
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
    for scenario in args.scenarios or SCENARIOS:
        runs = [cpu_seconds(scenario) for _ in range(args.runs)]
        print(f"{scenario:8s} median {statistics.median(runs):.2f} s CPU  runs {' '.join(f'{r:.2f}' for r in runs)}")


if __name__ == "__main__":
    main()
