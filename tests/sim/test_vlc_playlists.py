"""VLC's media library on the simulated phone: ``vlc_media.db`` with the medialibrary's tables, filled by scanning
storage as the app shows, and the playlists a person makes: the Playlists tab, "Add to playlist" from a video's
More Actions, the save dialog, a playlist's screen and deleting one."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator

import pytest
from ui_nodes import center, find, nodes, tap

from android_gym.device.sim import SimDevice
from android_gym.sim import keycodes
from android_gym.sim.apps import vlc
from android_gym.sim.apps.vlc_library import DB_PATH
from android_gym.sim.phone import Phone
from android_gym.sim.system.media import message_video

PKG = vlc.PACKAGE
CREATED = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)
FOLDER = "/sdcard/VLCVideos"
FILES = {"clip_7_HD.mp4": 21, "2023_05_01_scene_3_raw.mp4": 30, "moment_9_.mp4": 25}


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def phone() -> Iterator[Phone]:
    device = SimDevice()
    for index, (name, seconds) in enumerate(FILES.items()):
        device.push(message_video(["abcdefghij"], seconds, index, CREATED, frame_s=seconds), f"{FOLDER}/{name}")
    device.phone.run(f"am start -n {PKG}/.gui.MainActivity")
    yield device.phone
    device.close()


def query(phone: Phone, sql: str) -> list[tuple]:
    db = sqlite3.connect(phone.fs.host_path(DB_PATH))
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def entries(phone: Phone) -> list[tuple]:
    return query(phone, "SELECT Playlist.name, Media.filename, position FROM PlaylistMediaRelation JOIN Playlist "
                        "ON id_playlist = playlist_id JOIN Media ON id_media = media_id ORDER BY name, position")


def texts(phone: Phone, name: str) -> list[str]:
    return [n.get("text") for n in nodes(phone) if n.get("resource-id") == rid(name)]


def more_of(phone: Phone, title: str) -> None:
    """Tap the More Actions button of the card titled ``title`` (the cards and their buttons are in order)."""
    titles = texts(phone, "ml_item_title")
    buttons = [n for n in nodes(phone) if n.get("resource-id") == rid("item_more")]
    phone.tap(*center(buttons[titles.index(title)]))


def add_to(phone: Phone, title: str, playlist: str, new: bool) -> None:
    more_of(phone, title)
    tap(phone, text=vlc.ADD_TO_PLAYLIST)
    if new:
        tap(phone, text=vlc.PLAYLIST_NAME_HINT)
        phone.run(f"input text {playlist.replace(' ', '%s')}")
        phone.key(keycodes.ENTER)
    else:
        tap(phone, text=playlist, resource_id=rid("textView16"))


def test_the_library_holds_the_videos_found_with_their_durations(phone):
    assert texts(phone, "ml_item_title") == ["2023_05_01_scene_3_raw", "clip_7_HD", "moment_9_"]
    rows = query(phone, "SELECT filename, title, duration, type, import_type FROM Media ORDER BY filename")
    assert rows == [(name, name[:-4], seconds * 1000, 1, 0) for name, seconds in sorted(FILES.items())]
    assert query(phone, "SELECT mrl, type FROM File ORDER BY mrl")[0] == (
        "file:///storage/emulated/0/VLCVideos/2023_05_01_scene_3_raw.mp4", 1)
    assert query(phone, "SELECT db_model_version FROM Settings") == [(36,)]


def test_a_scan_follows_storage_and_rows_deleted_from_outside(phone):
    phone.run(f"rm {FOLDER}/moment_9_.mp4")
    assert texts(phone, "ml_item_title") == ["2023_05_01_scene_3_raw", "clip_7_HD"]
    assert len(query(phone, "SELECT * FROM File")) == 2
    db = sqlite3.connect(phone.fs.host_path(DB_PATH))
    with db:
        db.execute("DELETE FROM Media")  # as AndroidWorld's setup does, the File rows left behind
    db.close()
    phone.run(f"am force-stop {PKG}")
    phone.run(f"am start -n {PKG}/.gui.MainActivity")
    assert texts(phone, "ml_item_title") == ["2023_05_01_scene_3_raw", "clip_7_HD"]  # the screen shows: a scan
    assert sorted(row[0] for row in query(phone, "SELECT filename FROM Media")) == [
        "2023_05_01_scene_3_raw.mp4", "clip_7_HD.mp4"]
    assert len(query(phone, "SELECT * FROM File")) == 2


def test_the_playlists_tab_is_empty_then_lists_the_playlists_made(phone):
    tap(phone, text=vlc.PLAYLISTS)
    assert find(phone, text=vlc.NO_MEDIA) is not None
    tap(phone, text=vlc.VIDEO)
    more_of(phone, "clip_7_HD")
    assert texts(phone, "ctx_title") == ["clip_7_HD"]
    assert texts(phone, "context_option_title") == list(vlc.VIDEO_OPTIONS)
    tap(phone, text=vlc.ADD_TO_PLAYLIST)
    assert texts(phone, "textView9") == [vlc.ADD_TO_NEW_PLAYLIST] and texts(phone, "medias") == ["1 media"]
    assert find(phone, text=vlc.NO_PLAYLIST, resource_id="android:id/empty") is not None
    phone.key(keycodes.BACK)
    add_to(phone, "clip_7_HD", "Road Trips Marathon", new=True)
    add_to(phone, "moment_9_", "Road Trips Marathon", new=False)
    add_to(phone, "2023_05_01_scene_3_raw", "Road Trips Marathon", new=False)
    assert entries(phone) == [("Road Trips Marathon", "clip_7_HD.mp4", 0), ("Road Trips Marathon", "moment_9_.mp4", 1),
                              ("Road Trips Marathon", "2023_05_01_scene_3_raw.mp4", 2)]
    assert query(phone, "SELECT nb_video, duration FROM Playlist") == [(3, 76000)]
    tap(phone, text=vlc.PLAYLISTS)
    assert texts(phone, "title") == ["Road Trips Marathon"]
    tap(phone, text="Road Trips Marathon")
    assert phone.activities.foreground() == (PKG, vlc.PLAYLIST_ACTIVITY)
    assert texts(phone, "title") == ["clip_7_HD", "moment_9_", "2023_05_01_scene_3_raw"]
    assert texts(phone, "header_list_artist") == ["3 media"]


def test_a_name_taken_is_refused_and_a_file_removed_leaves_its_playlists(phone):
    add_to(phone, "clip_7_HD", "How To Series", new=True)
    add_to(phone, "moment_9_", "How To Series", new=True)
    assert texts(phone, "textinput_error") == ["Playlist How To Series already exists"]
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert entries(phone) == [("How To Series", "clip_7_HD.mp4", 0)]
    add_to(phone, "moment_9_", "How To Series", new=False)
    phone.run(f"rm {FOLDER}/clip_7_HD.mp4")
    assert texts(phone, "ml_item_title") == ["2023_05_01_scene_3_raw", "moment_9_"]
    assert entries(phone) == [("How To Series", "moment_9_.mp4", 0)]


def test_deleting_a_playlist_asks_first(phone):
    add_to(phone, "clip_7_HD", "Comedy Specials", new=True)
    tap(phone, text=vlc.PLAYLISTS)
    tap(phone, content_desc=vlc.MORE_ACTIONS)
    assert texts(phone, "context_option_title") == list(vlc.PLAYLIST_OPTIONS)
    tap(phone, text=vlc.DELETE)
    assert texts(phone, "title")[-1] == "Delete playlist 'Comedy Specials'?"
    tap(phone, text=vlc.CANCEL)
    assert len(query(phone, "SELECT * FROM Playlist")) == 1
    tap(phone, content_desc=vlc.MORE_ACTIONS)
    tap(phone, text=vlc.DELETE)
    tap(phone, text=vlc.DELETE_FOREVER)
    assert query(phone, "SELECT * FROM Playlist") == [] and entries(phone) == []
    assert query(phone, "SELECT COUNT(*) FROM PlaylistMediaRelation") == [(0,)]
    assert find(phone, text=vlc.NO_MEDIA) is not None


def test_the_sheets_take_theme_vlc_blacks_bottom_sheet_colour_at_night(phone):
    """``bottom_sheet_background``: white by day, grey875 in ``Theme.VLC.Black``, not the window's #131313, for
    the More Actions sheet and the save sheet (its flat Add button too)."""
    def sheet_colours() -> Counter[tuple[int, ...]]:
        x1, y1, x2, y2 = map(int, re.findall(r"\d+", find(phone, resource_id=rid("design_bottom_sheet")).get("bounds")))
        return Counter(tuple(map(int, pixel)) for pixel in phone.screenshot()[y1:y2:4, x1:x2:4].reshape(-1, 3))

    more_of(phone, "clip_7_HD")
    [(background, _)] = sheet_colours().most_common(1)
    assert min(background) >= 254  # white (a unit off, for the night palette to tell it from the window's)
    phone.key(keycodes.BACK)
    phone.run("cmd uimode night yes")
    more_of(phone, "clip_7_HD")
    colours = sheet_colours()
    assert colours.most_common(1)[0][0] == (42, 42, 42) and (19, 19, 19) not in colours
    tap(phone, text=vlc.ADD_TO_PLAYLIST)
    colours = sheet_colours()
    assert colours.most_common(1)[0][0] == (42, 42, 42) and (19, 19, 19) not in colours


def test_the_sheets_round_their_top_corners_only(phone):
    """``bottom_sheet_background``: ``topLeftRadius``/``topRightRadius`` 16 dp (``?attr/bottom_sheet_radius``), so
    the dimmed list shows through the sheet's top corners while its bottom corners are the sheet's white."""
    more_of(phone, "clip_7_HD")
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", find(phone, resource_id=rid("design_bottom_sheet")).get("bounds")))
    pixels = phone.screenshot()
    white = (254, 255, 255)
    assert tuple(pixels[y1 + 2, (x1 + x2) // 2]) == white
    assert tuple(pixels[y1, x1]) != white and tuple(pixels[y1, x2 - 1]) != white
    assert tuple(pixels[y2 - 1, x1]) == tuple(pixels[y2 - 1, x2 - 1]) == white


@pytest.mark.parametrize("language, add, one", [("en-US", "Add to playlist", "1 media"),
                                                ("de-DE", "Zur Wiedergabeliste hinzufügen", "1 Mediendatei"),
                                                ("fr-FR", "Ajouter à une liste de lecture", "1 fichier multimédia")])
def test_the_save_sheet_counts_the_media_in_the_system_language(phone, language, add, one):
    """``plurals/media_quantity`` read in the system language (values-de/fr at 3.5.4)."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run(f"am start -n {PKG}/.gui.MainActivity")
    more_of(phone, "clip_7_HD")
    tap(phone, text=add)
    assert texts(phone, "medias2") == [one] == texts(phone, "medias")


def test_storage_is_scanned_again_only_after_it_or_the_library_changed(phone, monkeypatch):
    scans = Counter()
    scan = vlc.library_videos

    def counted(on: Phone) -> list[str]:
        scans["storage"] += 1
        return scan(on)
    monkeypatch.setattr(vlc, "library_videos", counted)

    def shown() -> list[str]:
        phone.invalidate()  # the main screen is built again
        return texts(phone, "ml_item_title")
    clip, titles = f"{FOLDER}/clip_7_HD.mp4", ["2023_05_01_scene_3_raw", "clip_7_HD", "moment_9_"]
    assert shown() == titles and scans["storage"] == 1
    assert shown() == titles and scans["storage"] == 1
    phone.run(f"settings put system font_scale 1.0 && sqlite3 /data/data/{PKG}/other.db 'CREATE TABLE t(x)'")
    assert shown() == titles and scans["storage"] == 1  # nothing in storage nor in the library changed
    phone.run("echo note > /sdcard/Download/note.txt")
    assert shown() == titles and scans["storage"] == 2
    phone.run(f"touch -d 2023-10-20T10:00:00 {clip}")  # its times only
    shown()
    assert scans["storage"] == 3
    assert query(phone, "SELECT last_modification_date FROM File WHERE mrl LIKE '%clip_7_HD.mp4'") == [
        (int(phone.fs.device_stat(phone.fs.host_path(clip)).st_mtime),)]
    db = sqlite3.connect(phone.fs.host_path(DB_PATH))
    with db:
        db.execute("DELETE FROM Media")  # the library changed from outside: found again
    db.close()
    assert shown() == titles and scans["storage"] == 4
