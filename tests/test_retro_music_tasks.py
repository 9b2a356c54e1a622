"""Retro Music tasks: parameters in AndroidWorld's ranges, setup (real MP3s scanned into the MediaStore, playlists
emptied) over the Device protocol, and each check on positive and negative states."""

from __future__ import annotations

import re

import numpy as np
import pytest

from android_gym.agents import OracleAgent
from android_gym.device.config import DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.device.state import read_file, sqlite_execute_many, sqlite_query
from android_gym.envs import retro_music as rm
from android_gym.sim.apps import retro_music as retro
from android_gym.sim.system import media_store
from android_gym.sim.system.mp3 import read_mp3
from android_gym.testing import run_episode


@pytest.fixture
def device():
    sim = SimDevice()
    yield sim
    sim.close()


def params(task: type, seed: int = 0) -> dict:
    return task.generate_params(np.random.default_rng(seed))


def set_up(device: SimDevice, task_class: type, seed: int = 0):
    task = task_class(params(task_class, seed))
    task.initialize(device)
    return task


def make_playlist(device: SimDevice, name: str, titles: list[str]) -> None:
    rm.seed_playlists(device, {name: titles})


@pytest.mark.parametrize("seed", range(5))
def test_params_follow_androidworld(seed):
    p = params(rm.RetroCreatePlaylist, seed)
    titles = [rm.stem(f) for f in p["files"] + p["noise_files"]]
    assert len(set(titles)) == 15 and set(titles) <= set(rm.SONGS) and 2 <= len(p["files"]) <= 5
    assert all(f.endswith(".mp3") for f in p["files"] + p["noise_files"])
    assert all(rm.SONG_MS[0] <= d <= rm.SONG_MS[1] for d in p["durations_ms"]) and len(p["artists"]) == 15
    theme, number = re.fullmatch(r"(.+) (\d+)", p["playlist_name"]).groups()
    assert theme in rm.THEMES and 1 <= int(number) <= 999
    d = params(rm.RetroPlaylistDuration, seed)
    count = len(d["files"])
    assert 9 <= count <= 11 and sum(d["durations_ms"][:count]) == rm.DURATION_TOTAL_MS
    assert all(rm.SONG_MS[0] <= x <= rm.SONG_MS[1] for x in d["durations_ms"][count:])
    assert params(rm.RetroCreatePlaylist, seed) == p  # seeded


def test_split_sum_and_the_shortest_selection():
    parts = rm.split_sum(np.random.default_rng(3), 2_850_000, 10)
    assert len(parts) == 10 and sum(parts) == 2_850_000 and min(parts) >= 0
    assert rm.shortest_selection([100, 2_800_000, 300, 150_000], 2_700_000, 3_000_000) == [1]
    assert rm.shortest_selection([1_500_000, 10, 1_400_000], 2_700_000, 3_000_000) == [0, 2]


def test_setup_writes_tagged_mp3s_of_the_lengths_and_scans_them(device):
    task = set_up(device, rm.RetroCreatePlaylist, 1)
    for name, artist, duration in task.songs():
        info = read_mp3(read_file(device, f"{rm.MUSIC_DATA}/{name}"))
        assert info is not None and (info.title, info.artist, info.duration_ms) == (rm.stem(name), artist, duration)
    store = sqlite_query(device, media_store.DB_PATH, "SELECT title, artist, duration FROM audio")
    assert sorted((r["title"], r["artist"], r["duration"]) for r in store) == sorted(
        (rm.stem(n), a, d) for n, a, d in task.songs())
    assert sqlite_query(device, retro.PLAYLIST_DB, "SELECT * FROM PlaylistEntity") == []
    assert task.is_successful(device) == 0.0


def test_setup_clears_what_an_earlier_episode_left(device):
    first = set_up(device, rm.RetroCreatePlaylist, 1)
    make_playlist(device, first.params["playlist_name"], first.titles)
    assert first.is_successful(device) == 1.0
    second = set_up(device, rm.RetroCreatePlaylist, 2)
    assert sqlite_query(device, retro.PLAYLIST_DB, "SELECT * FROM SongEntity") == []
    left = {r["title"] for r in sqlite_query(device, media_store.DB_PATH, "SELECT title FROM audio")}
    assert left == {rm.stem(n) for n, _, _ in second.songs()}  # the first's files are gone, and their rows


def test_the_playlist_check(device):
    task = set_up(device, rm.RetroCreatePlaylist, 0)
    name, titles = task.params["playlist_name"], task.titles
    make_playlist(device, name.lower() + " ", titles)  # a fuzzy match of the name counts
    assert task.is_successful(device) == 1.0
    rm.clear_playlists(device)
    make_playlist(device, name, list(reversed(titles)))
    assert task.is_successful(device) == 0.0  # wrong order
    rm.clear_playlists(device)
    noise = rm.stem(task.params["noise_files"][0])
    make_playlist(device, name, [*titles, noise])
    assert task.is_successful(device) == 0.0  # one song too many
    rm.clear_playlists(device)
    rm.seed_playlists(device, {"Something Else": titles, name: titles})
    assert task.is_successful(device) == 1.0  # other playlists are ignored


def test_the_queue_check(device):
    task = set_up(device, rm.RetroPlayingQueue, 0)
    songs = rm.media_songs(device)

    def save_queue(titles: list[str]) -> None:
        statements = [("DELETE FROM playing_queue", ())]
        for title in titles:
            s = songs[title]
            statements.append(("INSERT INTO playing_queue (_id, title, track, year, duration, _data, date_modified, "
                               "album_id, album, artist_id, artist) VALUES (?, ?, 0, 0, ?, ?, 0, 0, 'Music', 0, ?)",
                               (s["_id"], title, s["duration"], s["_data"], s["artist"])))
        sqlite_execute_many(device, retro.PLAYBACK_DB, statements)

    save_queue(task.titles)
    assert task.is_successful(device) == 1.0
    save_queue(task.titles[:-1])
    assert task.is_successful(device) == 0.0
    save_queue([*task.titles, rm.stem(task.params["noise_files"][0])])
    assert task.is_successful(device) == 0.0
    set_up(device, rm.RetroPlayingQueue, 0)
    assert task.is_successful(device) == 0.0  # setup empties the saved queue


def test_save_playlist_gives_half_for_each_part(device):
    task = set_up(device, rm.RetroSavePlaylist, 0)
    name = task.params["playlist_name"]
    make_playlist(device, name, task.titles)
    assert task.is_successful(device) == 0.5
    device.shell(f"mkdir -p /sdcard/Playlists && echo '#EXTM3U' > '/sdcard/Playlists/{name}.m3u'")
    assert task.is_successful(device) == 0.5  # where the app saves it, not where the goal wants it
    device.shell(f"mv '/sdcard/Playlists/{name}.m3u' '/sdcard/Download/{name}.m3u'")
    assert task.is_successful(device) == 1.0
    rm.clear_playlists(device)
    assert task.is_successful(device) == 0.5


def test_the_duration_check(device):
    task = set_up(device, rm.RetroPlaylistDuration, 0)
    name = task.params["playlist_name"]
    make_playlist(device, name, task.titles)  # all the targets: exactly 47.5 minutes
    assert task.is_successful(device) == 1.0
    rm.clear_playlists(device)
    make_playlist(device, name + "x", task.titles)
    assert task.is_successful(device) == 0.0  # the name must be exact
    rm.clear_playlists(device)
    make_playlist(device, name, task.titles[:1])
    assert task.is_successful(device) == 0.0  # too short
    rm.seed_playlists(device, {name: task.titles, "Other": [rm.stem(task.params["noise_files"][0])]})
    assert task.is_successful(device) == 0.0  # a song in another playlist


def test_delete_and_rename_checks(device):
    delete = set_up(device, rm.RetroDeletePlaylist, 0)
    assert len(delete.params["playlists"]) >= 2 and delete.is_successful(device) == 0.0
    others = delete.others()
    rm.clear_playlists(device)
    rm.seed_playlists(device, others)
    assert delete.is_successful(device) == 1.0
    rm.clear_playlists(device)
    rm.seed_playlists(device, {k: v[:1] for k, v in others.items()})
    assert delete.is_successful(device) == 0.0  # another playlist changed

    rename = set_up(device, rm.RetroRenamePlaylist, 0)
    new, old = rename.params["new_name"], rename.params["playlist_name"]
    assert new not in rename.params["playlists"] and rename.is_successful(device) == 0.0
    sqlite_execute_many(device, retro.PLAYLIST_DB, [(
        "UPDATE PlaylistEntity SET playlist_name = ? WHERE playlist_name = ?", (new, old))])
    assert rename.is_successful(device) == 1.0
    sqlite_execute_many(device, retro.PLAYLIST_DB, [(
        "UPDATE PlaylistEntity SET playlist_name = ? WHERE playlist_name = ?", (new + "!", new))])
    assert rename.is_successful(device) == 0.0


def test_the_remove_song_check(device):
    task = set_up(device, rm.RetroRemoveSongFromPlaylist, 0)
    name, song = task.params["playlist_name"], task.params["song"]
    songs = task.params["playlists"][name]
    assert song in songs and task.is_successful(device) == 0.0
    rm.clear_playlists(device)
    rm.seed_playlists(device, {**task.others(), name: [t for t in songs if t != song]})
    assert task.is_successful(device) == 1.0
    rm.clear_playlists(device)
    noise = next(rm.stem(f) for f in task.params["noise_files"] if rm.stem(f) not in songs)
    rm.seed_playlists(device, {**task.others(), name: [t for t in songs if t != song] + [noise]})
    assert task.is_successful(device) == 0.0  # a song added


def test_the_goals_are_androidworlds(device):
    p = params(rm.RetroCreatePlaylist, 0)
    titles = ", ".join(rm.stem(f) for f in p["files"])
    assert rm.RetroCreatePlaylist(p).goal == (
        f'Create a playlist in Retro Music titled "{p["playlist_name"]}" with the following songs, in order: {titles}')
    assert rm.RetroPlayingQueue(p).goal == (
        f"Add the following songs, in order, {titles} to my playing queue in Retro music.")
    assert rm.RetroSavePlaylist(p).goal.endswith(
        f"in order: {titles}. Then export the playlist to the Downloads directory on the device.")
    assert rm.RetroPlaylistDuration(p).goal == (
        f'Create a playlist in Retro Music titled "{p["playlist_name"]}" with a duration between 45 and 50 minutes '
        "using the provided songs.")


def test_a_playlist_of_four_songs_fits_the_budget_on_a_small_phone_with_large_text(reset_task):
    """Four songs among fifteen, about five rows on screen, in an order that scrolls back and forth: checking them
    in the selection mode and adding them at once fits the 24 steps, where each song's own menu did not (#28)."""
    small = DeviceConfig(phone="small_phone", font_scale=1.3, dark_theme=True, language="fr-FR")
    env, _ = reset_task("RetroCreatePlaylist", device="sim:270x600")
    result = run_episode(env, OracleAgent(), seed=2, options={"device_config": small})
    assert len(result.info["params"]["files"]) == 4
    assert result.score == 1.0 and not result.invalid_actions and result.steps <= 24
