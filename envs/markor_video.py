"""``MarkorTranscribeVideo`` (AndroidWorld ``task_evals/single/markor.py``, with ``vlc.generate_file_name`` and
``user_data_generation.write_video_file_to_device``): write the names a video shows into a Markor note.

Setup is AndroidWorld's: the notebook is emptied and every file of the shared storage deleted (``Markor`` and
``CreateFile.initialize_task``), then ``Download`` gets the target video, showing 2 to 4 of ``COMMON_GIVEN_NAMES``
for 8 s each, and 5 to 20 noise videos, each showing one random 10-character string for 20 to 180 s. Every name,
string, duration and the seed of the pixel noise are drawn in ``generate_params``; the videos are rendered from them
at each setup (``media.message_videos``: Motion-JPEG MP4s, one frame per second for the target, one frame held for
the whole display time for the noise videos), so pinned parameters pin the bytes. The names are only in the frames'
pixels. As in AndroidWorld, teardown empties the notebook only (the videos stay until the next storage clear).

The check is ``CreateFile``'s: ``<video stem>_transcription.txt`` in the notebook whose text (``cat``, stripped)
fuzzily matches the names joined by commas; stricter, the notebook's other files and every video in ``Download``
must be as setup left them (their MD5 digests, worked out from the bytes the parameters render when the note is
right), so deleting, renaming or changing a video scores 0.

The oracle watches the video in VLC (Browse → Internal memory → Download → the video, which starts on the first
name, then a tap on the seek bar in the middle of each later name's 8 s) and writes the note in Markor.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import shlex
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.envs import markor
from android_gym.sim.apps import vlc
from android_gym.sim.system.media import MessageVideo, message_videos
from android_gym.tasks import register_task
from android_gym.tasks.draws import Rng, exact_draws, sample_indices
from android_gym.tasks.files import DOWNLOAD_DATA, kept, tree_snapshot
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    complete,
    open_app,
    scroll_to,
    scroll_until,
    tap,
    tap_found,
    type_into,
)
from android_gym.tasks.user_data import COMMON_GIVEN_NAMES, modified_file_name, pick, random_string
from android_gym.ui import UIElement

VLC_APP = "vlc"
DISPLAY_S = 8  # the target video's message_display_time
NOISE_DISPLAY_S = (20, 180)  # random.randint(20, 180) for each noise video
NOISE_LENGTH = 10  # generate_random_string(10)
#: ``vlc.generate_file_name``'s parts: ``<prefix>_<1..99>_<suffix>.mp4``.
VIDEO_PREFIXES = ("clip", "footage", "scene", "recording", "highlight", "moment", "episode")
VIDEO_SUFFIXES = ("", "HD", "4K", "raw", "export")


def vlc_id(name: str) -> str:
    """The full resource id of VLC's view ``name``."""
    return f"{vlc.PACKAGE}:id/{name}"


BROWSE_TAB = Selector(content_desc=vlc.BROWSE, resource_id=vlc_id("nav_directories"))
INTERNAL_MEMORY = Selector(text=vlc.INTERNAL_MEMORY, resource_id=vlc_id("title"))
FILE_LIST = Selector(resource_id=vlc_id("network_list"))
SEEK_BAR = Selector(resource_id=vlc_id("player_overlay_seekbar"))
SORT_BY = Selector(content_desc=vlc.SORT_BY, resource_id=vlc_id("ml_menu_sortby"))
ROW_TITLE = Selector(resource_id=vlc_id("title"))
SORT_MENU = Selector(class_suffix="ListView")  # the submenu's MenuPopupWindow
SORT_BY_NAME = Selector(text=vlc.SORT_BY_NAME, resource_id=vlc_id("title"))


def video_file_name(rng: Rng) -> str:
    """``vlc.generate_file_name``: a prefix, a number from 1 to 99 and a suffix (maybe empty) joined by "_" with
    ".mp4", then modified (``generate_modified_file_name``)."""
    name = f"{pick(rng, VIDEO_PREFIXES)}_{int(rng.integers(1, 100))}_{pick(rng, VIDEO_SUFFIXES)}.mp4"
    return modified_file_name(rng, name)


def _browser_row(name: str) -> Selector:
    """A file or folder of VLC's browser, by its name."""
    return Selector(text=name, resource_id=vlc_id("title"))


def seek_to(fraction: float) -> OracleStep:
    """Tap VLC's seek bar at ``fraction`` of its width (the player's controls must be up)."""
    def step(elements: Sequence[UIElement]) -> Action:
        box = SEEK_BAR.find(elements).bbox_pixels
        return Action(ActionType.CLICK, x=round(box.x_min + fraction * (box.x_max - box.x_min)), y=box.center[1])
    return step


def _video_rows(name: str) -> tuple[Selector, Selector]:
    """The browser's row of the video ``name``: it shows the file name, or its title while sorted by name."""
    return _browser_row(name), _browser_row(vlc.title_of(name))


def _find_video(name: str, elements: Sequence[UIElement]) -> UIElement | None:
    """The video's row title on screen, if it is."""
    found = [row.find(elements) for row in _video_rows(name) if row.present(elements)]
    return found[0] if found else None


def _sort_when_below(name: str) -> OracleStep:
    """Open the browser's sort menu when the video is not on screen and its name comes after the last row shown:
    it lies below, and sorting the other way brings it up (no step otherwise)."""
    def step(elements: Sequence[UIElement]) -> Action | None:
        if _find_video(name, elements) is not None:
            return None
        rows = [element for element in elements if ROW_TITLE.matches(element) and element.bbox_pixels.area > 0]
        last = vlc.title_of(rows[-1].text or "").lower() if rows else ""
        return tap(SORT_BY)(elements) if vlc.title_of(name).lower() > last else None
    return step


def _choose_name_sort(elements: Sequence[UIElement]) -> Action | None:
    """In the open sort menu, Name (by title; the list turns the other way round), however it is marked; no step
    when the menu is not open."""
    if not SORT_MENU.present(elements):
        return None
    unmarked = (replace(element, text=(element.text or "").removesuffix(" ▲").removesuffix(" ▼"))
                for element in elements)
    return Action(ActionType.CLICK, index=SORT_BY_NAME.find(list(unmarked)).index)


def _tap_video(name: str) -> OracleStep:
    """Tap the video's row."""
    return tap_found(lambda elements: _find_video(name, elements), f"the row of {name} is not on screen")


def watch_video(name: str, messages: int) -> list[OracleStep]:
    """Open ``Download/name`` in VLC through Browse (sorting the folder by name the other way round when the video
    lies below the rows shown, see ``_sort_when_below``); playback starts on the first message, and a tap on the
    seek bar in the middle of each later one's ``DISPLAY_S`` seconds shows it."""
    length = messages * DISPLAY_S
    return [open_app(VLC_APP), tap(BROWSE_TAB), tap(INTERNAL_MEMORY), *scroll_to(_browser_row("Download"), FILE_LIST),
            tap(_browser_row("Download")), _sort_when_below(name), _choose_name_sort,
            *scroll_until(lambda elements: _find_video(name, elements), FILE_LIST, f"the row of {name}"),
            _tap_video(name), *(seek_to((k * DISPLAY_S + DISPLAY_S / 2) / length) for k in range(1, messages))]


@register_task
class MarkorTranscribeVideo(markor._CreateNoteTask):
    """Watch a video in VLC and write the names it shows, comma-separated, into a new Markor note."""

    name = "MarkorTranscribeVideo"
    app_packages = (markor.PACKAGE, vlc.PACKAGE)
    complexity = 2
    template = (
        "Transcribe the contents of video {video_name} by watching it in VLC player (located in Download) and "
        "writing the sequence of strings shown on each frame to the text file {file_name} in Markor as a comma "
        'separated list. For example, if the first frame shows the text "edna" and the second frame shows the text '
        '"pineapple", then the text file should contain only the following text: "edna, pineapple".'
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """2–4 distinct given names, the video's and the note's names, 5–20 noise videos (distinct names, each with
        a random 10-character string shown for 20–180 s) and the seed of the frames' noise."""
        with exact_draws(rng) as draws:  # (hundreds of draws; ``sample_indices`` draws as ``choice`` does)
            count = int(draws.integers(2, 5))
            messages = [COMMON_GIVEN_NAMES[i] for i in sample_indices(draws, len(COMMON_GIVEN_NAMES), count)]
            video_name = video_file_name(draws)
            noise_files: list[str] = []
            for _ in range(int(draws.integers(5, 21))):
                name = video_file_name(draws)
                while name == video_name or name in noise_files:
                    name = video_file_name(draws)
                noise_files.append(name)
            low, high = NOISE_DISPLAY_S
            return {
                "file_name": f"{video_name.split('.')[0]}_transcription.txt",
                "text": ",".join(messages),
                "messages": messages,
                "video_name": video_name,
                "noise_files": noise_files,
                "noise_messages": [random_string(draws, NOISE_LENGTH) for _ in noise_files],
                "noise_display_s": [int(draws.integers(low, high + 1)) for _ in noise_files],
                "frame_seed": int(draws.integers(2**31)),
            }

    def videos(self) -> dict[str, bytes]:
        """Every video's file name and bytes, rendered from the parameters: the target (one frame a second), then
        the noise (one frame held for its display time); each draws its noise from ``[frame_seed, its index]``."""
        seed = self.params["frame_seed"]
        videos = {self.params["video_name"]: MessageVideo(self.params["messages"], DISPLAY_S, [seed, 0])}
        noise = zip(self.params["noise_files"], self.params["noise_messages"], self.params["noise_display_s"])
        for index, (name, message, display_s) in enumerate(noise, start=1):
            videos[name] = MessageVideo([message], display_s, [seed, index], frame_s=display_s)
        return dict(zip(videos, message_videos(list(videos.values()), self.device_time)))

    def seed_state(self, device: Device) -> None:
        """The videos in ``Download`` (``write_video_file_to_device``), then a snapshot of the notebook."""
        self.run(device, f"mkdir -p {shlex.quote(DOWNLOAD_DATA)}")
        for name, data in self.videos().items():
            device.push(data, posixpath.join(DOWNLOAD_DATA, name))
        super().seed_state(device)

    @functools.cached_property
    def video_digests(self) -> dict[str, str]:
        """The MD5 digest of each video the set-up wrote, by file name: of the bytes its parameters render again,
        the bytes it pushed. Only a check that got past the note asks, so a reset hashes no video."""
        return {name: hashlib.md5(data).hexdigest() for name, data in self.videos().items()}

    def is_successful(self, device: Device) -> float:
        """``CreateFile``'s check (and the notebook's other files unchanged), with every video still in
        ``Download`` as the set-up wrote it (``video_digests``)."""
        if not super().is_successful(device):
            return 0.0
        return 1.0 if kept(self.video_digests, tree_snapshot(device, DOWNLOAD_DATA)) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Watch the video in VLC, then write the names in a new note and save it with the toolbar's Save (one step
        where leaving the editor takes two BACKs, the first closing the keyboard)."""
        return [*watch_video(self.params["video_name"], len(self.params["messages"])), open_app(markor.APP_NAME),
                *markor.new_note(self.params["file_name"]), type_into(markor.EDITOR, self.params["text"]),
                markor.save_note(), complete()]
