"""``SimGrpcServer``: the Android emulator's gRPC services for a simulated phone.

It serves ``android.emulation.control.EmulatorController`` (getStatus, getScreenshot, sendTouch, sendKey,
setVmState, getVmState) and ``SnapshotService`` (ListSnapshots, LoadSnapshot, SaveSnapshot, DeleteSnapshot) with
the emulator's own message formats (``android_gym/protos``), so a client written for ``emulator -grpc 8554`` works
unchanged. Every phone access goes through the ``PhoneHost`` lock it shares with adbd and the console.

Where the phone is simpler than an emulator:

* Touches become the phone's taps and swipes when a finger lifts (``TouchGestures``). The phone has no wall
  clock, so how long a finger stayed down is unknown: a long press cannot be told from a tap (clients keep long
  presses on ``adb shell input``), and a swipe lasts one nominal frame per reported position.
* Keys act on key down (``keydown``/``keypress``); ``keyup`` is accepted and does nothing. Names the phone does
  not know are refused with ``INVALID_ARGUMENT`` where an emulator would drop them silently.
* While the VM is ``PAUSED``, touches and keys wait and reach the phone on ``RUNNING``, as a paused guest reads
  its input queue when it resumes. ``RESET`` boots a fresh phone of the same size; ``SHUTDOWN`` and
  ``TERMINATE`` stop the server (and, through ``on_shutdown``, whatever else serves the phone).
* Snapshots are whole-phone copies (``snapshot``); loading one shows the home screen.
* A screenshot asked with the ``MMAP`` image transport is written into the client's region (``frame_transport``)
  only for a client on this machine, and only into a region the client made; others get the image in the reply.

With a ``token`` (the emulator's ``-grpc-use-token``), every call must carry ``authorization: Bearer <token>``;
others get ``UNAUTHENTICATED``, as the emulator answers them.
"""

from __future__ import annotations

import hmac
import io
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import grpc
import numpy as np
from google.protobuf import empty_pb2
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from PIL import Image

from android_gym import __version__
from android_gym.device.emulator_grpc import is_loopback_address
from android_gym.errors import ServerError, SnapshotError
from android_gym.protos import emulator_controller_pb2 as pb
from android_gym.protos import emulator_controller_pb2_grpc as pb_grpc
from android_gym.protos import snapshot_pb2, snapshot_service_pb2, snapshot_service_pb2_grpc
from android_gym.sim import keycodes
from android_gym.sim.frame_transport import RegionError, SharedFrames
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import Phone
from android_gym.sim.snapshot import SnapshotStore
from android_gym.tempdirs import OwnedDir

#: ``ViewConfiguration.TOUCH_SLOP`` in dp (AOSP frameworks/base/core/java/android/view/ViewConfiguration.java).
TOUCH_SLOP_DP = 8
#: Device time between two reported positions of a moving finger: one 60 Hz display frame.
FRAME_MS = 16
#: The hardware a status reports: a Pixel 6 AVD (hardware-qemu.ini keys) on 4 KVM cores with 2 GB.
CPU_CORES = 4
RAM_MB = 2048
#: W3C ``KeyboardEvent.key`` values → Android key names (``keycodes``); the emulator's own list names "GoBack",
#: "GoHome", "AppSwitch" and "Power" (emulator_controller.proto), the rest follow the W3C key values and AOSP
#: ``Generic.kl``. A single printable ASCII character types itself.
W3C_KEYS = {
    "GoBack": "BACK", "GoHome": "HOME", "AppSwitch": "APP_SWITCH", "Power": "POWER", "Enter": "ENTER",
    "Backspace": "DEL", "Delete": "FORWARD_DEL", "Tab": "TAB", "Escape": "ESCAPE", "ArrowUp": "DPAD_UP",
    "ArrowDown": "DPAD_DOWN", "ArrowLeft": "DPAD_LEFT", "ArrowRight": "DPAD_RIGHT", "Home": "MOVE_HOME",
    "End": "MOVE_END", "PageUp": "PAGE_UP", "PageDown": "PAGE_DOWN", "AudioVolumeUp": "VOLUME_UP",
    "AudioVolumeDown": "VOLUME_DOWN", "Camera": "CAMERA", "Call": "CALL", "EndCall": "ENDCALL",
    "ContextMenu": "MENU", "MediaPlayPause": "MEDIA_PLAY_PAUSE", "MediaStop": "MEDIA_STOP", "Shift": "SHIFT_LEFT",
    "Control": "CTRL_LEFT", "Alt": "ALT_LEFT",
}
_MESSAGE_SIZE = [("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1)]

Input = Callable[[Phone], None]


def fit_size(width: int, height: int, wanted_width: int, wanted_height: int) -> tuple[int, int]:
    """The emulator's screenshot size for a request: the device size if either wanted side is 0, else the
    largest size with the device's aspect ratio inside the wanted box, which never grows past the device's size
    (the emulator scales down only; ``ScreenshotUtils::resizeKeepAspectRatio``, sizes truncated). A side may come
    out 0 for a box too thin for the aspect ratio."""
    if wanted_width == 0 or wanted_height == 0:
        return width, height
    wanted_width, wanted_height = min(wanted_width, width), min(wanted_height, height)
    aspect = width / height
    if wanted_width / wanted_height > aspect:
        return int(wanted_height * aspect), wanted_height
    return wanted_width, int(wanted_width / aspect)


def encode_frame(frame: np.ndarray, image_format: int) -> bytes | memoryview:
    """An ``(H, W, 3)`` frame as ``Image.image`` bytes: rows from the top, 3 or 4 bytes a pixel, or a PNG file.
    RGB888 is the frame's own memory (the reply is written from it without a copy of its own)."""
    if image_format == pb.ImageFormat.RGB888:
        return memoryview(np.ascontiguousarray(frame)).cast("B")
    if image_format == pb.ImageFormat.RGBA8888:
        return Image.fromarray(frame).tobytes("raw", "RGBX")
    buffer = io.BytesIO()
    Image.fromarray(frame).save(buffer, "PNG")
    return buffer.getvalue()


def is_local_peer(peer: str) -> bool:
    """Whether a gRPC peer (``context.peer()``: ``ipv4:127.0.0.1:50000``, ``ipv6:[::1]:50000``, ``unix:...``) is on
    this machine, where it can share memory with the server."""
    kind, _, address = peer.partition(":")
    return kind == "unix" or is_loopback_address(address)


def enum_name(enum: EnumTypeWrapper, value: int) -> str:
    """The name of ``value`` in a protobuf ``enum``, or the number itself for a value the enum does not define
    (proto3 keeps unknown enum values)."""
    try:
        return enum.Name(value)
    except ValueError:
        return str(value)


def density(phone: Phone) -> int:
    """The screen density in dpi (``ro.sf.lcd_density``, ``hw.lcd.density``)."""
    return phone.window.density


def key_input(event: pb.KeyboardEvent) -> Input | None:
    """What a keyboard event does to the phone (``None`` for a key up); ``ValueError`` for one it cannot do.

    A key is named by ``key`` (a W3C name, or one printable ASCII character that types itself), or by ``keyCode``
    in the ``codeType``'s numbering: ``Evdev`` (Linux input codes) and ``XKB`` (evdev + 8, what AndroidEnv sends
    from Linux hosts), mapped as the emulator's key layout does (``keycodes.EVDEV_KEYS``)."""
    if event.text:
        return lambda phone: phone.input_text(event.text)
    if not event.key and event.codeType not in (pb.KeyboardEvent.Evdev, pb.KeyboardEvent.XKB):
        kind = enum_name(pb.KeyboardEvent.KeyCodeType, event.codeType)
        raise ValueError(f"{kind} key codes are not supported by the simulated phone: name the key in `key` (a W3C "
                         "key name such as \"GoBack\") or send Evdev or XKB key codes")
    if event.eventType == pb.KeyboardEvent.keyup:
        return None
    if event.key:
        if len(event.key) == 1 and " " <= event.key <= "~":
            return lambda phone: phone.input_text(event.key)
        name = W3C_KEYS.get(event.key)
        if name is None:
            raise ValueError(f"unknown key {event.key!r}: use a W3C key name ({', '.join(W3C_KEYS)}) or one "
                             "printable ASCII character")
    else:
        evdev = event.keyCode - (8 if event.codeType == pb.KeyboardEvent.XKB else 0)
        name = keycodes.EVDEV_KEYS.get(evdev)
        if name is None:
            kind = pb.KeyboardEvent.KeyCodeType.Name(event.codeType)
            raise ValueError(f"{kind} key code {event.keyCode} has no Android key on the simulated phone")
    code = keycodes.KEYCODES[name]
    return lambda phone: phone.key(code)


@dataclass(frozen=True)
class ImageReply:
    """A ``getScreenshot`` reply whose pixels are written straight after the rest of the ``Image`` message
    (``_ImageSerializer``): a frame is 10 MB, and copying it into a message and out again costs more than the rest
    of a step."""

    message: pb.Image
    pixels: bytes | memoryview


class _ImageSerializer:
    """Writes ``Image`` replies; an ``ImageReply`` as its message followed by field 4 (``image``), as protobuf
    readers take fields in any order. The last reply is kept: the same pixels with the same message (a screen
    looked at again before anything moved the clock) are sent without a new 10 MB copy."""

    def __init__(self) -> None:
        self._last: tuple[bytes | memoryview, bytes, bytes] | None = None  # pixels, message, wire bytes

    def __call__(self, reply: pb.Image | ImageReply) -> bytes:
        if isinstance(reply, pb.Image):
            return reply.SerializeToString()
        message = reply.message.SerializeToString()
        last = self._last
        if last is not None and last[0] is reply.pixels and last[1] == message:
            return last[2]
        size, varint = len(reply.pixels), bytearray()
        while True:
            varint.append((size & 0x7F) | (0x80 if size > 0x7F else 0))
            size >>= 7
            if not size:
                break
        wire = b"".join((message, b"\x22", varint, reply.pixels))  # tag of field 4, length-delimited
        self._last = (reply.pixels, message, wire)
        return wire


def _message_class(descriptor) -> type:
    return empty_pb2.Empty if descriptor.full_name == "google.protobuf.Empty" else getattr(pb, descriptor.name)


class _BearerToken(grpc.ServerInterceptor):
    """Refuses every call whose ``authorization`` metadata is not ``Bearer <token>``."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

        def refuse(_request: object, context: grpc.ServicerContext) -> None:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong authorization token")

        self._refusal = grpc.unary_unary_rpc_method_handler(refuse)

    def intercept_service(self, continuation: Callable, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        given = dict(details.invocation_metadata or ()).get("authorization", "")
        if hmac.compare_digest(str(given).encode(), self._expected):
            return continuation(details)
        return self._refusal


def _controller_handler(controller: pb_grpc.EmulatorControllerServicer) -> grpc.GenericRpcHandler:
    """``EmulatorController`` as ``add_EmulatorControllerServicer_to_server`` registers it, except that
    ``getScreenshot`` replies are written by an ``_ImageSerializer``."""
    write_image = _ImageSerializer()
    service = pb.DESCRIPTOR.services_by_name["EmulatorController"]
    handlers = {}
    for method in service.methods:
        response = _message_class(method.output_type)
        handlers[method.name] = grpc.unary_unary_rpc_method_handler(
            getattr(controller, method.name), request_deserializer=_message_class(method.input_type).FromString,
            response_serializer=write_image if method.name == "getScreenshot" else response.SerializeToString)
    return grpc.method_handlers_generic_handler(service.full_name, handlers)


@dataclass
class _Finger:
    """A finger on the screen: where it went down, where it is, and how many positions it reported since."""

    start: tuple[int, int]
    position: tuple[int, int]
    moves: int = 0


class TouchGestures:
    """Turns the emulator's touch contacts into the phone's gestures, finger by finger (``identifier``).

    A contact with pressure > 0 puts a finger down or moves it; pressure 0 lifts it at the contact's position
    (the emulator reports the position before the lift). A finger that stayed within the touch slop of where it
    went down taps there; one that went further swipes from there to where it lifted, taking one ``FRAME_MS``
    per position it reported after going down. Fingers are on one phone's screen: when another phone is served
    (``PhoneHost.replace``), those down on the previous one are gone.
    """

    def __init__(self) -> None:
        self._fingers: dict[int, _Finger] = {}
        self._screen: weakref.ref[Phone] | None = None  # the phone the fingers are on

    def feed(self, phone: Phone, touch: pb.Touch) -> None:
        """Apply one contact."""
        if self._screen is None or self._screen() is not phone:
            self._fingers.clear()
            self._screen = weakref.ref(phone)
        position = (touch.x, touch.y)
        finger = self._fingers.get(touch.identifier)
        if touch.pressure > 0:
            if finger is None:
                self._fingers[touch.identifier] = _Finger(position, position)
            elif position != finger.position:
                finger.position, finger.moves = position, finger.moves + 1
            return
        if finger is None:
            return
        del self._fingers[touch.identifier]
        moves = finger.moves + (position != finger.position)
        (x1, y1), (x2, y2) = finger.start, position
        if (x2 - x1) ** 2 + (y2 - y1) ** 2 <= (TOUCH_SLOP_DP * density(phone) / 160) ** 2:
            phone.tap(x1, y1)
        else:
            phone.swipe(x1, y1, x2, y2, moves * FRAME_MS)


class SimGrpcServer:
    """The emulator's gRPC services for the phone behind ``host``, on ``bind:port`` (0 picks a free port).

    Snapshots live in ``snapshot_dir`` (default: a temporary directory removed by ``stop``). ``SHUTDOWN`` calls
    ``on_shutdown`` (default: this server's ``stop``) from a thread of its own.
    """

    def __init__(self, host: PhoneHost, port: int = 0, bind: str = "127.0.0.1", snapshot_dir: Path | None = None,
                 on_shutdown: Callable[[], None] | None = None, token: str | None = None) -> None:
        self.host = host
        self.token = token
        self.port = port
        self.bind = bind
        self._own_snapshot_dir = OwnedDir("android-gym-snapshots-") if snapshot_dir is None else None
        self.snapshots = SnapshotStore(snapshot_dir if self._own_snapshot_dir is None else self._own_snapshot_dir.path)
        self._on_shutdown = on_shutdown or self.stop
        self.gestures = TouchGestures()
        self.state = pb.VmRunState.RUNNING
        self._queued: list[Input] = []
        self._boot = host.locked(lambda: self._boot_of(host.phone))
        self.shared_frames = SharedFrames()
        self._server: grpc.Server | None = None
        self._stopped = threading.Event()

    # ----- lifecycle ---------------------------------------------------------------------------------------
    def start(self) -> SimGrpcServer:
        """Listen and serve from a thread pool; ``port`` is the bound port afterwards."""
        # No SO_REUSEPORT (gRPC's default on Linux): a port another server holds is an error, not a shared port.
        server = grpc.server(ThreadPoolExecutor(max_workers=4, thread_name_prefix="sim-grpc"),
                             options=[*_MESSAGE_SIZE, ("grpc.so_reuseport", 0)],
                             interceptors=[_BearerToken(self.token)] if self.token else None)
        server.add_generic_rpc_handlers((_controller_handler(_Controller(self)),))
        snapshot_service_pb2_grpc.add_SnapshotServiceServicer_to_server(_Snapshots(self), server)
        address = f"[{self.bind}]:{self.port}" if ":" in self.bind else f"{self.bind}:{self.port}"  # IPv6 in brackets
        try:
            self.port = server.add_insecure_port(address)
        except RuntimeError as error:
            self.stop()
            raise ServerError(f"cannot serve gRPC on {address} ({error}); pick a free port with --grpc-port") from error
        server.start()
        self._server = server
        return self

    def stop(self) -> None:
        """Stop serving (in-flight calls get a second to finish) and drop an owned snapshot directory. Idempotent."""
        if self._server is not None:
            self._server.stop(grace=1.0).wait()
        if self._own_snapshot_dir is not None:
            self._own_snapshot_dir.remove()
        self.shared_frames.close()
        self._stopped.set()

    def wait_stopped(self, timeout: float | None = None) -> bool:
        """Block until ``stop`` has run (e.g. after a ``SHUTDOWN``); whether it did within ``timeout`` seconds."""
        return self._stopped.wait(timeout)

    def __enter__(self) -> SimGrpcServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ----- VM and phone state ------------------------------------------------------------------------------
    @staticmethod
    def _boot_of(phone: Phone) -> tuple[weakref.ref[Phone], int]:
        return weakref.ref(phone), phone.clock.now_ms()

    def uptime_ms(self) -> int:
        """Device time since this server first saw the phone (its boot, for a phone served from the start); called
        holding the phone lock."""
        phone = self.host.phone
        if self._boot[0]() is not phone:
            self._boot = self._boot_of(phone)
        return max(0, phone.clock.now_ms() - self._boot[1])

    def deliver(self, action: Input) -> None:
        """Apply input to the phone now, or queue it while the VM is paused; called holding the phone lock."""
        if self.state == pb.VmRunState.PAUSED:
            self._queued.append(action)
        else:
            action(self.host.phone)

    def resume(self) -> None:
        """RUNNING: deliver the input queued while paused; called holding the phone lock."""
        self.state = pb.VmRunState.RUNNING
        queued, self._queued = self._queued, []
        for action in queued:
            action(self.host.phone)

    def reset(self, phone: Phone | None = None) -> None:
        """Serve ``phone`` (default: a freshly booted one of the same size and animation setting) in place of the
        current one, which is shut down, as a VM that is reset: running, the input queued while it was paused
        dropped."""
        if phone is None:
            size, animations = self.host.locked(lambda: (self.host.phone.screen_size,
                                                         self.host.phone.window.animations))
            phone = Phone(*size, animations=animations)
        self.host.replace(phone).close()
        self.host.locked(self._after_reset)

    def _after_reset(self) -> None:
        self._queued.clear()  # the fingers, on the phone replaced, are gone with it
        self.state = pb.VmRunState.RUNNING
        self.snapshots.loaded = None
        self._boot = self._boot_of(self.host.phone)

    def shutdown(self) -> None:
        """SHUTDOWN: stop serving once the current call has answered."""
        threading.Thread(target=self._on_shutdown, name="sim-grpc-shutdown", daemon=True).start()


class _Controller(pb_grpc.EmulatorControllerServicer):
    """``EmulatorController`` on a ``SimGrpcServer``."""

    def __init__(self, server: SimGrpcServer) -> None:
        self._server = server
        self._host = server.host

    def getStatus(self, request: empty_pb2.Empty, context: grpc.ServicerContext) -> pb.EmulatorStatus:
        return self._host.locked(self._status)

    def _status(self) -> pb.EmulatorStatus:
        phone = self._host.phone
        width, height = phone.screen_size
        hardware = {"avd.name": self._host.avd_name, "hw.cpu.arch": "x86_64", "hw.cpu.ncore": str(CPU_CORES),
                    "hw.ramSize": str(RAM_MB), "hw.lcd.width": str(width), "hw.lcd.height": str(height),
                    "hw.lcd.density": str(density(phone))}
        return pb.EmulatorStatus(
            version=f"{__version__} (android_gym simulated phone)", uptime=self._server.uptime_ms(),
            booted=phone.props.get("sys.boot_completed") == "1",
            vmConfig=pb.VmConfiguration(hypervisorType=pb.VmConfiguration.KVM, numberOfCpuCores=CPU_CORES,
                                        ramSizeBytes=RAM_MB * 1024 * 1024),
            hardwareConfig=pb.EntryList(entry=[pb.Entry(key=key, value=value) for key, value in hardware.items()]))

    def getScreenshot(self, request: pb.ImageFormat, context: grpc.ServicerContext) -> pb.Image | ImageReply:
        if request.format not in pb.ImageFormat.ImgFormat.values():
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"unknown image format {request.format}: use PNG, "
                                                            "RGBA8888 or RGB888")
        if request.display != 0:  # the emulator answers an empty image for a display that is not there
            return pb.Image(format=pb.ImageFormat(format=request.format, display=request.display))
        width, height = self._host.locked(lambda: self._host.phone.screen_size)
        size = fit_size(width, height, request.width, request.height)
        if 0 in size:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"a {request.width}x{request.height} box holds no image of the {width}x{height} screen "
                          "with its aspect ratio: ask for a larger width and height, or 0 for the screen's size")
        if request.format == pb.ImageFormat.RGBA8888 and size == (width, height):  # AndroidEnv's request: fast path
            image, now_ms = self._host.locked(self._rgba)
        else:
            frame, now_ms = self._host.locked(self._frame)
            if size != (width, height):
                frame = np.asarray(Image.fromarray(frame).resize(size, Image.Resampling.BILINEAR))
            image = encode_frame(frame, request.format)
        # A single screenshot has sequence number 0 (emulator_controller.proto: Image.seq).
        message = pb.Image(format=pb.ImageFormat(format=request.format, width=size[0], height=size[1],
                                                 rotation=pb.Rotation(rotation=pb.Rotation.PORTRAIT)),
                           seq=0, timestampUs=now_ms * 1000)
        transport = request.transport
        if transport.channel == pb.ImageTransport.MMAP and is_local_peer(context.peer()):
            try:
                self._server.shared_frames.write(transport.handle, image)
            except RegionError as error:
                context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(error))
            message.format.transport.CopyFrom(transport)  # the image is in the region, not in the reply
            return message
        return ImageReply(message, image)

    def _frame(self) -> tuple[np.ndarray, int]:
        phone = self._host.phone
        return phone.screenshot(), phone.clock.now_ms()

    def _rgba(self) -> tuple[memoryview, int]:
        phone = self._host.phone
        return phone.screenshot_rgba(), phone.clock.now_ms()

    def sendTouch(self, request: pb.TouchEvent, context: grpc.ServicerContext) -> empty_pb2.Empty:
        touches = list(request.touches)

        def touch(phone: Phone) -> None:
            for contact in touches:
                self._server.gestures.feed(phone, contact)

        self._host.locked(self._server.deliver, touch)
        return empty_pb2.Empty()

    def sendKey(self, request: pb.KeyboardEvent, context: grpc.ServicerContext) -> empty_pb2.Empty:
        try:
            action = key_input(request)
        except ValueError as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        if action is not None:
            self._host.locked(self._server.deliver, action)
        return empty_pb2.Empty()

    def setVmState(self, request: pb.VmRunState, context: grpc.ServicerContext) -> empty_pb2.Empty:
        state = request.state
        if state == pb.VmRunState.RUNNING:
            self._host.locked(self._server.resume)
        elif state == pb.VmRunState.PAUSED:
            self._host.locked(setattr, self._server, "state", state)
        elif state == pb.VmRunState.RESET:
            self._server.reset()
        elif state in (pb.VmRunState.SHUTDOWN, pb.VmRunState.TERMINATE):
            self._server.shutdown()
        else:
            name = enum_name(pb.VmRunState.RunState, state)
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"cannot move the VM to {name}: use RUNNING, PAUSED, RESET, SHUTDOWN or TERMINATE")
        return empty_pb2.Empty()

    def getVmState(self, request: empty_pb2.Empty, context: grpc.ServicerContext) -> pb.VmRunState:
        return pb.VmRunState(state=self._server.state)


class _Snapshots(snapshot_service_pb2_grpc.SnapshotServiceServicer):
    """``SnapshotService`` on a ``SimGrpcServer``: failures answer ``success=false`` with ``err``, as the emulator's
    do."""

    def __init__(self, server: SimGrpcServer) -> None:
        self._host = server.host
        self._store = server.snapshots

    def ListSnapshots(self, request: snapshot_service_pb2.SnapshotFilter, context: grpc.ServicerContext
                      ) -> snapshot_service_pb2.SnapshotList:
        return self._host.locked(self._list)

    def _list(self) -> snapshot_service_pb2.SnapshotList:
        details = snapshot_service_pb2.SnapshotDetails
        return snapshot_service_pb2.SnapshotList(snapshots=[
            details(snapshot_id=name, size=self._store.size(name),
                    status=details.Loaded if name == self._store.loaded else details.Compatible,
                    details=snapshot_pb2.Snapshot(logical_name=name,
                                                  creation_time=self._store.saved_clock_ms(name) // 1000))
            for name in self._store.names()])

    def LoadSnapshot(self, request: snapshot_service_pb2.SnapshotPackage, context: grpc.ServicerContext
                     ) -> snapshot_service_pb2.SnapshotPackage:
        return self._run(request, lambda: self._store.load(self._host.phone, request.snapshot_id))

    def SaveSnapshot(self, request: snapshot_service_pb2.SnapshotPackage, context: grpc.ServicerContext
                     ) -> snapshot_service_pb2.SnapshotPackage:
        return self._run(request, lambda: self._store.save(self._host.phone, request.snapshot_id))

    def DeleteSnapshot(self, request: snapshot_service_pb2.SnapshotPackage, context: grpc.ServicerContext
                       ) -> snapshot_service_pb2.SnapshotPackage:
        return self._run(request, lambda: self._store.delete(request.snapshot_id))

    def _run(self, request: snapshot_service_pb2.SnapshotPackage, operation: Callable[[], None]
             ) -> snapshot_service_pb2.SnapshotPackage:
        reply = snapshot_service_pb2.SnapshotPackage(snapshot_id=request.snapshot_id, success=True)
        try:
            self._host.locked(operation)
        except (SnapshotError, OSError) as error:
            reply.success, reply.err = False, str(error).encode()
        return reply
