"""The VLC playlist tasks: AndroidWorld's parameters and goals, setup (the videos in ``VLCVideos``, the library's
rows gone and rebuilt by VLC's scan), the ``verify_playlist`` check on rows in ``vlc_media.db`` (right and wrong),
and the oracles within their step budgets at their longest."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device import state
from android_gym.device.config import DeviceConfig
from android_gym.envs.vlc import QUALIFIERS, THEMES, VIDEOS_PATH
from android_gym.sim.apps.vlc_library import DB_PATH
from android_gym.sim.system.media import video_track
from android_gym.testing import play_steps, run_episode

NAME = re.compile(r"^(?:\w+_)?(clip|footage|scene|recording|highlight|moment|episode)_\d{1,2}_(HD|4K|raw|export)?"
                  r"(?:_\w+)?\.mp4$")
PLAYLIST = re.compile(rf"^({'|'.join(THEMES)}) ({'|'.join(QUALIFIERS)})$")


def params(task: str, seed: int) -> dict:
    return android_gym.get_task(task).generate_params(np.random.default_rng(seed))


def score(env: gym.Env) -> float:
    return env.unwrapped.task.is_successful(env.unwrapped.device)


def open_vlc(env: gym.Env) -> None:
    """Start VLC and look at it, so it scans storage."""
    env.unwrapped.device.shell("am start -n org.videolan.vlc/.gui.MainActivity")
    env.unwrapped.device.ui_dump()


def make_playlist(env: gym.Env, name: str, files: list[str]) -> None:
    """A playlist with ``files`` at positions 0, 1, … written into the library, as the app's dialog does."""
    device = env.unwrapped.device
    media = {row["filename"]: row["id_media"] for row in state.sqlite_query(device, DB_PATH, "SELECT * FROM Media")}
    statements = [("INSERT INTO Playlist (name, creation_date) VALUES (?, 0)", (name,))]
    statements += [("INSERT INTO PlaylistMediaRelation VALUES (?, (SELECT MAX(id_playlist) FROM Playlist), ?)",
                    (media[file], position)) for position, file in enumerate(files)]
    state.sqlite_execute_many(device, DB_PATH, statements)


@pytest.mark.parametrize("seed", range(6))
def test_parameters_follow_androidworld(seed):
    drawn = params("VlcCreatePlaylist", seed)
    files, noise = drawn["files"], drawn["noise_files"]
    assert 2 <= len(files) <= 5 and len(noise) == len(files) and len(set(files + noise)) == 2 * len(files)
    assert all(NAME.match(name) for name in files + noise), files + noise
    assert PLAYLIST.match(drawn["playlist_name"])
    assert all(len(text) == 10 and text.isalnum() and 20 <= seconds <= 180 for text, seconds in drawn["specs"])
    two = params("VlcCreateTwoPlaylists", seed)
    assert two["playlist_name1"] != two["playlist_name2"]
    assert not set(two["files1"] + two["noise_files1"]) & set(two["files2"] + two["noise_files2"])
    assert params("VlcCreatePlaylist", seed) == drawn


def test_the_goals_are_androidworlds():
    one = params("VlcCreatePlaylist", 1)
    goal = android_gym.get_task("VlcCreatePlaylist")(one).goal
    assert goal == (f'Create a playlist titled "{one["playlist_name"]}" with the following files in VLC (located in '
                    f'Internal Memory/VLCVideos), in order: {", ".join(one["files"])}')
    two = params("VlcCreateTwoPlaylists", 1)
    goal = android_gym.get_task("VlcCreateTwoPlaylists")(two).goal
    assert goal == (f'Create a playlist titled "{two["playlist_name1"]}" with the following files in VLC (located '
                    f'in Internal Memory/VLCVideos), in order: {", ".join(two["files1"])}. And then, create a '
                    f'playlist titled "{two["playlist_name2"]}" with the following files in VLC, in order: '
                    f'{", ".join(two["files2"])}.')


def test_setup_writes_the_videos_and_empties_the_library(reset_task):
    env, _ = reset_task("VlcCreatePlaylist", seed=3)
    drawn, device = env.unwrapped.task.params, env.unwrapped.device
    names = sorted(drawn["files"] + drawn["noise_files"])
    assert sorted(state.list_dir(device, VIDEOS_PATH)) == names
    for name, (_, seconds) in zip(drawn["files"] + drawn["noise_files"], drawn["specs"]):
        track = video_track(device.pull(f"{VIDEOS_PATH}/{name}"))
        assert (track.width, track.height, track.duration_ms) == (320, 240, seconds * 1000)
    for table in ("Playlist", "Media", "PlaylistMediaRelation"):
        assert state.sqlite_query(device, DB_PATH, f"SELECT * FROM {table}") == []
    open_vlc(env)
    rows = state.sqlite_query(device, DB_PATH, "SELECT filename FROM Media ORDER BY filename")
    assert [row["filename"] for row in rows] == names


def test_the_playlist_check_wants_the_files_in_order(reset_task):
    env, _ = reset_task("VlcCreatePlaylist", seed=2)
    drawn = env.unwrapped.task.params
    open_vlc(env)
    assert score(env) == 0.0
    make_playlist(env, drawn["playlist_name"], drawn["files"][::-1])
    assert score(env) == 0.0
    make_playlist(env, drawn["playlist_name"] + " Extra", drawn["files"])
    assert score(env) == 0.0
    make_playlist(env, drawn["playlist_name"], drawn["files"][:-1])
    assert score(env) == 0.0
    env.reset(options={"params": drawn})
    open_vlc(env)
    make_playlist(env, drawn["playlist_name"].lower(), drawn["files"])  # fuzzy_match(ignore_case=True)
    assert score(env) == 1.0
    env.unwrapped.task.teardown(env.unwrapped.device)
    assert state.list_dir(env.unwrapped.device, VIDEOS_PATH) == [] and score(env) == 0.0


def test_two_playlists_score_half_each(reset_task):
    env, _ = reset_task("VlcCreateTwoPlaylists", seed=1)
    drawn = env.unwrapped.task.params
    open_vlc(env)
    make_playlist(env, drawn["playlist_name2"], drawn["files2"])
    assert score(env) == 0.5
    make_playlist(env, drawn["playlist_name1"], drawn["files1"])
    assert score(env) == 1.0


def test_adding_to_the_existing_playlist_keeps_the_others(reset_task):
    env, _ = reset_task("VlcAddToExistingPlaylist", seed=4)
    drawn, device = env.unwrapped.task.params, env.unwrapped.device
    names = [row["name"] for row in state.sqlite_query(device, DB_PATH, "SELECT name FROM Playlist")]
    assert names == drawn["playlists"] and drawn["playlist_name"] in names
    open_vlc(env)
    make_playlist(env, drawn["playlist_name"], drawn["files"])  # a second playlist of that name
    assert score(env) == 0.0
    env.reset(options={"params": drawn})
    open_vlc(env)
    media = {row["filename"]: row["id_media"] for row in state.sqlite_query(device, DB_PATH, "SELECT * FROM Media")}
    state.sqlite_execute_many(device, DB_PATH, [
        ("INSERT INTO PlaylistMediaRelation SELECT ?, id_playlist, ? FROM Playlist WHERE name = ?",
         (media[file], position, drawn["playlist_name"])) for position, file in enumerate(drawn["files"])])
    assert score(env) == 1.0


def test_deleting_the_wrong_playlist_fails(reset_task):
    env, _ = reset_task("VlcDeletePlaylist", seed=0)
    drawn, device = env.unwrapped.task.params, env.unwrapped.device
    assert score(env) == 0.0
    other = next(name for name in drawn["playlists"] if name != drawn["playlist_name"])
    state.sqlite_execute(device, DB_PATH, "DELETE FROM Playlist WHERE name = ?", (other,))
    assert score(env) == 0.0
    env.reset(options={"params": drawn})
    state.sqlite_execute(device, DB_PATH, "DELETE FROM Playlist WHERE name = ?", (drawn["playlist_name"],))
    assert score(env) == 1.0


@pytest.mark.parametrize("task", ["VlcCreatePlaylist", "VlcCreateTwoPlaylists", "VlcAddToExistingPlaylist"])
def test_the_longest_oracle_fits_the_step_budget(reset_task, task):
    """Five files in each playlist, the cards in the worst order for scrolling."""
    seed = max(range(40), key=lambda s: sum(len(v) for k, v in params(task, s).items() if k.startswith("files")
                                            and isinstance(v, list)))
    env, info = reset_task(task, seed=seed)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert not invalid and score(env) == 1.0
    assert info["actions"] <= env.unwrapped.task.max_steps()


def test_deleting_a_playlist_below_the_fold_scrolls_the_playlist_grid_to_it(reset_task):
    """On the small phone in German with large text two playlist cards fit: the oracle scrolls the grid to the
    playlist before opening its More Actions (issue #28)."""
    env, _ = reset_task("VlcDeletePlaylist", device="sim:270x600")
    small = DeviceConfig(phone="small_phone", font_scale=1.15, language="de-DE")
    result = run_episode(env, OracleAgent(), seed=2, options={"device_config": small})
    assert result.score == 1.0 and not result.invalid_actions
