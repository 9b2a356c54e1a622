"""android_gym.distributed, examples/ray_rollouts.py and ``android-gym eval``'s workers on a local Ray instance
(started once for the module): env workers as Ray actors on simulated phones and on a phone served over Debian's
adb."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import adbutils
import gymnasium as gym
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO

import android_gym.distributed as distributed
from android_gym.cli import main
from android_gym.distributed import (
    DeviceSlot,
    DistributedError,
    PolicySpec,
    RolloutWorker,
    WorkerPool,
    rollouts,
)
from android_gym.errors import DeviceSpecError, UnknownTaskError
from android_gym.evaluation import read_results
from android_gym.sim.server import SimServer
from android_gym.tasks.oracle import OracleError
from android_gym.wrappers import make_rl_env

SEND_SMS = "AndroidWorld/SendSms-v0"


@pytest.fixture(scope="module")
def ray_rollouts(load_script):
    return load_script("examples/ray_rollouts.py")


def _save(algorithm, path: Path, **sizes) -> None:
    """An untrained model (seeded) saved on ``make_rl_env``'s SendSms with ``sizes``."""
    env = make_rl_env(SEND_SMS, **sizes)
    try:
        algorithm("MultiInputPolicy", env, n_steps=16, batch_size=16, seed=0).save(path)
    finally:
        env.close()


def _goals(seeds) -> list[str]:
    env = gym.make(SEND_SMS, pixels=False)
    try:
        return [env.reset(seed=seed)[0]["goal"] for seed in seeds]
    finally:
        env.close()


# ----- on Ray ------------------------------------------------------------------------------------------------
def test_oracle_on_two_simulated_phones_solves_every_seed_on_both_actors(local_ray):
    node = local_ray.util.get_node_ip_address()
    summary = rollouts("SendSms", episodes=6, seed=10, devices=["sim", f"sim@{node}"], progress=False)
    assert summary.failed == []
    assert [record.seed for record in summary.records] == list(range(10, 16))
    assert all(record.success and record.score == 1.0 and record.error is None for record in summary.records)
    assert summary.success_rate == 1.0 and summary.mean_steps > 0
    # each seed reset its own task parameters, the same as a local env's
    goals = _goals(range(10, 16))
    assert [record.goal for record in summary.records] == goals and len(set(goals)) == 6
    assert all(record.params["number"] in record.goal for record in summary.records)
    # both actors played; the second was placed through the node's `node:<ip>` resource
    assert {record.actor for record in summary.records} == {0, 1}
    assert [(report.device, report.status, report.node) for report in summary.actors] == [
        ("sim", "ok", node), (f"sim@{node}", "ok", node)]
    assert sum(report.episodes for report in summary.actors) == 6
    assert all(report.episodes == report.successes > 0 for report in summary.actors)
    assert "success rate 1.00 (6/6)" in summary.format()


def test_random_policy_scores_zero_and_depends_on_the_seed_only(local_ray):
    summary = rollouts("SendSms", episodes=4, devices="sim,sim", policy="random", max_steps=5, progress=False)
    assert summary.failed == [] and len(summary.records) == 4
    assert summary.success_rate == 0.0
    assert all(record.total_reward == 0.0 and not record.success and 1 <= record.steps <= 5
               for record in summary.records)
    # the same seeds in this process give the same episodes, whichever actor played them remotely
    local = RolloutWorker(0, SEND_SMS, "sim", PolicySpec("random"), max_steps=5)
    try:
        here = [local.rollout(seed) for seed in range(4)]
    finally:
        local.close()
    assert [(r.goal, r.steps, r.invalid_actions) for r in here] == [
        (r.goal, r.steps, r.invalid_actions) for r in summary.records]


def test_saved_maskable_model_is_shipped_loaded_and_run_with_its_masks(local_ray, tmp_path):
    path = tmp_path / "model.zip"
    _save(MaskablePPO, path)
    summary = rollouts("SendSms", episodes=2, workers=1, policy=path, max_steps=6, progress=False)
    assert summary.policy == str(path) and summary.failed == []
    # an untrained policy does not send the text; the masks keep every one of its actions valid
    assert [record.seed for record in summary.records] == [0, 1]
    assert all(1 <= record.steps <= 6 and not record.success and record.invalid_actions == 0
               for record in summary.records)


def test_one_actor_on_a_phone_served_over_adb_solves_the_oracle_episodes(local_ray, served_phone):
    device = f"adb:{served_phone.serial}"
    summary = rollouts("SendSms", episodes=3, seed=0, devices=[device], progress=False)
    assert summary.failed == []
    assert [(record.seed, record.success, record.device) for record in summary.records] == [
        (0, True, device), (1, True, device), (2, True, device)]
    assert [record.goal for record in summary.records] == _goals(range(3))
    assert [(report.device, report.episodes, report.status) for report in summary.actors] == [(device, 3, "ok")]


def test_an_unreachable_device_is_reported_and_the_other_actors_carry_on(local_ray):
    summary = rollouts("SendSms", episodes=3, devices="sim,adb:no-such-phone", progress=False)
    assert [record.seed for record in summary.records if record.success] == [0, 1, 2]
    assert {record.actor for record in summary.records} == {0}
    status = summary.actors[1].status
    assert status.startswith("failed to start") and "no-such-phone" in status and "not found" in status
    assert summary.actors[1].episodes == 0


def test_no_actor_starting_is_an_error_naming_each_device(local_ray):
    with pytest.raises(distributed.WorkerStartError, match="actor 0 \\(adb:no-such-phone\\) failed to start"):
        rollouts("SendSms", episodes=1, devices="adb:no-such-phone", progress=False)


def test_an_episode_whose_actor_died_is_run_again_on_another(local_ray):
    ray = local_ray
    with WorkerPool("SendSms", workers=2) as pool:
        doomed = pool.actors[1]
        ray.kill(doomed)
        with pytest.raises(ray.exceptions.RayActorError):
            while True:  # until the kill has landed: then the pool's first call to it fails for sure
                ray.get(doomed.describe.remote())
        summary = pool.run(range(4), progress=False)
    assert summary.failed == [] and [record.seed for record in summary.records] == [0, 1, 2, 3]
    assert all(record.success and record.actor == 0 for record in summary.records)
    assert [record.attempts for record in summary.records] == [1, 2, 1, 1]  # seed 1 went to the dead actor first
    assert summary.actors[1].status.startswith("worker died") and summary.actors[1].errors == 1


def test_episodes_no_worker_is_left_for_are_reported_with_their_error(local_ray):
    ray = local_ray
    with WorkerPool("SendSms", workers=1) as pool:
        ray.kill(pool.actors[0])
        with pytest.raises(ray.exceptions.RayActorError):
            while True:
                ray.get(pool.actors[0].describe.remote())
        summary = pool.run(range(2), progress=False)
    assert summary.records == [] and summary.success_rate == 0.0
    assert [(record.seed, record.attempts) for record in summary.failed] == [(0, 1), (1, 0)]
    assert summary.failed[0].error.startswith("worker died")
    assert summary.failed[1].error == "no other worker left to retry on"
    assert "failed: seed 0 after 1 attempt(s): worker died" in summary.format()


def test_a_place_no_node_offers_is_an_error_before_any_actor_starts(local_ray):
    with pytest.raises(DistributedError, match="no node of the Ray cluster offers 'node:203.0.113.9'"):
        rollouts("SendSms", episodes=1, devices="sim@203.0.113.9", progress=False)
    with pytest.raises(DistributedError, match="ray start --resources"):
        rollouts("SendSms", episodes=1, devices="adb:emulator-5554@farm-a", progress=False)


def test_the_example_runs_and_writes_its_records(local_ray, ray_rollouts, tmp_path, capsys):
    out = tmp_path / "records.jsonl"
    status = ray_rollouts.main(["--task", "SendSms", "--episodes", "4", "--workers", "1", "--seed", "3",
                                "--no-progress", "--out", str(out)])
    assert status == 0
    printed = capsys.readouterr().out
    assert "success rate 1.00 (4/4)" in printed and "actor 0 sim" in printed
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(record["seed"], record["success"]) for record in records] == [(3, True), (4, True), (5, True),
                                                                          (6, True)]
    assert local_ray.is_initialized()  # the caller's Ray is left running


def test_episodes_of_a_device_that_breaks_are_retried_elsewhere_and_its_actor_retired(local_ray, adb_server_port):
    """A phone served over adb whose phone is closed once its actor is up: every episode there fails."""
    with SimServer() as server:
        adbutils.AdbClient("127.0.0.1", adb_server_port).wait_for(server.serial, timeout=60)
        with WorkerPool("SendSms", devices=["sim", f"adb:{server.serial}"]) as pool:
            server.phone.close()
            summary = pool.run(range(8), progress=False)
    assert summary.failed == [] and [record.seed for record in summary.records] == list(range(8))
    assert all(record.success and record.actor == 0 for record in summary.records)
    broken = summary.actors[1]
    assert broken.successes == 0 and broken.episodes == broken.errors >= 1  # it got seed 1 first, at least
    # the closed phone's storage is gone: the reset's set-up cannot open the SMS database (its prepare line, which
    # stops the app and goes home, touches no file)
    assert broken.last_error.startswith("TaskSetupError: ") and "unable to open database" in broken.last_error
    assert f"last error: {broken.last_error}" in summary.format()
    assert sum(record.attempts == 2 for record in summary.records) == broken.errors
    # after two failures in a row it is taken out (unless the sim actor finished everything before that)
    assert broken.status == ("retired after 2 failed episodes in a row" if broken.errors == 2 else "ok")


def test_eval_workers_as_ray_actors_pinned_to_this_node(local_ray, tmp_path):
    node = local_ray.util.get_node_ip_address()
    out = tmp_path / "ray"
    assert main(["eval", "ClockStopWatchRunning,SystemWifiTurnOn", "--devices", f"sim@{node},sim@{node}",
                 "--out", str(out)]) == 0
    records = read_results(out / "results.jsonl")
    assert sorted(record["task"] for record in records) == ["ClockStopWatchRunning", "SystemWifiTurnOn"]
    assert all(record["success"] and (out / record["episode_dir"] / "screen.gif").is_file() for record in records)
    assert {record["worker"] for record in records} == {0, 1}


# ----- before Ray --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("devices", "workers", "message"), [
    ("sim,bogus", None, "unknown device 'bogus'"),
    ("sim,,sim", None, "empty entry"),
    ("adb:emulator-5554,adb:emulator-5554", None, "listed twice"),
    ("adb:emulator-5554?colour=red", None, "unknown option"),
    ("adb:emulator-5554@", None, "nothing after '@'"),
    ("sim,sim", 3, "3 workers but 2 devices"),
    (None, 0, "workers must be a positive integer"),
])
def test_a_bad_device_list_fails_before_ray_is_touched(monkeypatch, devices, workers, message):
    monkeypatch.setattr(distributed, "require_ray", lambda: pytest.fail("Ray was touched"))
    with pytest.raises((DeviceSpecError, DistributedError), match=message):
        rollouts("SendSms", episodes=2, devices=devices, workers=workers)


def test_bad_task_policy_or_counts_fail_before_ray_is_touched(monkeypatch, tmp_path):
    monkeypatch.setattr(distributed, "require_ray", lambda: pytest.fail("Ray was touched"))
    with pytest.raises(UnknownTaskError):
        rollouts("SendSmss", episodes=2)
    with pytest.raises(DistributedError, match="neither oracle nor random nor a model file"):
        rollouts("SendSms", episodes=2, policy="greedy")
    (tmp_path / "notes.zip").write_text("not a zip")
    with pytest.raises(DistributedError, match="is not a zip"):
        rollouts("SendSms", episodes=2, policy=tmp_path / "notes.zip")
    with pytest.raises(DistributedError, match="episodes must be a positive integer"):
        rollouts("SendSms", episodes=0)


def test_the_example_reports_bad_configuration_without_starting_ray(ray_rollouts, monkeypatch, capsys):
    monkeypatch.setattr(distributed, "init_ray", lambda *args, **kwargs: pytest.fail("Ray was started"))
    assert ray_rollouts.main(["--devices", "sim,adb:x,adb:x"]) == 2
    assert "error: device adb:x is listed twice" in capsys.readouterr().err
    assert ray_rollouts.main(["--policy", "greedy"]) == 2
    assert "error: policy 'greedy' is neither oracle nor random" in capsys.readouterr().err


def test_missing_ray_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(DistributedError, match=r'pip install -e "\.\[distributed\]"'):
        distributed.require_ray()


def test_a_place_pins_by_node_ip_or_by_custom_resource():
    assert DeviceSlot.parse("adb:emulator-5554@10.0.0.7").resources() == {"node:10.0.0.7": distributed.NODE_SLIVER}
    assert DeviceSlot.parse("adb:10.0.0.7:5555@farm-a").resources() == {"farm-a": 1.0}
    assert DeviceSlot.parse("adb:10.0.0.7:5555").resources() == {}
    # the same serial on two hosts is two devices
    slots = distributed.parse_devices("adb:emulator-5554@10.0.0.7,adb:emulator-5554@10.0.0.8,sim,sim", None)
    assert [str(slot) for slot in slots] == ["adb:emulator-5554@10.0.0.7", "adb:emulator-5554@10.0.0.8", "sim", "sim"]


def test_model_zips_are_told_apart_and_a_model_of_other_sizes_is_refused(tmp_path):
    _save(MaskablePPO, tmp_path / "maskable.zip")
    _save(PPO, tmp_path / "ppo.zip")
    _save(MaskablePPO, tmp_path / "small.zip", max_elements=8)
    assert PolicySpec.parse(tmp_path / "maskable.zip").algorithm == "MaskablePPO"
    ppo = PolicySpec.parse(tmp_path / "ppo.zip")
    assert ppo.algorithm == "PPO"
    worker = RolloutWorker(0, SEND_SMS, "sim", ppo, max_steps=3)
    try:
        record = worker.rollout(0)
    finally:
        worker.close()
    assert record.error is None and 1 <= record.steps <= 3
    with pytest.raises(DistributedError, match="trained on another observation space"):
        RolloutWorker(0, SEND_SMS, "sim", PolicySpec.parse(tmp_path / "small.zip"))


class _LostOracle:
    """An oracle whose UI assumption broke on the first step."""

    def reset(self, env) -> None:
        pass

    def act(self, observation, info):
        raise OracleError("no element on screen matches Selector(text='Send')")


class _PhoneKiller:
    """Closes the env's phone under it, then acts: the device dies in the middle of an episode."""

    def reset(self, env) -> None:
        self.env = env

    def act(self, observation, info):
        self.env.unwrapped.device.close()
        return '{"action_type": "navigate_home"}'


def test_a_worker_reports_failures_as_records_and_tells_policy_failures_from_device_failures(monkeypatch):
    worker = RolloutWorker(3, SEND_SMS, "sim", PolicySpec("oracle"))
    try:
        monkeypatch.setattr(worker, "agent", lambda seed: _LostOracle())
        lost = worker.rollout(5)
        monkeypatch.setattr(worker, "agent", lambda seed: _PhoneKiller())
        broken = worker.rollout(6)
        monkeypatch.undo()
        healed = worker.rollout(7)  # the env opens a new phone at the next reset
    finally:
        worker.close()
    assert (lost.seed, lost.actor, lost.success, lost.retryable) == (5, 3, False, False)
    assert lost.error == "OracleError: no element on screen matches Selector(text='Send')"
    assert (broken.seed, broken.steps, broken.success, broken.retryable) == (6, 1, False, True)
    assert broken.error == "backend error: the simulated phone was closed; create a new env or device"
    assert healed.success and healed.error is None
