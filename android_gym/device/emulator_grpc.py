"""``EmulatorGrpc``: a client of the Android emulator's gRPC services (``emulator -grpc 8554``).

It covers what android_gym needs from ``EmulatorController`` (status, screenshots, touches, keys, VM state) and
``SnapshotService`` (list, save, load, delete). The channel is plaintext, as ``-grpc PORT`` serves it, and has no
message size limit (a 1080×2400 RGB frame is 7.8 MB), as AndroidEnv sets it up. The same client drives
``android-gym sim serve --grpc-port``. Screenshots from an emulator on this machine come through memory shared
with it (``shared_frame``), not through the channel.

A real emulator stamps input events when they arrive, so a swipe is paced: the finger's positions are sent one
``MOVE_INTERVAL_MS`` apart over the swipe's duration (``sleep`` is injectable; the simulated phone needs none).
"""

from __future__ import annotations

import io
import ipaddress
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
import numpy as np
from google.protobuf import empty_pb2
from PIL import Image

from android_gym.device.discovery import grpc_token
from android_gym.device.malloc import keep_frames_in_the_heap
from android_gym.device.shared_frame import SharedFrame
from android_gym.errors import EmulatorGrpcError
from android_gym.protos import emulator_controller_pb2 as pb
from android_gym.protos import emulator_controller_pb2_grpc as pb_grpc
from android_gym.protos import snapshot_service_pb2 as snapshot_pb
from android_gym.protos import snapshot_service_pb2_grpc as snapshot_grpc

T = TypeVar("T")

#: Time between two reported positions of a swiping finger: one 60 Hz display frame.
MOVE_INTERVAL_MS = 16
_CHANNEL_OPTIONS = [("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1)]
_CHANNELS = {pb.ImageFormat.RGB888: 3, pb.ImageFormat.RGBA8888: 4}


@dataclass(frozen=True)
class EmulatorStatus:
    """What ``getStatus`` reports: whether Android finished booting, the emulator's uptime and version."""

    booted: bool
    uptime_ms: int
    version: str


def decode_image(image: pb.Image) -> np.ndarray:
    """An ``Image`` reply as ``(H, W, 3)`` uint8: RGB888 and RGBA8888 rows from the top, or a PNG file.

    The array is the caller's own (writable, like ``SimDevice``'s frames): a copy of the received bytes.
    """
    image_format = image.format.format
    if image_format == pb.ImageFormat.PNG:
        with Image.open(io.BytesIO(image.image)) as png:
            return np.asarray(png.convert("RGB"))
    width, height, channels = image.format.width, image.format.height, _CHANNELS[image_format]
    pixels = np.frombuffer(image.image, np.uint8)
    if pixels.size != width * height * channels:
        raise EmulatorGrpcError(f"the emulator sent {pixels.size} bytes for a {width}x{height} "
                                f"{pb.ImageFormat.ImgFormat.Name(image_format)} screenshot")
    return pixels.reshape(height, width, channels)[:, :, :3].copy()


def is_loopback_address(address: str) -> bool:
    """Whether a gRPC target ``host:port`` (``localhost:8554``, ``127.0.0.1:8554``, ``[::1]:8554``) is this
    machine's loopback."""
    host = address.rpartition(":")[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class EmulatorGrpc:
    """The emulator's gRPC endpoint at ``address``; each call gives up after ``timeout`` seconds.

    Calls carry ``token`` as ``authorization: Bearer <token>`` (an emulator started with ``-grpc-use-token``, or
    ``android-gym sim serve --grpc-use-token``); without one, the token the emulator serving that port published in
    its discovery file (``discovery.grpc_token``) is used, if any.
    """

    def __init__(self, address: str = "localhost:8554", timeout: float = 10.0,
                 sleep: Callable[[float], None] = time.sleep, token: str | None = None) -> None:
        keep_frames_in_the_heap()
        self.address = address
        self.timeout = timeout
        port = address.rpartition(":")[2]
        token = token or (grpc_token(int(port)) if port.isdigit() else None)
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()
        self._sleep = sleep
        self._share_frames = is_loopback_address(address)  # shared memory is for an emulator on this machine
        self._frame: SharedFrame | None = None
        self._frame_lock = threading.Lock()
        self._channel = grpc.insecure_channel(address, options=_CHANNEL_OPTIONS)
        self._controller = pb_grpc.EmulatorControllerStub(self._channel)
        self._snapshots = snapshot_grpc.SnapshotServiceStub(self._channel)

    def _call(self, method: Callable[..., T], request: object) -> T:
        """One RPC; a failure becomes an ``EmulatorGrpcError`` that says what to do."""
        try:
            return method(request, timeout=self.timeout, metadata=self._metadata)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            if code == grpc.StatusCode.UNAVAILABLE:
                port = self.address.rpartition(":")[2] or "8554"
                raise EmulatorGrpcError(f"no emulator gRPC on {self.address}: start the emulator with -grpc {port} "
                                        f"(or `android-gym sim serve --grpc-port {port}`)") from error
            if code == grpc.StatusCode.UNAUTHENTICATED:
                raise EmulatorGrpcError(f"the emulator at {self.address} wants its gRPC token: run this as the user "
                                        "who started it (its discovery file holds the token) or pass token=") from error
            if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                raise EmulatorGrpcError(f"the emulator at {self.address} did not answer within {self.timeout} s "
                                        "(pass a longer timeout for slow calls such as snapshots)") from error
            details = error.details() if isinstance(error, grpc.Call) else str(error)
            raise EmulatorGrpcError(f"the emulator at {self.address} refused the request: "
                                    f"{code.name if code else 'error'}: {details}") from error

    def status(self) -> EmulatorStatus:
        """Booted flag, uptime and version (``getStatus``)."""
        reply = self._call(self._controller.getStatus, empty_pb2.Empty())
        return EmulatorStatus(reply.booted, reply.uptime, reply.version)

    def screenshot(self, width: int = 0, height: int = 0) -> np.ndarray:
        """The screen as ``(H, W, 3)`` uint8, scaled to fit ``width``×``height`` keeping its aspect ratio when both
        are given (else the device's size).

        From an emulator on this machine the pixels come through shared memory (``SharedFrame``), once a first
        screenshot told how large a region they need; a region the emulator did not write, or refused, is given up
        and the pixels asked in the reply. A region refused though the image fits it (it lies outside the
        directories a served phone writes in, ``frame_transport.regions_allowed_in``) ends the sharing for this
        client: the next regions would be refused too; a region too small (a screen grown since) is made again."""
        request = pb.ImageFormat(format=pb.ImageFormat.RGB888, width=width, height=height)
        with self._frame_lock:  # one region: one screenshot at a time through it
            return self._screenshot(request)

    def _screenshot(self, request: pb.ImageFormat) -> np.ndarray:
        if self._frame is not None and not self._frame.owned:  # a forked child: the region is its parent's
            self._frame.close()
            self._frame = None
        refused = 0  # the size of a region the emulator refused
        if self._frame is not None:
            try:
                pixels = self._shared_screenshot(request, self._frame)
            except EmulatorGrpcError:
                pixels, refused = None, self._frame.size
            if pixels is not None:
                return pixels
            self._frame.close()
            self._frame = None
        reply = self._call(self._controller.getScreenshot, request)
        if self._share_frames and reply.image:
            if len(reply.image) <= refused:
                self._share_frames = False  # refused for where it lies, not for its size: so would any other be
            else:
                self._frame = SharedFrame(len(reply.image))
        return decode_image(reply)

    def _shared_screenshot(self, request: pb.ImageFormat, frame: SharedFrame) -> np.ndarray | None:
        """The screenshot written into ``frame``, or ``None`` if it is not there (with the reply's own pixels if it
        has them, and an end to sharing if the emulator does not share memory with us); ``EmulatorGrpcError`` if
        the emulator refused the region (``FAILED_PRECONDITION``); other failures are ``None``."""
        request.transport.CopyFrom(pb.ImageTransport(channel=pb.ImageTransport.MMAP, handle=frame.handle))
        frame.arm()
        try:
            reply = self._call(self._controller.getScreenshot, request)
        except EmulatorGrpcError as error:
            cause = error.__cause__
            if isinstance(cause, grpc.Call) and cause.code() == grpc.StatusCode.FAILED_PRECONDITION:
                raise
            return None  # the call failed (a timeout): the pixels are asked in the reply
        finally:
            request.ClearField("transport")
        if reply.image or reply.format.transport.channel != pb.ImageTransport.MMAP:
            self._share_frames = False  # an emulator without the transport sends the pixels in the reply
            return decode_image(reply) if reply.image else None
        image = reply.format
        pixels = frame.read(image.width, image.height, _CHANNELS[image.format])
        if pixels is None and frame.size >= image.width * image.height * _CHANNELS[image.format]:
            self._share_frames = False  # it wrote another file under that name (another machine's, a container's)
        return pixels

    def _touch(self, x: int, y: int, pressure: int) -> None:
        event = pb.TouchEvent(touches=[pb.Touch(x=int(x), y=int(y), identifier=0, pressure=pressure)])
        self._call(self._controller.sendTouch, event)

    def tap(self, x: int, y: int) -> None:
        """Touch and lift at pixel coordinates."""
        self._touch(x, y, 1)
        self._touch(x, y, 0)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Put a finger down at ``(x1, y1)``, move it to ``(x2, y2)`` one position every ``MOVE_INTERVAL_MS`` over
        ``duration_ms``, and lift it."""
        steps = max(1, round(duration_ms / MOVE_INTERVAL_MS))
        self._touch(x1, y1, 1)
        for step in range(1, steps + 1):
            self._sleep(duration_ms / steps / 1000)
            self._touch(round(x1 + (x2 - x1) * step / steps), round(y1 + (y2 - y1) * step / steps), 1)
        self._touch(x2, y2, 0)

    def send_key(self, key: str) -> None:
        """Press and release a key by its W3C name: "GoBack", "GoHome", "AppSwitch", "Power", "Enter", "a", ..."""
        self._call(self._controller.sendKey, pb.KeyboardEvent(key=key, eventType=pb.KeyboardEvent.keypress))

    def set_vm_state(self, state: str) -> None:
        """Move the VM to ``state``: "RUNNING", "PAUSED", "RESET", "SHUTDOWN" or "TERMINATE"."""
        names = pb.VmRunState.RunState.keys()
        if state not in names:
            raise EmulatorGrpcError(f"unknown VM state {state!r}: use one of {', '.join(names)}")
        self._call(self._controller.setVmState, pb.VmRunState(state=pb.VmRunState.RunState.Value(state)))

    def list_snapshots(self) -> list[str]:
        """Names of the snapshots the emulator has for this AVD."""
        request = snapshot_pb.SnapshotFilter(statusFilter=snapshot_pb.SnapshotFilter.All)
        return [details.snapshot_id for details in self._call(self._snapshots.ListSnapshots, request).snapshots]

    def _snapshot(self, method: Callable[..., snapshot_pb.SnapshotPackage], verb: str, name: str) -> None:
        reply = self._call(method, snapshot_pb.SnapshotPackage(snapshot_id=name))
        if not reply.success:
            raise EmulatorGrpcError(f"the emulator at {self.address} could not {verb} snapshot {name!r}: "
                                    f"{reply.err.decode(errors='replace') or 'no reason given'}")

    def save_snapshot(self, name: str) -> None:
        """Save the device's state as snapshot ``name`` (replacing one of that name)."""
        self._snapshot(self._snapshots.SaveSnapshot, "save", name)

    def load_snapshot(self, name: str) -> None:
        """Restore the device to snapshot ``name``."""
        self._snapshot(self._snapshots.LoadSnapshot, "load", name)

    def delete_snapshot(self, name: str) -> None:
        """Delete snapshot ``name``."""
        self._snapshot(self._snapshots.DeleteSnapshot, "delete", name)

    def close(self) -> None:
        """Close the channel and remove the shared screenshot region. Idempotent."""
        self._channel.close()
        with self._frame_lock:
            if self._frame is not None:
                self._frame.close()
                self._frame = None

    def __enter__(self) -> EmulatorGrpc:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
