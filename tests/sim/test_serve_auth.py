"""Credentials on the served phone: adb's RSA key authentication against Debian's adb (its own keys), and the
emulator's gRPC token, published in the discovery file and found there by ``EmulatorGrpc``; and what serving
refuses (off loopback without credentials, a taken port)."""

from __future__ import annotations

import socket
import subprocess
import time

import adbutils
import pytest

from android_gym.cli import main
from android_gym.device.discovery import discovery_dir, grpc_token
from android_gym.device.emulator_grpc import EmulatorGrpc
from android_gym.errors import EmulatorGrpcError, ServerError
from android_gym.sim.adb_auth import AdbKeyError, AdbPublicKey, authorized_keys, host_key_files, read_keys
from android_gym.sim.adb_harness import free_emulator_port, free_port, port_free
from android_gym.sim.server import SimServer


def adb(port: int, *args: str) -> str:
    return subprocess.run(["adb", "-P", str(port), *args], capture_output=True, timeout=60, text=True).stdout


def device_state(port: int, serial: str) -> str:
    """The state ``adb devices`` gives ``serial`` once it has settled past ``offline``/``authorizing``."""
    client = adbutils.AdbClient("127.0.0.1", port)
    state = "missing"
    for _ in range(400):
        state = {info.serial: info.state for info in client.list()}.get(serial, "missing")
        if state not in ("missing", "offline", "authorizing", "connecting"):
            break
        time.sleep(0.05)  # a real adb server, polled: it offers no wait for "unauthorized"
    return state


@pytest.fixture
def adb_host_keys(adb_server_port) -> list[AdbPublicKey]:
    """The keys the session's adb server signs with (it made ``$HOME/.android/adbkey`` when it started)."""
    return authorized_keys(host_key_files())


def test_the_adb_servers_own_key_gets_the_device(adb_server_port, adb_host_keys):
    assert len(adb_host_keys) == 1 and adb_host_keys[0].modulus.bit_length() == 2048
    with SimServer(adb_keys=adb_host_keys) as server:
        assert device_state(adb_server_port, server.serial) == "device"
        assert adb(adb_server_port, "-s", server.serial, "shell", "echo", "signed") == "signed\n"


def test_an_unknown_key_stays_unauthorized(adb_server_port, tmp_path):
    other = tmp_path / "other_adbkey"
    subprocess.run(["adb", "keygen", str(other)], check=True, capture_output=True, timeout=60)
    with SimServer(adb_keys=read_keys(other.with_name("other_adbkey.pub"))) as server:
        assert device_state(adb_server_port, server.serial) == "unauthorized"
        assert server.phone_host.phone.fs.exists("/sdcard")  # the phone itself is unharmed


def test_adb_vendor_keys_are_the_hosts_keys_too(tmp_path):
    subprocess.run(["adb", "keygen", str(tmp_path / "vendor.adb_key")], check=True, capture_output=True, timeout=60)
    files = host_key_files({"HOME": str(tmp_path / "nobody"), "ADB_VENDOR_KEYS": str(tmp_path)})
    assert files == [tmp_path / "vendor.adb_key.pub"]
    key = authorized_keys(files)[0]
    assert not key.verifies(bytes(20), bytes(256))  # a signature of zeros is no signature


@pytest.mark.parametrize("line", ["", "not base64!", "QUJD user@host", "A" * 700])
def test_lines_that_are_not_adb_keys_are_refused(tmp_path, line):
    (tmp_path / "keys").write_text(f"# a comment\n{line}\n")
    if line:
        with pytest.raises(AdbKeyError, match="keys:2"):
            read_keys(tmp_path / "keys")
    else:
        assert read_keys(tmp_path / "keys") == []


def test_the_grpc_token_is_published_found_and_required(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    with SimServer(grpc_port=0, announce=False, grpc_token="s3cret") as server:
        (published,) = discovery_dir().glob("pid_*.ini")
        assert published.stat().st_mode & 0o777 == 0o600
        assert grpc_token(server.grpc.port) == "s3cret"
        address = f"127.0.0.1:{server.grpc.port}"
        with EmulatorGrpc(address, timeout=10) as found:  # the token from the discovery file
            assert found.status().booted
        with EmulatorGrpc(address, timeout=10, token="wrong") as wrong, pytest.raises(EmulatorGrpcError,
                                                                                      match="token"):
            wrong.status()
        published.unlink()
        with EmulatorGrpc(address, timeout=10) as anonymous, pytest.raises(EmulatorGrpcError, match="token"):
            anonymous.screenshot()
    assert grpc_token(server.grpc.port) is None


def test_serving_off_loopback_needs_authentication_or_insecure(adb_host_keys, capsys):
    assert main(["sim", "serve", "--host", "0.0.0.0", "--grpc-port", str(free_port()), "--adb-auth"]) == 2
    refusal = capsys.readouterr().err
    assert "the gRPC screenshots and input" in refusal and "root adb shell" not in refusal
    assert "--grpc-use-token" in refusal


def test_a_taken_console_port_gives_the_adb_port_back():
    adb_port = free_emulator_port()
    with socket.socket() as console:
        console.bind(("127.0.0.1", adb_port - 1))
        console.listen()
        with pytest.raises(ServerError, match="cannot listen"):
            SimServer(adb_port=adb_port, announce=False).start()
    assert port_free(adb_port)
