"""A real headless Chromium behind the phone's browser: one browser process per Python process, at most one browser
context per phone at a time, driven over DevTools.

Web pages are the one thing the simulated phone does not re-implement. Debian's ``/usr/bin/chromium`` starts the
first time a phone shows a page (``WebPage``) and serves every phone of the process, each in its own browser
context (CDP's ``Target.createBrowserContext``: its own cookies, storage and cache, kept in memory, as separate
as a browser of its own). A phone's context is Chrome's profile: opened with its first page, closed (its pages, their
timers and all it kept gone) when Chrome's process dies (``Chromium.clear``) and with the phone; the browser keeps
running for the phone's next page, and stops with the last phone (or with the last ``keep_browser`` hold, for a
process that makes phones one after another). A forked child starts its own browser; one that crashed is started
again for the next page. It is driven by Playwright's synchronous API
(``launch(executable_path=...)``; a well-kept client that owns the browser process, its pipes and its shutdown,
and hands out raw CDP sessions), with raw CDP for what a phone needs: touch input (``Input.dispatchTouchEvent``),
the accessibility tree (``Accessibility.getFullAXTree``) and layout bounds and click listeners
(``DOMSnapshot.captureSnapshot``).

Isolation: headless, no GPU, a fresh browser context per phone, no network beyond loopback, ``data:``, ``about:``
and ``file:`` inside the phone's own storage (every other request is aborted, and the host resolver maps every other
name to nothing); Chromium's own pages name a file by its path on the phone, never the host's. Chromium's own
sandbox needs unprivileged user namespaces or a setuid helper; as root it refuses to start with it, so the sandbox
is on for other users and off (``--no-sandbox``) for root.

Time: pages run on Chromium's real clock (the phone's virtual clock does not reach them); after every input the
bridge waits for two animation frames (a rendered frame after the event's handlers ran), the page's finite
animations and a tapped element's pressed (``:active``) state, in one ``Runtime.evaluate``, never for wall time. A
drag's touch events carry timestamps one frame apart and a rest before the finger lifts, and are not resampled to
frame times, so how far it scrolls depends on its points alone, not on how fast they were sent (no fling); a
gesture's stamps start at least 0.5 s after the last one ended, so taps sent one right after another are never a
double tap.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import json
import os
import queue
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from PIL import Image

from android_gym.errors import AndroidGymError
from android_gym.sim.system.logd import PRIORITIES, LogBuffer
from android_gym.sim.system.web_accessibility import WebNode, build_nodes

#: Where Debian's ``chromium`` package puts the browser.
CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = ("the phone's browser needs Chromium and Playwright: apt-get install -y chromium && "
                "pip install 'android-gym[web]'")
#: The features Playwright's launch turns off (its ``chromiumSwitches``, as Playwright 1.65 passes them): Chromium
#: takes the last ``--disable-features`` it is given, so ours names them again, or they would be back on (paint
#: holding, the media router, optimization hints, HTTPS upgrades ...).
_PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
#: Touch moves as they were sent, not resampled to the frame's time (which moment a frame began would change how far
#: a drag scrolls). No omnibox popup: headless Chromium's windows show none, yet each window (a context's first page
#: opens one) loads its WebUI in a renderer process of its own, which cost more CPU than the page itself.
_DISABLED_FEATURES = ("ResamplingScrollEvents", "ResamplingInputEvents", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
         "--disable-features=" + ",".join((*_PLAYWRIGHT_DISABLED_FEATURES, *_DISABLED_FEATURES))]
T = TypeVar("T")
_CHROME_PID, _CHROME_UID = 4711, 10120  # the browser process in logcat (an app uid)
#: What a phone's page may load besides files inside its storage: ``data:``, ``about:`` and ``blob:``, and any
#: scheme's address on a loopback host (after any user info, before any port).
_LOCAL = (r"(?:data|about|blob):|[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?(?:localhost|127\.0\.0\.1|\[::1\])"
          r"(?::\d*)?(?:[/?#]|$)")
_SETTLE_TRIES = 5
#: Touch events' spacing (one 60 Hz frame), and how long a dragging finger rests before it lifts: longer than
#: ``kAssumePointerStoppedTimeMs`` (40 ms, ``ui/events/gesture_detection/velocity_tracker.cc``, as Android's
#: ``VelocityTracker``), so the gesture ends without a fling.
_MOVE_INTERVAL_S, _REST_BEFORE_LIFT_S = 0.016, 0.1
#: How long after a gesture's end the next one starts, at least: longer than Chromium's double-tap timeout (400 ms,
#: ``ui/events/gesture_detection/gesture_configuration.cc``), so two taps are two single taps (the phone's taps are
#: a second apart on its clock), however soon the next one is sent.
_GESTURE_GAP_S = 0.5
#: How long the page's finite animations and pressed state are waited for; longer ones leave it as settled as it gets.
_ANIMATION_TIMEOUT_MS = 5000
# Chromium's own pages for a file (a folder's "Index of ..." listing, an error page) name its path: the phone's
# storage is a folder of the host, so the host's part of it is taken out of the page's text (its <title> too), which
# then names the file as Android does (``/storage/emulated/0/...``).
#: The page settled after an input, in one round trip: two animation frames (a rendered frame after the input's
#: handlers ran), then each frame until finite CSS animations and transitions and jQuery animations (MiniWoB's
#: accordions, dialogs) have finished and no element is ``:active`` (at most ``timeout`` ms); on a page of the phone's
#: storage (``storageUrl``) the host's folder (``root``) taken out of its text. It answers the page's title and its
#: focused text field's ``[value, multiline, password]`` (null when none has focus). A tapped element stays
#: ``:active`` (a pressed checkbox's lighter blue) for 150 ms of Chromium's clock after the press, however soon the
#: finger lifts (``kMinimumActiveInterval``, ``third_party/blink/renderer/core/input/event_handler.cc``): a capture
#: taken meanwhile, or not, would depend on how fast the machine ran, so the page settles once it has let go.
_SETTLE = """async (storageUrl, root, timeout) => {
    const frame = () => new Promise(done => requestAnimationFrame(done));
    const changing = () => document.getAnimations().some(a => a.playState === 'running'
        && a.effect.getComputedTiming().endTime !== Infinity) || (window.jQuery && jQuery(':animated').length)
        || document.querySelector(':active') !== null;
    await frame();
    await frame();
    const start = performance.now();
    while (changing() && performance.now() - start < timeout) await frame();
    if (location.href.startsWith(storageUrl)) {
        const texts = document.createTreeWalker(document.documentElement || document, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode())
            if (node.data.includes(root)) node.data = node.data.split(root).join('');
    }
    const e = document.activeElement;
    const text = e && (e.tagName === 'TEXTAREA' || (e.tagName === 'INPUT' && !['checkbox', 'radio', 'button',
        'submit', 'reset', 'range', 'color', 'file', 'image', 'hidden'].includes(e.type)));
    const focused = !e ? null : text ? [e.value, e.tagName === 'TEXTAREA', e.type === 'password']
        : e.isContentEditable ? [e.innerText, true, false] : null;
    return [document.title, focused]; }"""

#: Run in every document a phone's pages load: the caret stays shown, not blinking. Chromium blinks a focused field's
#: caret every 500 ms of its clock, which a capture catches on or off depending on how fast the machine ran;
#: ``caret-animation: manual`` (CSS Basic UI 4) keeps it on, as the phone's own fields draw it. A page can see one
#: adopted style sheet more (``document.adoptedStyleSheets``), and no name of ours.
_STEADY_CARET = """{ const sheet = new CSSStyleSheet();
    sheet.replaceSync('* { caret-animation: manual !important }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }"""


class ChromiumMissingError(AndroidGymError):
    """Chromium or Playwright is not installed."""


def storage_url(storage_root: Path) -> str:
    """The ``file:`` URL of the phone's storage (``storage_root``, the host folder of its ``/``), no slash at the
    end."""
    return storage_root.as_uri().rstrip("/")


def blocked_urls(root_url: str) -> re.Pattern[str]:
    """The addresses a phone's page may not load: all but loopback, ``data:``, ``about:`` and ``blob:``, and
    ``file:`` only inside the phone's storage (``root_url``, its ``storage_url``: a folder listing's "parent
    directory" link at the top leads out of it, to the host's files). A pattern both Python and JavaScript read alike:
    Playwright's driver matches requests against it, so only a blocked one comes to Python (to be aborted), not every
    file a page loads."""
    return re.compile(rf"^(?!{_LOCAL}|{re.escape(root_url)}(?:/|$))")


def on_area(pixels: Image.Image, width: int, height: int) -> Image.Image:
    """The page's pixels on its ``width`` x ``height`` device px area: Chromium's viewport is whole CSS px, so its
    capture can be a pixel short (its last column and row go on, as the page does under Chrome's fractional
    viewport) or over (cut) each way; drawn as is, never resampled."""
    if pixels.size == (width, height):
        return pixels
    area = pixels.crop((0, 0, width, height))  # one new picture: what lies past the capture is filled in below
    right, bottom = min(pixels.width, width), min(pixels.height, height)
    if right < width:
        area.paste(area.crop((right - 1, 0, right, bottom)).resize((width - right, bottom), Image.NEAREST), (right, 0))
    if bottom < height:
        area.paste(area.crop((0, bottom - 1, width, bottom)).resize((width, height - bottom), Image.NEAREST),
                   (0, bottom))
    return area


def _decoded(png: str) -> Image.Image:
    """The pixels of Chromium's base64 PNG ``png``, decoded on the calling thread: its pictures' memory, freed, serves
    the renderer's next ones (the browser thread's malloc arena would keep it for nothing else)."""
    image = Image.open(io.BytesIO(base64.b64decode(png)))
    image.load()
    return image if image.mode == "RGB" else image.convert("RGB")  # convert copies even an RGB picture


@dataclass
class PageState:
    """What the page shows now: its accessibility nodes, URL and title (its pixels: ``WebPage.screenshot``)."""

    nodes: list[WebNode]
    url: str
    title: str
    version: int


class _Browser:
    """The process's one Chromium and Playwright's driver (its sync API allows one per thread), shared by every
    phone: started with the first context, stopped when its last user (a phone's context or a ``keep_browser``
    hold) lets go, started again when it crashed. Used only on the browser thread."""

    def __init__(self) -> None:
        self._playwright = None
        self._browser = None
        self._users = 0

    @property
    def running(self) -> bool:
        """Whether the browser process is up."""
        return self._browser is not None and self._browser.is_connected()

    def new_context(self, scale: float, storage_root: Path):
        """A new browser context (a phone's) at device scale factor ``scale``, network blocked and files outside
        ``storage_root`` too (``blocked_urls``); starts the browser if needed. Its owner, who holds the browser
        (``hold``) while it may want another, hands it back with ``close_context``."""
        if shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
            raise ChromiumMissingError(f"{CHROMIUM} not found: {INSTALL_HINT}")
        if not self.running:
            self._launch()
        context = self._browser.new_context(device_scale_factor=scale, has_touch=True, is_mobile=True,
                                            viewport={"width": 412, "height": 800}, service_workers="block")
        context.add_init_script(_STEADY_CARET)
        context.route(blocked_urls(storage_url(storage_root)), lambda route: route.abort("blockedbyclient"))
        return context

    @staticmethod
    def close_context(context) -> None:
        """Close a context ``new_context`` gave (one of a crashed browser is gone already)."""
        if context.browser.is_connected():
            context.close()

    def hold(self) -> None:
        """One more user that keeps the browser, once started, running (it starts nothing)."""
        self._users += 1

    def release(self) -> None:
        """One user fewer; the last stops the browser and the driver."""
        self._users -= 1
        if self._users > 0:
            return
        self._users = 0
        browser, playwright, self._browser, self._playwright = self._browser, self._playwright, None, None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()

    def _launch(self) -> None:
        if self._playwright is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError as error:
                raise ChromiumMissingError(f"playwright is not installed: {INSTALL_HINT}") from error
            self._playwright = sync_playwright().start()
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        try:
            self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                             chromium_sandbox=not root, args=_ARGS)
        except BaseException:
            if self._users == 0:  # nobody will release it: stop the driver now
                self._users = 1
                self.release()
            raise


class _BrowserThread:
    """The one thread that talks to Playwright: Playwright's sync objects belong to the thread that made them,
    while a phone is driven from whichever thread calls it (the env's, or a served phone's adbd and gRPC threads).
    A daemon thread, so it never holds the interpreter open."""

    def __init__(self) -> None:
        self.browser = _Browser()
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._running = False  # the thread is inside a call

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the browser thread and return its result (or raise its exception). Called on the
        browser thread during another call (a phone's finalizer, which the garbage collector may run anywhere), it
        runs after that call instead, since Playwright cannot be re-entered."""
        if threading.current_thread() is self._thread:
            if self._running:  # re-entered mid-call (the garbage collector finalizing a phone): run it next
                self._queue.put((Future(), function))
                return None  # type: ignore[return-value]  (only closing re-enters; it returns nothing)
            return function()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
                self._thread.start()
        future: Future[T] = Future()
        self._queue.put((future, function))
        return future.result()

    def _serve(self) -> None:
        while True:
            future, function = self._queue.get()
            self._running = True
            try:
                future.set_result(function())
            except BaseException as error:  # handed to the caller, whatever it is
                future.set_exception(error)
            finally:
                self._running = False


_BROWSER_THREAD = _BrowserThread()


def _forget_browsers_after_fork() -> None:
    """A forked child (a ``fork`` start method's vector env worker) has no browser thread and cannot use the
    parent's driver or browser: it starts its own."""
    global _BROWSER_THREAD
    _BROWSER_THREAD = _BrowserThread()


os.register_at_fork(after_in_child=_forget_browsers_after_fork)


def _on_browser_thread(method: Callable[..., T]) -> Callable[..., T]:
    """Run the method on the browser thread."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        return _BROWSER_THREAD.call(lambda: method(*args, **kwargs))
    return wrapper


@contextlib.contextmanager
def keep_browser() -> Iterator[None]:
    """Keep the process's browser running between phones while inside: a process that makes and closes phones
    one after another (a test session, an evaluation over many tasks) starts Chromium once instead of per phone."""
    _BROWSER_THREAD.call(_BROWSER_THREAD.browser.hold)
    try:
        yield
    finally:
        _BROWSER_THREAD.call(_BROWSER_THREAD.browser.release)


class Chromium:
    """The phone's browser: its context in the process's Chromium (Chrome's profile), opened with the first page
    after the phone's start or Chrome's death (``clear``); pages' console messages go to ``logs`` as Chrome on
    Android logs them (tag ``chromium``: ``[INFO:CONSOLE(line)] "message", source: url (line)``)."""

    def __init__(self, logs: LogBuffer, storage_root: Path) -> None:
        self._logs = logs
        self._storage_root = storage_root
        self._context = None
        self._holding = False  # whether the phone holds the process's browser: from its first context to ``close``
        self._pid = os.getpid()  # the process whose browser holds the context

    @property
    def running(self) -> bool:
        """Whether the phone's browser context is open (and not closed)."""
        return self._context is not None

    @_on_browser_thread
    def page(self, scale: float) -> WebPage:
        """A new tab (a ``WebPage``), at device scale factor ``scale`` until its first ``resize``; opens the phone's
        context (and starts the browser) if needed, again after the browser crashed."""
        self._forget_the_parents()
        if self._context is not None and not self._context.browser.is_connected():
            self._clear()
        if self._context is None:
            self._context = _BROWSER_THREAD.browser.new_context(scale, self._storage_root)
            if not self._holding:  # the browser keeps running for the phone's next context
                _BROWSER_THREAD.browser.hold()
                self._holding = True
        page = self._context.new_page()
        page.on("console", self._log_console)
        tab = WebPage(page, self._context.new_cdp_session(page), self._storage_root)
        page.on("close", lambda _: tab.forget())  # however it closes: with its context, in its browser's crash
        return tab

    def _log_console(self, message) -> None:
        location = message.location or {}
        line = location.get("lineNumber", 0) + 1
        level = {"error": "ERROR", "warning": "WARNING"}.get(message.type, "INFO")
        self._logs.write(PRIORITIES[level[0]], "chromium",
                         f'[{level}:CONSOLE({line})] "{message.text}", source: {location.get("url", "")} ({line})',
                         pid=_CHROME_PID, uid=_CHROME_UID)

    def clear(self) -> None:
        """Close the phone's browser context: its pages (their timers stop, their history goes) and what it kept
        (cookies, storage, cache). The next page opens in a new one, as the phone's first did; the browser keeps
        running for it. Nothing to close (and no wait for the browser thread) when none is open."""
        self._forget_the_parents()
        if self._context is not None:
            _BROWSER_THREAD.call(self._clear)

    def close(self) -> None:
        """Close the phone's browser context and let go of the browser; the last phone's stops it (idempotent; a
        phone that showed no page has nothing to close and never waits for the browser thread)."""
        self._forget_the_parents()
        if self._holding:
            _BROWSER_THREAD.call(self._close)

    def _forget_the_parents(self) -> None:
        """In a forked child, a context opened before the fork is the parent's (in its browser, over its pipe), and
        so is the hold: the child leaves them alone and opens its own when it shows a page."""
        if self._pid != os.getpid():
            self._context, self._holding, self._pid = None, False, os.getpid()

    def _clear(self) -> None:
        context, self._context = self._context, None
        if context is not None:
            _Browser.close_context(context)

    def _close(self) -> None:
        try:
            self._clear()
        finally:
            if self._holding:
                self._holding = False
                _BROWSER_THREAD.browser.release()


def _navigate(go: Callable[[], object]) -> None:
    """Run a navigation; one that fails (a blocked address, a missing file) leaves Chromium's error page on
    screen, as in Chrome, and one to a file Chromium downloads rather than shows (audio, an archive) or to an address
    it cannot parse (an intent's ``https://a b``) leaves the page as it was; none raises."""
    try:
        go()
    except Exception as error:
        if not any(part in str(error) for part in ("net::", "Navigation", "Download is starting", "invalid URL")):
            raise


class WebPage:
    """One tab: navigation, pixels (at the device px ``resize`` set) and accessibility nodes at the viewport size,
    and touch and key input; ``storage_root`` is the host folder of the phone's ``/``, which no page it shows
    names."""

    def __init__(self, page, cdp, storage_root: Path) -> None:
        self._page = page
        self._cdp = cdp
        self._metrics: tuple[int, int, float] | None = None  # the viewport (CSS px) and scale ``resize`` set
        self._storage_root = str(storage_root).rstrip("/")
        self._storage_url = storage_url(storage_root) + "/"
        self._pid = os.getpid()
        self._state: PageState | None = None
        self._pixels: Image.Image | None = None  # the page's pixels as it is now (None: not captured since it changed)
        self._drawn: tuple[str, Image.Image] | None = None  # the last pixels captured, with their PNG
        self._title = ""  # as the page settled: a new tab's blank page has no title and no focused field
        self._focused: tuple[str, bool, bool] | None = None
        self._version = 0
        self._touch_id = 0
        self._last_touch = 0.0  # the last touch event's timestamp

    # ----- navigation -----------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The page's address."""
        return _BROWSER_THREAD.call(lambda: self._page.url)

    @property
    def closed(self) -> bool:
        """Whether the tab is gone (its browser crashed, or it is the parent's in a forked child): a new one takes
        its place."""
        return self._pid != os.getpid() or _BROWSER_THREAD.call(self._page.is_closed)

    @_on_browser_thread
    def goto(self, url: str) -> None:
        """Load ``url`` and wait for its ``load`` event (a blocked or missing page shows Chromium's error page)."""
        _navigate(lambda: self._page.goto(url, wait_until="load"))
        self._settle()

    @_on_browser_thread
    def back(self) -> bool:
        """Go back in the tab's history; ``False`` when there is nothing to go back to."""
        history = self._cdp.send("Page.getNavigationHistory")
        if history["currentIndex"] <= 0:
            return False
        _navigate(lambda: self._page.go_back(wait_until="load"))  # back to a blocked page shows its error page
        self._settle()
        return True

    @_on_browser_thread
    def resize(self, width: int, height: int, scale: float, settle: bool = True) -> None:
        """Show the page on a ``width`` x ``height`` CSS px viewport at ``scale`` device px per CSS px (the screen's
        ``devicePixelRatio``): Android resizes the page when the keyboard shows, and a screen of another density
        draws it at its own pixels. ``settle=False`` leaves the page to the navigation that follows (it loads at this
        size and settles), instead of waiting for it to lay itself out again first."""
        metrics = (width, height, scale)
        if self._metrics == metrics:
            return
        # Set on our CDP session only: Chromium lays the page out by the override a session sent last, and captures a
        # session's screenshots at that session's own (without one, at the headless window's scale 1: CSS px). So the
        # page is resized once, and Playwright's override, sent once when it made the page, is replaced by ours.
        self._cdp.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "screenWidth": width, "screenHeight": height,
            "deviceScaleFactor": scale, "mobile": True,
            "screenOrientation": {"angle": 90, "type": "landscapePrimary"} if width > height
            else {"angle": 0, "type": "portraitPrimary"}})
        self._metrics = metrics
        if settle:
            self._settle()
        else:
            self._state = self._pixels = None

    @_on_browser_thread
    def evaluate(self, expression: str):
        """Run JavaScript in the page (for the browser's own chrome, never for tasks)."""
        return self._page.evaluate(expression)


    # ----- output -----------------------------------------------------------------------------------------
    @_on_browser_thread
    def state(self) -> PageState:
        """The page's accessibility nodes, URL and title, captured once per change; an error page's URL is the
        address that failed (its history entry's, which Chrome's omnibox shows), not ``chrome-error://``."""
        if self._state is None:
            self._version += 1
            url = self._page.url
            if url.startswith("chrome-error:"):
                history = self._cdp.send("Page.getNavigationHistory")
                url = history["entries"][history["currentIndex"]]["url"]
            self._state = PageState(self._nodes(), url, self._title, self._version)
        return self._state

    def capture(self) -> Image.Image:
        """Chromium's capture of the page as it is now, at device px (a PNG from Chromium costs more than the
        accessibility tree), decoded on the calling thread (``_decoded``)."""
        return _decoded(self._png())

    @_on_browser_thread
    def _png(self) -> str:
        """Chromium's capture of the page as it is now: a PNG, base64-encoded."""
        return self._cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})["data"]

    def screenshot(self, width: int, height: int) -> Image.Image:
        """The page's pixels on its ``width`` x ``height`` device px area (``on_area``), captured once per change and
        only when something draws them (an env without pixels never asks); only they are kept, not the capture too,
        with the PNG they came from: a capture that gives the same PNG again (an input that changed nothing on
        screen) is not decoded again, and the same pixels are drawn."""
        pixels = self._pixels  # (read once: ``forget`` runs on the browser thread when the page closes)
        if pixels is None or pixels.size != (width, height):
            png, drawn = self._png(), self._drawn
            if drawn is None or drawn[0] != png or drawn[1].size != (width, height):
                drawn = self._drawn = png, on_area(_decoded(png), width, height)
            pixels = self._pixels = drawn[1]
        return pixels

    def forget(self) -> None:
        """Let go of what was kept of the page (its state and pixels, a screen's worth of bytes): called when the page
        closes (``Chromium.page``), as views of earlier frames may still hold this object."""
        self._state = self._pixels = self._drawn = None

    def focused_value(self) -> tuple[str, bool, bool] | None:
        """``(value, multiline, password)`` of the focused text field as the page settled after its last input, or
        ``None`` when none had focus."""
        return self._focused

    def _nodes(self) -> list[WebNode]:
        tree = self._cdp.send("Accessibility.getFullAXTree")["nodes"]
        snapshot = self._cdp.send("DOMSnapshot.captureSnapshot", {"computedStyles": []})
        viewport = self._cdp.send("Page.getLayoutMetrics")["cssVisualViewport"]
        return build_nodes(tree, snapshot, viewport)

    # ----- input ------------------------------------------------------------------------------------------
    @_on_browser_thread
    def touch(self, points: list[tuple[float, float]]) -> None:
        """One finger down at the first point, moved through the others, then lifted (CSS px of the screen):
        a tap when there is one point, else a drag, which scrolls the page or draws on a canvas as the page
        decides."""
        self._touch_id += 1
        # CDP takes touches in CSS px of the layout viewport: undo the page's zoom (a viewport meta's initial scale)
        viewport = self._cdp.send("Page.getLayoutMetrics")["cssVisualViewport"]
        zoom, dx, dy = viewport.get("scale", 1) or 1, viewport.get("offsetX", 0), viewport.get("offsetY", 0)
        points = [(x / zoom + dx, y / zoom + dy) for x, y in points]
        # Stamped one frame apart, the finger resting before it lifts: the page scrolls by the drag, never flung
        # by a speed that the moment each event was sent would make (as the phone's own lists scroll). The stamps
        # start near Chromium's clock, ``_GESTURE_GAP_S`` after the last gesture's end or later; only their spacing
        # counts.
        start = max(time.time(), self._last_touch + _GESTURE_GAP_S)
        stamps = [start + index * _MOVE_INTERVAL_S for index in range(len(points))]
        for index, ((x, y), stamp) in enumerate(zip(points, stamps)):
            kind = "touchStart" if index == 0 else "touchMove"
            self._cdp.send("Input.dispatchTouchEvent", {"type": kind, "timestamp": stamp,
                                                        "touchPoints": [{"x": x, "y": y, "id": self._touch_id}]})
        self._last_touch = stamps[-1] + _REST_BEFORE_LIFT_S
        self._cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "timestamp": self._last_touch,
                                                    "touchPoints": []})
        self._settle()

    @_on_browser_thread
    def insert_text(self, text: str) -> None:
        """Commit ``text`` at the caret of the focused field (as an IME does: ``input`` events, no key events)."""
        self._cdp.send("Input.insertText", {"text": text})
        self._settle()

    @_on_browser_thread
    def press(self, key: str) -> None:
        """A key press and release: ``"Enter"``, ``"Backspace"``, ``"Tab"`` …"""
        self._page.keyboard.press(key)
        self._settle()

    def _settle(self) -> None:
        """Wait for the page to load, render a frame after the input's handlers ran and finish its animations, and
        note its title and focused field (``_SETTLE``: page events, polled at each frame, never a sleep); a
        navigation that starts meanwhile (a link, a form, an error page) is waited for in its turn."""
        for _ in range(_SETTLE_TRIES):
            try:
                self._page.wait_for_load_state("load")
                self._title, self._focused = self._run(f"({_SETTLE})({json.dumps(self._storage_url)}, "
                                                       f"{json.dumps(self._storage_root)}, {_ANIMATION_TIMEOUT_MS})")
                break
            except Exception as error:  # Playwright's Error: the page navigated while we waited
                if "destroyed" not in str(error) and "navigat" not in str(error).lower():
                    raise
        self._state = self._pixels = None

    def _run(self, expression: str):
        """The value of ``expression`` in the page, a promise awaited (one CDP ``Runtime.evaluate``: Playwright's
        ``evaluate`` makes more round trips)."""
        answer = self._cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                     "returnByValue": True})
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            raise AndroidGymError(details.get("exception", {}).get("description", details["text"]))
        return answer["result"].get("value")

