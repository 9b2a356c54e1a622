"""VLC on the simulated phone, and the Motion-JPEG videos it plays: the files' boxes and sample tables, the Video
tab and the file browser, and the player, whose pixels are the file's frame at the playing position."""

from __future__ import annotations

import datetime as dt
import io
import re
import struct
from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image
from ui_nodes import center, colours, find, nodes, tap, texts_shown_as_with_every_row

from android_gym.device.sim import SimDevice
from android_gym.sim import keycodes
from android_gym.sim.apps import vlc
from android_gym.sim.phone import Phone
from android_gym.sim.system.media import (
    VIDEO_SIZE,
    MessageVideo,
    _text,
    boxes,
    message_frames,
    message_video,
    message_videos,
    mp4_duration_ms,
    mp4_file,
    video_track,
)
from android_gym.sim.ui.glyph_masks import line_mask
from android_gym.sim.ui.views import TEXT, TEXT_SECONDARY, WHITE

PKG = vlc.PACKAGE
CREATED = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)
NAMES = ["Olivia", "Mateo", "Alejandro"]
CLIP = "/sdcard/Download/clip_7_HD.mp4"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def child(payload: bytes, kind: str) -> bytes:
    return next(body for name, body in boxes(payload) if name == kind)


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two pictures of the same size, per channel value."""
    return float(np.abs(np.asarray(a, dtype=int) - np.asarray(b, dtype=int)).mean())


# ----- the files ----------------------------------------------------------------------------------------------------
def test_a_message_video_is_an_mp4_with_one_motion_jpeg_track():
    data = message_video(NAMES, 8, 5, CREATED)
    assert [kind for kind, _ in boxes(data)] == ["ftyp", "mdat", "moov"]
    moov = child(data, "moov")
    assert [kind for kind, _ in boxes(moov)] == ["mvhd", "trak"]
    trak = child(moov, "trak")
    assert [kind for kind, _ in boxes(trak)] == ["tkhd", "mdia"]
    mdia = child(trak, "mdia")
    assert [kind for kind, _ in boxes(mdia)] == ["mdhd", "hdlr", "minf"]
    assert child(mdia, "hdlr")[8:12] == b"vide"
    minf = child(mdia, "minf")
    assert [kind for kind, _ in boxes(minf)] == ["vmhd", "dinf", "stbl"]
    stbl = child(minf, "stbl")
    assert [kind for kind, _ in boxes(stbl)] == ["stsd", "stts", "stsc", "stsz", "stco"]
    [(entry, body)] = boxes(child(stbl, "stsd")[8:])
    assert entry == "jpeg" and struct.unpack_from(">HH", body, 24) == (320, 240)
    assert struct.unpack(">III", child(stbl, "stts")[4:]) == (1, 24, 1000)  # 24 frames of 1 s: one run
    tkhd = child(trak, "tkhd")
    assert struct.unpack_from(">II", tkhd, 76) == (320 << 16, 240 << 16)
    assert mp4_duration_ms(data) == 24_000
    # the chunk offset points at the first JPEG in mdat
    (offset,) = struct.unpack_from(">I", child(stbl, "stco"), 8)
    assert data[offset:offset + 2] == b"\xff\xd8"


def test_the_tables_give_each_frames_time_place_and_size():
    data = message_video(NAMES, 8, 5, CREATED)
    track = video_track(data)
    assert track is not None
    assert (track.codec, track.width, track.height, track.duration_ms) == ("jpeg", 320, 240, 24_000)
    assert track.starts_ms == tuple(range(0, 24_000, 1000))
    assert all(data[o:o + 2] == b"\xff\xd8" and data[o + s - 2:o + s] == b"\xff\xd9"
               for o, s in zip(track.offsets, track.sizes))
    assert [track.sample_at(t) for t in (0, 999, 1000, 12_500, 23_999, 99_000)] == [0, 0, 1, 12, 23, 23]


def luma_difference(a: Image.Image, b: Image.Image) -> float:
    """``difference`` of the brightness alone (JPEG keeps it far better than the colour of pixel noise)."""
    return difference(a.convert("L"), b.convert("L"))


def text_mask(rendered: Image.Image) -> np.ndarray:
    """Where a freshly rendered frame has its message: the pure yellow pixels."""
    return (np.asarray(rendered) == (255, 255, 0)).all(axis=-1)


def yellowness(picture: Image.Image, mask: np.ndarray) -> float:
    """How yellow the pixels under ``mask`` are on average: red and green over blue (about 0 for noise)."""
    pixels = np.asarray(picture, dtype=float)[mask]
    return float((pixels[:, 0] + pixels[:, 1]).mean() / 2 - pixels[:, 2].mean())


def test_the_frame_at_a_time_is_the_one_rendered_for_it():
    data = message_video(NAMES, 8, 5, CREATED)
    track = video_track(data)
    rendered = message_frames(NAMES, 8, 5)
    assert len(rendered) == 24 and all(duration == 1000 for _, duration in rendered)
    shown = track.frame(data, track.sample_at(12_500))  # second message, its fifth second
    assert luma_difference(shown, rendered[12][0]) < 35  # the same picture, JPEG aside
    assert luma_difference(shown, rendered[11][0]) > 45  # the same message on fresh noise
    mateo, alejandro = text_mask(rendered[12][0]), text_mask(rendered[16][0])
    beyond = alejandro.copy()
    beyond[:, :np.nonzero(mateo.any(axis=0))[0].max() + 8] = False  # "Alejandro" right of where "Mateo" ends
    assert yellowness(shown, mateo) > 150  # "Mateo" is there, in yellow
    assert abs(yellowness(shown, beyond)) < 40  # the longer name is not
    assert yellowness(track.frame(data, track.sample_at(16_000)), beyond) > 150


def test_the_noise_is_rows_of_numpys_uniform_bytes_fresh_each_frame():
    """Each 16-pixel row of a frame's noise is one of the rows of eight pictures of
    ``default_rng(0).integers(0, 256, size, dtype=np.uint8)`` (drawn as ``rng.bytes``); the next frame draws anew."""
    first, second = (np.asarray(picture) for picture, _ in message_frames(["x"], 2, 3))
    rows = np.random.default_rng(0).integers(0, 256, (8, 240, 320, 3), dtype=np.uint8).reshape(120, 16, 320, 3)
    for row in range(15):
        band = first[16 * row:16 * row + 16]
        assert sum((band[:, :40] == rows[:, :, :40]).all(axis=(1, 2, 3))) == 1  # left of the message: one pool row
    assert (first != second).any(axis=2).mean() > 0.9


def test_a_frame_is_its_picture_encoded_in_one_go():
    """The frames are put together from rows coded apart (``jpeg_rows``): the bytes are the picture's JPEG."""
    data = message_video(NAMES, 2, 5, CREATED)
    track = video_track(data)
    for index, (picture, _) in enumerate(message_frames(NAMES, 2, 5)):
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=30, subsampling="4:2:0", restart_marker_rows=1)
        start = track.offsets[index]
        assert data[start:start + track.sizes[index]] == buffer.getvalue()


def test_videos_made_together_have_each_frame_encoded_in_one_go():
    """``message_videos`` encodes the message rows of every frame of every video as one picture: each frame is still
    the JPEG of its own picture, whatever the height of the messages around it."""
    videos = [MessageVideo(["gjpqy", "ABC"], 2, 4), MessageVideo(["W" * 30], 3, [7, 1], frame_s=3),
              MessageVideo(["x"], 2, 2)]
    for video, data in zip(videos, message_videos(videos, CREATED), strict=True):
        assert data == message_video(video.messages, video.display_s, video.seed, CREATED, video.frame_s)
        track = video_track(data)
        for index, (picture, _) in enumerate(message_frames(video.messages, video.display_s, video.seed,
                                                            video.frame_s)):
            buffer = io.BytesIO()
            picture.save(buffer, "JPEG", quality=30, subsampling="4:2:0", restart_marker_rows=1)
            start = track.offsets[index]
            assert data[start:start + track.sizes[index]] == buffer.getvalue()
    assert message_videos([], CREATED) == []


@pytest.mark.parametrize("message", ["Olivia", "gjpqy", "W" * 30, "", " ", "ÄÖÜ"])
def test_the_message_mask_is_what_the_picture_shows_of_it(message):
    """The message's mask and box: the line's mask pasted at its place in a picture of the video's size (cut at its
    edges), then cropped to what is not black; its ink is that size, all in the message's colour."""
    mask, (left, top) = line_mask(message, 32, stroke=1)  # media._FONT_SIZE
    picture = Image.new("L", VIDEO_SIZE, 0)
    picture.paste(mask, (50 + left, VIDEO_SIZE[1] // 2 + top))
    box = picture.getbbox() or (0, 0, 1, 1)
    got = _text(message)
    assert got.box == box and got.mask.mode == "L" and got.mask.tobytes() == picture.crop(box).tobytes()
    assert got.ink.size == got.mask.size
    assert got.ink.getcolors() == [(got.ink.width * got.ink.height, (255, 255, 0))]


def test_a_frame_as_long_as_the_message_is_held_for_all_of_it():
    data = message_video(["aB3dE5fG7h"], 120, 9, CREATED, frame_s=120)
    track = video_track(data)
    assert (track.duration_ms, track.starts_ms, len(track.sizes)) == (120_000, (0,), 1)
    [(picture, duration)] = message_frames(["aB3dE5fG7h"], 120, 9, frame_s=120)
    assert duration == 120_000 and luma_difference(track.frame(data, track.sample_at(100_000)), picture) < 35


def test_files_without_a_video_track_have_none():
    assert video_track(mp4_file(5000, CREATED)) is None
    assert video_track(b"not a video at all") is None
    data = message_video(["x"], 2, 1, CREATED)
    assert video_track(data[:-40]) is None  # the moov cut short


# ----- the app ------------------------------------------------------------------------------------------------------
@pytest.fixture
def device() -> Iterator[SimDevice]:
    dev = SimDevice()
    dev.push(message_video(NAMES, 8, 5, CREATED), CLIP)
    yield dev
    dev.close()


@pytest.fixture
def phone(device: SimDevice) -> Phone:
    return device.phone


def start(phone: Phone) -> None:
    phone.run(f"am start -n {PKG}/.gui.MainActivity")


def texts(phone: Phone, name: str) -> list[str]:
    return [n.get("text") for n in nodes(phone) if n.get("resource-id") == rid(name)]


def open_download(phone: Phone) -> None:
    start(phone)
    tap(phone, text=vlc.BROWSE)
    tap(phone, text=vlc.INTERNAL_MEMORY)
    tap(phone, text="Download", resource_id=rid("title"))


@pytest.mark.parametrize("font_scale", ["0.85", "1.0", "1.3"])
def test_the_browser_builds_the_rows_it_shows_and_shows_as_with_every_row_built(phone, monkeypatch, font_scale):
    assert phone.run("for i in $(seq 10 39); do touch /sdcard/Download/movie_$i.mp4; done").exit_code == 0
    assert phone.run(f"settings put system font_scale {font_scale}").exit_code == 0
    open_download(phone)
    seen = texts_shown_as_with_every_row(phone, monkeypatch, vlc, rid("title"))
    assert {"movie_10.mp4", "movie_39.mp4"} <= seen  # from the top to the clamped end and back


def play(phone: Phone) -> None:
    open_download(phone)
    tap(phone, text="clip_7_HD.mp4")
    assert phone.activities.foreground() == (PKG, vlc.PLAYER_ACTIVITY)


def screen_picture(phone: Phone) -> Image.Image:
    """The video as drawn: the SurfaceView's fitted picture, cut from the screenshot."""
    surface = find(phone, class_name="android.view.SurfaceView")
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", surface.get("bounds")))
    height = round((x2 - x1) * 240 / 320)
    top = y1 + (y2 - y1 - height) // 2
    return Image.fromarray(phone.screenshot()[top:top + height, x1:x2])


def file_frame(phone: Phone, time_ms: int, size: tuple[int, int]) -> Image.Image:
    """The file's frame at ``time_ms``, decoded from the file on the phone and scaled to ``size``."""
    data = phone.fs.read_bytes(CLIP)
    track = video_track(data)
    return track.frame(data, track.sample_at(time_ms)).resize(size, Image.LANCZOS)


def test_the_bottom_tabs_draw_vlcs_own_drawables(phone):
    """menu/bottom_navigation.xml at 3.5.4: ic_menu_video (a filled clapperboard, not an open outlined one),
    ic_menu_audio (two beamed notes), ic_menu_folder (Material's filled folder), ic_menu_playlist, ic_nav_more."""
    start(phone)
    tabs = [v for v in phone.window.frame().app.walk() if v.resource_id in {rid(t) for t in vlc.TAB_IDS}]
    glyphs = [next(c.hint for c in tab.walk() if c.resource_id == rid("navigation_bar_item_icon_view"))
              for tab in tabs]
    assert glyphs == ["movie", "music", "folder_filled", "playlist", "more_horiz"]
    video = next(c for c in tabs[0].walk() if c.kind == "icon")
    x1, y1, x2, y2 = video.bounds
    orange = (np.abs(phone.screenshot()[y1:y2, x1:x2].astype(int) - (255, 136, 0)).sum(axis=2) < 30).sum()
    assert orange > 0.35 * 63 * 63  # filled: over a third of its 24 dp (63 px) box is ink (the outline: a quarter)


def test_the_app_opens_on_the_video_tab_with_the_videos_found(device, phone):
    start(phone)
    assert phone.activities.foreground() == (PKG, vlc.MAIN_ACTIVITY)
    assert find(phone, resource_id=rid("nav_video")).get("selected") == "true"
    assert texts(phone, "ml_item_title") == ["clip_7_HD"] and texts(phone, "ml_item_time") == ["0:24"]
    assert find(phone, content_desc="Video: clip_7_HD, Duration: 24 seconds") is not None
    device.push(message_video(["Ana"], 3, 1, CREATED), "/sdcard/Movies/a_trip.mp4")
    device.push(b"hidden", "/sdcard/Movies/.thumbs/hidden.mp4")
    assert texts(phone, "ml_item_title") == ["a_trip", "clip_7_HD"]  # by title, hidden folders left out


def test_the_browser_lists_folders_then_files_by_name_with_numbers_in_order(device, phone):
    for name in ("9_end.mp4", "10_start.mp4", "Zoo.txt", "alpha.MP4", ".hidden.mp4"):
        device.push(b"x", f"/sdcard/Download/{name}")
    phone.run("mkdir /sdcard/Download/zfolder")
    open_download(phone)
    assert phone.activities.foreground() == (PKG, vlc.SECONDARY_ACTIVITY)
    assert texts(phone, "title") == ["zfolder", "9_end.mp4", "10_start.mp4", "alpha.MP4", "clip_7_HD.mp4",
                                     "Zoo.txt"]
    assert find(phone, content_desc="File: clip_7_HD") is not None
    assert find(phone, content_desc="Folder: zfolder") is not None
    device.push(b"x", "/sdcard/Download/new.mp4")  # pushed over adb: listed at once
    assert "new.mp4" in texts(phone, "title")
    tap(phone, text="zfolder")
    assert texts(phone, "title") == [] and find(phone, text=vlc.NO_MEDIA) is not None
    phone.key(keycodes.BACK)  # the fragment back stack
    assert "zfolder" in texts(phone, "title")
    tap(phone, text="zfolder")
    tap(phone, content_desc=vlc.NAVIGATE_UP)  # closes the browser, however deep
    assert phone.activities.foreground() == (PKG, vlc.MAIN_ACTIVITY)


def test_the_browser_sorts_by_name_descending_and_keeps_the_choice(device, phone):
    for name in ("9_end.mp4", "10_start.mp4", "alpha.MP4"):
        device.push(b"x", f"/sdcard/Download/{name}")
    phone.run("mkdir /sdcard/Download/afolder /sdcard/Download/zfolder")
    open_download(phone)
    tap(phone, content_desc=vlc.SORT_BY, resource_id=rid("ml_menu_sortby"))
    assert texts(phone, "title")[-2:] == ["Name", "File name ▲"]  # the submenu over the list, the default marked
    tap(phone, text="Name")  # from the default sort: by title, descending; folders stay first
    assert texts(phone, "title") == ["zfolder", "afolder", "clip_7_HD", "alpha", "9_end", "10_start"]
    assert find(phone, content_desc="File: clip_7_HD") is not None
    prefs = phone.fs.read_bytes(vlc.PREFS_PATH).decode()
    assert '<int name="BrowserModel" value="1" />' in prefs and '<boolean name="BrowserModel_desc" value="true" />' \
        in prefs
    tap(phone, content_desc=vlc.NAVIGATE_UP)
    tap(phone, text=vlc.INTERNAL_MEMORY)  # a new browser reads the saved sort
    tap(phone, text="Download", resource_id=rid("title"))
    assert texts(phone, "title")[2] == "clip_7_HD"
    tap(phone, content_desc=vlc.SORT_BY)
    assert texts(phone, "title")[-2:] == ["Name ▼", "File name"]
    tap(phone, text="Name ▼")  # the same sort again: ascending
    assert texts(phone, "title") == ["afolder", "zfolder", "10_start", "9_end", "alpha", "clip_7_HD"]
    tap(phone, content_desc=vlc.SORT_BY)
    tap(phone, text="File name")  # the direction flips whatever is chosen (BrowserModel.sort): descending
    assert texts(phone, "title") == ["zfolder", "afolder", "clip_7_HD.mp4", "alpha.MP4", "10_start.mp4",
                                     "9_end.mp4"]
    tap(phone, content_desc=vlc.SORT_BY)
    phone.key(keycodes.BACK)  # BACK closes the submenu only
    assert "File name ▼" not in texts(phone, "title")
    assert phone.activities.foreground() == (PKG, vlc.SECONDARY_ACTIVITY)
    phone.run(f"pm clear {PKG}")
    open_download(phone)
    assert texts(phone, "title")[2:] == ["9_end.mp4", "10_start.mp4", "alpha.MP4", "clip_7_HD.mp4"]


def test_the_player_shows_the_files_frame_for_the_playing_position(phone):
    play(phone)
    picture = screen_picture(phone)
    assert difference(picture, file_frame(phone, 0, picture.size)) < 10
    assert difference(picture, file_frame(phone, 9000, picture.size)) > 40
    assert texts(phone, "player_overlay_title") == ["clip_7_HD"]
    assert texts(phone, "player_overlay_time") == ["0:00"] and texts(phone, "player_overlay_length") == ["0:24"]
    phone.clock.advance(10_500)  # the position moves with device time
    picture = screen_picture(phone)
    assert difference(picture, file_frame(phone, 10_500, picture.size)) < 10
    assert difference(picture, file_frame(phone, 0, picture.size)) > 40


def test_the_names_are_only_in_the_pixels(phone):
    play(phone)
    dump = phone.ui_dump()
    assert not any(name in dump for name in NAMES)


def test_seeking_shows_the_frame_at_the_new_position(phone):
    play(phone)
    bar = find(phone, resource_id=rid("player_overlay_seekbar"))
    x1, _, x2, _ = map(int, re.findall(r"\d+", bar.get("bounds")))
    _, y = center(bar)
    phone.tap(x1 + (x2 - x1) * 0.75, y)  # 18 s of 24
    assert texts(phone, "player_overlay_time") == ["0:18"]
    picture = screen_picture(phone)
    assert difference(picture, file_frame(phone, 18_000, picture.size)) < 10
    assert difference(picture, file_frame(phone, 1000, picture.size)) > 40


def test_pause_stops_the_position_and_play_resumes_it(phone):
    play(phone)
    tap(phone, content_desc=vlc.PAUSE)  # one second after opening
    assert find(phone, resource_id=rid("player_overlay_play")).get("content-desc") == vlc.PLAY
    before = screen_picture(phone)
    phone.clock.advance(20_000)
    assert texts(phone, "player_overlay_time") == ["0:01"]  # the controls stay up while paused
    assert difference(screen_picture(phone), before) == 0
    tap(phone, content_desc=vlc.PLAY)
    assert find(phone, resource_id=rid("player_overlay_play")).get("content-desc") == vlc.PAUSE
    phone.clock.advance(1000)
    assert texts(phone, "player_overlay_time") == []  # resuming hides the controls 800 ms later
    phone.clock.advance(4000)
    picture = screen_picture(phone)
    assert difference(picture, file_frame(phone, 6000, picture.size)) < 10  # 1 s before the pause, 5 s after


def test_the_controls_hide_while_playing_and_a_tap_brings_them_back(phone):
    play(phone)
    phone.clock.advance(3900)
    assert find(phone, resource_id=rid("player_overlay_seekbar")) is not None
    phone.clock.advance(200)
    assert find(phone, resource_id=rid("player_overlay_seekbar")) is None
    tap(phone, resource_id=rid("player_root"))
    assert texts(phone, "player_overlay_time") == ["0:05"]
    tap(phone, resource_id=rid("player_root"))
    assert find(phone, resource_id=rid("player_overlay_seekbar")) is None


def node_pixels(phone: Phone, **attrs: str) -> set[tuple[int, int, int]]:
    """The colours drawn inside a node's bounds."""
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", find(phone, **attrs).get("bounds")))
    return colours(phone.screenshot()[y1:y2, x1:x2])


def test_the_dark_theme_turns_the_library_dark_and_leaves_the_player_as_it_is(phone):
    """VLC follows the system's theme by default (Theme.VLC.Black at night); the player has its own dark theme."""
    start(phone)
    phone.run("cmd uimode night yes")
    background, title = vlc.NIGHT_COLORS[WHITE], vlc.NIGHT_COLORS[TEXT]
    assert tuple(phone.screenshot()[1500, 540]) == background == (19, 19, 19)  # dark_background #131313
    assert title in node_pixels(phone, resource_id=rid("ml_item_title"))
    assert vlc.NIGHT_COLORS[TEXT_SECONDARY] in node_pixels(phone, resource_id=rid("ml_item_time"))
    assert (42, 42, 42) in node_pixels(phone, resource_id=rid("navigation"))  # grey875
    assert (255, 255, 255) not in node_pixels(phone, resource_id=rid("coordinator"))
    play(phone)
    assert (255, 255, 255) in node_pixels(phone, resource_id=rid("player_overlay_time"))  # still white on the HUD
    phone.key(keycodes.BACK)
    phone.run("cmd uimode night no")
    assert tuple(phone.screenshot()[1500, 540]) == (255, 255, 255)


def test_bottom_navigation_labels_stay_inside_their_items_on_a_small_phone_in_german():
    """A BottomNavigationView's labels are one line each, cut with "…" within their item ("Wiedergabelisten"
    is wider than a fifth of a 270 px wide phone)."""
    small = Phone(270, 600)
    try:
        small.run("setprop persist.sys.locale de-DE && setprop ctl.restart zygote")
        start(small)
        for tab in vlc.TAB_IDS:
            item = find(small, resource_id=rid(tab))
            label = item.xpath(".//node[contains(@resource-id, 'label_view')]")[0]
            x1, _, x2, _ = map(int, re.findall(r"\d+", item.get("bounds")))
            lx1, _, lx2, _ = map(int, re.findall(r"\d+", label.get("bounds")))
            assert x1 <= lx1 < lx2 <= x2, (label.get("text"), item.get("bounds"), label.get("bounds"))
        assert find(small, resource_id=rid("nav_playlists")).get("content-desc") == "Wiedergabelisten"
    finally:
        small.close()


def test_the_player_closes_when_the_video_ends(phone):
    play(phone)
    phone.clock.advance(23_000)
    assert phone.activities.foreground() == (PKG, vlc.PLAYER_ACTIVITY)
    phone.clock.advance(1000)
    assert "clip_7_HD.mp4" in texts(phone, "title")
    assert phone.activities.foreground() == (PKG, vlc.SECONDARY_ACTIVITY)


def test_back_leaves_the_player_and_a_force_stop_starts_afresh(phone):
    play(phone)
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PKG, vlc.SECONDARY_ACTIVITY)
    tap(phone, content_desc=vlc.NAVIGATE_UP)
    tap(phone, text=vlc.PLAYLISTS)
    assert find(phone, text=vlc.NO_MEDIA) is not None  # PlaylistFragment.updateEmptyView: "nomedia"
    phone.run(f"am force-stop {PKG}")
    start(phone)
    assert find(phone, resource_id=rid("nav_video")).get("selected") == "true"


def test_a_video_rewritten_in_the_same_device_moment_is_read_again():
    phone = Phone(540, 1200)
    try:
        path = "/sdcard/Movies/clip.mp4"
        phone.fs.makedirs("/sdcard/Movies")
        host = phone.fs.host_path(path)
        host.write_bytes(message_video(["first"], 2, 0, CREATED))
        assert vlc.Video(phone, path).duration_ms == 2000
        host.write_bytes(message_video(["second"], 3, 0, CREATED))  # host code: no device time passes
        assert vlc.Video(phone, path).duration_ms == 3000
    finally:
        phone.close()
