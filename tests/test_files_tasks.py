"""Files tasks: AndroidWorld's parameters and setup, strict checks (the wrong file deleted, a move to another folder,
a copy instead of a move or a touched noise file all score 0), and oracles that scroll long folders."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device.config import DeviceConfig
from android_gym.tasks.files import files_in, tree_snapshot
from android_gym.tasks.user_data import EMULATOR_DIRECTORIES
from android_gym.testing import run_episode

STORAGE = "/storage/emulated/0"


def params(task: str, seed: int) -> dict:
    return android_gym.get_task(task).generate_params(np.random.default_rng(seed))


def sh(env: gym.Env, command: str) -> None:
    assert env.unwrapped.device.shell(command).ok


def score(env: gym.Env) -> float:
    return env.unwrapped.task.is_successful(env.unwrapped.device)


@pytest.mark.parametrize("seed", range(6))
def test_parameters_follow_androidworld(seed):
    delete = params("FilesDeleteFile", seed)
    folder = delete["subfolder"]
    assert folder in EMULATOR_DIRECTORIES and delete["noise_candidates"] == list(EMULATOR_DIRECTORIES[folder])
    assert delete["file_name"].endswith(EMULATOR_DIRECTORIES[folder][0].rpartition(".")[2])
    assert 1 <= len(delete["noise_files"]) <= 20 and delete["file_name"] not in delete["noise_files"]
    assert all("." in name for name in delete["noise_files"])
    assert all(len(content) == 20 and content.isalnum() for content in delete["noise_files"].values())
    move = params("FilesMoveFile", seed)
    assert move["source_folder"] != move["destination_folder"]
    assert move["file_name"] in EMULATOR_DIRECTORIES[move["destination_folder"]]
    assert move["noise_candidates"] == list(EMULATOR_DIRECTORIES[move["source_folder"]])
    assert move["file_name"] not in move["noise_files"]


def test_goals_are_androidworld_templates(reset_task):
    pinned = params("FilesMoveFile", 3)
    env, _ = reset_task("FilesMoveFile", params=pinned)
    goal = env.unwrapped.task.goal
    assert goal == (f"Move the file {pinned['file_name']} from {pinned['source_folder']} within the sdk_gphone_x86_64 "
                    f"storage area to the {pinned['destination_folder']} within the same sdk_gphone_x86_64 storage "
                    "area in the Android filesystem.")


def test_delete_setup_writes_the_file_and_noise_with_echo_and_clears_other_files(reset_task):
    pinned = params("FilesDeleteFile", 1)
    first, _ = reset_task("FilesDeleteFile", params=pinned)
    sh(first, "echo stray > /sdcard/Download/stray.txt")
    first.reset(options={"params": pinned})
    folder = f"{STORAGE}/{pinned['subfolder']}"
    device = first.unwrapped.device
    assert device.pull(f"{folder}/{pinned['file_name']}") == f"{pinned['file_content']}\n".encode()
    files = set(files_in(tree_snapshot(device, folder)))
    assert files == {pinned["file_name"], *pinned["noise_files"]}
    assert not device.shell("ls /sdcard/Download/stray.txt").ok
    assert score(first) == 0.0


def test_deleting_the_file_scores_and_deleting_a_noise_file_instead_does_not(reset_task):
    pinned = params("FilesDeleteFile", 2)
    folder = f"{STORAGE}/{pinned['subfolder']}"
    noise = sorted(pinned["noise_files"])[0]
    task, _ = reset_task("FilesDeleteFile", params=pinned)
    sh(task, f"rm '{folder}/{noise}'")
    assert score(task) == 0.0
    sh(task, f"rm '{folder}/{pinned['file_name']}'")
    assert score(task) == 0.0  # the target is gone, but so is a noise file
    task.reset(options={"params": pinned})
    sh(task, f"rm '{folder}/{pinned['file_name']}'")
    assert score(task) == 1.0
    sh(task, f"echo changed > '{folder}/{noise}'")
    assert score(task) == 0.0  # a changed noise file


def test_move_checks_source_destination_and_noise(reset_task):
    pinned = params("FilesMoveFile", 4)
    source, destination = f"{STORAGE}/{pinned['source_folder']}", f"{STORAGE}/{pinned['destination_folder']}"
    wrong = next(folder for folder in EMULATOR_DIRECTORIES
                 if folder not in (pinned["source_folder"], pinned["destination_folder"]))
    name = pinned["file_name"]
    task, _ = reset_task("FilesMoveFile", params=pinned)
    sh(task, f"mkdir -p '{STORAGE}/{wrong}' && mv '{source}/{name}' '{STORAGE}/{wrong}/'")
    assert score(task) == 0.0  # moved to the wrong folder
    task.reset(options={"params": pinned})
    sh(task, f"cp '{source}/{name}' '{destination}/'")
    assert score(task) == 0.0  # copied, not moved
    task.reset(options={"params": pinned})
    noise = sorted(pinned["noise_files"])[0]
    sh(task, f"mv '{source}/{name}' '{source}/{noise}' '{destination}/'")
    assert score(task) == 0.0  # a noise file went along
    task.reset(options={"params": pinned})
    sh(task, f"mv '{source}/{name}' '{destination}/'")
    assert score(task) == 1.0


def test_the_oracle_deletes_through_the_app_and_leaves_the_noise(reset_task):
    pinned = params("FilesDeleteFile", 5)
    task, _ = reset_task("FilesDeleteFile", params=pinned)
    folder = f"{STORAGE}/{pinned['subfolder']}"
    before = tree_snapshot(task.unwrapped.device, folder)
    result = run_episode(task, OracleAgent(), options={"params": pinned})
    after = tree_snapshot(task.unwrapped.device, folder)
    assert result.score == 1.0 and not result.invalid_actions
    assert after == {path: digest for path, digest in before.items() if path != pinned["file_name"]}


def last_in_a_full_folder(task: str, seed: int) -> dict:
    """Parameters with 20 noise files named "aNN_…", the target sorting after all of them (the bottom of a long
    list): a delete target is renamed "zz_last", a move target (a typical file name) already sorts later."""
    pinned = params(task, seed)
    candidates = pinned["noise_candidates"]
    extension = candidates[0].rpartition(".")[2]
    pinned["noise_files"] = {f"a{i:02d}_{candidates[i % len(candidates)]}": f"noise{i:015d}" for i in range(20)}
    if task == "FilesDeleteFile":
        pinned["file_name"] = f"zz_last.{extension}"
    return pinned


@pytest.mark.parametrize("task", ["FilesDeleteFile", "FilesMoveFile"])
def test_oracles_scroll_to_a_file_at_the_bottom_of_a_long_folder_within_budget(reset_task, task):
    pinned = last_in_a_full_folder(task, 7)
    made, _ = reset_task(task, params=pinned)
    result = run_episode(made, OracleAgent(), options={"params": pinned})
    assert result.score == 1.0 and not result.invalid_actions
    without_scrolling = 8 if task == "FilesDeleteFile" else 12  # taps, the list view switch and a long press
    assert without_scrolling + 2 <= result.steps <= made.unwrapped.task.max_steps()


def test_the_move_oracle_uses_the_picker_and_moves_exactly_one_file(reset_task):
    pinned = params("FilesMoveFile", 8)
    task, _ = reset_task("FilesMoveFile", params=pinned)
    device = task.unwrapped.device
    source = f"{STORAGE}/{pinned['source_folder']}"
    result = run_episode(task, OracleAgent(), options={"params": pinned})
    assert result.score == 1.0
    assert device.pull(f"{STORAGE}/{pinned['destination_folder']}/{pinned['file_name']}") == \
        f"{pinned['file_content']}\n".encode()
    files = set(files_in(tree_snapshot(device, source)))
    assert files == set(pinned["noise_files"])


def test_the_move_oracle_scrolls_the_roots_drawer_to_the_storage_on_a_small_phone_with_large_text(reset_task):
    """On the small phone at font scale 1.3 the drawer's roots list is taller than the drawer: the device's storage
    row is below its fold, so the list scrolls (a ListView) and the oracle scrolls to the row (issue #28)."""
    small = DeviceConfig(phone="small_phone", font_scale=1.3, dark_theme=True, language="fr-FR")
    task, _ = reset_task("FilesMoveFile", device="sim:270x600")
    result = run_episode(task, OracleAgent(), seed=0, options={"device_config": small})
    assert result.score == 1.0 and not result.invalid_actions
    assert result.steps <= task.unwrapped.task.max_steps()
