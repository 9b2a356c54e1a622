"""Retro Music on the simulated phone, and what it stands on: silent MP3 files with ID3 tags, the MediaStore
(``external.db``) filled by ``MEDIA_SCANNER_SCAN_FILE``, and the app's songs, queue and playlists in its own
databases."""

from __future__ import annotations

import io
import sqlite3

import pytest
from mutagen.id3 import ID3, TALB, TCON, TIT2, TPE1, Frame
from mutagen.mp3 import MP3
from ui_nodes import bounds, center, colours, find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps import retro_music as retro
from android_gym.sim.phone import Phone
from android_gym.sim.system import media_store
from android_gym.sim.system.mp3 import (
    FRAME_BYTES,
    INFO_FRAME_BYTES,
    AudioInfo,
    _read_mutagen,
    _read_plain,
    audio_frames,
    id3_tag,
    mp3_file,
    read_mp3,
)
from android_gym.sim.ui.views import TEXT, over

PKG = retro.PACKAGE
MUSIC = "/storage/emulated/0/Music"
SONGS = [("Night Drive", "Olivia", 200_000), ("Bright Lights", "Mateo", 181_234), ("moments", "Ana", 299_999)]
SCAN = f"am broadcast -a {media_store.ACTION_SCAN_FILE} -d file://{MUSIC}"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def rows(phone: Phone, db: str, sql: str) -> list[tuple]:
    with sqlite3.connect(phone.fs.host_path(db)) as connection:
        return connection.execute(sql).fetchall()


@pytest.fixture
def phone():
    phone = Phone()
    phone.fs.makedirs(MUSIC)
    for title, artist, duration in SONGS:
        phone.fs.write_bytes(f"{MUSIC}/{title}.mp3", mp3_file(duration, title, artist))
    yield phone
    phone.close()


def scanned(phone: Phone) -> Phone:
    assert b"Broadcast completed: result=0" in phone.run(SCAN).stdout
    return phone


def open_app(phone: Phone, tab: str = "action_song") -> None:
    phone.run(f"am start -n {PKG}/.activities.MainActivity")
    tap(phone, resource_id=rid(tab))


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def song_menu(phone: Phone, title: str, item: str) -> None:
    """Tap the overflow button of the row titled ``title``, then ``item``."""
    row = next(node for node in nodes(phone) if node.get("resource-id") == rid("title") and node.get("text") == title)
    menu = next(node for node in row.getparent().getparent().iter("node") if node.get("resource-id") == rid("menu"))
    phone.tap(*center(menu))
    tap(phone, text=item, resource_id=rid("title"))


# ----- MP3 files ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("duration", [1, 23, 24, 1000, 180_001, 299_999])
def test_an_mp3_lasts_exactly_its_length_and_carries_its_tags(duration):
    data = mp3_file(duration, "Dreamer's Awake", "Zoë")
    audio, tags = MP3(io.BytesIO(data)), ID3(io.BytesIO(data))
    assert round(audio.info.length * 1000) == duration
    assert (audio.info.sample_rate, audio.info.channels, audio.info.layer, audio.info.version) == (24000, 1, 3, 2)
    assert audio.info.bitrate == 8000
    assert str(tags["TIT2"]) == "Dreamer's Awake" and str(tags["TPE1"]) == "Zoë"
    info = read_mp3(data)
    assert info is not None and (info.title, info.artist, info.duration_ms) == ("Dreamer's Awake", "Zoë", duration)


@pytest.mark.parametrize(("title", "artist"), [("Night Drive", "Olivia"), ("", ""), ("Song", ""),
                                               ("Ünïcödé 日本語", "Zoë"), ("x" * 200, "y" * 20_000)])
def test_the_tag_holds_the_bytes_mutagen_writes(title, artist):
    assert id3_tag(title, artist) == _tag(TIT2(encoding=3, text=[title]), TPE1(encoding=3, text=[artist]))


def test_the_frames_are_mpeg2_layer3_mono_24khz_8kbps_and_silent():
    data = mp3_file(2_400, "t", "a")
    start = len(data) - INFO_FRAME_BYTES - 2_400 * 24 // 576 * FRAME_BYTES  # the Info frame and 100 frames end it
    assert data[:3] == b"ID3" and data[start:start + 4] == b"\xff\xf3\x44\xc4"  # the Info frame at 32 kbit/s
    assert data[start + 13:start + 17] == b"Info" and b"LAME3.100" in data[start:start + INFO_FRAME_BYTES]
    frames = [data[i:i + FRAME_BYTES] for i in range(start + INFO_FRAME_BYTES, len(data), FRAME_BYTES)]
    assert len(frames) == 100 and set(frames) == {b"\xff\xf3\x14\xc4" + bytes(FRAME_BYTES - 4)}


def _id3v22(frames: dict[bytes, str]) -> bytes:
    """An ID3v2.2 tag (three-letter frame ids, three-byte sizes; Latin-1 text) of ``frames``."""
    body = b"".join(name + (len(text) + 1).to_bytes(3, "big") + b"\x00" + text.encode("latin-1")
                    for name, text in frames.items())
    size = bytes((len(body) >> shift) & 0x7F for shift in (21, 14, 7, 0))  # syncsafe
    return b"ID3\x02\x00\x00" + size + body


@pytest.mark.parametrize("version", [2, 3, 4])
def test_the_scanner_reads_the_tags_of_every_id3v2_version(version):
    audio = audio_frames(1_000)
    if version == 2:  # mutagen writes 2.3 and 2.4 only
        tag = _id3v22({b"TT2": "Old Song", b"TP1": "Old Band", b"TAL": "Old Album"})
    else:
        tags, buffer = ID3(), io.BytesIO()
        for frame in (TIT2(encoding=1, text=["Old Song"]), TPE1(encoding=1, text=["Old Band"]),
                      TALB(encoding=1, text=["Old Album"])):
            tags.add(frame)
        tags.save(buffer, v2_version=version, padding=lambda info: 0)
        tag = buffer.getvalue()
    assert read_mp3(tag + audio) == AudioInfo("Old Song", "Old Band", "Old Album", 1_000)


def test_what_is_not_an_mp3_reads_as_none():
    assert read_mp3(b"") is None and read_mp3(b"not audio at all" * 10) is None


def _tag(*frames: Frame, version: int = 4, padding: int = 0) -> bytes:
    tags, buffer = ID3(), io.BytesIO()
    for frame in frames:
        tags.add(frame)
    tags.save(buffer, v2_version=version, padding=lambda info: padding)
    return buffer.getvalue()


_ID3V1 = b"TAG" + b"V1 Title".ljust(30, b"\0") + b"V1 Artist".ljust(30, b"\0") + bytes(65)


@pytest.mark.parametrize("data", [
    *(mp3_file(duration, title, artist) for duration, title, artist in [
        (0, "t", "a"), (5, "Short", "Ann"), (24, "x" * 60, "Zoë"), (181_234, "Dreamer's Awake", "日本語の歌"),
        (299_999, "Ünïcödé", "Mateo"), (360_000, "x" * 120, "y")]),
    _tag(TIT2(encoding=3, text=["Song"]), TPE1(encoding=0, text=["Band"]), TALB(encoding=3, text=["Album"]))
    + audio_frames(61_000),
    _tag(TIT2(encoding=3, text=["Song"]), padding=40) + audio_frames(2_000),  # padding after the frames
    _tag(TIT2(encoding=3, text=["Song"]), TPE1(encoding=3, text=["Band"])) + audio_frames(200),  # ~131 bytes long
    _tag(TIT2(encoding=3, text=["One", "Two"])) + audio_frames(3_000),  # two values
    _tag(TIT2(encoding=1, text=["UTF-16"])) + audio_frames(3_000),
    _tag(TIT2(encoding=3, text=["Song"]), TCON(encoding=3, text=["Pop"])) + audio_frames(3_000),  # another frame
    _tag(TIT2(encoding=3, text=["v2.3"]), version=3) + audio_frames(3_000),
    mp3_file(5_000, "Song", "Band") + _ID3V1,  # an ID3v1 tag at the end, which mutagen adds what v2 lacks from
    audio_frames(4_000),  # no tag
    mp3_file(4_000, "Song", "Band").replace(b"Info", b"Xing"),  # a VBR header (no TOC)
    mp3_file(4_000, "Song", "Band").replace(b"LAME3.100\x01", b"LAME3.100\x11"),  # LAME tag revision 1: ignored
    _tag(TIT2(encoding=3, text=["Song"])) + bytes((0xFF, 0xF3, 0x14, 0xC4)) + bytes(20) * 50,  # no Info frame
    _tag(TIT2(encoding=3, text=["Song"])) + b"not audio" * 30,
])
def test_the_scanner_reads_what_mutagen_reads(data):
    """The files ``mp3_file`` writes are read with ``struct`` (``_read_plain``), any other with mutagen: both give
    what mutagen does."""
    assert read_mp3(data) == _read_mutagen(io.BytesIO(data))


def test_the_files_this_module_writes_are_read_without_mutagen():
    for duration, title, artist in [(1_000, "t", "a"), (181_234, "Dreamer's Awake", "日本語の歌"),
                                    (300_000, "x" * 100, "y")]:
        assert _read_plain(io.BytesIO(mp3_file(duration, title, artist))) == AudioInfo(title, artist, "", duration)
    with_album = _tag(TIT2(encoding=3, text=["Song"]), TALB(encoding=0, text=["Album"])) + audio_frames(61_000)
    assert _read_plain(io.BytesIO(with_album)) == AudioInfo("Song", "", "Album", 61_000)


# ----- the MediaStore -----------------------------------------------------------------------------------------------
def test_the_scan_broadcast_fills_external_db_from_the_files(phone):
    scanned(phone)
    found = rows(phone, media_store.DB_PATH, "SELECT _data, title, artist, album, duration, mime_type, media_type, "
                                             "_display_name, relative_path, is_music FROM audio ORDER BY title")
    assert found == sorted([(f"{MUSIC}/{t}.mp3", t, a, "Music", d, "audio/mpeg", 2, f"{t}.mp3", "Music/", 1)
                            for t, a, d in SONGS], key=lambda r: r[1])


def test_the_scan_reads_each_file_and_gives_each_folder_its_columns(phone):
    """Files in two folders, one of them not music, one file with no album tag and one with tags mutagen reads (an
    ID3v2.3 tag, read from the scanned file itself): each row has its folder's columns and the file's tags."""
    ringtones = "/storage/emulated/0/Ringtones"
    phone.fs.makedirs(ringtones)
    tags, buffer = ID3(), io.BytesIO()
    for frame in (TIT2(encoding=1, text=["Old Song"]), TPE1(encoding=1, text=["Old Band"]),
                  TALB(encoding=1, text=["Old Album"])):
        tags.add(frame)
    tags.save(buffer, v2_version=3, padding=lambda info: 0)
    phone.fs.write_bytes(f"{ringtones}/old.mp3", buffer.getvalue() + audio_frames(2_000))
    phone.fs.write_bytes(f"{ringtones}/ring.mp3", mp3_file(1_000, "Ring", "Bell"))
    phone.run(f"am broadcast -a {media_store.ACTION_SCAN_FILE} -d file:///storage/emulated/0")
    found = rows(phone, media_store.DB_PATH, "SELECT title, artist, album, duration, bucket_display_name, "
                                             "relative_path, is_music FROM files ORDER BY _id")
    assert found == [*((t, a, "Music", d, "Music", "Music/", 1) for t, a, d in sorted(SONGS, key=lambda s: s[0])),
                     ("Old Song", "Old Band", "Old Album", 2_000, "Ringtones", "Ringtones/", 0),
                     ("Ring", "Bell", "Ringtones", 1_000, "Ringtones", "Ringtones/", 0)]


def test_a_rescan_drops_deleted_files_and_keeps_ids(phone):
    scanned(phone)
    before = dict(rows(phone, media_store.DB_PATH, "SELECT title, _id FROM files"))
    phone.run(f"rm '{MUSIC}/Night Drive.mp3'")
    scanned(phone)
    after = dict(rows(phone, media_store.DB_PATH, "SELECT title, _id FROM files"))
    assert after == {title: key for title, key in before.items() if title != "Night Drive"}


@pytest.mark.parametrize("command", [f"am broadcast -a {media_store.ACTION_SCAN_FILE}",
                                     f"am broadcast -a {media_store.ACTION_SCAN_FILE} -d http://{MUSIC}",
                                     f"am broadcast -a android.intent.action.VIEW -d file://{MUSIC}"])
def test_other_broadcasts_scan_nothing(phone, command):
    phone.run(command)
    assert rows(phone, media_store.DB_PATH, "SELECT COUNT(*) FROM files") == [(0,)]


# ----- the app ------------------------------------------------------------------------------------------------------
def test_the_songs_tab_lists_the_media_store_by_title_with_artists(phone):
    open_app(scanned(phone))
    assert texts(phone, "title") == ["Bright Lights", "moments", "Night Drive"]
    assert texts(phone, "text") == ["Mateo", "Ana", "Olivia"]
    assert find(phone, resource_id=rid("miniPlayerFragment")) is None


def test_the_songs_follow_the_media_store_after_it_was_read(phone):
    open_app(scanned(phone))
    with sqlite3.connect(phone.fs.host_path(media_store.DB_PATH)) as connection:  # a writer other than the app
        connection.execute("UPDATE files SET title = 'Dawn' WHERE title = 'moments'")
    phone.invalidate()
    assert texts(phone, "title") == ["Bright Lights", "Dawn", "Night Drive"]
    phone.run(f"rm '{MUSIC}/Night Drive.mp3'")  # the row stays; the app lists only songs whose file exists
    phone.invalidate()
    assert texts(phone, "title") == ["Bright Lights", "Dawn"]


def test_no_songs_before_a_scan(phone):
    open_app(phone)
    assert texts(phone, "emptyText") == [retro.NO_SONGS]


def test_a_tap_plays_the_list_from_that_song(phone):
    open_app(scanned(phone))
    tap(phone, text="moments", resource_id=rid("title"))
    queue = rows(phone, retro.PLAYBACK_DB, "SELECT title FROM playing_queue")
    assert [t for (t,) in queue] == ["Bright Lights", "moments", "Night Drive"]
    assert rows(phone, retro.PLAYBACK_DB, "SELECT COUNT(*) FROM original_playing_queue") == [(3,)]
    assert texts(phone, "miniPlayerTitle") == ["moments • Ana"]


def test_add_to_playing_queue_and_play_next(phone):
    open_app(scanned(phone))
    song_menu(phone, "Night Drive", retro.ADD_TO_QUEUE)
    song_menu(phone, "Bright Lights", retro.ADD_TO_QUEUE)
    song_menu(phone, "moments", retro.PLAY_NEXT)
    queue = [t for (t,) in rows(phone, retro.PLAYBACK_DB, "SELECT title FROM playing_queue")]
    assert queue == ["Night Drive", "moments", "Bright Lights"]
    tap(phone, resource_id=rid("miniPlayerFragment"))
    assert texts(phone, "songTotalTime") == ["3:20"]
    tap(phone, content_desc=retro.QUEUE)
    assert texts(phone, "title") == queue


def test_the_queue_dims_the_songs_played_and_the_playing_one(phone):
    """PlayingQueueAdapter: HISTORY and CURRENT rows at alpha 0.5 (image, title, text, drag handle, menu), UP_NEXT
    rows as they are; item_queue shows the song's art after a drag handle, not a play glyph."""
    open_app(scanned(phone))
    tap(phone, text="moments", resource_id=rid("title"))  # the queue: Bright Lights, moments (playing), Night Drive
    tap(phone, resource_id=rid("miniPlayerFragment"))
    tap(phone, content_desc=retro.QUEUE)
    queue_rows = [v for v in phone.window.frame().app.walk() if v.on_click is not None and any(
        child.resource_id == rid("drag_view") for child in v.children)]
    assert len(queue_rows) == 3 and not any(v.selected for v in queue_rows)
    titles = [next(c for c in v.walk() if c.resource_id == rid("title")) for v in queue_rows]
    images = [next(c for c in v.walk() if c.resource_id == rid("image")) for v in queue_rows]
    assert [t.text for t in titles] == ["Bright Lights", "moments", "Night Drive"]
    assert {i.hint for i in images} == {"audio"}
    half = over(TEXT, 0.5)
    assert [t.text_color for t in titles] == [half, half, TEXT]
    assert images[0].background == images[1].background != images[2].background
    screen = phone.screenshot()
    inks = [colours(screen[y1:y2, x1:x2])
            for x1, y1, x2, y2 in (t.bounds for t in titles)]
    assert half in inks[0] and TEXT not in inks[0] and TEXT in inks[2]


def create_playlist(phone: Phone, name: str, titles: list[str]) -> None:
    for i, title in enumerate(titles):
        song_menu(phone, title, retro.ADD_TO_PLAYLIST)
        if i == 0:
            tap(phone, text=retro.NEW_PLAYLIST, resource_id=rid("title"))
            phone.input_text(name)
            tap(phone, resource_id="android:id/button1")
        else:
            tap(phone, text=name, resource_id=rid("title"))


def test_songs_join_a_new_playlist_in_order(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Chill Beats 7", ["Night Drive", "Bright Lights", "Night Drive"])
    assert rows(phone, retro.PLAYLIST_DB, "SELECT playlist_id, playlist_name FROM PlaylistEntity") == [
        (1, "Chill Beats 7")]
    songs = rows(phone, retro.PLAYLIST_DB, "SELECT playlist_creator_id, title, duration, data, artist_name, "
                                           "album_name FROM SongEntity ORDER BY song_key")
    assert songs == [(1, "Night Drive", 200_000, f"{MUSIC}/Night Drive.mp3", "Olivia", "Music"),
                     (1, "Bright Lights", 181_234, f"{MUSIC}/Bright Lights.mp3", "Mateo", "Music")]
    tap(phone, resource_id=rid("action_playlist"))
    assert texts(phone, "title") == ["Chill Beats 7"] and texts(phone, "text") == ["2 Songs"]
    tap(phone, text="Chill Beats 7", resource_id=rid("title"))
    assert texts(phone, "title") == ["Night Drive", "Bright Lights"]
    assert texts(phone, "subtitle") == ["2 Songs • 6:21"]


def playlist_menu(phone: Phone, name: str, item: str) -> None:
    tap(phone, resource_id=rid("action_playlist"))
    song_menu(phone, name, item)


def test_save_as_file_writes_an_m3u_to_playlists(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Jazz Lounge 3", ["moments", "Bright Lights"])
    playlist_menu(phone, "Jazz Lounge 3", retro.SAVE_AS_FILE)
    text = phone.fs.read_bytes("/storage/emulated/0/Playlists/Jazz Lounge 3.m3u").decode()
    assert text == (f"#EXTM3U\n#EXTINF:299999,Ana - moments\n{MUSIC}/moments.mp3\n"
                    f"#EXTINF:181234,Mateo - Bright Lights\n{MUSIC}/Bright Lights.mp3")


def test_rename_and_delete_a_playlist(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Party Mix 1", ["moments"])
    playlist_menu(phone, "Party Mix 1", retro.RENAME)
    phone.input_text(" Deluxe")
    tap(phone, resource_id="android:id/button1")
    assert rows(phone, retro.PLAYLIST_DB, "SELECT playlist_name FROM PlaylistEntity") == [("Party Mix 1 Deluxe",)]
    song_menu(phone, "Party Mix 1 Deluxe", retro.DELETE)
    assert find(phone, text="Delete the playlist Party Mix 1 Deluxe?") is not None
    tap(phone, resource_id="android:id/button1")
    assert rows(phone, retro.PLAYLIST_DB, "SELECT COUNT(*) FROM PlaylistEntity") == [(0,)]
    assert rows(phone, retro.PLAYLIST_DB, "SELECT COUNT(*) FROM SongEntity") == [(0,)]
    assert texts(phone, "emptyText") == [retro.NO_PLAYLISTS]


def test_remove_a_song_from_a_playlist_after_confirming(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Soul Classics 2", ["moments", "Night Drive", "Bright Lights"])
    tap(phone, resource_id=rid("action_playlist"))
    tap(phone, text="Soul Classics 2", resource_id=rid("title"))
    song_menu(phone, "Night Drive", retro.REMOVE_FROM_PLAYLIST)
    assert find(phone, text="Remove the song Night Drive from the playlist?") is not None
    tap(phone, resource_id="android:id/button1")
    assert texts(phone, "title") == ["moments", "Bright Lights"]
    assert rows(phone, retro.PLAYLIST_DB, "SELECT title FROM SongEntity ORDER BY song_key") == [
        ("moments",), ("Bright Lights",)]


def test_back_closes_a_menu_then_leaves_the_playlist(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Blues Break 9", ["moments"])
    tap(phone, resource_id=rid("action_playlist"))
    tap(phone, text="Blues Break 9", resource_id=rid("title"))
    tap(phone, content_desc=retro.MORE_OPTIONS)
    assert find(phone, text=retro.SAVE_AS_FILE) is not None
    phone.key(keycodes.BACK)
    assert find(phone, text=retro.SAVE_AS_FILE) is None and texts(phone, "toolbar_title") == ["Blues Break 9"]
    phone.key(keycodes.BACK)
    assert texts(phone, "toolbar_title") == [retro.APP_NAME]


def test_pm_clear_empties_the_databases(phone):
    open_app(scanned(phone))
    create_playlist(phone, "Indie Gems 5", ["moments"])
    phone.run(f"pm clear {PKG}")
    assert rows(phone, retro.PLAYLIST_DB, "SELECT COUNT(*) FROM PlaylistEntity") == [(0,)]
    assert rows(phone, retro.PLAYBACK_DB, "SELECT COUNT(*) FROM playing_queue") == [(0,)]


def test_content_query_reads_the_audio_collection(phone):
    scanned(phone)
    out = phone.run("content query --uri content://media/external/audio/media --projection title:artist:duration "
                    "--sort duration").stdout.decode()
    assert out.splitlines() == ["Row: 0 title=Bright Lights, artist=Mateo, duration=181234",
                                "Row: 1 title=Night Drive, artist=Olivia, duration=200000",
                                "Row: 2 title=moments, artist=Ana, duration=299999"]
    bad = phone.run("content query --uri content://media/external/audio/media --projection 'title;drop'")
    assert b"IllegalArgumentException" in bad.stderr


# ----- the selection mode -------------------------------------------------------------------------------------------
def long_press_song(phone: Phone, title: str) -> None:
    phone.long_press(*center(find(phone, resource_id=rid("title"), text=title)))


def row_menus(phone: Phone) -> int:
    return len([node for node in nodes(phone) if node.get("resource-id") == rid("menu")])


def test_a_long_press_starts_the_selection_mode_and_taps_check_songs_in_the_order_tapped(phone):
    """``AbsMultiSelectAdapter``: the action mode over the toolbar counts the checked songs, a checked row hides
    its menu button, and "Add to playlist" (in the overflow on a phone) adds them in the order they were checked."""
    open_app(scanned(phone))
    long_press_song(phone, "Night Drive")
    assert find(phone, resource_id=rid("action_mode_bar")) is not None and texts(phone, "up") == ["1"]
    assert row_menus(phone) == 2
    for title in ("moments", "Bright Lights", "moments", "moments"):  # a second tap unchecks
        tap(phone, resource_id=rid("title"), text=title)
    assert texts(phone, "up") == ["3"] and row_menus(phone) == 0
    assert find(phone, resource_id=rid("miniPlayerFragment")) is None  # the taps played nothing
    assert find(phone, content_desc=retro.ADD_TO_PLAYLIST) is None  # 411 dp: two action buttons and the overflow
    bar = find(phone, resource_id=rid("action_mode_bar"))
    phone.tap(*center(next(node for node in bar.iter("node") if node.get("content-desc") == retro.MORE_OPTIONS)))
    tap(phone, text=retro.ADD_TO_PLAYLIST, resource_id=rid("title"))
    tap(phone, text=retro.NEW_PLAYLIST, resource_id=rid("title"))
    phone.run("input text Mix")
    tap(phone, resource_id="android:id/button1")
    assert rows(phone, retro.PLAYLIST_DB, "SELECT title FROM SongEntity ORDER BY song_key") == [
        ("Night Drive",), ("Bright Lights",), ("moments",)]
    assert find(phone, resource_id=rid("action_mode_bar")) is None and row_menus(phone) == 3  # the mode ended


def test_back_done_and_unchecking_the_last_song_end_the_selection_mode(phone):
    open_app(scanned(phone))
    for end in (lambda: phone.key(keycodes.BACK), lambda: tap(phone, content_desc=retro.DONE),
                lambda: tap(phone, resource_id=rid("title"), text="moments")):
        long_press_song(phone, "moments")
        end()
        assert find(phone, resource_id=rid("action_mode_bar")) is None and row_menus(phone) == 3
    assert find(phone, resource_id=rid("recycler_view")) is not None  # BACK left the app open


def test_on_a_tablet_every_item_is_an_action_button_and_select_all_checks_the_list(phone):
    phone.run("wm size 1600x2560 && wm density 320")  # 800 dp wide: five action buttons fit
    open_app(scanned(phone))
    long_press_song(phone, "moments")
    assert [find(phone, content_desc=item) is not None for item in (
        retro.PLAY_NEXT, retro.ADD_TO_QUEUE, retro.ADD_TO_PLAYLIST, retro.SELECT_ALL)] == [True] * 4
    tap(phone, content_desc=retro.SELECT_ALL)
    assert texts(phone, "up") == ["3"]
    tap(phone, content_desc=retro.ADD_TO_QUEUE)
    assert rows(phone, retro.PLAYBACK_DB, "SELECT title FROM playing_queue") == [
        ("Bright Lights",), ("moments",), ("Night Drive",)]


# ----- For you ------------------------------------------------------------------------------------------------------
def many_songs(phone: Phone, count: int) -> Phone:
    """``count`` songs, "Song 00" by "Artist 0" onwards (five artists), scanned."""
    for i in range(count):
        phone.fs.write_bytes(f"{MUSIC}/s{i:02d}.mp3", mp3_file(60_000, f"Song {i:02d}", f"Artist {i % 5}"))
    return scanned(phone)


def queue_titles(phone: Phone, table: str = "playing_queue") -> list[str]:
    return [t for (t,) in rows(phone, retro.PLAYBACK_DB, f"SELECT title FROM {table} ORDER BY rowid")]


def test_for_you_welcomes_the_user_over_the_four_buttons(phone):
    """user_image_layout's "Welcome," and the user name's default, then abs_playlists' MaterialButtons, each a
    Button node with its text; the title is centred in the accent (system_accent1_600)."""
    open_app(scanned(phone), "action_home")
    assert (texts(phone, "text"), texts(phone, "titleWelcome")) == (["Welcome,"], ["User Name"])
    buttons = [(node.get("resource-id"), node.get("text")) for node in nodes(phone)
               if node.get("class") == "android.widget.Button"]
    assert buttons == [(rid("history"), "History"), (rid("lastAdded"), "Last added"),
                       (rid("topPlayed"), "Most played"), (rid("actionShuffle"), "Shuffle")]
    assert find(phone, content_desc="Settings", resource_id=rid("action_settings")) is not None
    x1, y1, x2, y2 = bounds(find(phone, text=retro.APP_NAME))
    assert abs((x1 + x2) // 2 - 540) <= 2
    assert (11, 87, 208) in colours(phone.screenshot()[y1:y2, x1:x2])


def test_by_night_the_app_follows_the_system_theme(phone):
    """GENERAL_THEME "auto": the dark Material You surfaces, the accent system_accent1_200 and drawable-night's
    placeholder art (a grey note on near black)."""
    phone.run("cmd uimode night yes")
    open_app(scanned(phone), "action_home")
    x1, y1, x2, y2 = bounds(find(phone, text=retro.APP_NAME))
    pixels = phone.screenshot()
    assert (168, 199, 250) in colours(pixels[y1:y2, x1:x2]) and tuple(pixels[y1, x1]) == (31, 31, 31)
    tap(phone, resource_id=rid("action_song"))
    x1, y1, x2, y2 = bounds(find(phone, resource_id=rid("image")))
    assert {(17, 17, 17), (124, 124, 124)} <= colours(phone.screenshot()[y1:y2, x1:x2])


def test_last_added_lists_the_newest_songs_and_history_and_most_played_are_empty(phone):
    open_app(scanned(phone), "action_home")
    tap(phone, resource_id=rid("lastAdded"))
    assert texts(phone, "toolbar_title") == [retro.LAST_ADDED]
    assert texts(phone, "title") == ["moments", "Night Drive", "Bright Lights"]  # scanned by path, the last first
    phone.key(keycodes.BACK)
    tap(phone, resource_id=rid("history"))
    assert (texts(phone, "toolbar_title"), texts(phone, "emptyText")) == ([retro.HISTORY], [retro.NO_SONGS])
    phone.key(keycodes.BACK)
    tap(phone, resource_id=rid("topPlayed"))
    assert (texts(phone, "toolbar_title"), texts(phone, "title")) == ([retro.MOST_PLAYED], [])


def test_shuffle_plays_every_song_shuffled_and_keeps_the_original_order(phone):
    """openAndShuffleQueue: a random song first, the rest shuffled, playing; original_playing_queue is the library's
    order. A second tap draws again."""
    many_songs(phone, 6)
    open_app(phone, "action_home")
    tap(phone, resource_id=rid("actionShuffle"))
    shuffled, original = queue_titles(phone), queue_titles(phone, "original_playing_queue")
    assert original == sorted(original, key=str.lower) and len(original) == 9
    assert sorted(shuffled) == sorted(original) and shuffled != original
    assert texts(phone, "miniPlayerTitle")[0].startswith(f"{shuffled[0]} • ")
    assert find(phone, content_desc="Pause", resource_id=rid("actionPlayPause")) is not None
    tap(phone, resource_id=rid("actionShuffle"))
    assert queue_titles(phone) != shuffled


@pytest.mark.parametrize("count", [9, 10])
def test_suggestions_show_eight_songs_from_ten_on(phone, count):
    """RealRepository.suggestions: none for 9 songs or fewer; the mix card, image1..image8 in their cards."""
    many_songs(phone, count - len(SONGS))
    open_app(phone, "action_home")
    shown = find(phone, resource_id=rid("suggestions")) is not None
    assert shown == (count > 9)
    if shown:
        assert texts(phone, "message") == [retro.NEW_MUSIC_MIX]
        images = [node.get("resource-id") for node in nodes(phone) if node.get("resource-id", "").startswith(
            rid("image")) and node.get("resource-id") != rid("image")]
        assert sorted(images) == [rid(f"image{i}") for i in range(1, 9)]


def test_a_suggestion_plays_next_and_refresh_draws_others(phone):
    """A tap on a suggested song plays it next, and now unless a song plays; the mix queues the eight after the
    playing song. "refresh" shows another draw."""
    many_songs(phone, 12)
    open_app(phone, "action_home")
    tap(phone, resource_id=rid("image1"))
    (first,) = queue_titles(phone)
    assert texts(phone, "miniPlayerTitle")[0].startswith(f"{first} • ")
    tap(phone, resource_id=rid("image2"))
    assert len(queue_titles(phone)) == 2 and queue_titles(phone)[0] == first
    assert texts(phone, "miniPlayerTitle")[0].startswith(f"{first} • ")  # still the first: it plays
    tap(phone, resource_id=rid("message"))
    assert len(queue_titles(phone)) == 10
    tap(phone, resource_id=rid("actionPlayPause"))  # paused: the next suggestion plays at once
    tap(phone, resource_id=rid("refresh_button"))
    tap(phone, resource_id=rid("image1"))
    assert not texts(phone, "miniPlayerTitle")[0].startswith(f"{first} • ")


def test_last_added_checks_songs_and_select_all_takes_its_order(phone):
    """Last added's list (a SongAdapter) has the selection mode too; "Select all" checks its songs, newest first."""
    open_app(scanned(phone), "action_home")
    tap(phone, resource_id=rid("lastAdded"))
    long_press_song(phone, "Night Drive")
    bar = find(phone, resource_id=rid("action_mode_bar"))
    phone.tap(*center(next(node for node in bar.iter("node") if node.get("content-desc") == retro.MORE_OPTIONS)))
    tap(phone, text=retro.SELECT_ALL, resource_id=rid("title"))
    assert texts(phone, "up") == ["3"]
    tap(phone, resource_id=rid("action_play_next"))
    assert queue_titles(phone) == ["moments", "Night Drive", "Bright Lights"]
    assert texts(phone, "toolbar_title") == [retro.LAST_ADDED]  # the mode ended on the list


def test_the_recent_sections_group_the_newest_songs_by_album_then_by_its_artist(phone):
    """LastAddedRepository: recentAlbums splits the newest songs by album (here the folder, "Music"), recentArtists
    the albums by their first (newest) song's artist."""
    open_app(scanned(phone), "action_home")
    assert texts(phone, "title")[:3] == [retro.RECENT_ARTISTS, "Ana", retro.RECENT_ALBUMS]
    phone.run("input swipe 540 1800 540 800")
    assert texts(phone, "title")[-2:] == [retro.RECENT_ALBUMS, "Music"]
