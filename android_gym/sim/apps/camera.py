"""Camera (``com.android.camera2``, AOSP ``packages/apps/Camera2``), the camera app of the API 33 emulator image.

Facts come from AOSP Camera2 (read in the LineageOS mirror at ``android-14.0.0_r50``; what is used here of
``Storage.java``, ``VideoModule.java`` and ``CameraUtil.java`` is the same in its Android 13 branch):

* where files go: ``Storage.addImageToMediaStore`` and ``VideoModule.generateVideoValues`` insert into
  ``MediaStore.Images`` / ``MediaStore.Video`` without a ``RELATIVE_PATH``, so MediaProvider puts them in its
  default folders for those tables (``MediaProvider.ensureFileColumns``: ``Pictures`` for images, ``Movies`` for
  videos), i.e. ``/sdcard/Pictures`` and ``/sdcard/Movies`` (not ``DCIM/Camera``);
* names: ``res/values/strings.xml`` ``image_file_name_format`` ``'IMG'_yyyyMMdd_HHmmss`` and
  ``video_file_name_format`` ``'VID'_yyyyMMdd_HHmmss`` in device local time; ``CameraUtil.ImageFileNamer`` adds
  ``_1``, ``_2`` … to photos taken in the same second; the display name gets ``.jpg`` (``Storage.JPEG_POSTFIX``)
  or, for videos, the extension of the MIME type (``video/mp4`` → ``.mp4``), and MediaProvider makes a name that
  is taken unique as ``NAME (1).ext`` (``FileUtils.buildUniqueFile``). A video is recorded into MediaProvider's
  pending file ``.pending-<expiry seconds>-<name>`` (``IS_PENDING=1``, expiring in 7 days), renamed to its name when
  recording stops (``IS_PENDING=0``);
* the screen: ``res/layout/camera.xml`` (``preview_content`` TextureView, the ``accessibility_affordances`` that
  ``CameraAppUI`` shows when a ``com.google`` accessibility service is on, as AndroidWorld's accessibility
  forwarder is: "Mode list", described "Toggle mode list"), ``bottom_bar_contents.xml`` (``shutter_button``,
  described "Shutter"), ``mode_list_layout.xml``/``mode_selector.xml`` with ``arrays.xml``
  ``camera_mode_text``/``camera_mode_content_description`` ("Camera"/"Switch to Camera Mode", "Video"/"Switch to
  Video Camera"; the emulator has no Lens Blur, Photo Sphere or Panorama), ``viewfinder_labels_video.xml``
  (``recording_time``, ``VideoModule.millisecondToTimeString``: ``MM:SS``, ``HH:MM:SS`` from an hour);
* the startup mode: ``Keys.KEY_STARTUP_MODULE_INDEX`` ("camera.startup_module") in the default SharedPreferences,
  written when the mode changes (``SettingsManager`` stores every value as a string).

A photo is a 640x480 JPEG (quality 90, EXIF ``DateTime``/``DateTimeOriginal``) of the viewfinder's synthetic
scene; a video is ``media.mp4_file`` of the recorded (virtual clock) duration: a valid MP4 with no tracks.

Not simulated: the filmstrip (and its "Filmstrip" accessibility button), the capture thumbnail, mode options
("Options": flash, HDR, timer, grid, camera switch), settings, zoom, focus, first-run dialogs (location and aspect
ratio prompts), permission prompts, video snapshots and the size/duration limits.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import os
import posixpath
from dataclasses import dataclass

from PIL import Image, ImageDraw

from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.media import mp4_file
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import scrim_over
from android_gym.sim.ui.views import WHITE, View, column, frame, image_view, row, text_view

PACKAGE = "com.android.camera2"
ACTIVITY = "com.android.camera.CameraActivity"
LAUNCHER_ALIAS = "com.android.camera.CameraLauncher"  # the launcher's activity-alias of CameraActivity
PHOTOS_DIR = f"{EXTERNAL_STORAGE}/Pictures"
VIDEOS_DIR = f"{EXTERNAL_STORAGE}/Movies"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"
STARTUP_MODULE = "camera.startup_module"
PHOTO_MODE, VIDEO_MODE = 0, 1  # @integer/camera_mode_photo, camera_mode_video

# res/values/strings.xml and arrays.xml
APP_NAME = "Camera"
SHUTTER = "Shutter"
MODE_LIST, TOGGLE_MODE_LIST = "Mode list", "Toggle mode list"
MODE_TEXT = ("Camera", "Video")
MODE_DESCRIPTION = ("Switch to Camera Mode", "Switch to Video Camera")
IMAGE_NAME_FORMAT, VIDEO_NAME_FORMAT = "IMG_%Y%m%d_%H%M%S", "VID_%Y%m%d_%H%M%S"
JPEG_EXTENSION, VIDEO_EXTENSION = ".jpg", ".mp4"

PHOTO_SIZE = (640, 480)
JPEG_QUALITY = 90  # Storage.writeBitmap: Bitmap.CompressFormat.JPEG, 90
PENDING_MS = 7 * 24 * 3600 * 1000  # MediaProvider's pending files expire after 7 days
_MAX_UNIQUE = 32  # FileUtils.buildUniqueFileWithExtension gives up after NAME (31)
_BLACK, _BAR, _RED, _DRAWER = (0, 0, 0), (33, 33, 33), (229, 57, 53), (48, 48, 48)
_BOTTOM_BAR_HEIGHT, _SHUTTER_SIZE, _DRAWER_WIDTH, _MODE_ITEM_HEIGHT = 336, 190, 760, 168


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


@functools.cache
def preview_scene() -> Image.Image:
    """What the viewfinder shows: a fixed synthetic scene (sky, sun, hills, a house), ``PHOTO_SIZE`` pixels."""
    width, height = PHOTO_SIZE
    image = Image.new("RGB", PHOTO_SIZE)
    draw = ImageDraw.Draw(image)
    for y in range(height):
        shade = y / height
        draw.line((0, y, width, y), fill=(int(90 + 100 * shade), int(150 + 70 * shade), 235))
    draw.ellipse((480, 50, 570, 140), fill=(255, 221, 87))
    draw.ellipse((-160, 300, 420, 640), fill=(76, 153, 76))
    draw.ellipse((260, 320, 860, 700), fill=(56, 128, 60))
    draw.rectangle((180, 250, 330, 370), fill=(205, 133, 63))
    draw.polygon([(165, 250), (255, 180), (345, 250)], fill=(150, 45, 40))
    draw.rectangle((235, 310, 275, 370), fill=(101, 67, 33))
    return image


def jpeg_bytes(image: Image.Image, taken: dt.datetime) -> bytes:
    """``image`` as a JPEG with the EXIF date the camera writes (``DateTime`` and ``DateTimeOriginal``)."""
    stamp = taken.strftime("%Y:%m:%d %H:%M:%S")
    exif = Image.Exif()
    exif[0x0132] = stamp  # DateTime
    exif.get_ifd(0x8769)[0x9003] = stamp  # Exif IFD: DateTimeOriginal
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY, exif=exif)
    return out.getvalue()


def recording_time(ms: int) -> str:
    """``VideoModule.millisecondToTimeString`` without centiseconds: ``MM:SS``, or ``HH:MM:SS`` from an hour."""
    seconds = ms // 1000
    hours, minutes = seconds // 3600, seconds // 60 % 60
    text = f"{minutes:02d}:{seconds % 60:02d}"
    return f"{hours:02d}:{text}" if hours else text


@dataclass(frozen=True)
class Recording:
    """A video being recorded: when it started, its title and MediaProvider's pending file."""

    start_ms: int
    title: str
    pending_path: str


class CameraScreen(Screen):
    """``CameraActivity``: the viewfinder, the shutter, the mode list and (while recording) the recording time."""

    activity = ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.mode_list_open = False

    @property
    def camera(self) -> Camera:
        """The app."""
        assert isinstance(self.app, Camera)
        return self.app

    def on_back(self) -> bool:
        """An open mode list closes first."""
        if not self.mode_list_open:
            return False
        self.mode_list_open = False
        return True

    def _open_mode_list(self) -> None:
        """The mode list cannot open while a video is being recorded."""
        self.mode_list_open = self.camera.recording is None

    def _close_mode_list(self) -> None:
        self.mode_list_open = False

    def _fling(self, direction: str) -> None:
        """A swipe to the right over the preview pulls the mode list out (to the left opens the filmstrip,
        not simulated)."""
        if direction == "right":
            self._open_mode_list()

    def _select_mode(self, mode: int) -> None:
        self.camera.set_mode(mode)
        self.mode_list_open = False

    def build(self) -> View:
        camera = self.camera
        preview = image_view(preview_scene(), "camera_preview", resource_id=_id("preview_content"), gravity="fill",
                             background=_BLACK)
        preview.class_name, preview.on_fling = "android.view.TextureView", self._fling
        top = self._recording_time() if camera.recording else self._affordances()
        content = frame(preview, top, self._bottom_bar(), resource_id=_id("camera_app_root"), background=_BLACK)
        if self.mode_list_open:
            return scrim_over(content, self._mode_list(), self._close_mode_list)
        return content

    def _affordances(self) -> View:
        """``accessibility_affordances``: the mode-list toggle, shown while an accessibility service is on."""
        toggle = View(kind="button", class_name="android.widget.Button", text=MODE_LIST, content_desc=TOGGLE_MODE_LIST,
                      resource_id=_id("accessibility_mode_toggle_button"), clickable=True, focusable=True,
                      on_click=self._open_mode_list, background=(66, 66, 66), text_color=WHITE, height=126,
                      width=300, padding=24)
        return row(toggle, resource_id=_id("accessibility_affordances"), gravity="top")

    def _recording_time(self) -> View:
        recording = self.camera.recording
        assert recording is not None
        elapsed = self.phone.clock.now_ms() - recording.start_ms
        label = text_view(recording_time(elapsed), resource_id=_id("recording_time"), text_color=WHITE,
                          text_size=50, padding=24)
        return row(View(weight=1), label, View(weight=1), resource_id=_id("labels"), gravity="top", padding=24)

    def _bottom_bar(self) -> View:
        """``bottom_bar`` around ``shutter_button`` (an ImageView): white in Camera mode, red in Video mode, a
        stop sign while recording."""
        camera = self.camera
        video = camera.mode == VIDEO_MODE
        shutter = View(kind="fab", class_name="android.widget.ImageView", resource_id=_id("shutter_button"),
                       content_desc=SHUTTER, clickable=True, focusable=True, on_click=camera.press_shutter,
                       width=_SHUTTER_SIZE, height=_SHUTTER_SIZE, background=_RED if video else WHITE,
                       hint="stop" if camera.recording else "", text_color=WHITE)
        capture = row(View(weight=1), shutter, View(weight=1), resource_id=_id("bottombar_capture"),
                      height=_BOTTOM_BAR_HEIGHT)
        return frame(capture, resource_id=_id("bottom_bar"), gravity="bottom", background=_BAR,
                     height=_BOTTOM_BAR_HEIGHT)

    def _mode_list(self) -> View:
        """``ModeListView``: one ``ModeSelectorItem`` per mode, described by its ``camera_mode_content_description``."""
        items = [View(kind="row", class_name="android.widget.FrameLayout", content_desc=MODE_DESCRIPTION[mode],
                      clickable=True, focusable=True, on_click=lambda mode=mode: self._select_mode(mode),
                      height=_MODE_ITEM_HEIGHT, selected=mode == self.camera.mode, padding=42, children=[
                          text_view(MODE_TEXT[mode], resource_id=_id("selector_text"), text_color=WHITE,
                                    text_size=50, weight=1)])
                 for mode in (PHOTO_MODE, VIDEO_MODE)]
        listed = column(*items, resource_id=_id("mode_list"), padding=42)
        return frame(listed, resource_id=_id("mode_list_layout"), width=_DRAWER_WIDTH, gravity="fill",
                     background=_DRAWER)


class Camera(App):
    """``com.android.camera2``; the launcher starts ``CameraActivity`` through its ``CameraLauncher`` alias."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_camera", (69, 90, 100)
    screens = (CameraScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)
        self.recording: Recording | None = None
        self._last_photo_ms = 0  # CameraUtil.ImageFileNamer: mLastDate and mSameSecondCount
        self._same_second = 0

    def screen_class(self, activity: str) -> type[Screen] | None:
        """``CameraLauncher`` is an alias of ``CameraActivity``."""
        return super().screen_class(ACTIVITY if activity in (LAUNCHER_ALIAS, ".CameraLauncher") else activity)

    @property
    def mode(self) -> int:
        """The module the app starts in and shows: ``KEY_STARTUP_MODULE_INDEX`` (Camera unless it was Video)."""
        return VIDEO_MODE if self.prefs.get(STARTUP_MODULE, str(PHOTO_MODE)) == str(VIDEO_MODE) else PHOTO_MODE

    def set_mode(self, mode: int) -> None:
        """``onModeSelected``: switch module and remember it for the next start."""
        self.prefs.apply({STARTUP_MODULE: ("string", str(mode))})

    def press_shutter(self) -> None:
        """The shutter: take a photo in Camera mode; start or stop recording in Video mode."""
        if self.mode == PHOTO_MODE:
            self.take_photo()
        elif self.recording is None:
            self.start_video()
        else:
            self.stop_video()

    def take_photo(self) -> None:
        """Save a JPEG of the viewfinder to ``Pictures`` as ``IMG_…jpg``."""
        now_ms = self.phone.clock.now_ms()
        title = self.phone.clock.now().strftime(IMAGE_NAME_FORMAT)
        if now_ms // 1000 == self._last_photo_ms // 1000:
            self._same_second += 1
            title += f"_{self._same_second}"
        else:
            self._last_photo_ms, self._same_second = now_ms, 0
        path = self._new_media_path(PHOTOS_DIR, title, JPEG_EXTENSION)
        self.phone.fs.write_bytes(path, jpeg_bytes(preview_scene(), self.phone.clock.now()))

    def start_video(self) -> None:
        """Start recording into MediaProvider's pending file for ``VID_….mp4`` in ``Movies``."""
        now_ms = self.phone.clock.now_ms()
        title = self.phone.clock.now().strftime(VIDEO_NAME_FORMAT)
        pending = f".pending-{(now_ms + PENDING_MS) // 1000}-{title}{VIDEO_EXTENSION}"
        self.phone.fs.makedirs(VIDEOS_DIR)
        path = posixpath.join(VIDEOS_DIR, pending)
        self.phone.fs.write_bytes(path, b"")
        self.recording = Recording(now_ms, title, path)

    def stop_video(self) -> None:
        """Finish the MP4 with the recorded duration and publish it under its name."""
        recording, fs = self.recording, self.phone.fs
        assert recording is not None
        self.recording = None
        duration = self.phone.clock.now_ms() - recording.start_ms
        fs.write_bytes(recording.pending_path, mp4_file(duration, self.phone.clock.now()))
        path = self._new_media_path(VIDEOS_DIR, recording.title, VIDEO_EXTENSION)
        source, target = fs.host_path(recording.pending_path), fs.host_path(path)
        with fs.device_writes(target.parent):
            os.replace(source, target)

    def _new_media_path(self, directory: str, title: str, extension: str) -> str:
        """Where MediaProvider puts a new item named ``title + extension``: its folder (created if missing), the
        name made unique as ``title (1).ext`` … when taken."""
        fs = self.phone.fs
        fs.makedirs(directory)
        for n in range(_MAX_UNIQUE):
            name = f"{title} ({n}){extension}" if n else f"{title}{extension}"
            if not fs.exists(posixpath.join(directory, name)):
                return posixpath.join(directory, name)
        raise FileExistsError(f"no unique name for {title}{extension} in {directory}")

    def _forget_process(self) -> None:
        """The process died: a recording in progress is lost (its pending file stays), the namer restarts and the
        preferences are read again."""
        self.recording = None
        self._last_photo_ms, self._same_second = 0, 0
        self.prefs.forget()

    def on_force_stop(self) -> None:
        """``am force-stop``."""
        self._forget_process()

    def on_clear(self) -> None:
        """``pm clear``: the preferences are gone; the app starts in Camera mode."""
        self._forget_process()
