"""A real headless Chromium behind the phone's browser: one browser process per phone, driven over DevTools.

Web pages are the one thing the simulated phone does not re-implement. ``Chromium`` starts Debian's
``/usr/bin/chromium`` the first time a page is shown (``WebPage``) and stops it with the phone. It is driven by
Playwright's synchronous API (``launch(executable_path=...)``; a well-kept client that owns the browser process,
its pipes and its shutdown, and hands out raw CDP sessions), with raw CDP for what a phone needs: touch input
(``Input.dispatchTouchEvent``), the accessibility tree (``Accessibility.getFullAXTree``) and layout bounds and
click listeners (``DOMSnapshot.captureSnapshot``).

Isolation: headless, no GPU, a fresh profile per phone in the phone's temporary directory, no network beyond
loopback, ``file:``, ``data:`` and ``about:`` (every other request is aborted, and the host resolver maps every
other name to nothing). Chromium's own sandbox needs unprivileged user namespaces or a setuid helper; as root it
refuses to start with it, so the sandbox is on for other users and off (``--no-sandbox``) for root.

Time: pages run on Chromium's real clock (the phone's virtual clock does not reach them); after every input the
bridge waits for two animation frames (a rendered frame after the event's handlers ran), never for wall time.
"""

from __future__ import annotations

import base64
import functools
import io
import os
import queue
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlparse

from PIL import Image

from android_gym.errors import AndroidGymError
from android_gym.sim.system.logd import PRIORITIES, LogBuffer
from android_gym.sim.system.web_accessibility import WebNode, build_nodes

#: Where Debian's ``chromium`` package puts the browser.
CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = ("the phone's browser needs Chromium and Playwright: apt-get install -y chromium && "
                "pip install 'android-gym[web]'")
_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"]
T = TypeVar("T")
_CHROME_PID, _CHROME_UID = 4711, 10120  # the browser process in logcat (an app uid)
_LOCAL_SCHEMES = {"file", "data", "about", "blob"}
_LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
_SETTLE_TRIES = 5
#: Finite CSS animations and transitions and jQuery animations (MiniWoB's accordions, dialogs) have finished.
_ANIMATIONS_DONE = """() => document.getAnimations().every(a => a.playState !== 'running'
    || a.effect.getComputedTiming().endTime === Infinity) && !(window.jQuery && jQuery(':animated').length)"""
_ANIMATION_TIMEOUT_MS = 5000
_NEXT_FRAME = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


class ChromiumMissingError(AndroidGymError):
    """Chromium or Playwright is not installed."""


def allowed_url(url: str) -> bool:
    """Whether the page may load ``url``: local schemes and loopback only."""
    parsed = urlparse(url)
    return parsed.scheme in _LOCAL_SCHEMES or (parsed.hostname or "") in _LOOPBACK


@dataclass
class PageState:
    """What the page shows now: its accessibility nodes, URL and title (its pixels: ``WebPage.screenshot``)."""

    nodes: list[WebNode]
    url: str
    title: str
    version: int


class _Driver:
    """Playwright's driver, shared by every phone of the process (its sync API allows one per thread): started
    with the first browser, stopped with the last. Used only on the browser thread."""

    def __init__(self) -> None:
        self._playwright = None
        self._users = 0

    def acquire(self):
        """The running driver, started if needed."""
        if self._playwright is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError as error:
                raise ChromiumMissingError(f"playwright is not installed: {INSTALL_HINT}") from error
            self._playwright = sync_playwright().start()
        self._users += 1
        return self._playwright

    def release(self) -> None:
        """One browser fewer; the last stops the driver."""
        self._users -= 1
        if self._users <= 0 and self._playwright is not None:
            playwright, self._playwright, self._users = self._playwright, None, 0
            playwright.stop()


class _BrowserThread:
    """The one thread that talks to Playwright: Playwright's sync objects belong to the thread that made them,
    while a phone is driven from whichever thread calls it (the env's, or a served phone's adbd and gRPC threads).
    A daemon thread, so it never holds the interpreter open."""

    def __init__(self) -> None:
        self.driver = _Driver()
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
    """A forked child has no browser thread and cannot use the parent's driver: it starts afresh."""
    global _BROWSER_THREAD
    _BROWSER_THREAD = _BrowserThread()


os.register_at_fork(after_in_child=_forget_browsers_after_fork)


def _on_browser_thread(method: Callable[..., T]) -> Callable[..., T]:
    """Run the method on the browser thread."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        return _BROWSER_THREAD.call(lambda: method(*args, **kwargs))
    return wrapper


class Chromium:
    """The phone's browser process, started on first use; pages' console messages go to ``logs`` as Chrome on
    Android logs them (tag ``chromium``: ``[INFO:CONSOLE(line)] "message", source: url (line)``)."""

    def __init__(self, profile_dir: str, logs: LogBuffer) -> None:
        self._profile_dir = profile_dir
        self._logs = logs
        self._context = None
        self._tabs = 0

    @property
    def running(self) -> bool:
        """Whether the browser process has been started (and not closed)."""
        return self._context is not None

    def _start(self, scale: float) -> None:
        if shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
            raise ChromiumMissingError(f"{CHROMIUM} not found: {INSTALL_HINT}")
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        self._context = _BROWSER_THREAD.driver.acquire().chromium.launch_persistent_context(
            self._profile_dir, executable_path=CHROMIUM, headless=True, chromium_sandbox=not root,
            args=_ARGS, device_scale_factor=scale, has_touch=True, is_mobile=True,
            viewport={"width": 412, "height": 800}, service_workers="block")
        self._context.route("**/*", lambda route: route.continue_() if allowed_url(route.request.url)
                            else route.abort("blockedbyclient"))

    @_on_browser_thread
    def page(self, scale: float) -> WebPage:
        """A new tab (a ``WebPage``) at device scale factor ``scale``; starts the browser if needed."""
        if self._context is None:
            self._start(scale)
        pages = self._context.pages
        page = pages[0] if pages and not self._tabs else self._context.new_page()  # the profile opens one tab
        self._tabs += 1
        page.on("console", self._log_console)
        return WebPage(page, self._context.new_cdp_session(page))

    def _log_console(self, message) -> None:
        location = message.location or {}
        line = location.get("lineNumber", 0) + 1
        level = {"error": "ERROR", "warning": "WARNING"}.get(message.type, "INFO")
        self._logs.write(PRIORITIES[level[0]], "chromium",
                         f'[{level}:CONSOLE({line})] "{message.text}", source: {location.get("url", "")} ({line})',
                         pid=_CHROME_PID, uid=_CHROME_UID)

    @_on_browser_thread
    def close(self) -> None:
        """Stop the browser process (idempotent)."""
        context, self._context = self._context, None
        if context is not None:
            try:
                context.close()
            finally:
                _BROWSER_THREAD.driver.release()


def _navigate(go: Callable[[], object]) -> None:
    """Run a navigation; one that fails (a blocked address, a missing file) leaves Chromium's error page on
    screen, as in Chrome, and one to a file Chromium downloads rather than shows (audio, an archive) leaves the
    page as it was; neither raises."""
    try:
        go()
    except Exception as error:
        if not any(part in str(error) for part in ("net::", "Navigation", "Download is starting")):
            raise


class WebPage:
    """One tab: navigation, pixels and accessibility nodes at the viewport size, and touch and key input."""

    def __init__(self, page, cdp) -> None:
        self._page = page
        self._cdp = cdp
        self._state: PageState | None = None
        self._pixels: Image.Image | None = None
        self._version = 0
        self._touch_id = 0

    # ----- navigation -----------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The page's address."""
        return _BROWSER_THREAD.call(lambda: self._page.url)

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
    def resize(self, width: int, height: int) -> None:
        """Set the viewport to ``width`` x ``height`` CSS px (Android resizes the page when the keyboard shows)."""
        size = self._page.viewport_size
        if size is None or (size["width"], size["height"]) != (width, height):
            self._page.set_viewport_size({"width": width, "height": height})
            self._settle()

    @_on_browser_thread
    def evaluate(self, expression: str):
        """Run JavaScript in the page (for the browser's own chrome, never for tasks)."""
        return self._page.evaluate(expression)


    # ----- output -----------------------------------------------------------------------------------------
    @_on_browser_thread
    def state(self) -> PageState:
        """The page's accessibility nodes, URL and title, captured once per change."""
        if self._state is None:
            self._version += 1
            self._state = PageState(self._nodes(), self._page.url, self._page.title(), self._version)
        return self._state

    @_on_browser_thread
    def screenshot(self) -> Image.Image:
        """The page's pixels, captured once per change and only when something draws them (a PNG from Chromium
        costs more than the accessibility tree: an env without pixels never asks)."""
        if self._pixels is None:
            shot = self._cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            image = Image.open(io.BytesIO(base64.b64decode(shot["data"])))
            image.load()
            self._pixels = image.convert("RGB")
        return self._pixels

    @_on_browser_thread
    def focused_value(self) -> tuple[str, bool, bool] | None:
        """``(value, multiline, password)`` of the focused text field, or ``None`` when none has focus."""
        return self._page.evaluate(
            """() => { const e = document.activeElement; if (!e) return null;
                 const text = e.tagName === 'TEXTAREA' || (e.tagName === 'INPUT' && !['checkbox','radio','button',
                   'submit','reset','range','color','file','image','hidden'].includes(e.type));
                 if (text) return [e.value, e.tagName === 'TEXTAREA', e.type === 'password'];
                 if (e.isContentEditable) return [e.innerText, true, false];
                 return null; }""")

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
        for index, (x, y) in enumerate(points):
            kind = "touchStart" if index == 0 else "touchMove"
            self._cdp.send("Input.dispatchTouchEvent",
                           {"type": kind, "touchPoints": [{"x": x, "y": y, "id": self._touch_id}]})
        self._cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
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
        """Wait for the page to load, render a frame after the input's handlers ran and finish its animations
        (page events, polled at each frame, never a sleep); a navigation that starts meanwhile (a link, a form, an
        error page) is waited for in its turn."""
        for _ in range(_SETTLE_TRIES):
            try:
                self._page.wait_for_load_state("load")
                self._page.evaluate(_NEXT_FRAME)
                self._page.wait_for_function(_ANIMATIONS_DONE, polling="raf", timeout=_ANIMATION_TIMEOUT_MS)
                break
            except Exception as error:  # Playwright's Error: the page navigated while we waited, or an animation
                if type(error).__name__ == "TimeoutError":  # never ends: the page is as settled as it gets
                    break
                if "destroyed" not in str(error) and "navigat" not in str(error).lower():
                    raise
        self._state = self._pixels = None
