"""The renderer's caches stay bounded and never change what is drawn: scaled pictures kept within a byte budget
(one larger than it not kept at all), drawn the same when they come back after being dropped."""

from __future__ import annotations

import weakref

import numpy as np
import pytest
from PIL import Image

from android_gym.sim.ui import render
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.picture_cache import KeptPictures
from android_gym.sim.ui.render import Renderer
from android_gym.sim.ui.views import WHITE, View, column, edit_text, image_view, outlined_field, text_view


def _picture_screen(key: str, color: tuple[int, int, int], height: int = 1000) -> View:
    """A screen of a 540x500 picture made when drawn (a gallery file's: kept by the renderer), ``height`` tall."""
    picture = Image.new("RGB", (540, 500), color)
    tree = column(image_view(lambda: picture, key, height=height))
    layout(tree, 0, 0, 1080, 1000)
    return tree


def test_scaled_pictures_are_kept_within_the_byte_budget_and_drawn_the_same_when_they_come_back(monkeypatch) -> None:
    monkeypatch.setattr(render, "_SCALED_CACHE_BYTES", 2 * 1080 * 1000 * 4)  # two full-width pictures
    renderer = Renderer(1080, 1000)
    colors = [(200, 0, 0), (0, 200, 0), (0, 0, 200), (200, 200, 0)]
    first = renderer.render({"w": (_picture_screen("p0", colors[0]), WHITE)}).copy()
    for i, color in enumerate(colors[1:], 1):
        renderer.render({"w": (_picture_screen(f"p{i}", color), WHITE)})
        assert renderer._scaled.bytes == sum(4 * p.width * p.height for p in renderer._scaled.kept.values())
        assert renderer._scaled.bytes <= render._SCALED_CACHE_BYTES and len(renderer._scaled.kept) == min(i + 1, 2)
    assert ("p0", 1080, 1000) not in renderer._scaled
    again = renderer.render({"w": (_picture_screen("p0", colors[0]), WHITE)})
    assert np.array_equal(again, first) and (first[500, 540] == colors[0]).all()


def test_a_picture_larger_than_the_budget_is_drawn_but_not_kept(monkeypatch) -> None:
    monkeypatch.setattr(render, "_SCALED_CACHE_BYTES", 2 * 4 * 540 * 500)  # two pictures of half the width
    renderer = Renderer(1080, 1000)
    renderer.render({"w": (_picture_screen("small", (9, 9, 9), height=250), WHITE)})  # scaled to 270x250
    frame = renderer.render({"w": (_picture_screen("big", (7, 7, 7)), WHITE)})  # to 1080x1000
    assert (frame[500, 540] == 7).all() and list(renderer._scaled.kept) == [("small", 1080, 250)]
    assert renderer._scaled.bytes == 4 * 270 * 250


def test_pictures_drawn_at_their_own_size_are_kept_within_their_budget(monkeypatch) -> None:
    """Pictures drawn unscaled stay their owners' objects, kept within ``_OWN_SIZE_SCREENS`` whatever comes and only
    while shown: one larger than that is drawn but asked of its owner again the next time it is drawn."""
    renderer = Renderer(1080, 1000)
    for shade in range(5):  # two half-screen pictures a screen: one screen's worth
        tree = column(*(image_view(Image.new("RGB", (1080, 500), (shade, half, 0)), f"own{shade}{half}", height=500)
                        for half in range(2)))
        layout(tree, 0, 0, 1080, 1000)
        assert (renderer.render({"w": (tree, WHITE)})[::500, 0] == [(shade, 0, 0), (shade, 1, 0)]).all()
        assert renderer._own_size.bytes == 2 * 4 * 1080 * 500 == 4 * 1080 * 1000 * render._OWN_SIZE_SCREENS
        assert [key[0] for key in renderer._own_size.kept] == [f"own{shade}0", f"own{shade}1"]  # the shown ones
    renderer.render({"w": (_picture_screen("scaled", (8, 8, 8)), WHITE)})  # a screen without them
    assert not renderer._own_size.kept and renderer._own_size.bytes == 0
    asked = []

    def big() -> Image.Image:
        asked.append(1)
        return Image.new("RGB", (1080, 400), (9, 9, 9))

    monkeypatch.setattr(render, "_OWN_SIZE_SCREENS", 0.1)
    renderer = Renderer(1080, 1000)
    for shade in (9, 8, 9, 8, 9):  # the frame kept shows it again the first time, then it is drawn
        tree = column(image_view(big, "big", height=400)) if shade == 9 else _picture_screen("other", (8, 8, 8))
        layout(tree, 0, 0, 1080, 1000)
        renderer.render({"w": (tree, WHITE)})
        assert (renderer.render({"w": (tree, WHITE)})[200, 540] == shade).all()
    assert asked and renderer._own_size.bytes == 0 and ("big", 1080, 400) not in renderer._own_size


def test_a_picture_drawn_at_its_own_size_is_kept_as_it_is_not_copied() -> None:
    """A picture that fits its view unscaled (a map, a web page, a drawing: ~9 MB each at 1080x2400) is drawn from
    and kept as its owner's object; another mode's is converted."""
    picture = Image.new("RGB", (1080, 1000), (1, 2, 3))
    renderer = Renderer(1080, 1000)
    tree = column(image_view(picture, "own", height=1000))
    layout(tree, 0, 0, 1080, 1000)
    frame = renderer.render({"w": (tree, WHITE)})
    assert renderer._own_size[("own", 1080, 1000)] is picture and (frame == (1, 2, 3)).all()
    grey = column(image_view(Image.new("L", (1080, 1000), 7), "grey", height=1000))
    layout(grey, 0, 0, 1080, 1000)
    assert (renderer.render({"w": (grey, WHITE)}) == 7).all() and renderer._own_size[("grey", 1080, 1000)].mode == "RGB"


def test_a_picture_drawn_at_its_own_size_pushes_no_scaled_picture_out(monkeypatch) -> None:
    """A full-screen map shown between two looks at a scaled picture (the camera's preview) leaves that scaled
    picture kept, however large the map: it is not scaled again when it comes back."""
    monkeypatch.setattr(render, "_SCALED_CACHE_BYTES", 1080 * 1000 * 4)  # one full-width picture
    renderer = Renderer(1080, 1000)
    preview = _picture_screen("preview", (200, 0, 0))
    first = renderer.render({"w": (preview, WHITE)}).copy()
    scaled = renderer._scaled[("preview", 1080, 1000)]
    the_map = column(image_view(Image.new("RGB", (1080, 1000), (0, 90, 0)), "map", height=1000))
    layout(the_map, 0, 0, 1080, 1000)
    assert (renderer.render({"w": (the_map, WHITE)}) == (0, 90, 0)).all()
    assert renderer._scaled[("preview", 1080, 1000)] is scaled and ("map", 1080, 1000) in renderer._own_size
    assert np.array_equal(renderer.render({"w": (_picture_screen("preview", (200, 0, 0)), WHITE)}), first)


def test_a_picture_handed_as_it_is_is_scaled_once_for_the_renderers_of_the_process(monkeypatch) -> None:
    """The camera's preview (one picture for every phone) shown by two renderers is scaled once; another picture
    under the same key (a file of the same path and version on another phone) is scaled for itself."""
    monkeypatch.setattr(render, "_SHARED_SCALED", KeptPictures(render._SHARED_SCALED_BYTES))
    preview = Image.new("RGB", (540, 500), (200, 0, 0))
    frames = []
    for picture in (preview, preview, Image.new("RGB", (540, 500), (0, 0, 200))):
        tree = column(image_view(picture, "photo", height=250))  # scaled to 270x250
        layout(tree, 0, 0, 1080, 1000)
        renderer = Renderer(1080, 1000)
        frames.append(renderer.render({"w": (tree, WHITE)}))
        assert not renderer._scaled.kept
    assert len(render._SHARED_SCALED.kept) == 2 and render._SHARED_SCALED.bytes == 2 * 4 * 270 * 250
    assert np.array_equal(frames[0], frames[1]) and (frames[0][125, 540] == (200, 0, 0)).all()
    assert (frames[2][125, 540] == (0, 0, 200)).all()


def test_the_ink_tiles_kept_never_pass_their_budget(monkeypatch) -> None:
    """Lines of text over one colour, each drawn from a tile kept for the process: however many, the tiles kept take
    no more than the budget (and are drawn as stamping them draws)."""
    monkeypatch.setattr(render._ink_tile, "budget", 40_000)
    render._ink_tile.cache_clear()
    renderer = Renderer(600, 300)
    for index in range(60):
        tree = column(text_view(f"Line {index} of many"), text_view(f"and {index * 7} more"), background=(9, 9, 9))
        layout(tree, 0, 0, 600, 300)
        frame = renderer.render({"w": (tree, WHITE)})
        tiles = render._ink_tile
        assert tiles.bytes == sum(4 * tile.width * tile.height for tile in tiles.kept.values()) <= tiles.budget
        assert np.array_equal(frame, Renderer(600, 300).render({"w": (tree, WHITE)}))
    assert tiles.kept


def _changed_screen(view: View, change: dict) -> View:
    """``view`` in a column, laid out, then given ``change`` (a field's or a text's)."""
    tree = column(outlined_field(view) if view.kind == "edit" else view, padding=30)
    layout(tree, 0, 0, 600, 300)
    for name, value in change.items():
        setattr(view, name, value)
    return tree


def _field() -> View:
    return edit_text("red", "Title", "title", lambda text: None, text_size=37)


def _text() -> View:
    return text_view("a text that wraps onto a second line here", width=400)


@pytest.mark.parametrize("make, change", [
    (_field, {"outlined": False}), (_field, {"underline": True, "outlined": False}), (_field, {"label_size": 50}),
    (_field, {"value": ""}), (_field, {"indent": 60}), (_field, {"height": 200}), (_text, {"max_lines": 1}),
    (_text, {"single_line": True}), (_text, {"gravity": "center"})])
def test_a_change_to_any_field_the_drawing_reads_is_redrawn(make, change: dict) -> None:
    """The signature the renderer compares holds every field drawing reads: an outline taken away, a label grown, a
    field emptied (its label back inside), a start icon's room, a text's lines cut or centred: none leaves the last
    frame's pixels showing."""
    renderer = Renderer(600, 300)
    before = renderer.render({"w": (_changed_screen(make(), {}), WHITE)}).copy()
    fresh = Renderer(600, 300).render({"w": (_changed_screen(make(), change), WHITE)})
    assert not np.array_equal(fresh, before)  # the change shows in a frame drawn afresh
    assert np.array_equal(renderer.render({"w": (_changed_screen(make(), change), WHITE)}), fresh)  # and when kept


def test_a_picture_made_when_drawn_is_asked_for_once_kept_and_one_made_as_none_draws_nothing() -> None:
    made: list[str] = []

    def screen(key: str, picture: Image.Image | None) -> View:
        tree = column(image_view(lambda: made.append(key) or picture, key, height=1000))
        layout(tree, 0, 0, 1080, 1000)
        return tree

    renderer, red = Renderer(1080, 1000), Image.new("RGB", (540, 500), (200, 0, 0))
    assert (renderer.render({"w": (screen("red", red), WHITE)}) == (200, 0, 0)).all()
    assert (renderer.render({"w": (screen("none", None), WHITE)}) == WHITE).all()
    renderer.render({"w": (screen("red", None), WHITE)})  # the scaled picture is kept: not asked for again
    assert made[0] == "red" and set(made[1:]) == {"none"}  # no picture is kept: asked for each strip drawn


def test_a_shadow_keeps_its_stencils_not_the_whole_mask_they_are_cut_from(monkeypatch) -> None:
    masks: list[weakref.ref] = []
    whole_mask = render._shadow_mask

    def noted(*args) -> Image.Image:
        mask = whole_mask(*args)
        masks.append(weakref.ref(mask))
        return mask

    monkeypatch.setattr(render, "_shadow_mask", noted)
    render._shadow_stencils.cache_clear()
    stencils = render._shadow_stencils(301, 157, 12, 9, 4, "rounded")
    assert len(stencils) == 4 and len(masks) == 1 and masks[0]() is None
    render._shadow_stencils.cache_clear()
