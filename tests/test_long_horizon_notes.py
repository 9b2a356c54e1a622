"""The long-horizon notes, files and media tasks (``envs/long_horizon_notes.py``) beyond what the catalogue tests
check for every task: partial credit along the oracle, and the checks that must not accept a near miss."""

import posixpath

import gymnasium as gym
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device.config import DeviceConfig
from android_gym.envs import long_horizon_notes as lh
from android_gym.tasks import SubgoalTask, get_task
from android_gym.tasks import files as device_files
from android_gym.tasks.oracle import OraclePolicy
from android_gym.tasks.validators import add_contact
from android_gym.testing import run_episode

TASKS = sorted(name for name in android_gym.task_names(include_aliases=False)
               if get_task(name).__module__ == lh.__name__)


def make(task: str) -> gym.Env:
    return gym.make(android_gym.env_id(task), device="sim:270x600", pixels=False)


def test_the_module_registers_at_least_fourteen_long_horizon_tasks():
    assert len(TASKS) >= 14
    assert all(issubclass(get_task(name), SubgoalTask) for name in TASKS)


@pytest.mark.parametrize("task", TASKS)
def test_half_the_oracle_earns_part_of_the_score_and_subgoals_come_in_order(task):
    """Replaying the oracle, the sub-goals latch one after another (never a later one before an earlier one),
    half of its actions score strictly between 0 and 1, and the whole of it scores 1."""
    env = make(task)
    try:
        _, info = env.reset(seed=0)
        episode = env.unwrapped.task
        policy, scores, done = OraclePolicy(episode.oracle()), [], False
        while not (policy.done or done):
            _, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
            done = terminated or truncated
            reached = [score >= 1.0 for score in episode.subgoal_scores]
            assert reached == sorted(reached, reverse=True), f"sub-goals out of order: {episode.subgoal_scores}"
            scores.append(info["score"])
        assert 0.0 < scores[len(scores) // 2 - 1] < 1.0
        assert scores[-1] == 1.0
        assert 20 <= len(scores) <= 60 and len(scores) <= episode.max_steps() / 1.5
    finally:
        env.close()


def started(task: str):
    """A fresh episode of ``task`` (seed 0): the env, its device and task."""
    env = make(task)
    env.reset(seed=0)
    return env, env.unwrapped.device, env.unwrapped.task


def test_a_note_that_also_lists_a_ticked_item_does_not_count():
    env, device, task = started("JoplinChecklistToMarkorThenTick")
    try:
        path = posixpath.join(device_files.MARKOR_DATA, task.params["file"])
        device.push("\n".join([*task.params["open"], task.params["done"][0]]).encode(), path)
        assert task.is_successful(device) == 0.0
        device.push("\n".join(task.params["open"]).encode(), path)
        assert task.is_successful(device) == pytest.approx(1 / 4)
    finally:
        env.close()


def test_deleting_an_unlisted_download_too_scores_no_deletion():
    env, device, task = started("DeleteDownloadsListedInJoplin")
    try:
        listed = task.params["listed"]
        unlisted = next(name for name in task.params["downloads"] if name not in listed)
        device.shell(f"rm {device_files.DOWNLOAD_DATA}/{listed[0]} {device_files.DOWNLOAD_DATA}/{unlisted}")
        assert task.is_successful(device) == 0.0
    finally:
        env.close()


def test_a_photo_copied_instead_of_moved_is_taken_but_not_filed():
    env, device, task = started("PhotoIntoReceiptsFolder")
    try:
        photo = lh.picture(7, "IMG_20231015_153400.jpg")
        device.push(photo, f"{device_files.PHOTOS_DATA}/IMG_20231015_153400.jpg")
        device.push(photo, posixpath.join(lh.DOCUMENTS, task.params["folder"], "IMG_20231015_153400.jpg"))
        assert task.is_successful(device) == pytest.approx(1 / 3)
        assert task.subgoal_scores == [1.0, 0.0, 0.0]
    finally:
        env.close()


def test_another_persons_number_under_the_name_does_not_count():
    env, device, task = started("ContactNumbersToMarkorList")
    try:
        path = posixpath.join(device_files.MARKOR_DATA, task.params["file"])
        wrong = [task.params["first"], task.params["second_number"], task.params["second"],
                 task.params["first_number"]]
        device.push("\n".join(wrong).encode(), path)
        assert task.is_successful(device) == 0.0
    finally:
        env.close()


def test_a_note_copied_into_the_archive_is_not_moved():
    env, device, task = started("ArchiveMarkorNotesListedInJoplin")
    try:
        name = task.params["listed"][0]
        device.shell(f"cp {device_files.MARKOR_DATA}/{name} {device_files.MARKOR_DATA}/{task.params['archive']}/")
        assert task.is_successful(device) == 0.0
        device.shell(f"rm {device_files.MARKOR_DATA}/{name}")
        assert task.is_successful(device) == pytest.approx(1 / 4)
    finally:
        env.close()


def test_the_text_must_reach_the_right_contact_and_a_saved_contact_needs_the_right_number():
    env, device, task = started("SaveMeetingAttendeesThenText")
    try:
        (first, first_number), (second, _) = task.params["guests"]
        add_contact(device, second, first_number)  # the other guest's number
        device.receive_sms(first_number, "hello")  # a text received, not sent
        assert task.is_successful(device) == 0.0
        add_contact(device, first, first_number)
        assert task.is_successful(device) == pytest.approx(1 / 4)
        assert task.subgoal_scores == [1.0, 0.0, 0.0, 0.0]
    finally:
        env.close()


def test_copying_pictures_scrolls_the_gallery_folder_picker_to_download_on_a_small_phone_with_large_text():
    """On the small phone at font scale 1.3 the folder picker's Download row is below its fold; the oracle scrolls
    the picker to it, as the single-app copy task does (issue #28)."""
    env = make("CopyPicturesListedInMarkor")
    try:
        small = DeviceConfig(phone="small_phone", font_scale=1.3, dark_theme=True, navigation="gestures")
        result = run_episode(env, OracleAgent(), seed=3, options={"device_config": small})
        assert result.score == 1.0 and not result.invalid_actions
    finally:
        env.close()


def test_deleting_downloads_scrolls_back_up_to_a_file_above_the_scrolled_list():
    """On the small phone in German with large text, after the first file (further down) is deleted the next one
    lies above the scrolled Downloads list: the oracle's scrolling reaches the list's end and turns back up
    (issue #28)."""
    env = make("DeleteDownloadsListedInJoplin")
    try:
        small = DeviceConfig(phone="small_phone", font_scale=1.3, language="de-DE")
        result = run_episode(env, OracleAgent(), seed=3, options={"device_config": small})
        assert result.score == 1.0 and not result.invalid_actions
    finally:
        env.close()


def test_answering_a_request_scrolls_the_conversation_list_to_the_friend():
    """On the small phone (360 dp) with large text the friend's conversation is below the fold: the oracle scrolls
    the conversation list to it before reading and answering (issue #28)."""
    env = make("DrawingNamedByText")
    try:
        small = DeviceConfig(phone="small_phone", font_scale=1.15, dark_theme=True)
        result = run_episode(env, OracleAgent(), seed=2, options={"device_config": small})
        assert result.score == 1.0 and not result.invalid_actions
    finally:
        env.close()
