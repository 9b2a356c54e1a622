"""The file helpers tasks share (``android_gym.tasks.files``), over both backends, plus the seeded name and
picture generators they use."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw

from android_gym.device.sim import SimDevice
from android_gym.errors import TaskSetupError
from android_gym.sim.ui import layout
from android_gym.sim.ui.glyph_masks import draw_line
from android_gym.tasks import files, images, user_data

NOTES = files.MARKOR_DATA


def test_created_files_are_listed_found_and_read_as_androidworld_does(backend_device):
    files.write_files(backend_device, NOTES, {"a.md": "hello", "it's b.txt": "it's\nthere"})
    files.create_file(backend_device, f"{NOTES}/Sub", "c.md", "$HOME `id`")
    listed = files.list_files(backend_device, NOTES)
    assert [(f.name, f.size) for f in listed] == [("a.md", 6), ("it's b.txt", 11)]  # echo adds the newline
    assert listed[0].path == f"{NOTES}/a.md" and listed[0].change_time.isoformat() == "2023-10-15T15:34:00+00:00"
    assert files.file_text(backend_device, f"{NOTES}/it's b.txt") == "it's\nthere"
    assert files.file_text(backend_device, f"{NOTES}/Sub/c.md") == "$HOME `id`"  # nothing reached a shell unquoted
    assert files.file_text(backend_device, f"{NOTES}/missing.md") is None
    assert files.path_exists(backend_device, NOTES, "Sub/c.md") and files.path_exists(backend_device, NOTES, "Sub")
    assert not files.path_exists(backend_device, NOTES, "c.md")
    assert not files.path_exists(backend_device, "/sdcard/nowhere", "a.md")
    with pytest.raises(TaskSetupError, match="not a directory"):
        files.list_files(backend_device, "/sdcard/nowhere")


def test_snapshots_see_every_change_and_clearing_keeps_the_folders(backend_device):
    files.write_files(backend_device, NOTES, {"a.md": "one", "b.md": "two"})
    files.create_file(backend_device, f"{NOTES}/Sub", "c.md", "three")
    before = files.tree_snapshot(backend_device, NOTES)
    assert set(before) == {"a.md", "b.md", "Sub", "Sub/c.md"} and before["Sub"] == "/"
    assert before["a.md"] != before["b.md"]
    backend_device.shell(f"mv {NOTES}/Sub/c.md {NOTES}/c.md; echo changed > {NOTES}/b.md")
    after = files.tree_snapshot(backend_device, NOTES)
    assert after["c.md"] == before["Sub/c.md"] and after["b.md"] != before["b.md"]
    assert files.kept(before, after, "Sub/c.md", "b.md") and not files.kept(before, after, "Sub/c.md")
    assert files.kept(before, after, "Sub", "b.md")  # a folder covers the files under it
    assert not files.kept(before, after, "b.md")
    assert files.files_in(after) == {path: md5 for path, md5 in after.items() if path != "Sub"}
    files.clear_device_storage(backend_device)
    assert files.tree_snapshot(backend_device, NOTES) == {"Sub": "/"}
    files.clear_directory(backend_device, NOTES)
    assert files.tree_snapshot(backend_device, NOTES) == {} and files.is_directory(backend_device, NOTES)
    assert files.tree_snapshot(backend_device, "/sdcard/nowhere") == {}


def test_file_names_follow_androidworld_patterns():
    rng = np.random.default_rng(3)
    for _ in range(50):
        name = user_data.modified_file_name(rng, "notes.md")
        assert name.endswith(".md") and "notes" in name and name != "notes.md"
        words = user_data.random_file_name(rng).split("_")
        assert any(a in user_data.ADJECTIVES and n in user_data.NOUNS for a, n in zip(words, words[1:]))
    noise = user_data.noise_file_names(rng, "mine.md", user_data.NOTE_TITLES, n=20, exclude=("mine.md",))
    assert 1 <= len(noise) <= 20 and len(set(noise)) == len(noise) and "mine.md" not in noise
    assert all("." in name for name in noise)
    same = [user_data.random_file_name(np.random.default_rng(7)) for _ in range(2)]
    assert same[0] == same[1]


def test_receipts_are_drawn_from_their_parameters():
    params = images.receipt_params(np.random.default_rng(0), 3)
    assert params == images.receipt_params(np.random.default_rng(0), 3)
    lines = images.receipt_lines(params)
    assert lines[0] == "Date, Item, Amount" and len(lines) == 4
    for date, item, price in params["transactions"]:
        low, high = images.RECEIPT_ITEMS[item]
        assert "2023-01-01" <= date < "2023-10-15" and low <= float(price.lstrip("$")) <= high
    png = images.encode(images.receipt_image(params), "receipt.png")
    assert png == images.encode(images.receipt_image(params), "receipt.png")  # same parameters, same bytes
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and picture.size == (500, 700)  # max(250, 50 × (3 + 4)) × 2
    assert picture.mode == "RGB" and picture.tobytes() == images.receipt_image(params).tobytes()  # lossless
    pixels = np.asarray(picture.convert("L"))
    assert (pixels[170:190] < 128).any() and (pixels[:90] == 255).all()  # the first transaction is drawn, in black
    jpeg = Image.open(io.BytesIO(images.encode(images.text_image("a | b\n\nc"), "x.JPG")))
    font = layout.font(24)
    assert jpeg.format == "JPEG" and jpeg.size[1] == 10 + font.getbbox("a | b")[3] + 12 + font.getbbox("c")[3] + 10


def test_receipt_text_drawn_grey_through_kept_masks_is_what_pillow_draws_in_rgb():
    for text, size in ((f"{images.COMPANIES[1]}\n{images.SLOGANS[2]}", 20), (images._FOOTER, 12)):
        kept, drawn = Image.new("L", (500, 160), 255), Image.new("RGB", (500, 160), (255, 255, 255))
        images._draw_text(kept, (10, 100), text, size)
        ImageDraw.Draw(drawn).text((10, 100), text, fill=(0, 0, 0), font=layout.font(size))
        assert kept.convert("RGB").tobytes() == drawn.tobytes() and kept.getextrema()[0] == 0  # inked


def test_text_pictures_drawn_grey_are_the_lines_drawn_in_rgb():
    text = "Recipe: Pasta\n description: quick, gyp\n\nservings: 2 servings"
    picture = images.text_image(text)
    drawn = Image.new("RGB", picture.size, (255, 255, 255))
    y = 10
    for line in text.split("\n"):
        if line.strip():
            draw_line(drawn, (10, y), line, 24, (0, 0, 0))
        y += layout.font(24).getbbox(line)[3] if line.strip() else 12
    assert picture.mode == "RGB" and picture.tobytes() == drawn.tobytes()


WRITES = [
    ("/sdcard/Documents/Markor/New/Deeper", {"a.md": "-n", "b.md": "tab\\there \\c cut", "c.md": "",
                                             "it's d.txt": "$HOME `id` 'q'", "a.md ": "ünï"}),
    ("/sdcard/Documents/Markor", {"e.md": "over", "New": "a folder there"}),  # the second write fails
    ("/sdcard/Documents/Markor/e.md", {"f.md": "in a file"}),  # mkdir -p fails
    ("/sdcard/Documents/Markor", {"e.md": "written over", "New/Deeper/g.md": "deeper"}),
]


def test_the_simulated_phone_writes_files_as_the_echo_line_does():
    """``SimDevice.write_files`` (``files.write_files``' short cut) leaves the phone's files, their bytes, modes and
    device times, the folders' times and the result (its message on failure) as ``write_files_command``'s line."""
    trees, results = [], []
    for short_cut in (False, True):
        device = SimDevice()
        try:
            outcome = []
            for directory, written in WRITES:
                device.phone.clock.advance(61_000)
                if short_cut:
                    outcome.append(device.write_files(directory, written))
                else:
                    outcome.append(device.shell(files.write_files_command(directory, written)))
            results.append(outcome)
            root = device.phone.fs.host_path("/sdcard/Documents")
            trees.append(sorted((str(path.relative_to(root)), path.is_dir() or path.read_bytes(),
                                 path.stat().st_mode, device.phone.fs.device_stat(path).st_mtime_ns)
                                for path in [root, *root.rglob("*")]))
        finally:
            device.close()
    assert trees[0] == trees[1]
    assert results[0] == results[1]
    assert [result.exit_code for result in results[1]] == [0, 1, 1, 0]
    written = {name: data for name, data, *_ in trees[1]}
    assert written["Markor/New/Deeper/a.md"] == b""  # what echo makes of it: -n is its option
    assert written["Markor/New/Deeper/b.md"] == b"tab\there "  # mksh's echo: \t a tab, \c ends the output
    assert written["Markor/e.md"] == b"written over\n"
