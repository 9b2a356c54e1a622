"""Rollouts of one task on a pool of Ray actors: simulated phones, adb devices, or a cluster of emulator hosts.

    python examples/ray_rollouts.py --task SendSms --episodes 40 --workers 4
    python examples/ray_rollouts.py --task SendSms --episodes 40 --devices sim,sim,adb:emulator-5554
    python examples/ray_rollouts.py --task SendSms --episodes 200 --address auto --policy runs/ppo/SendSms/model.zip \\
        --devices adb:emulator-5554@10.0.0.7,adb:emulator-5556@10.0.0.7,adb:emulator-5554@10.0.0.8

Each actor owns one env on one device: ``sim`` (its own simulated phone), ``adb:<serial>`` or ``emulator:<AVD>``;
``@<node IP>`` or ``@<custom resource>`` after a device pins its actor to the host that has it (see
``android_gym.distributed``). Without ``--address`` a local Ray instance is started; ``--address auto`` joins the
cluster of this host (``ray start --head`` / ``ray start --address=HEAD:6379`` on the others), ``ray://HEAD:10001``
goes through Ray Client. Episodes use seeds ``--seed`` … ``--seed + --episodes - 1`` whichever actor runs them; an
episode whose device or actor fails is retried on another actor (``--retries``), then reported as failed.

Prints a progress bar, then the success rate, mean steps, steps/s and each actor's episodes; ``--out`` writes one
JSON line per episode. Exits 1 if any episode failed (a device error, not a policy's failure), 2 on bad
configuration. Needs ``pip install -e ".[distributed]"`` (and ``.[rl]`` for a model policy) on every host.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from android_gym.distributed import require_ray, rollouts
from android_gym.errors import AndroidGymError


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--task", default="SendSms", help="a registered task name or AndroidWorld/<Task>-v0 id")
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--workers", type=int, default=None,
                        help="number of actors (default: one per --devices entry, else 2)")
    parser.add_argument("--devices", default=None,
                        help="comma-separated device of each actor: sim, sim:540x1200, adb:<serial>, "
                             "emulator:<AVD>, each optionally @<node IP> or @<custom resource>")
    parser.add_argument("--policy", default="oracle", help="oracle, random, or the path of a PPO/MaskablePPO zip")
    parser.add_argument("--address", default=None, help="Ray cluster to join (auto, HOST:6379, ray://HOST:10001)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first episode")
    parser.add_argument("--max-steps", type=int, default=None, help="step budget (default: the task's own)")
    parser.add_argument("--retries", type=int, default=1, help="times a failed episode is run again elsewhere")
    parser.add_argument("--cpus-per-worker", type=float, default=1.0,
                        help="CPUs each actor reserves (0.25 suits actors that drive real emulators)")
    parser.add_argument("--out", type=Path, default=None, help="write one JSON line per episode here")
    parser.add_argument("--ray-logs", action="store_true", help="show Ray's logs and the workers' output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.workers is None and args.devices is None:
        args.workers = 2
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rollouts and print the summary; the exit status."""
    args = parse_args(argv)
    ray, started = None, False
    try:
        ray = require_ray()
        started = not ray.is_initialized()  # a caller's own Ray (a notebook, the tests) is left running
        # the task, devices and policy are checked before Ray starts, the placement before any actor does
        summary = rollouts(args.task, args.episodes, seed=args.seed, devices=args.devices, workers=args.workers,
                           policy=args.policy, max_steps=args.max_steps, retries=args.retries,
                           progress=not args.no_progress, cpus_per_worker=args.cpus_per_worker,
                           address=args.address, quiet=not args.ray_logs)
    except AndroidGymError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if started and ray.is_initialized():
            ray.shutdown()
    print(summary.format())
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w") as out:
            for record in sorted(summary.records + summary.failed, key=lambda record: record.seed):
                out.write(json.dumps(asdict(record)) + "\n")
        print(f"wrote {len(summary.records) + len(summary.failed)} records to {args.out}")
    return 1 if summary.failed else 0


if __name__ == "__main__":
    sys.exit(main())
