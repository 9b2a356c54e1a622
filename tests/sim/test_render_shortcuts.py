"""The renderer's shortcuts draw what the plain Pillow calls draw, pixel for pixel: the canvas packed into the frame,
a filled shape's shadow left out where the shape covers it, the root's background not filled twice, masks cut to
their ink and painted through an image of their colour, a scrim dimming by table."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter

from android_gym.sim.ui import render
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.picture_cache import KeptPictures
from android_gym.sim.ui.render import Renderer, pack_into
from android_gym.sim.ui.views import (
    PRIMARY,
    TOP_CORNERS,
    WHITE,
    View,
    app_icon,
    button,
    column,
    fab,
    frame,
    row,
    scroll_list,
    text_view,
)


@pytest.mark.parametrize("size", [(1, 1), (2, 1), (7, 3), (1080, 97), (1, 500), (1080, 481)])
def test_a_canvas_packed_into_a_frame_is_its_pixels(size: tuple[int, int]) -> None:
    """What Pillow draws on an ``rgb_canvas`` is packed into a whole frame, into a box of a larger one whose rows lie
    apart (the pixels around the box, the one right of its last column among them, left as they were), and at a
    frame's bottom right corner; a box of the canvas into a box of the frame."""
    width, height = size
    pixels = np.random.default_rng(0).integers(0, 256, (height, width, 3), dtype=np.uint8)
    memory = np.zeros((height, width, 4), np.uint8)
    render.rgb_canvas(memory).paste(Image.fromarray(pixels), (0, 0))
    assert np.array_equal(memory[..., :3], pixels)  # drawn in the array
    whole = np.zeros_like(pixels)
    pack_into(memory, whole, (0, 0, width, height))
    assert np.array_equal(whole, pixels)
    frame = np.full((height + 4, width + 6, 3), 7, np.uint8)
    pack_into(memory, frame, (2, 3, width + 2, height + 3))
    assert np.array_equal(frame[3:-1, 2:-4], pixels)
    frame[3:-1, 2:-4] = 7
    assert (frame == 7).all()
    pack_into(memory, frame, (6, 4, width + 6, height + 4))  # the frame's last column and row
    assert np.array_equal(frame[4:, 6:], pixels)
    right, bottom = width - width // 2, height - height // 2
    corner = np.zeros((height, width, 3), np.uint8)
    pack_into(memory[height // 2:, width // 2:], corner, (0, 0, right, bottom))
    assert np.array_equal(corner[:bottom, :right], pixels[height // 2:, width // 2:])
    assert not corner[bottom:].any() and not corner[:, right:].any()


def _drawn(tree: View, scale: float) -> np.ndarray:
    layout(tree, 0, 0, 1080, 700)
    return Renderer(round(1080 * scale), round(700 * scale), scale).render({"window": (tree, WHITE)}).copy()


def _cards(root: tuple[int, int, int]) -> View:
    """Filled shapes with shadows on a root of colour ``root``: square and rounded, a pill whose corners leave no
    covered band, a short one whose shadow reaches past its neighbours, a sheet rounded at its top corners only."""
    return column(
        View(height=40),
        View(height=120, background=(250, 250, 250), elevation=11),
        View(height=160, background=(200, 230, 255), elevation=63, corner=36),
        View(height=60, background=(255, 220, 200), elevation=21, corner=40),
        View(height=8, background=(90, 90, 90), elevation=16),
        View(height=80, background=(230, 250, 230), elevation=24, corner=42, corners=TOP_CORNERS),
        background=root, padding=40, spacing=30)


def _round(root: tuple[int, int, int]) -> View:
    """Round shapes filled after their shadows: launcher icons of two sizes, FABs (one over a launcher icon)."""
    return column(
        row(app_icon("Phone", "phone", (30, 136, 229), lambda: None, lambda: None, width=260, height=330),
            app_icon("Clock", "alarm", (67, 160, 71), lambda: None, lambda: None, width=150, height=200),
            fab("Add", "plus", lambda: None, background=PRIMARY, text_color=WHITE), height=340),
        frame(app_icon("Files", "folder", (251, 140, 0), lambda: None, lambda: None, width=260, height=300),
              fab("Edit", "edit", lambda: None, background=(216, 27, 96), text_color=WHITE), height=300),
        background=root, padding=20)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("root", [WHITE, (238, 238, 238)])
@pytest.mark.parametrize("shapes", [_cards, _round])
def test_a_shadow_left_out_under_its_shape_looks_as_drawn_whole(monkeypatch, scale: float, root: tuple,
                                                                 shapes) -> None:
    shortcut = _drawn(shapes(root), scale)
    monkeypatch.setattr(render, "_shadow_stencils", lambda width, height, radius, blur, drop, cover, corners: (
        render.Stencil(render._shadow_mask(width, height, radius, blur, corners), 0, 0, 0),))
    monkeypatch.setattr(render, "_SPRITES", KeptPictures(render._SPRITE_BYTES))  # discs drawn with these shadows
    assert np.array_equal(shortcut, _drawn(shapes(root), scale))
    assert (shortcut.astype(int) - root).any(axis=2).mean() > 0.1  # the shapes and their shadows are there


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("tree", [
    lambda: _round(WHITE),  # a FAB's shadow falls on a launcher icon
    lambda: _cards((238, 238, 238)),  # a short card's shadow reaches past its neighbours
    lambda: frame(column(_round((30, 30, 30)), background=(90, 0, 0), margin=40), background=(0, 90, 0)),
])
def test_shadows_copied_as_tiles_where_the_canvas_is_one_colour_look_as_stamped(monkeypatch, scale: float,
                                                                                 tree) -> None:
    """A shadow over one colour (the canvas's, or a plain box's filling all of it) is copied from tiles of that
    colour; over anything else (another view's shadow or ink, a strip's edge between colours) it is stamped."""
    render._shadow_tiles.cache_clear()
    monkeypatch.setattr(render, "_SPRITES", KeptPictures(render._SPRITE_BYTES))  # discs drawn here, not kept
    tiled = _drawn(tree(), scale)
    assert render._shadow_tiles.cache_info().misses  # tiles were used
    monkeypatch.setattr(Renderer, "_plain_ground", lambda self, box: None)
    assert np.array_equal(tiled, _drawn(tree(), scale))


def _discs(scale: float) -> View:
    """The same launcher icons and FABs over and over at odd offsets, over two colours (a row's, the root's), one
    row of them across the edge between the first strip and the second."""
    def icons(background: tuple[int, int, int] | None = None) -> View:
        return row(View(width=37),
                   app_icon("Phone", "phone", (30, 136, 229), lambda: None, lambda: None, width=263, height=330),
                   app_icon("Clock", "alarm", (67, 160, 71), lambda: None, lambda: None, width=151, height=201),
                   fab("Add", "plus", lambda: None, background=PRIMARY, text_color=WHITE),
                   View(kind="dock_icon", hint="app_sms", background=(251, 140, 0), width=201, height=201),
                   background=background, height=340)
    return column(View(height=render._STRIP_ROWS / scale - 120), icons(), icons((250, 240, 230)), View(height=13),
                  icons(), background=(238, 238, 238))


@pytest.mark.parametrize("scale", [1.0, 0.5, 0.25])
def test_discs_pasted_from_sprites_look_as_drawn(monkeypatch, scale: float) -> None:
    """A launcher icon or FAB over one colour is pasted from a sprite of it (kept within the budget: here two),
    wherever it lies (at any pixel, across a strip's edge); what it pastes is what drawing it draws."""
    monkeypatch.setattr(render, "_SPRITES", KeptPictures(2 * 4 * 230 * 230))
    tree = _discs(scale)
    size = round(1080 * scale), round((render._STRIP_ROWS / scale + 1000) * scale)
    layout(tree, 0, 0, 1080, round(size[1] / scale))
    pasted = Renderer(*size, scale).render({"window": (tree, WHITE)})
    assert render._SPRITES.kept and render._SPRITES.bytes <= render._SPRITES.budget
    monkeypatch.setattr(Renderer, "_disc", Renderer._draw_disc)
    assert np.array_equal(pasted, Renderer(*size, scale).render({"window": (tree, WHITE)}))


@pytest.mark.parametrize("tree", [
    lambda: _cards(WHITE),  # the root's colour is the window's
    lambda: _cards((238, 238, 238)),  # it is not
    lambda: frame(column(_cards((30, 30, 30)), background=(90, 0, 0)), background=(0, 90, 0)),  # boxes in boxes
    lambda: column(View(background=(0, 0, 90), corner=30, height=700), background=WHITE),  # a rounded box is drawn
])
def test_the_first_boxes_backgrounds_are_the_canvas(monkeypatch, tree) -> None:
    grounded = _drawn(tree(), 1.0)
    monkeypatch.setattr(Renderer, "_ground", lambda self, views, background, box: (background, 0))
    assert np.array_equal(grounded, _drawn(tree(), 1.0))


def _inked() -> View:
    """Text (cut at a width, centred, in two fonts), icons, launcher icons and a FAB with their shadows."""
    return column(
        text_view("Messages ツ", text_size=44, background=(240, 240, 240)),
        row(app_icon("Messages and more", "app_sms", PRIMARY, lambda: None, lambda: None, width=200, height=300),
            View(kind="icon", hint="nav_back", width=126, height=126, text_color=(200, 30, 30)),
            fab("Add", "plus", lambda: None, background=PRIMARY, text_color=WHITE),
            button("A button far too long for its width", lambda: None, width=240, background=PRIMARY,
                   text_color=WHITE), height=320),
        View(height=120, background=(250, 250, 250), elevation=24, corner=12),
        background=(230, 236, 240), padding=30, spacing=20)


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_masks_cut_to_their_ink_and_painted_through_an_image_look_as_pasted_whole(monkeypatch, scale: float) -> None:
    shortcut = _drawn(_inked(), scale)
    for cached in (render._text_stencil, render._icon_stencil, render._shadow_stencils):
        cached.cache_clear()
    monkeypatch.setattr(render, "_SPRITES", KeptPictures(render._SPRITE_BYTES))  # discs drawn with these masks
    monkeypatch.setattr(render, "stencil", lambda mask, left=0, top=0, key=None: render.Stencil(mask, left, top,
                                                                                                 mask.width, key))
    monkeypatch.setattr(Renderer, "_stamp", lambda self, color, x, y, ink: self._canvas.paste(
        color, (x + ink.left, y + ink.top, x + ink.left + ink.mask.width, y + ink.top + ink.mask.height), ink.mask))
    try:
        assert np.array_equal(shortcut, _drawn(_inked(), scale))
    finally:
        for cached in (render._text_stencil, render._icon_stencil, render._shadow_stencils):
            cached.cache_clear()
    assert (shortcut.astype(int) - (230, 236, 240)).any(axis=2).mean() > 0.1


def _lettered(ground: tuple[int, int, int]) -> View:
    """Text and icons (stamped alone: no background of their own) over one colour, over a row's colour, cut at a
    width, on two lines, over each other (a label across a text), and text with its own background."""
    return column(
        text_view("Inbox", text_size=44),
        row(View(kind="icon", hint="nav_back", width=126, height=126, text_color=(200, 30, 30)),
            text_view("A subject far too long for the width it has", text_size=40, width=300),
            background=(250, 240, 230), height=140),
        text_view("Two lines of text that wrap across the screen more than once here", text_size=48, multiline=True),
        frame(text_view("Under", text_size=60),
              View(kind="label", hint="Over it", text_size=60, height=90, padding=10), height=100),
        text_view("Own background", text_size=44, background=(20, 90, 200), text_color=WHITE),
        background=ground, padding=30, spacing=10)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("ground", [WHITE, (30, 30, 30)])
def test_text_and_icons_copied_from_tiles_over_one_colour_look_as_stamped(monkeypatch, scale: float,
                                                                          ground: tuple) -> None:
    """A mask of a view that paints masks only, over one colour (the canvas's, a row's), is copied from a tile of it
    in its colour on that colour; over another view's ink, or in a view with a background, it is stamped."""
    tiles: list[tuple] = []
    tile = render._ink_tile
    tile.cache_clear()  # tiles made here, not by an earlier test
    monkeypatch.setattr(render, "_ink_tile", lambda ink, color, on: tiles.append(on) or tile(ink, color, on))
    tiled = _drawn(_lettered(ground), scale)
    assert set(tiles) == {ground, (250, 240, 230)}  # the canvas's and the row's
    monkeypatch.setattr(render, "_inks_only", lambda view: False)
    stamped = _drawn(_lettered(ground), scale)
    assert np.array_equal(tiled, stamped)
    assert (stamped.astype(int) - ground).any(axis=2).mean() > 0.05  # the text is there


def _launcher(ground: tuple[int, int, int]) -> View:
    """Launcher icons on a home screen's ground, in a list that cuts the first row's (its disc and glyph) at its top
    edge and the last row's at its bottom, and over a plain box of another colour."""
    def icons(count: int) -> View:
        return row(*(app_icon(f"App {i}", "app_sms", (30 + 40 * i, 136, 229 - 30 * i), lambda: None, lambda: None,
                              width=200, height=260) for i in range(count)), height=260)

    return column(scroll_list(*(icons(4) for _ in range(4)), key="apps", scroll_offset=110, height=620),
                  column(icons(3), background=(250, 240, 230)), background=ground, padding=20)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("ground", [WHITE, (30, 30, 30)])
def test_launcher_icons_glyphs_and_labels_copied_from_tiles_look_as_stamped(monkeypatch, scale: float,
                                                                            ground: tuple) -> None:
    """A launcher icon notes what it paints as it goes (its shadow's box, the square its disc fills), so its glyph
    is copied from a tile on the disc's colour and its label from one on the ground's; where a list cuts the icon,
    what it noted there no longer counts."""
    tiles: list[tuple] = []
    tile = render._ink_tile
    tile.cache_clear()  # tiles made here, not by an earlier test
    monkeypatch.setattr(render, "_ink_tile", lambda ink, color, on: tiles.append(on) or tile(ink, color, on))
    tiled = _drawn(_launcher(ground), scale)
    assert {ground, (250, 240, 230), (30, 136, 229), (70, 136, 199)} <= set(tiles)  # grounds, discs
    monkeypatch.setattr(render, "_inks_only", lambda view: False)
    assert np.array_equal(tiled, _drawn(_launcher(ground), scale))


@pytest.mark.parametrize("offset", [0, 110, 190])
def test_a_colour_the_canvas_is_said_to_show_all_over_a_box_is_what_it_shows(offset: int) -> None:
    """After a strip of launcher icons (their discs noted as filled; a list cutting the first row's at its top edge,
    where the canvas is then put back as it was) and text, ``_plain_ground`` names a colour only where the canvas is
    that colour all over the box."""
    def icons(count: int) -> View:
        return row(*(app_icon(f"App {i}", "app_sms", (30 + 40 * i, 136, 229 - 30 * i), lambda: None, lambda: None,
                              width=200, height=260) for i in range(count)), height=260)

    tree = column(View(height=100, background=(90, 0, 0)),
                  scroll_list(icons(4), icons(4), key="apps", scroll_offset=offset, height=330),
                  text_view("Below", text_size=40), background=WHITE)
    layout(tree, 0, 0, 1080, 470)  # one strip: the canvas and its notes are the last strip's when drawn
    renderer = Renderer(1080, 470)
    renderer.render({"window": (tree, WHITE)})
    canvas = np.asarray(renderer._canvas)[:470]
    rng, named = np.random.default_rng(offset), 0
    for _ in range(3000):
        x0, y0 = int(rng.integers(0, 1060)), int(rng.integers(0, 450))
        box = (x0, y0, x0 + int(rng.integers(1, 80)), y0 + int(rng.integers(1, 80)))
        ground = renderer._plain_ground(box)
        if ground is not None:
            named += 1
            assert (canvas[box[1]:box[3], box[0]:box[2]] == ground).all(), box
    assert named > 100


def test_a_mostly_clear_picture_looks_as_pasted_whole(monkeypatch) -> None:
    """Only the part of a picture with alpha that is not clear is blended; a clear picture draws nothing."""
    def pictured(ground: tuple[int, int, int], clear: bool) -> View:
        picture = Image.new("RGBA", (600, 300))
        if not clear:
            ImageDraw.Draw(picture).line(((40, 250), (300, 90), (520, 200)), fill=(20, 90, 200, 255), width=5)
            ImageDraw.Draw(picture).ellipse((500, 180, 540, 220), fill=(200, 30, 30, 120))
        return column(View(image=picture, key=f"graph{clear}", height=300), background=ground, padding=40)

    def pasted_whole(self, view: View) -> None:
        x1, y1, x2, y2 = self._local(view)
        scaled = self._fit(view, x2 - x1, y2 - y1)
        self._canvas.paste(scaled, (x1 + (x2 - x1 - scaled.width) // 2, y1 + (y2 - y1 - scaled.height) // 2), scaled)

    for clear in (False, True):
        cut = _drawn(pictured((240, 240, 240), clear), 1.0)
        assert (cut == 240).all() == clear
        with monkeypatch.context() as patched:
            patched.setattr(Renderer, "_draw_image", pasted_whole)
            assert np.array_equal(cut, _drawn(pictured((240, 240, 240), clear), 1.0))


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("tree", [lambda: _launcher(WHITE), lambda: _lettered((30, 30, 30))])
def test_rows_of_a_strip_nothing_painted_written_in_the_grounds_colour_look_as_packed(monkeypatch, scale: float,
                                                                                      tree) -> None:
    """Rows between what the views drawn on a strip noted they paint (less than ``_BARE_ROWS`` apart, so drawn)."""
    packed: list[int] = []
    pack = render.pack_into
    monkeypatch.setattr(render, "pack_into", lambda pixels, frame, box: packed.append(box[3] - box[1]) or pack(
        pixels, frame, box))
    written = _drawn(tree(), scale)
    written_packed, packed[:] = sum(packed), []
    monkeypatch.setattr(render, "_INKLESS_ROWS", 10**9)
    assert np.array_equal(written, _drawn(tree(), scale))
    assert written_packed < sum(packed) if scale == 1.0 else written_packed <= sum(packed)  # small gaps, small screen


def _plain_boxes(ground: tuple[int, int, int]) -> View:
    """Plain boxes in the window's colour below a bar with a shadow (so not the canvas's first boxes), some over
    their own colour (a list's rows, a box in them), one over another colour (drawn), with text on them."""
    other = (200, 40, 40)
    return column(
        View(height=80, background=(30, 30, 90), elevation=12),
        column(row(text_view("A row", text_size=44), background=ground, height=120),
               frame(View(height=100, background=other), View(height=50, background=ground)),
               column(View(height=60, background=ground), text_view("Below", text_size=44), background=ground),
               background=ground, padding=20),
        background=ground)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("ground", [WHITE, (30, 30, 30)])
def test_a_plain_box_over_its_own_colour_is_not_drawn_and_looks_as_filled(monkeypatch, scale: float,
                                                                          ground: tuple) -> None:
    skipped: set[tuple[str, int]] = set()  # kinds and heights
    fills = Renderer._fills_its_ground
    monkeypatch.setattr(Renderer, "_fills_its_ground", lambda self, view: fills(self, view) and not skipped.add(
        (view.kind, view.bounds[3] - view.bounds[1])))
    skipping = _drawn(_plain_boxes(ground), scale)
    assert {kind for kind, _ in skipped} == {"column", "row", "view"} and ("view", 50) not in skipped
    monkeypatch.setattr(Renderer, "_fills_its_ground", lambda self, view: False)
    assert np.array_equal(skipping, _drawn(_plain_boxes(ground), scale))
    assert ((skipping.astype(int) - ground).any(axis=2).mean(axis=1) > 0).mean() > 0.1  # the bar, text, red box


def _lines(ground: tuple[int, int, int], shift: int, wide: bool = True) -> View:
    """Lines of text far enough apart that a strip leaves rows between them in its ground; ``shift`` px lower, the
    lines of one lie in the rows between another's; not ``wide``, a line across the right half only."""
    def line(i: int) -> View:
        left = text_view(f"Line {i} at the start", text_size=44, width=500)
        right = text_view(f"Line {i} at the end", text_size=44, width=500)
        return row(left, right) if wide or i % 4 else row(View(width=500), right)

    return column(View(height=shift), *(line(i) for i in range(8)), spacing=40, background=ground)


def test_rows_a_strip_left_in_its_ground_are_not_filled_again_and_look_as_filled(monkeypatch) -> None:
    """Strips drawn one after another on the scratch canvas (windows on one ground and on another; a window's lines
    in the rows between the last's; boxes of a window redrawn alone, narrower than the window, before the whole
    window on another ground) look as they do on a canvas filled anew."""
    def trees() -> list[View]:
        dark = (30, 30, 30)
        return [_launcher(WHITE), _lettered(WHITE), _lines(WHITE, 0), _lines(dark, 48), _lines(dark, 0),
                _lines(dark, 0, wide=False), _lines(dark, 24), _lines(WHITE, 0), _launcher(dark)]

    def shown() -> list[np.ndarray]:
        renderer = Renderer(1080, 1300)
        frames = []
        for tree in trees():
            layout(tree, 0, 0, 1080, 1300)
            frames.append(renderer.render({"window": (tree, WHITE)}).copy())
        return frames

    kept = shown()
    start = Renderer._start_canvas

    def filled_anew(self, size, ground) -> None:
        self._clean = (None, 0, [])
        start(self, size, ground)

    monkeypatch.setattr(Renderer, "_start_canvas", filled_anew)
    for frame_kept, frame_filled in zip(kept, shown(), strict=True):
        assert np.array_equal(frame_kept, frame_filled)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("ground", [WHITE, (30, 30, 30)])
def test_rows_no_view_reaches_written_in_the_grounds_colour_look_as_drawn(monkeypatch, scale: float,
                                                                          ground: tuple) -> None:
    """Between views far apart, above the first and below the last (a card's shadow, a line of text reaching past
    its view), and over a whole window of one colour."""
    def spaced() -> View:
        return column(View(height=300), text_view("Far down", text_size=44),
                      View(height=120, background=(250, 250, 250), elevation=24, corner=12, margin=300),
                      text_view("Near", text_size=44), background=ground)

    packed: list[int] = []
    pack = render.pack_into
    monkeypatch.setattr(render, "pack_into", lambda pixels, frame, box: packed.append(box[3] - box[1]) or pack(
        pixels, frame, box))
    bare = _drawn(spaced(), scale), _drawn(column(background=ground), scale)
    bare_packed, packed[:] = sum(packed), []
    monkeypatch.setattr(render, "_BARE_ROWS", 10**9)
    monkeypatch.setattr(render, "_INKLESS_ROWS", 10**9)
    assert np.array_equal(bare[0], _drawn(spaced(), scale))
    assert np.array_equal(bare[1], _drawn(column(background=ground), scale))
    assert bare_packed < sum(packed) / 2  # most rows were not drawn on the canvas
    assert (bare[0].astype(int) - ground).any(axis=2).mean() > 0.01  # the views are there


@pytest.mark.parametrize("scrim", [{"gravity": "fill"}, {"height": 300, "margin": 150}])  # the window, a part
def test_a_scrim_dimming_by_table_looks_as_black_pasted_through_its_mask(monkeypatch, scrim: dict) -> None:
    def dialog() -> View:
        panel = column(text_view("Delete?"), background=WHITE, elevation=63, corner=24, height=300, margin=100)
        return frame(_inked(), View(kind="scrim", **scrim), panel, gravity="fill")

    dimmed = _drawn(dialog(), 1.0)
    monkeypatch.setattr(Renderer, "_dim", lambda self, bounds: self._canvas.paste(
        (0, 0, 0), bounds, Image.new("L", (bounds[2] - bounds[0], bounds[3] - bounds[1]), render._SCRIM_ALPHA)))
    assert np.array_equal(dimmed, _drawn(dialog(), 1.0))
    assert len(np.unique(dimmed.reshape(-1, 3), axis=0)) > 50  # the dimmed screen's colours, shades, text


def test_rounded_rectangles_filled_in_parts_look_as_pillow_draws_them() -> None:
    """Boxes of every shape against radii from none to past their sides, with every set of rounded corners, some
    reaching off the canvas: ``_rounded`` makes Pillow's ``rounded_rectangle`` pixels; without a colour (a button
    without a background) it draws nothing, where Pillow would outline the box in white."""
    rng = np.random.default_rng(0)
    renderer = Renderer(300, 200)
    for _ in range(1500):
        x0, y0 = (int(v) for v in rng.integers(-40, 280, 2))
        x1, y1 = x0 + int(rng.integers(0, 160)), y0 + int(rng.integers(0, 120))
        radius, corners = int(rng.integers(0, 70)), tuple(bool(c) for c in rng.integers(0, 2, 4))
        color = None if rng.random() < 0.1 else tuple(int(c) for c in rng.integers(0, 256, 3))
        renderer._canvas = Image.new("RGB", (300, 200), (9, 9, 9))
        renderer._draw = ImageDraw.Draw(renderer._canvas)
        pillow = Image.new("RGB", (300, 200), (9, 9, 9))
        if color is None:
            renderer._rounded((x0, y0, x1, y1), radius, color, corners)
            assert renderer._canvas.tobytes() == pillow.tobytes(), ((x0, y0, x1, y1), radius, corners)
            continue
        try:
            ImageDraw.Draw(pillow).rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=color, corners=corners)
        except ValueError:  # Pillow refuses a short box with two corners on one side (they overlap): so do we
            with pytest.raises(ValueError):
                renderer._rounded((x0, y0, x1, y1), radius, color, corners)
            continue
        renderer._rounded((x0, y0, x1, y1), radius, color, corners)
        assert renderer._canvas.tobytes() == pillow.tobytes(), ((x0, y0, x1, y1), radius, corners)


def _blurred_whole(width: int, height: int, radius: int, blur: int, corners: tuple) -> Image.Image:
    """A shape's shadow blurred at its full size, the long way."""
    mask = Image.new("L", (width + 4 * blur, height + 4 * blur), 0)
    ImageDraw.Draw(mask).rounded_rectangle((2 * blur, 2 * blur, 2 * blur + width - 1, 2 * blur + height - 1),
                                           radius=radius, fill=render._SHADOW_ALPHA, corners=corners)
    return mask.filter(ImageFilter.GaussianBlur(blur))


@pytest.mark.parametrize("corners", [(True, True, True, True), TOP_CORNERS, (False, False, False, False)])
def test_a_long_shadow_blurred_short_and_stretched_is_the_one_blurred_whole(corners: tuple) -> None:
    """Dialogs, drawers, sheets, bars and pills (one side far longer than the other), at sizes drawn in random walks and
    drawn at random: the shadow made from a shorter shape with its middle line repeated is the whole shape's."""
    sizes = [(968, 826, 42, 31), (800, 2156, 0, 21), (1080, 147, 0, 5), (608, 350, 10, 4), (1080, 10, 42, 5),
             (3, 900, 24, 2), (2100, 40, 0, 1), (190, 190, 95, 8)]
    rng = np.random.default_rng(1)
    sizes += [(int(w), int(h), int(r), int(b)) for w, h, r, b in zip(
        rng.integers(1, 1400, 12), rng.integers(1, 1400, 12), rng.integers(0, 80, 12), rng.integers(1, 40, 12))]
    for width, height, radius, blur in sizes:
        made = render._shadow_mask(width, height, radius, blur, corners)
        assert made.mode == "L" and made.tobytes() == _blurred_whole(width, height, radius, blur, corners).tobytes()
