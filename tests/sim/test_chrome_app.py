"""Chrome on the simulated phone: a real headless Chromium behind the page area (pixels, accessibility nodes,
touch and typing), pages under /sdcard opened as file:// pages, the network blocked, console messages in logcat.
One phone serves the module, brought back to a fixed start before each test (``phone``), so the tests pass in any
order; phones share the process's browser, each in a browser context of its own."""

from __future__ import annotations

import multiprocessing
import os
import re
import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from ui_nodes import colours

from android_gym.sim import keycodes
from android_gym.sim.apps.chrome import SEARCH_URL, omnibox_url
from android_gym.sim.apps.files import Doc
from android_gym.sim.phone import Phone
from android_gym.sim.system import chromium
from android_gym.sim.system.chromium import Chromium, ChromiumMissingError, blocked_urls, on_area, storage_url
from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.logd import LogBuffer

PAGE = """<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test page</title></head><body style="margin:0">
<div style="background:#ff0000;height:100px"></div>
<h1>Hello</h1><button onclick="document.getElementById('out').textContent = 'Clicked!'">Press</button>
<input id="name" placeholder="Name"><input type="checkbox" checked aria-label="Agree">
<p id="out"></p><script>console.log('page ready');</script>
<div style="height:1500px"></div><p>Bottom</p></body></html>"""
VIEW = ("am start -a android.intent.action.VIEW -t text/html -d file:///sdcard/Download/page.html "
        "-n com.android.chrome/com.google.android.apps.chrome.Main")


#: What brings the module's phone back to its start: Chrome's process stopped (its tab and profile gone: the next intent
#: opens a new tab in a fresh one), the home screen in front, then (nothing of Chrome's left to lay out again) the
#: default display, font scale and day mode.
START = ("am force-stop com.android.chrome && input keyevent KEYCODE_HOME && wm size reset && wm density reset && "
         "settings put system font_scale 1.0 && cmd uimode night no")


@pytest.fixture(scope="module")
def shared_phone():
    """The module's one phone (a Chromium context costs a start-up), with the test page in Download."""
    phone = Phone()
    phone.fs.write_bytes("/sdcard/Download/page.html", PAGE.encode())
    yield phone
    phone.close()
    assert not phone.chromium.running


@pytest.fixture
def phone(shared_phone):
    """The module's phone at its start (``START``), whatever the test before left open or set."""
    assert shared_phone.run(START).exit_code == 0
    return shared_phone


def nodes(phone: Phone) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', node)) for node in re.findall(r"<node [^>]*", phone.ui_dump())]


def node(phone: Phone, **wanted: str) -> dict[str, str]:
    return next(n for n in nodes(phone) if all(n.get(k) == v for k, v in wanted.items()))


def centre(n: dict[str, str]) -> tuple[int, int]:
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", n["bounds"]))
    return (x1 + x2) // 2, (y1 + y2) // 2


def test_a_file_opens_as_a_page_with_its_pixels_and_accessibility_nodes(phone):
    assert phone.run(VIEW).exit_code == 0
    assert phone.activities.foreground() == ("com.android.chrome", "com.google.android.apps.chrome.Main")
    assert node(phone, **{"resource-id": "com.android.chrome:id/url_bar"})["text"] == \
        "file:///storage/emulated/0/Download/page.html"
    web = node(phone, **{"class": "android.webkit.WebView"})
    assert web["text"] == "Test page"
    assert node(phone, text="Hello")["class"] == "android.view.View"
    button = node(phone, text="Press")
    assert button["class"] == "android.widget.Button" and button["clickable"] == "true"
    assert node(phone, **{"class": "android.widget.CheckBox"})["checked"] == "true"
    assert node(phone, **{"class": "android.widget.EditText", "resource-id": ""})["clickable"] == "true"
    top = int(re.findall(r"\d+", web["bounds"])[1])
    assert tuple(phone.screenshot()[top + 50, 540]) == (255, 0, 0)  # the page's red band, from Chromium's pixels
    assert "Bottom" not in [n.get("text") for n in nodes(phone)]  # off screen


def logo_colours(phone: Phone) -> set[tuple[int, int, int]]:
    """The colours of the new-tab page's logo: its pixels that are not the page's background."""
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", node(phone, **{"resource-id": LOGO})["bounds"]))
    pixels = phone.screenshot()[y1:y2, x1:x2]
    return colours(pixels) - {tuple(map(int, pixels[0, 0]))}


LOGO = "com.android.chrome:id/search_provider_logo"


def test_the_home_page_is_the_new_tab_page_with_the_logo_and_a_search_box_that_focuses_the_omnibox(phone):
    """Chrome started afresh shows its new-tab page, not a blank page: the Google logo (Google's four colours by
    day, white by night) over the fake search box; a tap on the box focuses the URL bar with the keyboard; a page
    opened replaces it, and the home button brings it back."""
    phone.run("monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1")
    assert not [n for n in nodes(phone) if n.get("class") == "android.webkit.WebView"]
    box = node(phone, **{"resource-id": "com.android.chrome:id/search_box_text"})
    assert box["text"] == "Search or type web address" and box["class"] == "android.widget.EditText"
    assert node(phone, **{"resource-id": "com.android.chrome:id/voice_search_button"})["content-desc"] == \
        "Start voice search"
    colours = logo_colours(phone)
    for google in ((66, 133, 244), (234, 67, 53), (251, 188, 5), (52, 168, 83)):
        assert google in colours
    phone.run("cmd uimode night yes")
    try:
        assert (255, 255, 255) in logo_colours(phone) and (66, 133, 244) not in logo_colours(phone)
    finally:
        phone.run("cmd uimode night no")
    phone.tap(*centre(box))
    assert node(phone, **{"resource-id": "com.android.chrome:id/url_bar"})["focused"] == "true"
    assert phone.activities.top.keyboard_shown
    phone.key(keycodes.BACK)
    phone.activities.top.app.open("file:///sdcard/Download/page.html")
    assert LOGO not in phone.ui_dump() and node(phone, **{"class": "android.webkit.WebView"})["text"] == "Test page"
    phone.tap(*centre(node(phone, **{"content-desc": "Open the home page"})))
    assert node(phone, **{"resource-id": LOGO})


def test_the_new_tab_page_reads_no_page_nodes_and_a_page_opened_over_it_shows_its_own(phone, monkeypatch):
    """The new-tab page is native: Chromium is not asked for the blank tab's accessibility tree under it, even as
    the keyboard resizes the tab; the page opened next is read and dumped."""
    reads = []
    read_nodes = chromium.WebPage._nodes
    monkeypatch.setattr(chromium.WebPage, "_nodes", lambda page: reads.append(1) or read_nodes(page))
    phone.run("monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1")
    phone.tap(*centre(node(phone, **{"resource-id": "com.android.chrome:id/search_box_text"})))
    assert phone.activities.top.keyboard_shown and node(phone, **{"resource-id": LOGO})
    phone.key(keycodes.BACK)
    assert node(phone, **{"resource-id": LOGO}) and reads == []
    phone.activities.top.app.open("file:///sdcard/Download/page.html")
    assert node(phone, **{"class": "android.webkit.WebView"})["text"] == "Test page" and node(phone, text="Press")
    assert reads == [1]


def test_about_blank_typed_in_the_omnibox_is_a_blank_page_and_back_returns_to_the_new_tab_page(phone):
    """Chrome loads a typed ``about:blank`` as the empty page it is, its address in the URL bar, not the new-tab
    page the home button shows; BACK comes back to the new-tab page."""
    phone.run("monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1")
    phone.tap(*centre(node(phone, **{"resource-id": "com.android.chrome:id/search_box_text"})))
    phone.input_text("about:blank")
    phone.key(keycodes.ENTER)
    assert LOGO not in phone.ui_dump()
    assert node(phone, **{"resource-id": "com.android.chrome:id/url_bar"})["text"] == "about:blank"
    web = node(phone, **{"class": "android.webkit.WebView"})
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", web["bounds"]))
    assert (np.asarray(phone.screenshot())[y1 + 20:y2, x1:x2] == 255).all()  # white below the bar's shadow
    phone.key(keycodes.BACK)
    assert node(phone, **{"resource-id": LOGO})


#: A page that notes its viewport's height as it loads and at every resize.
SIZED = b"""<meta name="viewport" content="width=device-width"><title>Sized</title>
<script>window.heights = [innerHeight]; addEventListener('resize', () => heights.push(innerHeight));</script>"""


def test_the_keyboard_resizes_the_page_once_and_an_address_typed_loads_at_the_size_it_leaves(phone):
    """The omnibox's keyboard resizes the page when it shows (Android's adjustResize), once: the typed address's page
    loads with the keyboard gone, at its full height, and is not resized after it loaded (it was loaded under the
    keyboard and resized when it went); nor is a page an intent opens (it was loaded at the tab's first size)."""
    phone.fs.write_bytes("/sdcard/Download/sized.html", SIZED)
    phone.fs.write_bytes("/sdcard/Download/typed.html", SIZED)
    phone.run(VIEW.replace("page.html", "sized.html"))
    phone.ui_dump()
    page = phone.activities.top.app.tab().page
    full = page.evaluate("innerHeight")
    assert page.evaluate("[...new Set(heights)]") == [full]
    phone.tap(*centre(node(phone, **{"resource-id": "com.android.chrome:id/url_bar"})))
    phone.ui_dump()
    assert page.evaluate("innerHeight") < full  # above the keyboard
    phone.input_text("/sdcard/Download/typed.html")
    phone.key(keycodes.ENTER)
    assert node(phone, **{"class": "android.webkit.WebView"})["text"] == "Sized"
    assert page.evaluate("[location.pathname.endsWith('typed.html'), [...new Set(heights)]]") == [True, [full]]


def test_taps_typing_and_swipes_reach_the_page(phone):
    phone.run(VIEW)
    phone.tap(*centre(node(phone, text="Press")))
    assert node(phone, text="Clicked!")
    phone.tap(*centre(node(phone, **{"class": "android.widget.EditText", "resource-id": ""})))
    assert phone.activities.top.keyboard_shown
    phone.input_text("Ada")
    phone.key(keycodes.DEL)
    field = node(phone, **{"class": "android.widget.EditText", "resource-id": ""})
    assert field["text"] == "Ad" and field["focused"] == "true"
    phone.key(keycodes.BACK)  # hides the keyboard first
    phone.swipe(540, 2000, 540, 300, 300)
    texts = [n.get("text") for n in nodes(phone)]
    assert "Hello" not in texts and "Bottom" not in texts  # scrolled by the drag
    phone.swipe(540, 2000, 540, 300, 300)
    assert node(phone, text="Bottom")


def test_taps_sent_one_right_after_another_are_single_taps(phone):
    """However soon the next tap reaches Chromium, it is no double tap (which would select the field's word, and the
    typing after it would replace the word): as on the phone's clock, taps are a second apart."""
    phone.run(VIEW)
    field = centre(node(phone, **{"class": "android.widget.EditText", "resource-id": ""}))
    phone.tap(*field)
    phone.input_text("Ada")
    phone.tap(*field)
    phone.tap(*field)
    phone.input_text("x")
    assert node(phone, **{"class": "android.widget.EditText", "resource-id": ""})["text"] == "Adax"


def wait_frames(page: chromium.WebPage, count: int) -> None:
    """Let ``count`` animation frames of Chromium's clock pass (no sleep: the page counts them)."""
    page.evaluate(f"new Promise(done => {{ let n = {count}; const next = () => --n ? requestAnimationFrame(next) : "
                  "done(); requestAnimationFrame(next); })")


def test_a_drag_scrolls_the_page_by_its_length_and_leaves_it_at_rest(phone):
    """However fast the touch events reach Chromium, a drag scrolls by its length (less the touch slop) and is
    never flung on: the page is where it was left 30 frames later, and the same drag always lands it there."""
    landed = []
    for _ in range(3):
        phone.run("am force-stop com.android.chrome")  # the page loaded afresh, at its top
        phone.run(VIEW)
        phone.swipe(540, 2000, 540, 300, 300)
        page = phone.activities.top.app.tab().page
        landed.append(page.evaluate("scrollY"))
        wait_frames(page, 30)
        assert page.evaluate("scrollY") == landed[-1]
    drag = 1700 / (1080 / page.evaluate("innerWidth"))  # CSS px
    assert landed == [landed[0]] * 3 and drag - 16 <= landed[0] <= drag


def test_a_settled_page_looks_the_same_later_its_tapped_checkbox_let_go_and_its_caret_steady(phone):
    """What a capture shows does not depend on when it is taken: a tapped checkbox is no longer pressed once the tap
    has settled (Chromium keeps it ``:active`` for 150 ms of its clock), and a focused field's caret does not blink
    (every 500 ms)."""
    phone.run(VIEW)
    page = phone.activities.top.app.tab().page
    for target in ({"class": "android.widget.CheckBox"}, {"class": "android.widget.EditText", "resource-id": ""}):
        phone.tap(*centre(node(phone, **target)))
        settled = np.asarray(page.capture())
        wait_frames(page, 40)  # 0.67 s: past the pressed state and a blink
        assert np.array_equal(np.asarray(page.capture()), settled)
    assert page.evaluate("getComputedStyle(document.activeElement).caretColor") != "rgba(0, 0, 0, 0)"  # shown


def test_the_page_is_screenshotted_only_when_its_pixels_are_drawn(phone, monkeypatch):
    shots, decoded = [], []
    png, decode = chromium.WebPage._png, chromium._decoded
    monkeypatch.setattr(chromium.WebPage, "_png", lambda page: shots.append(1) or png(page))
    monkeypatch.setattr(chromium, "_decoded", lambda data: decoded.append(1) or decode(data))
    phone.run(VIEW)
    phone.tap(*centre(node(phone, text="Press")))
    assert node(phone, text="Clicked!") and shots == []  # the dump alone asks Chromium for no pixels
    before = phone.screenshot()
    assert len(shots) == len(decoded) == 1
    phone.swipe(540, 2000, 540, 1000, 300)
    assert not np.array_equal(phone.screenshot(), before) and len(shots) == len(decoded) == 2  # the scrolled page
    scrolled = phone.screenshot()
    assert len(shots) == 2  # an unchanged screen is not captured again
    phone.tap(540, 1500)  # on the page's empty part: the page changes nothing, and Chromium's capture is the same PNG
    assert np.array_equal(phone.screenshot(), scrolled) and len(shots) == 3 and len(decoded) == 2  # not decoded again


def bounds(n: dict[str, str]) -> tuple[int, int, int, int]:
    """A dumped node's bounds."""
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", n["bounds"]))
    return x1, y1, x2, y2


@pytest.mark.parametrize("display", ["", "wm density 320", "wm size 720x1280 && wm density 320",
                                     "wm size 540x1200 && wm density 210", "wm size 270x600 && wm density 105",
                                     "wm size 1000x2000 && wm density 389"])
def test_the_page_is_captured_at_the_screens_pixels_and_drawn_unscaled_where_the_dump_says(phone, display):
    """At every density Chromium captures the page at the screen's own pixels (``devicePixelRatio`` = density / 160:
    a CSS px is a dp, as sharp as the phone shows it), the page's ratio and viewport stay the phone's, the frame shows
    the capture pixel for pixel (a capture scaled to the screen would be blurry), and the dump's bounds are where the
    page draws: the web view's are the capture's area, the checkbox's its blue box (to a pixel)."""
    if display:
        assert phone.run(display).exit_code == 0
    phone.run(VIEW)
    x1, y1, x2, y2 = bounds(node(phone, **{"class": "android.webkit.WebView"}))
    page = phone.activities.top.app.tab().page
    before = page.evaluate("[devicePixelRatio, innerWidth, innerHeight]")
    shot = np.asarray(page.capture())
    ratio, width, height = page.evaluate("[devicePixelRatio, innerWidth, innerHeight]")
    assert [ratio, width, height] == before and ratio == pytest.approx(phone.window.density / 160, abs=0.002)
    assert abs(shot.shape[1] - width * ratio) < 1 and abs(shot.shape[0] - height * ratio) < 1
    frame = phone.screenshot()
    assert np.array_equal(frame[y1:y2, x1:x2], np.asarray(on_area(Image.fromarray(shot), x2 - x1, y2 - y1)))
    blue = np.argwhere((frame[..., 2] > 240) & (frame[..., 0] < 40) & (frame[..., 1] < 140))  # the checked box
    cx1, cy1, cx2, cy2 = bounds(node(phone, **{"class": "android.widget.CheckBox"}))
    (top, left), (bottom, right) = blue.min(axis=0), blue.max(axis=0) + 1
    assert max(abs(left - cx1), abs(top - cy1), abs(right - cx2), abs(bottom - cy2)) <= 1  # bounds rounded twice


def test_a_capture_a_pixel_short_goes_on_in_its_last_column_and_row_and_one_over_is_cut():
    capture = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)  # 3 px wide, 2 tall
    short = np.asarray(on_area(Image.fromarray(capture), 4, 3))
    assert np.array_equal(short, np.pad(capture, ((0, 1), (0, 1), (0, 0)), mode="edge"))
    assert np.array_equal(np.asarray(on_area(Image.fromarray(capture), 2, 1)), capture[:1, :2])
    assert np.array_equal(np.asarray(on_area(Image.fromarray(capture), 2, 3)),
                          np.pad(capture[:, :2], ((0, 1), (0, 0), (0, 0)), mode="edge"))


def test_console_messages_go_to_logcat(phone):
    phone.run(VIEW)
    assert '"page ready", source: file://' in phone.run("logcat -d -s chromium").stdout.decode()


def test_the_network_is_blocked_but_loopback_and_local_pages_are_not(phone):
    blocked = blocked_urls(storage_url(Path("/tmp/phone-fs")))
    for url in ("file:///tmp/phone-fs/sdcard/x.html", "file:///tmp/phone-fs", "http://127.0.0.1:8000/",
                "http://user@localhost/", "ws://[::1]:9/", "about:blank", "data:text/html,x"):
        assert not blocked.match(url), url
    for url in ("https://example.com/", "http://10.0.2.2/", "http://127.0.0.1@example.com/",
                "http://127.0.0.1.example.com/", "file:///etc/hostname", "file:///tmp/phone-fs-2/x"):
        assert blocked.match(url), url
    phone.run(VIEW)
    phone.activities.top.app.open("https://example.com/")
    assert "example.com" in phone.ui_dump() and any("ERR_" in n.get("text", "") for n in nodes(phone))
    phone.activities.top.app.open("http://10.0.2.2/")  # an address, never looked up: the pattern blocks it
    assert any("ERR_BLOCKED_BY_CLIENT" in n.get("text", "") for n in nodes(phone))


def test_typed_words_are_a_search_and_an_address_chromium_cannot_parse_does_not_raise(phone):
    """The omnibox loads what is typed there as Chrome classifies it: an address as it is (``https://`` added), a
    sentence a Google search (which the network blocks: the error page, the URL bar showing the address that
    failed), never an address Chromium refuses, which made the step raise; nor does an intent's unparsable
    address."""
    assert omnibox_url(" example.com/a?b ") == "example.com/a?b" and omnibox_url("localhost:8000") == "localhost:8000"
    assert omnibox_url("hello") == omnibox_url(" hello ") == SEARCH_URL + "hello"
    phone.run("monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1")
    phone.tap(*centre(node(phone, **{"resource-id": "com.android.chrome:id/search_box_text"})))
    phone.input_text("Send a text message: Don't forget")
    phone.key(keycodes.ENTER)
    assert any("ERR_" in n.get("text", "") for n in nodes(phone))
    url_bar = node(phone, **{"resource-id": "com.android.chrome:id/url_bar"})
    assert url_bar["text"] == SEARCH_URL + "Send+a+text+message%3A+Don%27t+forget"
    phone.activities.top.app.open("https://a b/")
    assert any("ERR_" in n.get("text", "") for n in nodes(phone))


def test_a_folder_listing_names_the_phone_path_and_its_parent_link_stays_on_the_phone(phone):
    """Chromium lists a folder under its own path: the page, its title and pixels say the phone's path, not the
    host folder the phone's storage lives in, and the listing's "parent directory" link at the top of the phone's
    storage leads to a blocked page, not to the host's files."""
    phone.run("mkdir -p /sdcard/Download/listed && echo hi > /sdcard/Download/listed/note.txt")
    phone.run(VIEW)
    phone.activities.top.app.open("file:///sdcard/Download/listed/")
    host = str(phone.fs.root)
    texts = [n.get("text", "") for n in nodes(phone)]
    assert "Index of /storage/emulated/0/Download/listed/" in texts and "note.txt" in texts
    assert host not in phone.ui_dump()
    page = phone.activities.top.app.tab().page
    assert page.state().title == "Index of /storage/emulated/0/Download/listed/"
    page.goto(phone.fs.root.parent.as_uri() + "/")  # the parent of the phone's storage: the host's
    assert "ERR_BLOCKED_BY_CLIENT" in page_text(page)
    page.goto("file:///etc/hostname")
    assert "ERR_BLOCKED_BY_CLIENT" in page_text(page)


def page_text(page) -> str:
    def texts(web_nodes):
        for web_node in web_nodes:
            yield web_node.text
            yield from texts(web_node.children)
    return "\n".join(texts(page.state().nodes))


def test_back_to_a_blocked_page_shows_its_error_page(phone):
    """Going back in history onto an address the network refuses fails in Chromium; Chrome shows the error page
    again, and the key press never raises."""
    phone.run(VIEW)
    chrome = phone.activities.top.app
    chrome.open("https://example.com/")
    chrome.open("file:///sdcard/Download/page.html")
    phone.key(keycodes.BACK)
    assert any("ERR_" in n.get("text", "") for n in nodes(phone))


def test_files_views_an_html_file_in_chrome(phone):
    phone.run("am start -n com.google.android.documentsui/com.android.documentsui.files.FilesActivity")
    path = "/storage/emulated/0/Download/page.html"
    phone.activities.top.view_file(Doc(path, "page.html", False, len(PAGE), 0, "text/html"))
    assert phone.activities.foreground()[0] == "com.android.chrome"
    assert node(phone, **{"class": "android.webkit.WebView"})["text"] == "Test page"


def test_a_file_chromium_downloads_leaves_the_page_and_never_raises(phone):
    """Opening a file Chromium downloads rather than shows (an archive) starts a download in Chrome; the page that
    was open stays (a random tap on such a file in Files once raised out of env.step)."""
    phone.fs.write_bytes("/sdcard/Download/notes.zip", b"PK\x03\x04" + bytes(64))
    phone.run(VIEW)
    phone.activities.top.app.open("file:///sdcard/Download/notes.zip")
    assert node(phone, **{"class": "android.webkit.WebView"})["text"] == "Test page"


@pytest.mark.parametrize("font_scale", ["0.85", "1.3"])
def test_the_page_fills_the_window_below_a_56_dp_toolbar_at_every_font_scale(phone, font_scale):
    """On a 720x1280 phone at 320 dpi (2 px per CSS px): the toolbar is 56 dp (112 px) tall whatever the font scale,
    and Chromium's viewport is exactly the WebView's area below it (the page shows to its last pixel)."""
    assert phone.run(f"wm size 720x1280 && wm density 320 && settings put system font_scale {font_scale}").exit_code \
        == 0
    phone.run(VIEW)
    toolbar = node(phone, **{"resource-id": "com.android.chrome:id/toolbar"})
    web = node(phone, **{"class": "android.webkit.WebView"})
    _, top, _, bottom = map(int, re.findall(r"\d+", toolbar["bounds"]))
    _, web_top, _, web_bottom = map(int, re.findall(r"\d+", web["bounds"]))
    assert bottom - top == 112 and web_top == bottom
    viewport = phone.activities.top.app.tab().page.evaluate("[innerWidth, innerHeight]")
    assert viewport == [360, (web_bottom - web_top) // 2]


def test_without_chromium_a_page_raises_a_clear_error(monkeypatch):
    monkeypatch.setattr(chromium, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(ChromiumMissingError, match="apt-get install -y chromium"):
        Chromium(LogBuffer(VirtualClock()), Path("/nonexistent")).page(2.625)


def _browser_command_line() -> list[str]:
    """The command line of this process's Chromium (its browser process: a grandchild, under Playwright's driver)."""
    def parent(pid: str) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    for pid in filter(str.isdigit, (path.name for path in Path("/proc").iterdir())):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            if "--remote-debugging-pipe" in args and parent(str(parent(pid))) == os.getpid():
                return args
        except (OSError, IndexError):
            continue  # a process that ended meanwhile
    raise AssertionError("no browser process of ours")


def test_the_browser_keeps_off_every_feature_playwright_turns_off(phone):
    """Chromium takes the last ``--disable-features``: ours, which names Playwright's (the first) again."""
    phone.run(VIEW)
    flag = "--disable-features="
    lists = [arg.removeprefix(flag).split(",") for arg in _browser_command_line() if arg.startswith(flag)]
    assert len(lists) == 2 and "PaintHolding" in lists[0]
    assert set(lists[0]) <= set(lists[-1]) and "ResamplingInputEvents" in lists[-1]


def test_phones_share_the_browser_but_not_their_storage(phone, monkeypatch):
    """A second phone opens a context in the running browser (no second launch) whose pages see none of the first
    phone's storage; closing it leaves the first phone's browser running."""
    phone.run(VIEW)
    first = phone.activities.top.app.tab().page
    first.evaluate("localStorage.setItem('who', 'first')")
    monkeypatch.setattr(chromium._Browser, "_launch", lambda browser: pytest.fail("a second browser was launched"))
    other = Phone()
    try:
        other.fs.write_bytes("/sdcard/Download/page.html", PAGE.encode())
        other.run(VIEW)
        assert other.activities.top.app.tab().page.evaluate("localStorage.getItem('who')") is None
        assert first.evaluate("localStorage.getItem('who')") == "first"
    finally:
        other.close()
    assert not other.chromium.running and phone.chromium.running
    phone.invalidate()
    assert node(phone, text="Hello")


def test_a_stopped_chrome_closes_its_profile_but_the_phone_keeps_the_browser_until_it_closes(phone):
    """``am force-stop``: the phone's browser context goes with Chrome's process (its next page opens a new one) and
    the old page lets go of its pixels, while the phone still holds the browser, which it lets go of when it closes."""
    browser = chromium._BROWSER_THREAD.browser
    users = chromium._BROWSER_THREAD.call(lambda: browser._users)
    other = Phone()
    try:
        other.fs.write_bytes("/sdcard/Download/page.html", PAGE.encode())
        other.run(VIEW)
        page = other.activities.top.app.tab().page
        page.screenshot(108, 200)
        other.run("am force-stop com.android.chrome")
        assert page.closed and not other.chromium.running
        assert page._pixels is None  # views of earlier frames may hold the page: not a screen's bytes with it
        assert chromium._BROWSER_THREAD.call(lambda: browser._users) == users + 1
        other.run(VIEW)
        assert node(other, text="Hello") and other.chromium.running
    finally:
        other.close()
    assert chromium._BROWSER_THREAD.call(lambda: browser._users) == users


def test_a_crashed_browser_is_started_again_for_the_next_page(phone):
    """The browser gone under a phone (closed here as a crash would): Chrome's tab is gone with it, and the next
    page opens in a new tab of a browser started again."""
    phone.run(VIEW)
    tab = phone.activities.top.app.tab()
    browser = chromium._BROWSER_THREAD.browser
    chromium._BROWSER_THREAD.call(lambda: browser._browser.close())
    assert tab.page.closed and not chromium._BROWSER_THREAD.call(lambda: browser.running)
    phone.run("am force-stop com.android.chrome")
    phone.run(VIEW)
    assert node(phone, text="Hello") and chromium._BROWSER_THREAD.call(lambda: browser.running)
    assert phone.activities.top.app.tab().serial > tab.serial  # its pictures are never the old tab's


def _browse_in_a_forked_child(phone: Phone) -> None:
    """In the child: the parent's phone (copied by the fork) shows the page in the child's own browser."""
    browser = chromium._BROWSER_THREAD.browser
    assert not browser.running  # the parent's browser is not the child's
    phone.run("am force-stop com.android.chrome")
    phone.run(VIEW)
    assert node(phone, text="Hello")
    assert chromium._BROWSER_THREAD.call(lambda: browser.running)
    phone.chromium.close()  # (not phone.close(): the phone's files are the parent's too)
    assert not chromium._BROWSER_THREAD.call(lambda: browser.running)  # its last phone stopped the child's browser


def test_a_forked_child_starts_its_own_browser_and_its_last_phone_stops_it(phone):
    """A vector env's worker forked from a process with a browser: the worker's phones never touch the parent's
    browser, contexts or tabs (they are over the parent's pipe) and start the worker's own."""
    phone.run(VIEW)
    child = multiprocessing.get_context("fork").Process(target=_browse_in_a_forked_child, args=(phone,))
    child.start()
    child.join()
    assert child.exitcode == 0
    phone.tap(*centre(node(phone, text="Press")))
    assert node(phone, text="Clicked!")  # the parent's tab still answers


def test_the_phone_can_be_driven_from_another_thread(phone):
    """A served phone is called from adbd's and gRPC's threads; Playwright runs on its own thread."""
    phone.run(VIEW)
    phone.invalidate()
    dumps: list[str] = []
    worker = threading.Thread(target=lambda: dumps.append(phone.ui_dump()))
    worker.start()
    worker.join()
    assert "android.webkit.WebView" in dumps[0]


def test_a_call_made_on_the_browser_thread_during_another_runs_after_it():
    """A phone the garbage collector finalizes mid-call closes its browser after the call (no deadlock)."""
    order: list[str] = []

    def outer() -> None:
        chromium._BROWSER_THREAD.call(lambda: order.append("inner"))
        order.append("outer")

    chromium._BROWSER_THREAD.call(outer)
    chromium._BROWSER_THREAD.call(lambda: None)
    assert order == ["outer", "inner"]


class _PageNavigatingWhileItSettles:
    """A page that starts navigating while the first wait for it to settle runs: Chromium drops that evaluation, as
    Playwright's CDP session reports it."""

    def __init__(self) -> None:
        self.settles = 0

    def wait_for_load_state(self, state: str) -> None:
        pass

    def send(self, method: str, params: dict) -> dict:
        from playwright.sync_api import Error as PlaywrightError
        assert method == "Runtime.evaluate" and params["awaitPromise"]
        self.settles += 1
        if self.settles == 1:
            raise PlaywrightError("Protocol error (Runtime.evaluate): Inspected target navigated or closed")
        return {"result": {"type": "object", "value": ["Index of /sdcard/", None]}}


def test_a_navigation_starting_while_the_page_settles_is_waited_for(tmp_path):
    page = _PageNavigatingWhileItSettles()
    web_page = chromium.WebPage(page, cdp=page, storage_root=tmp_path)
    web_page._settle()
    assert page.settles == 2  # the navigated page settled in its turn
    assert web_page._title == "Index of /sdcard/" and web_page.focused_value() is None
