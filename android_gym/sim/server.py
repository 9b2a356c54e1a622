"""``SimServer``: a simulated phone served like an emulator — adbd on the adb port, the console one port below.

Like the Android emulator, it announces itself to the adb server (``host:emulator:<adb port>`` to
``ANDROID_ADB_SERVER_PORT``, default 5037), so ``adb devices`` lists it as ``emulator-<console port>``; and, as the
emulator's adb pipe does whenever it waits for a host, it announces itself again every ``ANNOUNCE_PERIOD_S`` while
no adb server is connected, so a restarted server (``adb kill-server``/``start-server``) finds it even on ports
outside the 5555–5585 range adb servers scan at start. It listens on loopback unless another ``host`` is given, on
the ports given or, like the emulator, on the first emulator pair it can take (``listen_on_phone_ports``: each port
taken by listening on it, never checked first, so servers starting at once never collide).
With ``grpc_port`` it also serves the emulator's gRPC services (``grpc_server``); their ``SHUTDOWN`` stops
everything. Once AndroidEnv's accessibility forwarder is installed and enabled on the phone, the phone sends its
trees to the host that asked (``a11y_forwarder``).

Off loopback it can ask for credentials as an emulator does: ``adb_keys`` makes adbd accept only hosts holding
one of those RSA keys (``adb_auth``), and ``grpc_token`` makes the gRPC services want ``authorization: Bearer
<token>``; the token is published, as the emulator's ``-grpc-use-token`` does, in this process's discovery file
(``device.discovery``), which is removed when serving stops. The console always asks for its auth token.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from android_gym.device.discovery import write_discovery_file
from android_gym.device.malloc import keep_frames_in_the_heap
from android_gym.errors import ServerError
from android_gym.sim.a11y_forwarder import AccessibilityForwarderService
from android_gym.sim.adb_auth import AdbPublicKey
from android_gym.sim.adb_harness import EMULATOR_ADB_PORTS
from android_gym.sim.adbd import AdbDaemon
from android_gym.sim.console import EmulatorConsole, load_auth_token
from android_gym.sim.grpc_server import SimGrpcServer
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import Phone

#: How often a phone no adb server is connected to announces itself (seconds).
ANNOUNCE_PERIOD_S = 1.0


class SimServer:
    """Serve ``phone`` (a fresh one by default) over adb and the emulator console, and over the emulator's gRPC
    services on ``grpc_port`` unless it is ``None``. The adb and console ports (``adb_port``, ``console_port``:
    default, the first free emulator pair) are listened on from the start; taken ones raise ``ServerError``."""

    def __init__(self, phone: Phone | None = None, adb_port: int | None = None, console_port: int | None = None,
                 host: str = "127.0.0.1", home: Path | None = None, announce: bool = True,
                 grpc_port: int | None = None, adb_server_port: int | None = None,
                 adb_keys: Sequence[AdbPublicKey] | None = None, grpc_token: str | None = None) -> None:
        self._listening = listen_on_phone_ports(host, adb_port, console_port)
        self.adb_port, self.console_port = (sock.getsockname()[1] for sock in self._listening)
        self.adb_server_port = (int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037")) if adb_server_port is None
                                else adb_server_port)
        self.bind_host = host
        self.phone_host = PhoneHost(phone or Phone(), avd_name=f"android_gym_sim_{self.console_port}")
        self.daemon = AdbDaemon(self.phone_host, adb_keys)
        self.console = EmulatorConsole(self.phone_host, load_auth_token(home), on_kill=self.stop, home=home)
        self.grpc = (None if grpc_port is None
                     else SimGrpcServer(self.phone_host, grpc_port, host, on_shutdown=self.stop, token=grpc_token))
        self._discovery_file: Path | None = None
        self.forwarder = AccessibilityForwarderService(self.phone_host)
        self._announce = announce
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._clients: dict[asyncio.Task, asyncio.StreamWriter] = {}

    @property
    def phone(self) -> Phone:
        """The phone being served."""
        return self.phone_host.phone

    @property
    def serial(self) -> str:
        """The serial an adb server gives this device."""
        return f"emulator-{self.console_port}"

    async def serve(self, on_ready: Callable[[], None] | None = None) -> None:
        """Serve until ``stop`` (or the console's ``kill``); ``on_ready`` is called once every service listens."""
        keep_frames_in_the_heap()
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        adb_socket, console_socket = self._listening
        try:
            adb = await self._loop.create_server(self.daemon.connection, sock=adb_socket)
            console = await asyncio.start_server(self._tracked(self.console.handle), sock=console_socket)
            async with adb, console:
                if self.grpc is not None:
                    self.grpc.start()
                    if self.grpc.token:
                        self._discovery_file = write_discovery_file(self._discovery_entries(self.grpc))
                self.forwarder.start()
                announcer = None
                if self._announce:
                    await announce_to_adb_server(self.adb_port, self.adb_server_port)
                    announcer = asyncio.create_task(self._keep_announcing())
                if on_ready is not None:
                    on_ready()
                await self._stopped.wait()
                if announcer is not None:
                    announcer.cancel()
                # End every console connection so its handler returns on its own (none is left to be cancelled).
                for writer in self._clients.values():
                    writer.close()
                await asyncio.gather(*self._clients, return_exceptions=True)
        finally:  # after adbd and the console stopped listening: adbd's connections go (one it took late too), and
            # the gRPC snapshots
            await self.daemon.close()
            for sock in self._listening:
                sock.close()
            if self._discovery_file is not None:
                self._discovery_file.unlink(missing_ok=True)
            self.forwarder.stop()
            if self.grpc is not None:
                self.grpc.stop()
            self.phone_host.close()

    def _discovery_entries(self, grpc: SimGrpcServer) -> dict[str, str]:
        """What the emulator's discovery file says of this phone: its ports and its gRPC token."""
        return {"port.serial": str(self.console_port), "port.adb": str(self.adb_port),
                "avd.name": self.phone_host.avd_name, "grpc.port": str(grpc.port), "grpc.token": grpc.token or ""}

    async def _keep_announcing(self) -> None:
        """Announce this phone again whenever no adb server is connected."""
        while True:
            await asyncio.sleep(ANNOUNCE_PERIOD_S)
            if not self.daemon.connected:
                await announce_to_adb_server(self.adb_port, self.adb_server_port)

    def _tracked(self, handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
                 ) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
        async def run(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            self._clients[task] = writer
            try:
                await handler(reader, writer)
            finally:
                del self._clients[task]
        return run

    def start(self) -> SimServer:
        """Serve from a background thread; returns once every service listens."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def main() -> None:
            try:
                asyncio.run(self.serve(ready.set))
            except BaseException as error:  # reported to the starting thread
                failure.append(error)
                ready.set()

        self._thread = threading.Thread(target=main, name=f"sim-{self.serial}", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        """Stop serving (from any thread). Idempotent; the phone stays usable."""
        if self._loop is not None and self._stopped is not None:
            with contextlib.suppress(RuntimeError):  # loop already closed
                self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> SimServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def listen_on_phone_ports(host: str, adb_port: int | None = None, console_port: int | None = None
                          ) -> tuple[socket.socket, socket.socket]:
    """Sockets listening on ``host`` for adbd and the console. Ports given are taken or a ``ServerError`` (the
    console's default: the adb port - 1; the adb port's, for a console port alone: one above, as the emulator's
    ``-port``). Without either, as the emulator does, the first emulator pair from 5554/5555 whose ports it can
    listen on (the next one tried on ``EADDRINUSE``)."""
    if adb_port is None and console_port is not None:
        adb_port = console_port + 1
    pairs = ([(port, port - 1) for port in EMULATOR_ADB_PORTS] if adb_port is None
             else [(adb_port, adb_port - 1 if console_port is None else console_port)])
    for adb, console in pairs:
        try:
            return _listen_on_pair(host, adb, console)
        except OSError as error:
            if adb_port is None and error.errno == errno.EADDRINUSE:
                continue
            raise ServerError(f"cannot listen on {host} ports {console}/{adb}: {error.strerror or error}; pick free "
                              "ports with --adb-port (console = adb port - 1)") from error
    raise ServerError(f"cannot listen on {host}: the emulator ports 5554-5585 are all taken; stop some emulators or "
                      "simulated phones, or pick free ports with --adb-port (console = adb port - 1)")


def _listen_on_pair(host: str, adb_port: int, console_port: int) -> tuple[socket.socket, socket.socket]:
    """Listen on both ports or on neither."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    adb = socket.create_server((host, adb_port), family=family)
    try:
        return adb, socket.create_server((host, console_port), family=family)
    except OSError:
        adb.close()
        raise


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` keeps a server reachable from this machine only (``0.0.0.0`` and ``::``,
    every address, are not)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


async def announce_to_adb_server(adb_port: int, server_port: int) -> bool:
    """Tell the adb server on ``server_port`` about an emulator on ``adb_port``
    (``AdbHostServer::notify``: ``host:emulator:<port>`` in adb's request framing).

    Returns whether a server took the announcement; none running is normal.
    """
    request = f"host:emulator:{adb_port}".encode()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server_port), 2)
    except (OSError, asyncio.TimeoutError):
        return False
    try:
        writer.write(b"%04x" % len(request) + request)
        await writer.drain()
        return True
    except OSError:
        return False
    finally:
        writer.close()
