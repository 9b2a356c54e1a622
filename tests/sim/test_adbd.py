"""The simulated phone as an adb device: Debian's ``adb`` command against ``android-gym sim serve`` and the
session's served phone, and the wire protocol itself from a raw socket."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time

import adbutils
import pytest
from lxml import etree
from PIL import Image

from android_gym.device.adb import server_answers
from android_gym.sim.adb_harness import free_port, free_port_pair, served_phone_process
from android_gym.sim.adbd import (
    _STAT_V2,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    A_WRTE,
    Packet,
    ProtocolError,
    take_packet,
    wrte_payloads,
)
from android_gym.sim.server import SimServer
from android_gym.sim.system.fs import USERDATA_DEVICE, inode_of

SMS = "com.simplemobiletools.smsmessenger"


def adb(port: int, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Debian's adb command talking to the private adb server."""
    return subprocess.run(["adb", "-P", str(port), *args], input=stdin, capture_output=True, timeout=60)


def test_the_commands_a_user_runs_against_sim_serve(adb_server_port, tmp_path):
    # Ports outside the emulators' range: the other phones served meanwhile (another test process's) take the first
    # free emulator pair, maybe between this check and the server's start.
    adb_port = free_port_pair()
    serial = f"emulator-{adb_port - 1}"
    server = subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--adb-port", str(adb_port)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith(f"{serial}: adb on 127.0.0.1:{adb_port}")
        adbutils.AdbClient("127.0.0.1", adb_server_port).wait_for(serial, timeout=60)
        assert f"{serial}\tdevice" in adb(adb_server_port, "devices").stdout.decode()

        assert adb(adb_server_port, "-s", serial, "shell", "settings", "get", "global", "wifi_on").stdout == b"1\n"

        png = adb(adb_server_port, "-s", serial, "exec-out", "screencap", "-p").stdout
        assert Image.open(io.BytesIO(png)).size == (1080, 2400)

        dumped = adb(adb_server_port, "-s", serial, "shell", "uiautomator", "dump")
        assert dumped.stdout == b"UI hierchary dumped to: /sdcard/window_dump.xml\n"
        assert adb(adb_server_port, "-s", serial, "pull", "/sdcard/window_dump.xml", str(tmp_path)).returncode == 0
        assert etree.parse(str(tmp_path / "window_dump.xml")).getroot().tag == "hierarchy"

        assert adb(adb_server_port, "-s", serial, "emu", "sms", "send", "5551234", "hello").returncode == 0
        inbox = adb(adb_server_port, "-s", serial, "shell", "content", "query", "--uri", "content://sms/inbox",
                    "--projection", "address:body").stdout.decode()
        assert inbox == "Row: 0 address=5551234, body=hello\n"

        adb(adb_server_port, "-s", serial, "emu", "kill")
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
        server.wait()
        server.stdout.close()


def test_exit_codes_stdin_and_stderr_through_adb(fresh_served_phone, adb_server_port, tmp_path):
    serial = fresh_served_phone.serial
    failed = adb(adb_server_port, "-s", serial, "shell", "echo out; echo err >&2; exit 7")
    assert (failed.returncode, failed.stdout, failed.stderr) == (7, b"out\n", b"err\n")
    # Without the shell protocol (-x) or on a terminal (-t) one stream carries both, in the order they were written.
    legacy = adb(adb_server_port, "-s", serial, "shell", "-x", "echo out; ls /nowhere; echo end")
    assert (legacy.stdout, legacy.stderr) == (b"out\nls: /nowhere: No such file or directory\nend\n", b"")
    terminal = adb(adb_server_port, "-s", serial, "shell", "-t", "-t", "echo out; echo err >&2; exit 3")
    assert (terminal.returncode, terminal.stdout, terminal.stderr) == (3, b"out\r\nerr\r\n", b"")

    piped = adb(adb_server_port, "-s", serial, "shell", "cat > /sdcard/Download/in.bin", stdin=bytes(range(256)))
    assert piped.returncode == 0
    assert fresh_served_phone.phone.fs.read_bytes("/sdcard/Download/in.bin") == bytes(range(256))

    script = adb(adb_server_port, "-s", serial, "shell", stdin=b"cd /sdcard\npwd\necho $((6 * 7))\n")
    assert script.stdout == b"/sdcard\n42\n"

    assert adb(adb_server_port, "-s", serial, "root").stdout == b"adbd is already running as root\n"


def test_interactive_shell_keeps_its_directory_and_exit_code(fresh_served_phone, adb_server_port):
    session = adb(adb_server_port, "-s", fresh_served_phone.serial, "shell", "-tt",
                  stdin=b"cd /sdcard/Download\npwd\nexit 4\n")
    assert session.returncode == 4
    assert b"emu64xa:/sdcard/Download # pwd\r\n/sdcard/Download\r\n" in session.stdout


def test_push_pull_and_ls_through_adb(fresh_served_phone, adb_server_port, tmp_path):
    serial = fresh_served_phone.serial
    local = tmp_path / "notes.txt"
    local.write_bytes("naïve café\n".encode() * 10_000)
    assert adb(adb_server_port, "-s", serial, "push", str(local), "/sdcard/Documents/new/notes.txt").returncode == 0
    assert fresh_served_phone.phone.fs.read_bytes("/sdcard/Documents/new/notes.txt") == local.read_bytes()
    assert adb(adb_server_port, "-s", serial, "pull", "/sdcard/Documents/new/notes.txt",
               str(tmp_path / "back.txt")).returncode == 0
    assert (tmp_path / "back.txt").read_bytes() == local.read_bytes()
    listing = adb(adb_server_port, "-s", serial, "ls", "/sdcard/Documents/new").stdout.decode().splitlines()
    assert [line.split()[-1] for line in listing] == [".", "..", "notes.txt"]
    size = int(next(line for line in listing if line.endswith("notes.txt")).split()[1], 16)
    assert size == local.stat().st_size
    missing = adb(adb_server_port, "-s", serial, "pull", "/sdcard/nothing.txt", str(tmp_path))
    assert missing.returncode == 1
    assert b"failed to stat remote object '/sdcard/nothing.txt': No such file or directory" in missing.stdout


def test_a_restarted_adb_server_finds_the_phone_again(tmp_path):
    """After ``adb kill-server``/``start-server`` (what AndroidEnv does when an adb command fails) the phone is
    listed again: it keeps announcing itself while no adb server is connected. The servers here do not scan the
    emulator ports (``ADB_EMU=0``) and the phone is outside them, so only the announcements can bring it back."""
    server_port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "ADB_EMU": "0", "ANDROID_ADB_SERVER_PORT": str(server_port)}

    def server(command: str) -> None:
        subprocess.run(["adb", "-P", str(server_port), command], env=env, capture_output=True, timeout=60, check=True)

    server("start-server")
    try:
        with SimServer(adb_port=free_port_pair(), adb_server_port=server_port) as phone:
            client = adbutils.AdbClient("127.0.0.1", server_port)
            client.wait_for(phone.serial, timeout=30)
            server("kill-server")
            server("start-server")
            client.wait_for(phone.serial, timeout=30)
            assert client.device(phone.serial).shell("echo back") == "back"
    finally:
        server("kill-server")


def own_loopback_address() -> str:
    """An address of the loopback network (127.0.0.0/8) that no other process's servers use: this process's, from
    its pid (below 2**22). Ports other servers take and free on 127.0.0.1 meanwhile change nothing on it."""
    return str(ipaddress.IPv4Address((127 << 24) + os.getpid()))


def test_sim_serve_takes_the_first_free_emulator_port_pair(adb_server_port):
    """Like the emulator, ``sim serve`` without ``--adb-port`` puts its console on the first free even port from
    5554 and adbd on the next one, of the address it serves on (here one of this process's own, 5555 taken)."""
    host = own_loopback_address()
    with socket.create_server((host, 5555)):
        server = subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--host", host],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            assert line.startswith(f"emulator-5556: adb on {host}:5557, console on {host}:5556")
        finally:
            server.kill()
            server.wait()
            server.stdout.close()


def test_a_served_phone_process_reports_the_ports_it_took_itself():
    """``served_phone_process`` (the benchmarks' served phone) picks no port: ``sim serve --grpc-port 0`` takes
    an emulator pair and a gRPC port the system gives, and the ports its first line names are the ones it serves."""
    with served_phone_process() as phone:
        assert phone.serial == f"emulator-{phone.adb_port - 1}" and phone.grpc_port > 0
        with socket.create_connection(("127.0.0.1", phone.adb_port - 1), timeout=30) as console:
            assert console.recv(64).startswith(b"Android Console")
        assert server_answers("127.0.0.1", phone.grpc_port)
    assert phone.process.returncode is not None


def test_two_sim_serves_started_at_once_both_come_up(tmp_path):
    """Each takes its ports by listening on them, so two started at once get two emulator port pairs. Here they
    are held at the same point, each with its phone made and no port taken, until both got there: a server that
    had checked for free ports before (and, as ``sim serve`` did, picked the pair while making its phone) would
    pick the same pair as the other, then fail to listen on it."""
    host = own_loopback_address()
    together = tmp_path / "together"
    together.mkdir()
    serve = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from android_gym import cli
        from android_gym.sim import phone

        Phone, together = phone.Phone, Path({str(together)!r})

        def made_together(*args, **kwargs):
            made = Phone(*args, **kwargs)
            (together / sys.argv[1]).touch()
            while len(list(together.iterdir())) < 2:
                time.sleep(0.01)
            return made

        phone.Phone = made_together
        sys.exit(cli.main(["sim", "serve", "--host", "{host}"]))
        """)
    servers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        env = {**os.environ, "HOME": str(tmp_path / name), "ANDROID_ADB_SERVER_PORT": str(free_port())}
        servers.append(subprocess.Popen([sys.executable, "-c", serve, name], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env))
    try:
        lines = [server.stdout.readline() for server in servers]
        assert all(re.match(rf"emulator-(\d+): adb on {host}:\d+, console on {host}:\1 ", line) for line in lines), \
            [server.stderr.read() if server.poll() is not None else line for server, line in zip(servers, lines)]
        consoles = {int(line.split(":")[0].removeprefix("emulator-")) for line in lines}
        assert len(consoles) == 2
        for port in consoles:  # each serves: its console answers
            with socket.create_connection((host, port), timeout=30) as console:
                assert console.recv(64).startswith(b"Android Console")
    finally:
        for server in servers:
            server.kill()
            server.wait()
            server.stdout.close()
            server.stderr.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sim_serve_stopped_by_a_signal_leaves_no_files(tmp_path, signum):
    """The phone's storage and the gRPC snapshot directory go away when ``sim serve`` is told to stop."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    host = own_loopback_address()  # its ports stay free until the server takes them: no other process uses it
    port = free_port_pair(host)
    env = {**os.environ, "ANDROID_GYM_TMPDIR": str(tmp), "TMPDIR": str(tmp), "HOME": str(tmp_path),
           "ANDROID_ADB_SERVER_PORT": str(free_port())}
    server = subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--host", host,
                               "--adb-port", str(port), "--grpc-port", str(free_port(host))], stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert server.stdout.readline().startswith(f"emulator-{port - 1}: ")
        for _ in range(600):  # serving (its signal handlers set) once the console answers
            with contextlib.suppress(ConnectionRefusedError), socket.create_connection((host, port - 1)):
                break
            time.sleep(0.05)
        assert sorted(path.name.rsplit("-", 1)[0] for path in tmp.iterdir()) == ["android-gym-phone",
                                                                                 "android-gym-snapshots"]
        server.send_signal(signum)
        assert server.wait(timeout=60) == 0
        assert list(tmp.iterdir()) == []
    finally:
        server.kill()
        server.wait()
        server.stdout.close()


# ----- the wire protocol, from a raw socket ------------------------------------------------------------------
class RawHost:
    """A minimal adb host speaking packets straight to adbd."""

    def __init__(self, port: int, max_payload: int = 1 << 20) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.send(Packet(A_CNXN, A_VERSION, max_payload, b"host::features=shell_v2\0"))
        self.banner = self.receive()

    def send(self, packet: Packet) -> None:
        self.sock.sendall(packet.encode())

    def receive(self) -> Packet:
        header = self._exactly(24)
        command, arg0, arg1, length, _check, magic = struct.unpack("<6I", header)
        assert magic == command ^ 0xFFFFFFFF
        return Packet(command, arg0, arg1, self._exactly(length))

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("adbd closed the connection")
            data += chunk
        return data

    def open(self, local_id: int, service: str) -> Packet:
        self.send(Packet(A_OPEN, local_id, 0, service.encode() + b"\0"))
        return self.receive()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw_host(fresh_served_phone):
    host = RawHost(fresh_served_phone.adb_port)
    yield host
    host.close()


def test_banner_names_the_product_and_features(raw_host):
    assert raw_host.banner.command == A_CNXN
    assert raw_host.banner.data == (b"device::ro.product.name=sdk_gphone64_x86_64;ro.product.model=sdk_gphone64_x86_64;"
                                    b"ro.product.device=emu64xa;features=shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir")


def test_unknown_services_are_refused_with_clse(raw_host):
    for local_id, service in enumerate(("jdwp:1234", "tcp:8080", "framebuffer:", "unroot:"), start=1):
        reply = raw_host.open(local_id, service)
        assert (reply.command, reply.arg0, reply.arg1) == (A_CLSE, 0, local_id)


def test_adbd_waits_for_okay_before_the_next_write(raw_host):
    """With a 4 KiB payload limit, a large output arrives one WRTE per OKAY, in order, then CLSE."""
    small = RawHost(raw_host.sock.getpeername()[1], max_payload=4096)
    try:
        opened = small.open(1, "shell:seq 1 20000")
        assert opened.command == A_OKAY
        device_id = opened.arg0
        first = small.receive()
        assert first.command == A_WRTE and len(first.data) == 4096
        # Before acknowledging, a second stream completes: the first stream sent nothing meanwhile.
        ping = small.open(2, "shell:echo ping")
        assert ping.command == A_OKAY
        assert small.receive().data == b"ping\n"
        small.send(Packet(A_OKAY, 2, ping.arg0))
        assert small.receive().command == A_CLSE
        output = bytearray(first.data)
        while True:
            small.send(Packet(A_OKAY, 1, device_id))
            packet = small.receive()
            if packet.command == A_CLSE:
                break
            assert packet.command == A_WRTE and len(packet.data) <= 4096
            output += packet.data
        assert output == "".join(f"{n}\n" for n in range(1, 20001)).encode()
    finally:
        small.close()


def read_stream(host: RawHost, local_id: int, device_id: int) -> list[bytes]:
    """The WRTE payloads of a stream until adbd closes it, each acknowledged."""
    payloads = []
    while (packet := host.receive()).command != A_CLSE:
        assert packet.command == A_WRTE and packet.arg1 == local_id
        payloads.append(packet.data)
        host.send(Packet(A_OKAY, local_id, device_id))
    return payloads


def shell_v2_stdout(data: bytes) -> tuple[bytes, int]:
    """Standard output and exit code of a shell-protocol byte stream (shell_protocol.h packets)."""
    stdout, exit_code, view = bytearray(), None, memoryview(data)
    while view:
        packet_id, length = struct.unpack_from("<BI", view)
        if packet_id == 1:
            stdout += view[5:5 + length]
        elif packet_id == 3:
            exit_code = view[5]
        view = view[5 + length:]
    return bytes(stdout), exit_code


@pytest.mark.parametrize("max_payload", [4096, 1 << 20])
def test_a_screenshot_arrives_in_whole_payloads_of_the_negotiated_size(fresh_served_phone, max_payload):
    """``exec:screencap`` and ``shell,v2,raw:screencap`` carry the header and the phone's RGBA rows exactly, in WRTE
    packets as large as the host allows (the last one shorter)."""
    phone = fresh_served_phone.phone
    expected = struct.pack("<4I", 1080, 2400, 1, 1) + phone.screenshot_rgba()
    host = RawHost(fresh_served_phone.adb_port, max_payload=max_payload)
    try:
        for local_id, service in enumerate(("exec:screencap", "shell,v2,raw:screencap"), start=1):
            opened = host.open(local_id, service)
            assert opened.command == A_OKAY
            payloads = read_stream(host, local_id, opened.arg0)
            assert all(len(payload) == max_payload for payload in payloads[:-1])
            assert 0 < len(payloads[-1]) <= max_payload
            data = b"".join(payloads)
            assert (data if service.startswith("exec") else shell_v2_stdout(data)) == \
                (expected if service.startswith("exec") else (expected, 0))
    finally:
        host.close()


def test_shell_packets_fill_whole_wrtes_after_small_outputs(fresh_served_phone):
    """The UI dump and the raw header before a screenshot do not shift its shell-v2 packets across the WRTEs: each
    WRTE is one packet, so it goes out as its headers and its rows."""
    phone = fresh_served_phone.phone
    host = RawHost(fresh_served_phone.adb_port, max_payload=1 << 20)
    try:
        opened = host.open(1, "shell,v2,raw:echo small; screencap")
        payloads = read_stream(host, 1, opened.arg0)
        assert all(struct.unpack_from("<BI", payload) == (1, len(payload) - 5) for payload in payloads[:-1])
        expected = b"small\n" + struct.pack("<4I", 1080, 2400, 1, 1) + phone.screenshot_rgba()
        assert shell_v2_stdout(b"".join(payloads)) == (expected, 0)
    finally:
        host.close()


def test_packets_are_taken_out_of_what_arrived_once_whole():
    stream = Packet(A_OPEN, 1, 0, b"shell:true\0").encode() + Packet(A_OKAY, 2, 1).encode()
    received, taken = bytearray(), []
    for byte in stream:  # one byte at a time
        received.append(byte)
        while (packet := take_packet(received)) is not None:
            taken.append(packet)
    assert taken == [Packet(A_OPEN, 1, 0, b"shell:true\0"), Packet(A_OKAY, 2, 1)] and not received
    with pytest.raises(ProtocolError, match="bad magic"):
        take_packet(bytearray(struct.pack("<6I", A_OPEN, 1, 0, 0, 0, 0)))


def test_wrte_payloads_cut_pieces_without_copying_them():
    pieces = [b"ab", bytearray(b"cdefg"), memoryview(b"hij")]
    payloads = list(wrte_payloads(pieces, 4))
    assert [b"".join(payload) for payload in payloads] == [b"abcd", b"efgh", b"ij"]
    assert all(isinstance(part, memoryview) for payload in payloads for part in payload)
    assert payloads[1][0].obj is pieces[1]  # a view of the caller's bytes, not a copy
    assert list(wrte_payloads([b"", b""], 4)) == []


def test_several_hosts_share_one_phone(raw_host, fresh_served_phone):
    other = RawHost(fresh_served_phone.adb_port)
    try:
        assert raw_host.open(1, "shell:settings put global wifi_on 0").command == A_OKAY
        assert raw_host.receive().command == A_CLSE
        assert other.open(1, "shell:settings get global wifi_on").command == A_OKAY
        assert other.receive().data == b"0\n"
    finally:
        other.close()


def test_bad_magic_drops_the_connection(raw_host):
    header = struct.pack("<6I", A_OPEN, 1, 0, 0, 0, 0)  # magic should be A_OPEN ^ 0xFFFFFFFF
    raw_host.sock.sendall(header)
    assert raw_host.sock.recv(1) == b""


class SyncStream:
    """A ``sync:`` stream opened by a ``RawHost``: one request per WRTE, one reply per WRTE."""

    def __init__(self, host: RawHost, local_id: int) -> None:
        self.host = host
        self.local_id = local_id
        opened = host.open(local_id, "sync:")
        assert opened.command == A_OKAY
        self.device_id = opened.arg0

    def request(self, data: bytes) -> Packet:
        """Send ``data``; the device's next packet after acknowledging it (a WRTE is acknowledged in turn)."""
        self.host.send(Packet(A_WRTE, self.local_id, self.device_id, data))
        assert self.host.receive().command == A_OKAY
        reply = self.host.receive()
        if reply.command == A_WRTE:
            self.host.send(Packet(A_OKAY, self.local_id, self.device_id))
        return reply


def sync_request(request: bytes, path: bytes) -> bytes:
    return struct.pack("<4sI", request, len(path)) + path


def test_a_sync_path_ends_at_its_first_nul_as_in_adbd(raw_host, caplog):
    """adbd reads a sync path as a C string: what follows a NUL is ignored, and a SEND whose path then has no
    ``,<mode>`` fails with adbd's message. The session keeps serving; nothing is logged as an error."""
    caplog.set_level("ERROR")
    sync = SyncStream(raw_host, 1)
    stat_reply = sync.request(sync_request(b"STAT", b"/sdcard\0/junk"))
    assert stat_reply.data[:4] == b"STAT" and struct.unpack("<I", stat_reply.data[4:8])[0] & 0o170000 == 0o040000
    missing = sync.request(sync_request(b"RECV", b"/sdcard/none\0/etc/hosts"))
    assert missing.data == sync_request(b"FAIL", b"open failed: No such file or directory")
    send = sync.request(sync_request(b"SEND", b"/sdcard/f\0,420"))
    assert send.data == sync_request(b"FAIL", b"missing , in ID_SEND")
    assert raw_host.receive().command == A_CLSE
    assert not [record for record in caplog.records if record.levelno >= 40]


def test_sync_stat_shows_device_times_and_inodes_never_the_hosts(raw_host, fresh_served_phone):
    """``STA2``/``LST2`` records carry the phone's device and inode numbers and, for every time, its device time:
    the file is read first (the host would stamp its access time) and chmodded (its change time), both with the
    wall clock."""
    phone = fresh_served_phone.phone
    phone.fs.write_bytes("/sdcard/Download/f.txt", b"data")
    phone.fs.read_bytes("/sdcard/Download/f.txt")
    os.chmod(phone.fs.host_path("/sdcard/Download/f.txt"), 0o660)
    sync = SyncStream(raw_host, 1)
    for request in (b"STA2", b"LST2"):
        reply = sync.request(sync_request(request, b"/sdcard/Download/f.txt")).data
        *_, dev, ino, _, _, _, _, _, atime, mtime, ctime = _STAT_V2.unpack(reply)
        assert (dev, ino) == (USERDATA_DEVICE, inode_of("/storage/emulated/0/Download/f.txt"))
        assert atime == mtime == ctime == phone.clock.record_ms() // 1000
