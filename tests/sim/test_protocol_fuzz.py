"""Bounded protocol fuzzing of the served phone: malformed adb packets, console garbage, garbage gRPC payloads and
out-of-range enums. Each is answered as the real server would, or its connection is closed; the server keeps
serving, and nothing is logged as an unhandled error."""

from __future__ import annotations

import gc
import socket
import struct

import grpc
import numpy as np
import pytest
from google.protobuf import empty_pb2

from android_gym.protos import emulator_controller_pb2 as pb
from android_gym.protos import emulator_controller_pb2_grpc as pb_grpc
from android_gym.sim.adbd import A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_STLS, A_SYNC, A_VERSION, A_WRTE, Packet

COMMANDS = (A_SYNC, A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_STLS, 0, 0xFFFFFFFF)
PATH_BYTES = np.frombuffer(b"\0\xff\xc3/.,a", np.uint8)
SYNC_IDS = (b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2", b"RECV", b"QUIT", b"DATA", b"\0\0\0\0")


@pytest.fixture
def no_errors_logged(caplog):
    """Fails the test if anything (asyncio's "Task exception was never retrieved", gRPC's "Exception calling
    application") logged an error meanwhile."""
    caplog.set_level("ERROR")
    yield
    gc.collect()  # a failed asyncio task nobody awaited logs when it is collected
    assert [record.getMessage() for record in caplog.records if record.levelno >= 40] == []


def exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection, half-close it, and read whatever comes back until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def adb_echo(port: int) -> bytes:
    """``shell:echo alive`` over a fresh connection: what a working adbd answers."""
    hello = Packet(A_CNXN, A_VERSION, 1 << 20, b"host::\0").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(hello + Packet(A_OPEN, 1, 0, b"shell:echo alive\0").encode())
        received = b""
        while b"alive\n" not in received and (chunk := sock.recv(65536)):
            received += chunk
    return received


def garbage_packets(rng: np.random.Generator) -> bytes:
    """A CNXN, then packets with random commands, ids, wrong checksums and magics, lengths that lie, and payloads
    with NULs and bytes that are not UTF-8 (service names among them)."""
    packets = [Packet(A_CNXN, A_VERSION, int(rng.integers(0, 1 << 32)), b"host::\0").encode()]
    for _ in range(8):
        command = int(rng.choice(COMMANDS))
        payload = rng.bytes(int(rng.integers(0, 64)))
        if command == A_OPEN and rng.random() < 0.5:
            payload = b"shell:\xff\0echo" + payload if rng.random() < 0.5 else b"sync:" + payload
        arg0, arg1 = (int(rng.integers(0, 4)) for _ in range(2))
        length = len(payload) if rng.random() < 0.8 else int(rng.integers(0, 1 << 32))
        magic = command ^ 0xFFFFFFFF if rng.random() < 0.9 else int(rng.integers(0, 1 << 32))
        checksum = int(rng.integers(0, 1 << 32))
        packets.append(struct.pack("<6I", command, arg0, arg1, length, checksum, magic) + payload)
    return b"".join(packets)


def test_malformed_adb_packets(fresh_served_phone, no_errors_logged):
    rng = np.random.default_rng(27)
    port = fresh_served_phone.adb_port
    for _ in range(40):
        exchange(port, garbage_packets(rng))
    huge = struct.pack("<6I", A_CNXN, 0, 0, 0xFFFFFFFF, 0, A_CNXN ^ 0xFFFFFFFF)
    for data in (b"", b"\0" * 23, rng.bytes(4096), huge):
        exchange(port, data)
    assert b"alive\n" in adb_echo(port)


def sync_reply(port: int, request: bytes) -> int:
    """Send one sync request on a fresh ``sync:`` stream; the command of adbd's answer (a WRTE reply, or CLSE)."""
    hello = Packet(A_CNXN, A_VERSION, 1 << 20, b"host::\0").encode() + Packet(A_OPEN, 1, 0, b"sync:\0").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(hello + Packet(A_WRTE, 1, 1, request).encode())
        stream = sock.makefile("rb")
        while True:
            command, _, _, length, _, _ = struct.unpack("<6I", stream.read(24))
            stream.read(length)
            if command in (A_WRTE, A_CLSE):
                return command


def test_garbage_on_a_sync_stream(fresh_served_phone, no_errors_logged):
    """Sync requests with random ids and lengths, paths with NULs and bytes that are not UTF-8 (not SEND, which
    waits for its data)."""
    rng = np.random.default_rng(4)
    port = fresh_served_phone.adb_port
    for _ in range(30):
        request = SYNC_IDS[int(rng.integers(0, len(SYNC_IDS)))]
        path = b"/sdcard/" + bytes(rng.choice(PATH_BYTES, int(rng.integers(0, 16))))
        length = len(path) if rng.random() < 0.8 else int(rng.integers(1025, 1 << 32))
        assert sync_reply(port, struct.pack("<4sI", request, length) + path) in (A_WRTE, A_CLSE)
    assert b"alive\n" in adb_echo(port)


def test_console_garbage(fresh_served_phone, no_errors_logged):
    rng = np.random.default_rng(5)
    port = fresh_served_phone.console_port
    for _ in range(30):
        lines = b"\n".join(rng.bytes(int(rng.integers(0, 200))) for _ in range(3))
        exchange(port, lines + b"\n")
    for data in (b"\0" * 10000 + b"\n", b"x" * 20000, b"sms send 123 \\u", b"GET / HTTP/1.1\r\n", b"help \xff\n"):
        exchange(port, data)
    assert b"I am alive!" in exchange(port, b"ping\nquit\n")


@pytest.fixture
def grpc_channel(fresh_served_phone):
    with grpc.insecure_channel(f"127.0.0.1:{fresh_served_phone.grpc.port}",
                               options=[("grpc.max_receive_message_length", -1)]) as channel:
        yield channel


METHODS = ("getStatus", "getScreenshot", "sendTouch", "sendKey", "setVmState", "getVmState")


def test_garbage_grpc_payloads(grpc_channel, no_errors_logged):
    """A payload that is not the request message is INTERNAL (gRPC's failed deserialization) or, when it happens to
    parse, answered or refused with INVALID_ARGUMENT: never UNKNOWN, an exception in the server."""
    rng = np.random.default_rng(6)
    for method in METHODS:
        if method == "setVmState":
            continue  # a random payload may parse as RESET or SHUTDOWN
        call = grpc_channel.unary_unary(f"/android.emulation.control.EmulatorController/{method}")
        for _ in range(15):
            try:
                call(rng.bytes(int(rng.integers(0, 40))), timeout=30)
            except grpc.RpcError as error:
                assert error.code() in (grpc.StatusCode.INTERNAL, grpc.StatusCode.INVALID_ARGUMENT), error
    assert pb_grpc.EmulatorControllerStub(grpc_channel).getStatus(empty_pb2.Empty()).booted


@pytest.mark.parametrize("call", [
    lambda stub: stub.getScreenshot(pb.ImageFormat(format=99)),
    lambda stub: stub.getScreenshot(pb.ImageFormat(rotation=pb.Rotation(rotation=99), width=1 << 31, height=7)),
    lambda stub: stub.getScreenshot(pb.ImageFormat(transport=pb.ImageTransport(channel=99), display=99)),
    lambda stub: stub.sendKey(pb.KeyboardEvent(codeType=99, eventType=99, keyCode=-5)),
    lambda stub: stub.sendKey(pb.KeyboardEvent(eventType=99, key="\0")),
    lambda stub: stub.sendTouch(pb.TouchEvent(touches=[pb.Touch(x=-1 << 31, y=1 << 30, pressure=1, expiration=99)])),
    lambda stub: stub.setVmState(pb.VmRunState(state=-1)),
])
def test_out_of_range_values(grpc_channel, call, no_errors_logged):
    stub = pb_grpc.EmulatorControllerStub(grpc_channel)
    try:
        call(stub)
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error
    assert stub.getStatus(empty_pb2.Empty()).booted
