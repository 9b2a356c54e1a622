"""The byte-bounded picture memo (``sim/ui/picture_cache.py``) and the caches of big pictures built on it."""

from __future__ import annotations

import pytest
from PIL import Image

from android_gym.sim.apps import osmand_map as geo
from android_gym.sim.ui.picture_cache import image_bytes, picture_cache


def test_pictures_are_kept_until_their_bytes_pass_the_budget_then_the_least_recently_used_go():
    made: list[int] = []

    @picture_cache(2 * 4 * 100)  # two 10x10 pictures
    def square(shade: int) -> Image.Image:
        made.append(shade)
        return Image.new("RGB", (10, 10), (shade, 0, 0))

    first = square(1)
    assert square(1) is first and made == [1]
    square(2)
    square(1)  # 1 is now the most recently used: 2 goes next
    square(3)
    assert list(square.kept) == [((1,), ()), ((3,), ())] and square.bytes == 800
    square(2)
    assert made == [1, 2, 3, 2]


def test_a_picture_bigger_than_the_budget_is_not_kept():
    @picture_cache(4 * 20 * 20)
    def blank(side: int) -> Image.Image | None:
        return None if side == 0 else Image.new("RGB", (side, side))

    small = blank(20)
    big = blank(50)
    assert blank(50) is not big and blank(20) is small and list(blank.kept) == [((20,), ())]
    assert blank(0) is None and blank.bytes == 4 * 20 * 20 and len(blank.kept) == 2


def test_the_bytes_kept_never_pass_the_budget_whatever_comes():
    """Pictures of every size, some larger than the whole budget, some asked again: the store's bytes are those of
    what it keeps, never more than its budget."""
    @picture_cache(4 * 1000)
    def blank(width: int, height: int) -> Image.Image:
        return Image.new("RGB", (width, height))

    for index in range(200):
        blank(1 + index * 7 % 23, 1 + index * 11 % 41)
        assert blank.bytes == sum(map(image_bytes, blank.kept.values())) <= blank.budget


def test_the_osmand_maps_kept_never_pass_their_budget():
    geo.render.cache_clear()
    try:
        for step in range(8):  # eight distinct maps, as eight pans make
            geo.render(geo.Viewport(47.16, 9.4 + step / 50, 11, 1080, 2156), geo.Overlay())
            assert geo.render.bytes == sum(map(image_bytes, geo.render.kept.values())) <= geo._MAPS_BYTES
        assert len(geo.render.kept) == geo._MAPS_BYTES // image_bytes(Image.new("RGB", (1080, 2156))) == 2
    finally:
        geo.render.cache_clear()


def test_answers_of_no_picture_are_kept_up_to_maxsize():
    @picture_cache(10**9, maxsize=3)
    def nothing(index: int) -> None:
        return None

    for index in range(10):
        nothing(index)
    assert [key[0][0] for key in nothing.kept] == [7, 8, 9] and nothing.bytes == 0


@pytest.mark.parametrize(("made", "size", "kept"), [
    ("_decoded", (1080, 2400), 3),  # screen-sized photos
    ("_cropped", (40, 30), 28),  # thumbnails (540 px squares): more than a folder's screenful of cells
])
def test_the_gallery_pictures_and_thumbnails_kept_never_pass_their_budget(tmp_path, made, size, kept):
    from android_gym.sim.apps import gallery

    pictures = getattr(gallery, made)
    assert pictures.budget == 32 * 2**20
    gallery._decoded.cache_clear()
    gallery._cropped.cache_clear()
    try:
        for index in range(kept + 3):
            path = tmp_path / f"p{index}.png"
            Image.new("RGB", size, (index, 0, 0)).save(path)
            assert pictures(str(path), "1").getpixel((0, 0)) == (index, 0, 0)
            assert pictures.bytes == sum(map(image_bytes, pictures.kept.values())) <= pictures.budget
        assert len(pictures.kept) == kept
    finally:
        gallery._decoded.cache_clear()
        gallery._cropped.cache_clear()


def test_the_video_frames_kept_never_pass_their_budget():
    from android_gym.sim.apps import vlc
    from android_gym.sim.system.media import VIDEO_SIZE

    assert vlc._decoded.budget == 16 * 2**20
    assert vlc._decoded.budget // image_bytes(Image.new("RGB", VIDEO_SIZE)) == 54  # frames of the tasks' videos
