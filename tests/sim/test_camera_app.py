"""Camera on the simulated phone, driven by taps, swipes and keys: photos land in Pictures, videos in Movies,
named as Camera2 and MediaProvider name them, with device times."""

from __future__ import annotations

import io

from PIL import Image
from ui_nodes import find, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.camera import ACTIVITY, PACKAGE, PHOTO_SIZE, PREFS_PATH
from android_gym.sim.phone import Phone
from android_gym.sim.system.media import boxes, mp4_duration_ms

PICTURES, MOVIES = "/sdcard/Pictures", "/sdcard/Movies"


def start(phone: Phone) -> None:
    assert phone.run(f"am start -n {PACKAGE}/com.android.camera.CameraLauncher").exit_code == 0
    assert phone.activities.foreground() == (PACKAGE, ACTIVITY)


def ls(phone: Phone, directory: str) -> list[str]:
    return phone.run(f"ls -1 {directory}").stdout.decode().splitlines()


def to_video(phone: Phone) -> None:
    tap(phone, content_desc="Toggle mode list")
    tap(phone, content_desc="Switch to Video Camera")


def test_the_shutter_saves_a_jpeg_of_the_viewfinder_in_pictures(phone):
    start(phone)
    tap(phone, content_desc="Shutter")  # the tap takes one second of device time: 15:34:01
    assert ls(phone, PICTURES) == ["IMG_20231015_153401.jpg"]
    assert ls(phone, MOVIES) == []
    image = Image.open(io.BytesIO(phone.fs.read_bytes(f"{PICTURES}/IMG_20231015_153401.jpg")))
    assert (image.format, image.size) == ("JPEG", PHOTO_SIZE)
    assert image.getexif()[0x0132] == "2023:10:15 15:34:01"
    stat = phone.run(f"stat -c %y {PICTURES}/IMG_20231015_153401.jpg").stdout.decode()
    assert stat.startswith("2023-10-15 15:34:01")


def test_photos_of_one_second_are_numbered_and_taken_names_made_unique(phone):
    start(phone)
    tap(phone, content_desc="Shutter")
    phone.clock.advance(-1000)  # the next tap lands in the same second
    tap(phone, content_desc="Shutter")
    assert ls(phone, PICTURES) == ["IMG_20231015_153401.jpg", "IMG_20231015_153401_1.jpg"]
    phone.run("am force-stop com.android.camera2")  # a new process: ImageFileNamer starts over
    phone.run(f"echo x > {PICTURES}/IMG_20231015_153402.jpg")
    start(phone)
    tap(phone, content_desc="Shutter")
    assert "IMG_20231015_153402 (1).jpg" in ls(phone, PICTURES)


def test_a_video_records_into_a_pending_file_and_is_published_in_movies_when_stopped(phone):
    start(phone)
    to_video(phone)
    tap(phone, content_desc="Shutter")  # starts at 15:34:03
    assert find(phone, resource_id=f"{PACKAGE}:id/recording_time").get("text") == "00:00"
    assert ls(phone, MOVIES) == []  # the pending file is hidden
    hidden = phone.run(f"ls -a {MOVIES}").stdout.decode().split()
    assert ".pending-1697988843-VID_20231015_153403.mp4" in hidden  # expires in 7 days
    phone.clock.advance(65_000)
    assert find(phone, resource_id=f"{PACKAGE}:id/recording_time").get("text") == "01:05"
    assert find(phone, content_desc="Toggle mode list") is None  # no mode change while recording
    tap(phone, content_desc="Shutter")
    assert ls(phone, MOVIES) == ["VID_20231015_153403.mp4"]
    assert phone.run(f"stat -c %y {MOVIES}").stdout.decode().startswith("2023-10-15 15:35:09")  # device time
    assert phone.run(f"ls -a {MOVIES}").stdout.decode().split() == [".", "..", "VID_20231015_153403.mp4"]
    data = phone.fs.read_bytes(f"{MOVIES}/VID_20231015_153403.mp4")
    assert [kind for kind, _ in boxes(data)] == ["ftyp", "moov"]
    assert boxes(data)[0][1][:4] == b"mp42"
    assert mp4_duration_ms(data) == 66_000
    assert ls(phone, PICTURES) == []
    assert find(phone, resource_id=f"{PACKAGE}:id/recording_time") is None


def test_a_swipe_opens_the_mode_list_back_closes_it_and_the_mode_survives_a_restart(phone):
    start(phone)
    phone.swipe(100, 1000, 900, 1000)
    assert find(phone, content_desc="Switch to Camera Mode") is not None
    phone.key(keycodes.BACK)
    assert find(phone, content_desc="Switch to Camera Mode") is None
    assert phone.activities.foreground() == (PACKAGE, ACTIVITY)
    to_video(phone)
    assert '<string name="camera.startup_module">1</string>' in phone.fs.read_bytes(PREFS_PATH).decode()
    phone.run("am force-stop com.android.camera2")
    start(phone)
    tap(phone, content_desc="Shutter")
    tap(phone, content_desc="Shutter")
    assert ls(phone, PICTURES) == [] and len(ls(phone, MOVIES)) == 1
    phone.run("pm clear com.android.camera2")
    start(phone)
    tap(phone, content_desc="Shutter")
    assert len(ls(phone, PICTURES)) == 1


def test_a_recording_cut_short_by_force_stop_leaves_only_its_empty_pending_file(phone):
    start(phone)
    to_video(phone)
    tap(phone, content_desc="Shutter")
    phone.run("am force-stop com.android.camera2")
    assert ls(phone, MOVIES) == []
    entries = phone.run(f"ls -a {MOVIES}").stdout.decode().split()
    pending = [name for name in entries if name.startswith(".pending-")]
    assert len(pending) == 1 and phone.fs.read_bytes(f"{MOVIES}/{pending[0]}") == b""
    start(phone)
    assert find(phone, resource_id=f"{PACKAGE}:id/recording_time") is None
