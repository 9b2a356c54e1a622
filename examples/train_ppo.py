"""Train PPO (stable-baselines3) or MaskablePPO (sb3-contrib) on any registered task, and evaluate it on held-out
seeds.

    python examples/train_ppo.py --task OpenAppTaskEval --steps 50000 --out runs/ppo/OpenAppTaskEval
    python examples/train_ppo.py --task SendSms --bc-episodes 100 --steps 50000 --out runs/ppo/SendSms
    python examples/train_ppo.py --task SendSms --ray --ray-address auto \
        --devices adb:emulator-5554@10.0.0.7,adb:emulator-5556@10.0.0.7 --out runs/ppo/SendSms-cluster

The agent sees the RL view of ``android_gym.wrappers.make_rl_env``: one ``Discrete`` action per on-screen element
(tap, long press), keys, scrolls, "type the task's text k", open each app and "complete", with the action mask
MaskablePPO uses, and a ``Dict`` of element features and hashed goal words; ``--max-elements``, ``--text-slots`` and
``--end-penalty`` are its options. ``--policy-net elements`` reads that ``Dict`` with ``RLViewExtractor`` (an encoder
shared by the element rows, one by the text rows) instead of flattening it into the first layers; ``--policy-net
pointer`` (``RLViewPolicy``, MaskablePPO) also scores the ids that act on a slot with one network shared by the
slots, so that a slot is picked for its features (the row the goal names, the key to press next) wherever it sits.
``--workers`` envs run in stable-baselines3's ``SubprocVecEnv``, each its own
simulated phone (or ``--device``); ``--in-process`` steps them in the training process (``DummyVecEnv``); with
``--ray`` they are Ray actors instead
(``android_gym.ray_vec_env.RayVecEnv``), one per ``--devices`` entry, on a cluster with ``--ray-address``. Every
episode draws fresh task parameters: worker ``i``'s env is seeded once with ``seed + i`` and each reset draws the
next parameters from that stream. Evaluation resets with seeds from ``--eval-seed`` on (10,000 by default), a range
training never seeds; the same episodes are played at every evaluation, so the curve compares like with like.

``--bc-episodes N`` first records ``N`` demonstrations of the task's oracle (the UI steps a person takes; seeds from
20,000 on) with ``android-gym record`` into a Minari dataset in ``OUT/demos`` and clones them: the policy learns
the oracle's actions (under the same action masks), the value head the discounted return; then PPO goes on from
there. ``--bc-dataset ID`` clones a dataset recorded before. Sparse tasks that random exploration never solves
(SendSms: 0 of 200 random episodes) need it. ``android-gym record`` records on ``make_rl_env``'s default sizes, so
cloning needs ``--max-elements`` and ``--text-slots`` at theirs (other sizes are an error before cloning).

Writes to ``--out``: ``model.zip`` (load with ``MaskablePPO.load`` / ``PPO.load``; run it on the same view,
``make_rl_env(env_id, **summary["view_kwargs"])``), ``curve.png`` (success rate vs env steps: held-out, greedy and
sampling, and training), ``curve.csv``, ``summary.json`` and stable-baselines3's training log in ``tb/``
(TensorBoard event files and ``progress.csv``; the csv alone without the ``tensorboard`` package).
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO
from stable_baselines3.common import logger as sb3_logger
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
from tqdm import tqdm

import android_gym
from android_gym.agents import ModelAgent
from android_gym.datasets import SUCCESS, datasets_root, default_dataset_id, record_dataset
from android_gym.testing import run_episode
from android_gym.wrappers import MultiTaskRLEnv, make_rl_env
from android_gym.wrappers.rl_extractor import RLViewExtractor, RLViewPolicy

ALGORITHMS: dict[str, type[BaseAlgorithm]] = {"maskable": MaskablePPO, "ppo": PPO}
#: ``--policy-net``: the policy and its keyword arguments. mlp: SB3's ``MultiInputPolicy``, the view's ~9,200
#: numbers flattened into the first layers (1.25M parameters with the view's defaults); elements: the same with
#: ``RLViewExtractor``, one encoder shared by the element rows and one by the text rows (0.19M); pointer:
#: ``RLViewPolicy``, that extractor and the slots' ids scored by one network shared by the slots (MaskablePPO only).
POLICY_NETS: dict[str, tuple[str | type, dict[str, Any]]] = {
    "mlp": ("MultiInputPolicy", {}), "elements": ("MultiInputPolicy", {"features_extractor_class": RLViewExtractor}),
    "pointer": (RLViewPolicy, {})}
#: Behaviour cloning's Adam step size. At 1e-3 some starts of the MLP stall with two steps' actions tied (SendSms,
#: ContactsAddContact: training accuracy 0.83 on seed 0, 1.00 on seeds 1 and 2; at 3e-4 on all three); at 3e-3 every
#: seed tried fits every step.
BC_LEARNING_RATE = 3e-3
#: PPO's trust region: an update stops its epochs once the policy has moved this far (approximate KL) from the one
#: that collected the rollout. After cloning nearly every episode succeeds, the normalized advantages are mostly
#: noise, and without it the first update of the pointer policy moved 1.8 nats (ClockStopWatchRunning: sampling
#: success 1.00 → 0.30 in 4,096 steps; 1.00 with it).
TARGET_KL = 0.02
DEMONSTRATION_SEED = 20_000  # --bc-episodes records seeds from here: neither training's streams nor held-out seeds


class Demonstration(NamedTuple):
    """One oracle step for behaviour cloning."""

    observation: dict[str, np.ndarray]
    action: int
    mask: np.ndarray
    value: float  # the discounted return from this step on


@dataclass
class CurvePoint:
    """One evaluation after ``env_steps`` training steps: held-out success of the greedy policy (always the most
    likely action; it can loop on a screen forever) and of the sampling one, and training episodes since the last."""

    env_steps: int
    wall_seconds: float
    eval_success: float
    eval_mean_steps: float
    eval_success_sampled: float
    train_success: float | None
    train_episodes: int


def evaluate(model: BaseAlgorithm, env: gym.Env, seeds: Sequence[int], deterministic: bool = True
             ) -> tuple[float, float]:
    """Success rate and mean episode length of the policy (greedy, or sampling), one episode per seed."""
    agent = ModelAgent(model, deterministic)
    episodes = [run_episode(env, agent, seed=seed) for seed in seeds]
    successes = sum(episode.total_reward >= SUCCESS for episode in episodes)
    return successes / len(seeds), float(np.mean([episode.steps for episode in episodes]))


def per_task_success(model: BaseAlgorithm, env_ids: Sequence[str], seeds: Sequence[int],
                     view_kwargs: dict[str, Any], device: str | None) -> dict[str, dict[str, float]]:
    """A multi-task policy's held-out success on each task alone, greedy and sampling."""
    results = {}
    for env_id in env_ids:
        env = make_rl_env(env_id, device=device, **view_kwargs)
        greedy, sampled = evaluate(model, env, seeds)[0], evaluate(model, env, seeds, deterministic=False)[0]
        results[env_id] = {"greedy": greedy, "sampled": sampled}
        env.close()
    return results


def load_demonstrations(dataset_id: str, data_path: Path | None = None, gamma: float = 0.99) -> list[Demonstration]:
    """Every step of a Minari dataset of the RL view (``android-gym record``'s default): observation, action id,
    the action mask it was chosen under and the discounted return from there."""
    import minari

    with datasets_root(data_path):
        dataset = minari.load_dataset(dataset_id)
    samples = []
    for episode in dataset.iterate_episodes():
        returns = np.zeros(len(episode.actions))
        for t in reversed(range(len(episode.actions))):
            returns[t] = episode.rewards[t] + (gamma * returns[t + 1] if t + 1 < len(returns) else 0.0)
        samples += [Demonstration({key: rows[t] for key, rows in episode.observations.items()},
                                  int(episode.actions[t]), episode.infos["action_mask"][t], float(returns[t]))
                    for t in range(len(episode.actions))]
    return samples


def check_demonstrations(samples: Sequence[Demonstration], model: BaseAlgorithm, dataset_id: str) -> None:
    """Raise ``AndroidGymError`` if the demonstrations were recorded on an RL view of other sizes than the model's
    (their action ids would mean other actions)."""
    recorded = {key: value.shape for key, value in samples[0].observation.items()}
    expected = {key: space.shape for key, space in model.observation_space.spaces.items()}
    if recorded != expected or len(samples[0].mask) != model.action_space.n:
        raise android_gym.AndroidGymError(
            f"dataset {dataset_id} was recorded on another RL view ({len(samples[0].mask)} actions, observations "
            f"{recorded}) than this run's ({model.action_space.n} actions, {expected}): record it with the same "
            "--max-elements and --text-slots, or train with the sizes it was recorded with")


def behaviour_clone(model: BaseAlgorithm, samples: Sequence[Demonstration], epochs: int, batch_size: int = 64,
                    lr: float = BC_LEARNING_RATE) -> float:
    """Fit the policy to the demonstrations' actions (cross-entropy) and the value head to their returns;
    returns the final training accuracy of the greedy action."""
    policy = model.policy
    # fused: one update for all the parameters at once, half the CPU of Adam's default loop over them (on CPU)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr, fused=True)
    observations = {key: np.stack([sample.observation[key] for sample in samples]) for key in samples[0].observation}
    actions = torch.as_tensor([sample.action for sample in samples])
    masks = np.stack([sample.mask for sample in samples])
    returns = torch.as_tensor([sample.value for sample in samples], dtype=torch.float32)
    rng = np.random.default_rng(0)
    masked = isinstance(model, MaskablePPO)
    policy.set_training_mode(True)
    for _ in tqdm(range(epochs), desc="behaviour cloning", unit="epoch"):
        for batch in np.array_split(rng.permutation(len(samples)), -(-len(samples) // batch_size)):
            obs, _ = policy.obs_to_tensor({key: value[batch] for key, value in observations.items()})
            extra = {"action_masks": masks[batch]} if masked else {}
            values, log_prob, _ = policy.evaluate_actions(obs, actions[batch], **extra)
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(observations)
        distribution = policy.get_distribution(obs, **({"action_masks": masks} if masked else {}))
        greedy = distribution.distribution.probs.argmax(dim=1)
    return float((greedy == actions).float().mean())


class HeldOutEvaluation(BaseCallback):
    """Every ``every`` env steps, evaluate on the held-out seeds and note training episodes' success."""

    def __init__(self, env: gym.Env, seeds: Sequence[int], every: int, start: float) -> None:
        super().__init__()
        self.env, self.seeds, self.every, self.start = env, seeds, every, start
        self.points: list[CurvePoint] = []
        self._next, self._train_results = every, []

    def record(self, env_steps: int) -> CurvePoint:
        """Evaluate now and append a curve point."""
        success, mean_steps = evaluate(self.model, self.env, self.seeds)
        sampled, _ = evaluate(self.model, self.env, self.seeds, deterministic=False)
        train = self._train_results
        point = CurvePoint(env_steps, round(time.perf_counter() - self.start, 1), success, mean_steps, sampled,
                           float(np.mean(train)) if train else None, len(train))
        self._train_results = []
        self.points.append(point)
        train_text = "-" if point.train_success is None else f"{point.train_success:.2f} ({len(train)} episodes)"
        print(f"steps {env_steps:>8,}  held-out success {success:.2f} (sampling {sampled:.2f})  mean steps "
              f"{mean_steps:4.1f}  training success {train_text}  {point.wall_seconds:7.1f} s", flush=True)
        return point

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:  # Monitor's summary of a finished training episode
                self._train_results.append(info["episode"]["r"] >= SUCCESS)
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.record(self.num_timesteps)
        return True


def training_logger(folder: Path) -> sb3_logger.Logger:
    """stable-baselines3's training log in ``folder`` (replacing a previous run's): ``progress.csv`` and TensorBoard
    event files, or the csv alone when the ``tensorboard`` package is missing."""
    for old in folder.glob("events.out.tfevents.*"):
        old.unlink()
    if sb3_logger.SummaryWriter is None:
        print(f"tensorboard is not installed: the training log is {folder / 'progress.csv'} only", flush=True)
        return sb3_logger.configure(str(folder), ["csv"])
    return sb3_logger.configure(str(folder), ["csv", "tensorboard"])


def plot_curve(points: Sequence[CurvePoint], path: Path, title: str) -> None:
    """Save success rate vs env steps (held-out evaluation, and training episodes) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    steps = [point.env_steps for point in points]
    axes.plot(steps, [point.eval_success for point in points], marker="o", label="held-out seeds, greedy")
    axes.plot(steps, [point.eval_success_sampled for point in points], marker="s", label="held-out seeds, sampling")
    train = [(point.env_steps, point.train_success) for point in points if point.train_success is not None]
    if train:
        axes.plot(*zip(*train), marker=".", linestyle="--", label="training episodes")
    axes.set(xlabel="env steps", ylabel="success rate", ylim=(-0.03, 1.03), title=title)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


#: ``--test-conditions``: the env arguments of each condition a trained policy is tested under.
TEST_CONDITIONS: dict[str, dict[str, Any]] = {
    "default": {},  # AndroidWorld's phone as it comes
    "train": {"device_config": "train"},  # configurations drawn as in training
    "heldout": {"device_config": "heldout"},  # each with a phone, font size or language training never showed
    "distractors": {"device_config": "train", "distractors": 0.1},  # notifications, prompts and warnings arrive
    # AndroidWorld's phone with one held-out value alone: which of them a policy does not carry over to
    "pixel_4a": {"device_config": {"phone": "pixel_4a"}},
    "pixel_tablet": {"device_config": {"phone": "pixel_tablet"}},
    "largest_font": {"device_config": {"font_scale": 1.3}},
    "french": {"device_config": {"language": "fr-FR"}},
}


def test_under_conditions(model: BaseAlgorithm, env_id: str, names: Sequence[str], seeds: Sequence[int],
                          view_kwargs: dict[str, Any], device: str | None) -> dict[str, dict[str, float]]:
    """Greedy and sampled success of ``model`` on held-out seeds under each named ``TEST_CONDITIONS`` entry."""
    results = {}
    for name in names:
        env = make_rl_env(env_id, device=device, **view_kwargs, **TEST_CONDITIONS[name])
        results[name] = {"greedy": evaluate(model, env, seeds)[0],
                         "sampled": evaluate(model, env, seeds, deterministic=False)[0]}
        env.close()
    return results


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--task", default="SendSms",
                        help="a registered task name or AndroidWorld/<Task>-v0 id; several, comma-separated, train "
                             "one policy on all (MultiTaskRLEnv: one task per episode; held-out success per task)")
    parser.add_argument("--algo", choices=sorted(ALGORITHMS), default="maskable",
                        help="maskable: sb3-contrib's MaskablePPO (uses the action mask); ppo: stable-baselines3's PPO")
    parser.add_argument("--steps", type=int, default=50_000, help="training env steps (all workers)")
    parser.add_argument("--workers", type=int, default=2, help="SubprocVecEnv workers, one phone each")
    parser.add_argument("--in-process", action="store_true",
                        help="step the workers' phones in the training process (SB3's DummyVecEnv) instead of one "
                             "process each (not with --ray): no pipes or pickling per step; on 2 cores SendSms "
                             "trained faster so")
    parser.add_argument("--device", default=None,
                        help="device spec of every worker (none: each worker its own simulated phone)")
    parser.add_argument("--ray", action="store_true", help="run the workers as Ray actors (RayVecEnv), e.g. on a "
                                                          "cluster of emulator hosts; needs the distributed extra")
    parser.add_argument("--devices", help="with --ray: one actor per device, e.g. adb:emulator-5554@10.0.0.7,sim")
    parser.add_argument("--ray-address", help="with --ray: the cluster to join (auto, ray://HOST:10001; none starts "
                                              "a local Ray)")
    parser.add_argument("--cpus-per-worker", type=float, default=1.0,
                        help="with --ray: CPUs each actor reserves (0.25 suits actors that drive real emulators)")
    parser.add_argument("--max-elements", type=int, default=64,
                        help="on-screen elements the RL view gives actions and features (make_rl_env's max_elements)")
    parser.add_argument("--text-slots", type=int, default=96,
                        help="texts the RL view can type (make_rl_env's text_slots)")
    parser.add_argument("--end-penalty", type=float, default=0.1,
                        help="reward for ending an episode unsuccessfully is minus this (make_rl_env's end_penalty)")
    parser.add_argument("--device-config", help="configure the phone per episode while training, recording and "
                                                "evaluating: 'train' or 'heldout' (android_gym.device.config)")
    parser.add_argument("--test-conditions", default="",
                        help="after training, held-out success under each of these comma-separated conditions: "
                             f"{', '.join(TEST_CONDITIONS)}")
    parser.add_argument("--seed", type=int, default=0, help="training seed; worker i's env is seeded seed + i")
    parser.add_argument("--eval-seed", type=int, default=10_000, help="first held-out evaluation seed")
    parser.add_argument("--eval-episodes", type=int, default=50, help="held-out episodes (seeds) per evaluation")
    parser.add_argument("--eval-every", type=int, default=5_000, help="env steps between evaluations")
    parser.add_argument("--bc-episodes", type=int, default=0,
                        help="record this many oracle demonstrations (Minari, in OUT/demos) and clone them first")
    parser.add_argument("--bc-dataset", help="clone an existing `android-gym record` dataset (Minari id) first")
    parser.add_argument("--bc-epochs", type=int, default=200, help="behaviour cloning epochs over the demonstrations")
    parser.add_argument("--bc-lr", type=float, default=BC_LEARNING_RATE, help="behaviour cloning's Adam step size")
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="PyTorch threads for the policy (1 leaves the other cores to the env workers; more "
                             "threads than free cores made each PPO update 18x slower on 2 cores)")
    parser.add_argument("--policy-net", choices=sorted(POLICY_NETS), default=None,
                        help="the policy (none: pointer with --algo maskable, mlp with --algo ppo): mlp flattens the "
                             "view into the first layers (SB3's MultiInputPolicy as it comes); elements encodes each "
                             "element and text row with weights shared across the slots (RLViewExtractor): a "
                             "cheaper update; pointer also scores every slot's ids with one network shared by the "
                             "slots (RLViewPolicy, --algo maskable): what the clone learns of one slot holds for all")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per worker")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="PPO entropy coefficient")
    parser.add_argument("--target-kl", type=float, default=TARGET_KL,
                        help="stop an update's epochs once the policy is this far (approximate KL) from the one "
                             "that collected the rollout (SB3's target_kl)")
    parser.add_argument("--batch-size", type=int, default=64, help="PPO minibatch size")
    parser.add_argument("--n-epochs", type=int, default=10,
                        help="PPO passes over each rollout (the update's CPU grows with epochs / batch size)")
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"),
                        help="output folder: model.zip, curve.png, curve.csv, summary.json, tb/")
    args = parser.parse_args(argv)
    args.policy_net = args.policy_net or ("pointer" if args.algo == "maskable" else "mlp")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, save; returns the summary it writes."""
    args = parse_args(argv)
    if (args.devices or args.ray_address) and not args.ray:
        raise android_gym.AndroidGymError("--devices and --ray-address are for Ray workers: add --ray")
    if args.policy_net == "pointer" and args.algo != "maskable":
        raise android_gym.AndroidGymError("--policy-net pointer is MaskablePPO's policy: use --algo maskable, or "
                                          "--policy-net mlp or elements with --algo ppo")
    tasks = [name.strip().removeprefix(f"{android_gym.NAMESPACE}/").removesuffix("-v0")
             for name in args.task.split(",")]
    env_ids = [android_gym.env_id(android_gym.get_task(task).name) for task in tasks]
    env_id, task = env_ids[0], ",".join(tasks)
    if len(env_ids) > 1 and args.ray:
        raise android_gym.AndroidGymError("--ray trains one task: give --task a single task")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.torch_threads)
    view_kwargs = {"max_elements": args.max_elements, "text_slots": args.text_slots, "end_penalty": args.end_penalty}
    conditions = [name for name in args.test_conditions.split(",") if name]
    unknown = sorted(set(conditions) - set(TEST_CONDITIONS))
    if unknown:
        raise android_gym.AndroidGymError(f"unknown --test-conditions {unknown}; choose from {list(TEST_CONDITIONS)}")
    configured = {"device_config": args.device_config} if args.device_config else {}
    # a partial of an importable function pickles by reference, so the subprocess workers can rebuild it
    make = partial(make_rl_env, env_id, device=args.device, **view_kwargs, **configured) if len(env_ids) == 1 else \
        partial(MultiTaskRLEnv, env_ids, device=args.device, **view_kwargs, **configured)
    eval_env = make()
    eval_seeds = list(range(args.eval_seed, args.eval_seed + args.eval_episodes))
    start = time.perf_counter()
    if args.ray:
        from android_gym.ray_vec_env import RayVecEnv

        workers = RayVecEnv(env_id, devices=args.devices, workers=None if args.devices else args.workers,
                            address=args.ray_address, cpus_per_worker=args.cpus_per_worker, view_kwargs=view_kwargs)
        workers.seed(args.seed)
    else:
        workers = make_vec_env(make, n_envs=args.workers, seed=args.seed,
                               vec_env_cls=DummyVecEnv if args.in_process else SubprocVecEnv)
    # fused: Adam updates all the parameters in one kernel instead of a loop over them (SB3's eps kept)
    policy, net_kwargs = POLICY_NETS[args.policy_net]
    policy_kwargs = {**net_kwargs, "optimizer_kwargs": {"eps": 1e-5, "fused": True}}
    model = ALGORITHMS[args.algo](policy, workers, n_steps=args.n_steps, batch_size=args.batch_size,
                                  n_epochs=args.n_epochs, ent_coef=args.ent_coef, target_kl=args.target_kl,
                                  seed=args.seed, verbose=0,
                                  device="cpu", policy_kwargs=policy_kwargs)
    parameters = sum(parameter.numel() for parameter in model.policy.parameters())
    model.set_logger(training_logger(args.out / "tb"))  # else SB3 makes an empty /tmp/SB3-* folder per run
    print(f"{args.algo} on {env_id}: {args.policy_net} policy ({parameters:,} parameters), {args.workers} workers, "
          f"{args.steps:,} steps, held-out seeds {eval_seeds[0]}..{eval_seeds[-1]}", flush=True)
    bc_accuracy, bc_datasets = None, [args.bc_dataset] if args.bc_dataset else []
    if args.bc_episodes:  # each task's demonstrations, cloned together
        bc_datasets = [default_dataset_id(one) for one in env_ids]
        for one, dataset_id in zip(env_ids, bc_datasets):
            recorded = record_dataset(one, args.bc_episodes, seed=DEMONSTRATION_SEED, dataset_id=dataset_id,
                                      data_path=args.out / "demos", overwrite=True,
                                      device_config=args.device_config)
            print(recorded.summary())
    bc_dataset = ",".join(bc_datasets) or None
    if bc_datasets:
        demonstrations = [sample for dataset_id in bc_datasets for sample in
                          load_demonstrations(dataset_id, args.out / "demos" if args.bc_episodes else None)]
        check_demonstrations(demonstrations, model, bc_dataset)
        bc_accuracy = behaviour_clone(model, demonstrations, args.bc_epochs, lr=args.bc_lr)
        print(f"behaviour cloning: {len(demonstrations)} oracle steps, training accuracy {bc_accuracy:.3f}")
    evaluation = HeldOutEvaluation(eval_env, eval_seeds, args.eval_every, start)
    evaluation.init_callback(model)
    evaluation.record(0)
    model.learn(total_timesteps=args.steps, callback=evaluation)
    model.logger.close()
    if evaluation.points[-1].env_steps != model.num_timesteps:
        evaluation.record(model.num_timesteps)
    wall = time.perf_counter() - start
    workers.close()
    eval_env.close()
    per_task = {} if len(env_ids) == 1 else per_task_success(model, env_ids, eval_seeds, view_kwargs, args.device)
    tested = test_under_conditions(model, env_id, conditions, eval_seeds, view_kwargs, args.device)

    model.save(args.out / "model.zip")
    with open(args.out / "curve.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(evaluation.points[0])))
        writer.writeheader()
        writer.writerows(asdict(point) for point in evaluation.points)
    cloned = f" after cloning {bc_dataset}" if bc_dataset else ""
    plot_curve(evaluation.points, args.out / "curve.png", f"{ALGORITHMS[args.algo].__name__} on {task}{cloned}")
    final = evaluation.points[-1]
    summary = {"env_id": env_id if len(env_ids) == 1 else env_ids, "per_task": per_task, "algo": args.algo,
               "workers": workers.num_envs, "in_process": args.in_process, "ray": args.ray,
               "device_config": args.device_config, "test_conditions": tested,
               "view_kwargs": view_kwargs,
               "ppo_kwargs": {"n_steps": args.n_steps, "batch_size": args.batch_size, "n_epochs": args.n_epochs,
                              "ent_coef": args.ent_coef, "target_kl": args.target_kl},
               "policy_net": args.policy_net, "policy_parameters": parameters,
               "env_steps": model.num_timesteps,
               "wall_seconds": round(wall, 1), "bc_dataset": bc_dataset, "bc_accuracy": bc_accuracy,
               "held_out_seeds": [eval_seeds[0], eval_seeds[-1]], "final_held_out_success": final.eval_success,
               "final_held_out_success_sampled": final.eval_success_sampled,
               "best_held_out_success": max(point.eval_success for point in evaluation.points),
               "final_mean_steps": final.eval_mean_steps, "seed": args.seed,
               "machine": f"{platform.machine()}, {torch.get_num_threads()} torch threads, "
                          f"python {platform.python_version()}"}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"done in {wall:.0f} s: held-out success {final.eval_success:.2f} (sampling "
          f"{final.eval_success_sampled:.2f}) after {model.num_timesteps:,} steps; "
          f"model, curve.png, curve.csv, summary.json and the training log (tb/) in {args.out}")
    return summary


if __name__ == "__main__":
    main()
