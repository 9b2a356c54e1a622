"""The served phone's accessibility forwarder: what AndroidEnv's ``AccessibilityForwarder`` app does on a device,
for the simulated phone behind ``android-gym sim serve``.

While the forwarder app (``apps.accessibility_forwarder``) is installed, enabled as an accessibility service,
told to log trees (``ENABLE_ACCESSIBILITY_TREE_LOGS``) and given a gRPC port (``SET_GRPC``), it sends the windows
on screen as an ``AndroidAccessibilityForest`` to that host's ``android_env.A11yService.SendForest`` every
``a11yTreePeriodMs`` (100 ms of wall-clock time, as the app's own thread sleeps), over a plaintext channel, with a
1 s deadline. ``10.0.2.2``, the emulator's alias of the host's loopback, is the host's ``127.0.0.1`` here. Each
tree is built as ``AccessibilityTreeCreator.buildForest`` builds it: windows from the bottom of the z-order up,
each window's nodes in breadth-first order with unique ids from 0 and their depth, children and actions, their
bounds the part on screen (as the uiautomator dump's). A dialog, sheet or popup, a window of its own on a device,
is the app window's content here, in place of the activity's views under it (``View.modal``). Like the app, it logs
under ``AndroidRLTask``, including the ``extra: exception [...]`` line AndroidEnv watches for when the server cannot
be reached.

Not forwarded: accessibility events (``SendEvent``); only trees.
"""

from __future__ import annotations

import threading
import zlib

import grpc

from android_gym.protos import accessibility_forwarder_pb2 as pb
from android_gym.protos import accessibility_forwarder_pb2_grpc as pb_grpc
from android_gym.sim.apps.accessibility_forwarder import HOST_ALIAS, PACKAGE, TAG, TREE_PERIOD_MS
from android_gym.sim.framework.window import ScreenWindow
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import Phone
from android_gym.sim.system.logd import PRIORITIES
from android_gym.sim.ui.hierarchy import Bounds, visible_children
from android_gym.sim.ui.views import View

#: ``withTimeout(grpcTimeoutMillis)`` around each send.
SEND_TIMEOUT_S = 1.0
_WINDOW_TYPES = {"application": pb.AndroidAccessibilityWindowInfo.TYPE_APPLICATION,
                 "input_method": pb.AndroidAccessibilityWindowInfo.TYPE_INPUT_METHOD,
                 "system": pb.AndroidAccessibilityWindowInfo.TYPE_SYSTEM}
# AccessibilityNodeInfo.ACTION_* ids.
ACTION_FOCUS, ACTION_SELECT, ACTION_CLICK, ACTION_LONG_CLICK = 1, 4, 16, 32
ACTION_ACCESSIBILITY_FOCUS, ACTION_SCROLL_FORWARD, ACTION_SCROLL_BACKWARD = 64, 4096, 8192
ACTION_SET_SELECTION, ACTION_SET_TEXT = 131072, 2097152
_I, _W = PRIORITIES["I"], PRIORITIES["W"]


def window_id(window: ScreenWindow) -> int:
    """A stable ``AccessibilityWindowInfo.getId()`` for a window."""
    return zlib.crc32(f"{window.package}/{window.title}".encode()) & 0x7FFF


def forest(windows: list[ScreenWindow]) -> pb.AndroidAccessibilityForest:
    """``AccessibilityTreeCreator.buildForest`` of ``windows`` (given top of the z-order first)."""
    return pb.AndroidAccessibilityForest(windows=[_window(window) for window in reversed(windows)])


def _rect(bounds: tuple[int, int, int, int]) -> pb.ProtoRect:
    return pb.ProtoRect(left=bounds[0], top=bounds[1], right=bounds[2], bottom=bounds[3])


def _window(window: ScreenWindow) -> pb.AndroidAccessibilityWindowInfo:
    ident = window_id(window)
    nodes = []
    queue: list[tuple[View, int, Bounds]] = [(window.root, 0, window.root.bounds)]
    next_id = 1
    for view, depth, bounds in queue:  # breadth first; a node's id was handed out when its parent listed it
        children = visible_children(view, bounds)
        child_ids = list(range(next_id, next_id + len(children)))
        next_id += len(children)
        queue += [(child, depth + 1, clipped) for child, clipped in children]
        nodes.append(_node(view, bounds, len(nodes), ident, window.package, depth, child_ids))
    return pb.AndroidAccessibilityWindowInfo(
        bounds_in_screen=_rect(window.root.bounds), display_id=0, id=ident, layer=window.layer, title=window.title,
        window_type=_WINDOW_TYPES[window.kind], is_active=window.focused, is_focused=window.focused,
        tree=pb.AndroidAccessibilityTree(nodes=nodes))


def _node(view: View, bounds: Bounds, unique_id: int, window: int, package: str, depth: int,
          child_ids: list[int]) -> pb.AndroidAccessibilityNodeInfo:
    actions = [ACTION_ACCESSIBILITY_FOCUS]
    if view.focusable and not view.focused:
        actions.append(ACTION_FOCUS)
    actions.append(ACTION_SELECT)
    if view.clickable:
        actions.append(ACTION_CLICK)
    if view.long_clickable:
        actions.append(ACTION_LONG_CLICK)
    if view.can_scroll:  # the ways a list can go from where it is (ScrollView: mScrollY < or > 0; RecyclerView)
        if view.kind != "list" or view.scroll_offset < view.scroll_max:
            actions.append(ACTION_SCROLL_FORWARD)
        if view.kind != "list" or view.scroll_offset > 0:
            actions.append(ACTION_SCROLL_BACKWARD)
    if view.editable:
        actions += [ACTION_SET_SELECTION, ACTION_SET_TEXT]
    selection = view.selection if view.editable and view.focused and view.selection else (-1, -1)
    return pb.AndroidAccessibilityNodeInfo(
        unique_id=unique_id, bounds_in_screen=_rect(bounds), class_name=view.class_name,
        content_description=view.content_desc, hint_text=view.hint if view.editable else "", package_name=package,
        text=view.text, text_selection_start=selection[0], text_selection_end=selection[1],
        view_id_resource_name=view.resource_id, window_id=window, is_checkable=view.checkable,
        is_checked=view.checked, is_clickable=view.clickable, is_editable=view.editable, is_enabled=view.enabled,
        is_focusable=view.focusable, is_focused=view.focused, is_long_clickable=view.long_clickable,
        is_password=view.password, is_scrollable=view.can_scroll, is_selected=view.selected,
        is_visible_to_user=True, actions=[pb.AndroidAccessibilityAction(id=action) for action in actions],
        child_ids=child_ids, depth=depth, drawing_order=0)


class AccessibilityForwarderService:
    """The forwarder's tree-sending thread for the phone behind ``host``; ``start`` and ``stop`` it with the
    server. Every ``period_s`` it does what the app's thread does, if the app is there to do it."""

    def __init__(self, host: PhoneHost, period_s: float = TREE_PERIOD_MS / 1000) -> None:
        self.host = host
        self.period_s = period_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._channel: grpc.Channel | None = None
        self._address = ""
        self._cached: tuple[object, pb.AndroidAccessibilityForest] | None = None

    def start(self) -> AccessibilityForwarderService:
        """Run in a daemon thread until ``stop``."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="a11y-forwarder", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the thread and close the channel. Idempotent."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._close_channel()

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            self.tick()

    def tick(self) -> None:
        """One turn of the app's loop: build the forest (phone lock held), then send it (lock released)."""
        work = self.host.locked(self._prepare)
        if work is None:
            return
        address, message = work
        try:
            response = self._stub(address).SendForest(message, timeout=SEND_TIMEOUT_S)
        except grpc.RpcError as error:
            self._close_channel()  # resetGrpcStub
            self.host.locked(self._log_failure, error)
            return
        if response.error:
            self.host.locked(self._log, _W, f"gRPC response.error: {response.error}")
        else:
            self.host.locked(self._log, _I, "gRPC request for tree succeeded.")

    def _prepare(self) -> tuple[str, pb.AndroidAccessibilityForest] | None:
        """Under the phone lock: ``logAccessibilityTree``'s checks and the forest to send, if any."""
        phone = self.host.phone
        app = phone.packages.get(PACKAGE)
        if app is None or not app.service_enabled:
            return None
        if not app.log_tree:
            self._log(_I, "Not logging accessibility tree")
            return None
        if app.grpc_port <= 0:
            self._log(_W, "Can't log accessibility tree because gRPC port has not been set.")
            return None
        host = "127.0.0.1" if app.grpc_host == HOST_ALIAS else app.grpc_host
        self._log(_I, "sending (blocking) gRPC request for tree.")
        return f"{host}:{app.grpc_port}", self._forest(phone)

    def _forest(self, phone: Phone) -> pb.AndroidAccessibilityForest:
        """The forest of the current frame, built once per frame."""
        frame = phone.window.frame()
        if self._cached is None or self._cached[0] is not frame:
            self._cached = (frame, forest(phone.window.screen_windows()))
        return self._cached[1]

    def _stub(self, address: str) -> pb_grpc.A11yServiceStub:
        if self._channel is None or address != self._address:
            self._close_channel()
            self._channel, self._address = grpc.insecure_channel(address), address
        return pb_grpc.A11yServiceStub(self._channel)

    def _close_channel(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def _log(self, priority: int, message: str) -> None:
        self.host.phone.logs.write(priority, TAG, message)

    def _log_failure(self, error: grpc.RpcError) -> None:
        """The app's ``catch`` blocks: a warning and the ``extra: exception`` line AndroidEnv parses."""
        if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            self._log(_W, "gRPC TimeoutCancellationException; are you sure networking is turned on?")
            exception = ("kotlinx.coroutines.TimeoutCancellationException: Timed out waiting for "
                         f"{round(SEND_TIMEOUT_S * 1000)} ms")
        else:
            self._log(_W, "gRPC StatusException; are you sure networking is turned on?")
            exception = f"io.grpc.StatusException: {error.code().name}: {error.details()}"
        self._log(_I, f"extra: exception ['{exception}']")
