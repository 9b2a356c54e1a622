"""Simple Gallery Pro on the simulated phone: folders found on the device, a folder's thumbnails, the viewer, and
the file operations (copy to, move to, rename, delete, properties) checked in the file system."""

from __future__ import annotations

import io

import pytest
from PIL import ExifTags, Image
from ui_nodes import center, find, nodes, tap, views

from android_gym.sim import keycodes
from android_gym.sim.apps import gallery
from android_gym.sim.phone import Phone

PKG = gallery.PACKAGE
RED, GREEN, BLUE = (200, 30, 30), (30, 160, 60), (30, 60, 200)


def png(color: tuple[int, int, int], size: tuple[int, int] = (300, 200)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def put(phone: Phone, path: str, data: bytes, minute: int = 0) -> None:
    """Write a file whose modification time is ``minute`` minutes after the device's start."""
    phone.fs.makedirs(path.rsplit("/", 1)[0])
    phone.fs.write_bytes(path, data)
    seconds = phone.clock.now_ms() // 1000 + 60 * minute
    phone.run(f"touch -d @{seconds} {path}")


@pytest.fixture
def phone():
    device = Phone()
    put(device, "/sdcard/DCIM/red.png", png(RED), minute=3)
    put(device, "/sdcard/DCIM/green.png", png(GREEN), minute=2)
    put(device, "/sdcard/Pictures/blue.png", png(BLUE), minute=5)
    put(device, "/sdcard/Download/notes.txt", b"not a picture", minute=9)
    yield device
    device.close()


def start(phone: Phone) -> None:
    phone.run(f"am start -n {PKG}/.activities.MainActivity")


def texts(phone: Phone, resource: str) -> list[str]:
    return [n.get("text") for n in nodes(phone) if n.get("resource-id") == f"{PKG}:id/{resource}"]


def open_viewer(phone: Phone, folder: str = "DCIM", index: int = 0) -> None:
    start(phone)
    tap(phone, text=folder)
    thumbs = [n for n in nodes(phone) if n.get("resource-id") == f"{PKG}:id/media_item_holder"]
    phone.tap(*center(thumbs[index]))
    assert phone.activities.foreground() == (PKG, gallery.ViewerScreen.activity)


def delete(phone: Phone, count: int) -> None:
    for _ in range(count):
        phone.key(keycodes.DEL)


def menu(phone: Phone, item: str) -> None:
    tap(phone, content_desc="More options")
    tap(phone, text=item)


def pixel(phone: Phone, node_attrs: dict[str, str]) -> tuple[int, int, int]:
    node = find(phone, **node_attrs)
    assert node is not None
    x, y = center(node)
    return tuple(int(v) for v in phone.screenshot()[int(y), int(x)])


def test_the_folders_with_media_show_newest_first_with_names_and_counts(phone):
    put(phone, "/sdcard/Movies/.hidden/secret.png", png(RED))
    put(phone, "/sdcard/Music/quiet/.nomedia", b"")
    put(phone, "/sdcard/Music/quiet/cover.png", png(RED))
    put(phone, "/sdcard/Android/data/com.example/files/x.png", png(RED))
    put(phone, "/sdcard/Movies/clip.mp4", b"\x00\x00\x00\x18ftypmp42", minute=1)
    start(phone)
    assert texts(phone, "dir_name") == ["Pictures", "DCIM", "Movies"]
    assert texts(phone, "photo_cnt") == ["1", "2", "1"]
    assert find(phone, resource_id=f"{PKG}:id/dir_thumbnail").get("class") == "android.widget.ImageView"
    assert pixel(phone, {"resource_id": f"{PKG}:id/dir_thumbnail"}) == BLUE  # the newest file is the cover
    tap(phone, resource_id=f"{PKG}:id/top_toolbar_search")
    phone.input_text("dc")
    assert texts(phone, "dir_name") == ["DCIM"]


def test_pictures_are_decoded_only_when_the_screen_is_drawn(phone):
    gallery._decoded.cache_clear()
    gallery._cropped.cache_clear()
    open_viewer(phone)  # the folders, a folder's thumbnails and the viewer, read through their nodes only
    assert not gallery._decoded.kept and not gallery._cropped.kept
    phone.screenshot()
    assert [key.split(":")[0] for (_, key), _ in gallery._decoded.kept] == [f"{gallery.EXTERNAL_STORAGE}/DCIM/red.png"]
    assert not gallery._cropped.kept


def test_files_pushed_over_adb_show_at_once(phone):
    start(phone)
    put(phone, "/sdcard/Download/new.jpg", png(GREEN), minute=20)
    assert texts(phone, "dir_name")[0] == "Download"
    phone.run("rm /sdcard/Pictures/blue.png")
    assert "Pictures" not in texts(phone, "dir_name")


def test_a_files_version_comes_from_its_writes_not_from_host_times_or_inodes(phone):
    """Two phones given the same files list the same media (keys included: they name the views and the pictures
    kept), whatever host time and inode their files got; a rewrite of the same size at the same device time is a
    new version, so its old picture is not shown."""
    twin = Phone()
    try:
        put(twin, "/sdcard/DCIM/red.png", png(RED), minute=3)
        put(twin, "/sdcard/DCIM/green.png", png(GREEN), minute=2)
        listed = gallery.media_in(phone, f"{gallery.EXTERNAL_STORAGE}/DCIM")
        assert gallery.media_in(twin, f"{gallery.EXTERNAL_STORAGE}/DCIM") == listed
    finally:
        twin.close()
    phone.run(f"chmod 600 {listed[0].path}")  # new host change time, same bytes
    assert gallery.media_in(phone, f"{gallery.EXTERNAL_STORAGE}/DCIM") == listed
    put(phone, listed[0].path, png(GREEN), minute=3)  # red.png now holds green: as many bytes
    rewritten = gallery.media_in(phone, f"{gallery.EXTERNAL_STORAGE}/DCIM")
    assert [m.size for m in rewritten] == [m.size for m in listed] and rewritten[0].key != listed[0].key


def test_a_folder_shows_square_thumbnails_of_real_pixels_newest_first(phone):
    start(phone)
    tap(phone, text="DCIM")
    assert phone.activities.foreground() == (PKG, gallery.MediaScreen.activity)
    assert find(phone, resource_id=f"{PKG}:id/top_toolbar_search").get("text") == "Search in DCIM"
    thumbs = [n for n in nodes(phone) if n.get("resource-id") == f"{PKG}:id/medium_thumbnail"]
    assert len(thumbs) == 2 and all(n.get("class") == "android.widget.ImageView" for n in thumbs)
    x, y = center(thumbs[0])
    assert tuple(int(v) for v in phone.screenshot()[int(y), int(x)]) == RED
    assert texts(phone, "medium_name") == []
    tap(phone, content_desc="Toggle filename visibility")
    assert texts(phone, "medium_name") == ["red.png", "green.png"]
    assert b'"display_file_names" value="true"' in phone.fs.read_bytes(gallery.PREFS_PATH)
    tap(phone, content_desc="Back")
    assert phone.activities.foreground() == (PKG, gallery.MainScreen.activity)


def test_the_viewer_shows_the_picture_fit_to_the_screen_and_pages_through_the_folder(phone):
    open_viewer(phone)
    assert find(phone, text="red.png") is not None
    photo = find(phone, resource_id=f"{PKG}:id/gestures_view")
    assert photo.get("class") == "android.widget.ImageView"
    assert pixel(phone, {"resource_id": f"{PKG}:id/gestures_view"}) == RED
    frame = phone.screenshot()
    row = frame[1200]
    assert tuple(int(v) for v in row[3]) == RED and tuple(int(v) for v in row[1076]) == RED  # fit to the width
    phone.swipe(900, 1200, 100, 1200, 300)
    assert find(phone, text="green.png") is not None
    assert pixel(phone, {"resource_id": f"{PKG}:id/gestures_view"}) == GREEN
    phone.swipe(900, 1200, 100, 1200, 300)  # the last one: stays
    assert find(phone, text="green.png") is not None
    tap(phone, resource_id=f"{PKG}:id/gestures_view")  # full screen: the bars go
    assert find(phone, content_desc="Delete") is None
    tap(phone, resource_id=f"{PKG}:id/gestures_view")
    assert find(phone, content_desc="Delete") is not None


def test_copy_to_another_folder_through_other_folder_is_byte_identical(phone):
    original = phone.fs.read_bytes("/sdcard/DCIM/red.png")
    open_viewer(phone)
    menu(phone, "Copy to")
    assert find(phone, text="Select destination") is not None
    assert texts(phone, "dir_name") == ["Pictures", "DCIM"]  # folders with media only: not Download
    tap(phone, text="Other folder")
    assert find(phone, text="Select a folder") is not None
    assert [n.get("text") for n in nodes(phone) if n.get("resource-id") == f"{PKG}:id/breadcrumb_text"] == [
        "Internal", "> DCIM"]
    tap(phone, text="Internal")
    names = texts(phone, "list_item_name")
    assert names[:4] == ["Alarms", "Android", "Audiobooks", "DCIM"] and "Download" in names
    tap(phone, text="Download")
    assert find(phone, text="notes.txt") is not None
    tap(phone, text="OK")
    assert phone.fs.read_bytes("/sdcard/Download/red.png") == original
    assert phone.fs.read_bytes("/sdcard/DCIM/red.png") == original
    mtime = phone.fs.host_path("/sdcard/DCIM/red.png").stat().st_mtime_ns
    assert phone.fs.host_path("/sdcard/Download/red.png").stat().st_mtime_ns == mtime
    assert find(phone, text="Select destination") is not None  # showOtherFolder leaves the dialog open
    phone.key(keycodes.BACK)
    assert find(phone, text="Select destination") is None
    assert find(phone, text="red.png") is not None


def test_copy_to_a_media_folder_from_the_picker_and_the_source_folder_is_refused(phone):
    open_viewer(phone)
    menu(phone, "Copy to")
    tap(phone, text="DCIM")  # the source: a toast, the dialog stays
    assert find(phone, text="Select destination") is not None
    tap(phone, text="Pictures")
    assert find(phone, text="Select destination") is None
    assert phone.fs.read_bytes("/sdcard/Pictures/red.png") == phone.fs.read_bytes("/sdcard/DCIM/red.png")


def test_the_pickers_search_is_commons_search_menu_a_pill_without_an_underline(phone):
    """dialog_directory_picker.xml's folder_search_view is a MySearchMenu (its toolbar hidden): the field on a
    rounded holder without an underline, the search icon before it, a cross while the search is open."""
    open_viewer(phone)
    menu(phone, "Copy to")
    found = {view.resource_id.rsplit("/", 1)[-1]: view for view in views(phone.window.frame())}
    holder, field, icon = found["top_toolbar_holder"], found["top_toolbar_search"], found["top_toolbar_search_icon"]
    assert holder.corner == (holder.bounds[3] - holder.bounds[1]) // 2 and not field.underline
    assert icon.hint == "search" and field.text == "Search folders"
    x1, _, x2, y2 = field.bounds
    under_text = phone.screenshot()[y2 - 13:y2 - 10, x1 + 20:x2 - 120].reshape(-1, 3)  # clear of the round end
    assert {tuple(int(c) for c in p) for p in under_text} == {holder.background}
    tap(phone, resource_id=f"{PKG}:id/top_toolbar_search")
    phone.input_text("Pic")
    assert texts(phone, "dir_name") == ["Pictures"]
    tap(phone, resource_id=f"{PKG}:id/top_toolbar_search_icon")  # the cross: closeSearch
    assert texts(phone, "dir_name") == ["Pictures", "DCIM"]
    assert find(phone, resource_id=f"{PKG}:id/top_toolbar_search").get("text") == "Search folders"


def test_move_to_takes_the_file_away_and_the_viewer_shows_the_next(phone):
    original = phone.fs.read_bytes("/sdcard/DCIM/red.png")
    open_viewer(phone)
    menu(phone, "Move to")
    tap(phone, text="Pictures")
    assert not phone.fs.exists("/sdcard/DCIM/red.png")
    assert phone.fs.read_bytes("/sdcard/Pictures/red.png") == original
    assert find(phone, text="green.png") is not None
    menu(phone, "Move to")
    tap(phone, text="Pictures")
    assert phone.activities.foreground()[1] != gallery.ViewerScreen.activity  # the folder is empty now


def test_a_taken_name_asks_skip_overwrite_or_keep_both(phone):
    put(phone, "/sdcard/Pictures/red.png", png(BLUE), minute=6)
    open_viewer(phone)
    menu(phone, "Copy to")
    tap(phone, text="Pictures")
    assert find(phone, text='File "red.png" already exists') is not None
    assert find(phone, text="Skip").get("checked") == "true"
    tap(phone, text="OK")
    assert phone.fs.listdir("/sdcard/Pictures") == ["blue.png", "red.png"]
    menu(phone, "Copy to")
    tap(phone, text="Pictures")
    tap(phone, text="Keep both")
    tap(phone, text="OK")
    assert phone.fs.read_bytes("/sdcard/Pictures/red(1).png") == phone.fs.read_bytes("/sdcard/DCIM/red.png")
    menu(phone, "Copy to")
    tap(phone, text="Pictures")
    tap(phone, text="Overwrite")
    tap(phone, text="OK")
    assert phone.fs.read_bytes("/sdcard/Pictures/red.png") == phone.fs.read_bytes("/sdcard/DCIM/red.png")


def test_rename_keeps_the_extension_in_its_own_field(phone):
    open_viewer(phone)
    menu(phone, "Rename")
    assert find(phone, resource_id=f"{PKG}:id/rename_item_name").get("text") == "red"
    assert find(phone, resource_id=f"{PKG}:id/rename_item_extension").get("text") == "png"
    delete(phone, 2)
    phone.input_text("ose")
    tap(phone, text="OK")
    assert phone.fs.exists("/sdcard/DCIM/rose.png") and not phone.fs.exists("/sdcard/DCIM/red.png")
    assert find(phone, text="rose.png") is not None
    menu(phone, "Rename")
    delete(phone, 4)
    phone.input_text("green")  # taken: the dialog stays
    tap(phone, text="OK")
    assert find(phone, text="Rename") is not None and phone.fs.exists("/sdcard/DCIM/rose.png")


def test_delete_asks_then_moves_the_file_into_the_recycle_bin(phone):
    data = phone.fs.read_bytes("/sdcard/DCIM/red.png")
    open_viewer(phone)
    tap(phone, content_desc="Delete")
    message = find(phone, resource_id=f"{PKG}:id/delete_remember_title").get("text")
    size = gallery.format_size(len(data))
    assert message == f'Are you sure you want to move "red.png" ({size}) into the Recycle Bin?'
    tap(phone, text="No")
    assert phone.fs.exists("/sdcard/DCIM/red.png")
    tap(phone, content_desc="Delete")
    tap(phone, text="Yes")
    assert not phone.fs.exists("/sdcard/DCIM/red.png")
    assert phone.fs.read_bytes(gallery.RECYCLE_BIN_PATH + "/storage/emulated/0/DCIM/red.png") == data
    assert find(phone, text="green.png") is not None
    tap(phone, content_desc="Delete")
    tap(phone, text="Skip the Recycle Bin, delete files directly")
    tap(phone, text="Do not ask again in this session")
    tap(phone, text="Yes")
    assert not phone.fs.exists("/sdcard/DCIM/green.png")
    assert not phone.fs.exists(gallery.RECYCLE_BIN_PATH + "/storage/emulated/0/DCIM/green.png")
    open_viewer(phone, "Pictures")
    tap(phone, content_desc="Delete")  # remembered for the session: no question
    assert not phone.fs.exists("/sdcard/Pictures/blue.png")


def test_properties_show_name_path_size_and_resolution(phone):
    open_viewer(phone)
    tap(phone, content_desc="Properties")
    values = texts(phone, "property_value")
    size = gallery.format_size(len(phone.fs.read_bytes("/sdcard/DCIM/red.png")))
    assert values[:4] == ["red.png", "/storage/emulated/0/DCIM", size, "300 x 200 (0.1MP)"]
    assert values[4] == "15.10.2023, 15:37"
    tap(phone, text="OK")
    assert find(phone, text="Properties") is None


def test_properties_read_a_big_turned_photos_resolution_from_its_header(phone, monkeypatch):
    """A 4000x3000 photo stored turned (EXIF orientation 6, as a camera held upright writes it) shows 3000 x 4000,
    read from the header as Commons' ``inJustDecodeBounds`` does: no picture is decoded for the dialog."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    buffer = io.BytesIO()
    Image.new("RGB", (4000, 3000), RED).save(buffer, format="JPEG", exif=exif)
    put(phone, "/sdcard/DCIM/IMG_1.jpg", buffer.getvalue(), minute=20)
    open_viewer(phone)
    monkeypatch.setattr(gallery, "_decoded", lambda *_: pytest.fail("the dialog decoded the picture"))
    tap(phone, content_desc="Properties")
    assert texts(phone, "property_value")[:4] == ["IMG_1.jpg", "/storage/emulated/0/DCIM", gallery.format_size(
        len(buffer.getvalue())), "3000 x 4000 (12.0MP)"]


def test_selecting_thumbnails_copies_and_deletes_several_files(phone):
    start(phone)
    tap(phone, text="DCIM")
    first = find(phone, resource_id=f"{PKG}:id/media_item_holder")
    phone.long_press(*center(first))
    assert find(phone, resource_id=f"{PKG}:id/actionbar_title").get("text") == "1 / 2"
    assert find(phone, resource_id=f"{PKG}:id/media_item_holder").get("selected") == "true"
    for night, bar_color in (("yes", (0x08, 0x42, 0xA0)), ("no", (0x4C, 0x8D, 0xF6))):
        phone.run(f"cmd uimode night {night}")  # you_contextual_status_bar_color: accent1_700 by night, 400 by day
        bar = next(v for v in views(phone.window.frame()) if v.resource_id == f"{PKG}:id/action_mode_bar")
        assert bar.background == bar_color and {v.text_color for v in bar.children} == {(255, 255, 255)}
        x1, y1, x2, y2 = bar.bounds
        assert tuple(phone.screenshot()[y1 + 4, (x1 + x2) // 2]) == bar_color
    menu(phone, "Select all")
    assert find(phone, resource_id=f"{PKG}:id/actionbar_title").get("text") == "2 / 2"
    menu(phone, "Copy to")
    tap(phone, text="Other folder")
    tap(phone, text="Internal")
    tap(phone, resource_id=f"{PKG}:id/filepicker_fab")
    phone.input_text("Receipts")
    tap(phone, text="OK")  # the new folder is picked at once
    assert phone.fs.listdir("/sdcard/Receipts") == ["green.png", "red.png"]
    phone.key(keycodes.BACK)  # BACK closes "Select destination"
    assert find(phone, resource_id=f"{PKG}:id/actionbar_title") is None  # the copy ended the selection
    phone.long_press(*center(find(phone, resource_id=f"{PKG}:id/media_item_holder")))
    tap(phone, content_desc="Delete")
    assert find(phone, resource_id=f"{PKG}:id/delete_remember_title").get("text").startswith(
        'Are you sure you want to move "red.png" (')
    tap(phone, text="Yes")
    assert phone.fs.listdir("/sdcard/DCIM") == ["green.png"]


def test_force_stop_forgets_the_sessions_delete_choices(phone):
    open_viewer(phone)
    tap(phone, content_desc="Delete")
    tap(phone, text="Do not ask again in this session")
    tap(phone, text="Yes")
    phone.run(f"am force-stop {PKG}")
    open_viewer(phone)
    tap(phone, content_desc="Delete")
    assert find(phone, resource_id=f"{PKG}:id/delete_remember_title") is not None


def test_format_size_and_alternative_names(phone):
    assert gallery.format_size(0) == "0 B" and gallery.format_size(1000) == "1,000 B"
    assert gallery.format_size(18295) == "17.9 kB" and gallery.format_size(3 * 1024 ** 2) == "3 MB"
    assert gallery.alternative_name(phone, "/sdcard/DCIM", "red.png") == "red(1).png"
    assert not gallery.valid_name("../x") and not gallery.valid_name("a/b") and gallery.valid_name("a b.png")
