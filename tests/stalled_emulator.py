"""A stand-in emulator adb cannot use yet, and waiting until the adb server lists a device in some state."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import threading

import adbutils

from android_gym.sim.adb_harness import free_emulator_port
from android_gym.sim.server import announce_to_adb_server

_A_CNXN, _A_AUTH = 0x4E584E43, 0x48545541
_AUTH_TOKEN, _AUTH_SIGNATURE = 1, 2  # adb.h


class StalledEmulator:
    """A stand-in emulator whose adbd never lets the host in: it accepts the connection and either stays silent
    (adbd not up yet: the host lists it ``offline``) or answers every CNXN and signature with a new AUTH token
    (the user has not accepted the debugging prompt: ``unauthorized``)."""

    def __init__(self, ask_auth: bool) -> None:
        self.port = free_emulator_port()
        self.serial = f"emulator-{self.port - 1}"
        self._ask_auth = ask_auth
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()
        asyncio.run(announce_to_adb_server(self.port, int(os.environ["ANDROID_ADB_SERVER_PORT"])))

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            self._connections.append(connection)
            if self._ask_auth:
                threading.Thread(target=self._refuse, args=(connection,), daemon=True).start()

    @staticmethod
    def _refuse(connection: socket.socket) -> None:
        with connection:
            while len(header := connection.recv(24, socket.MSG_WAITALL)) == 24:
                command, arg0, _, length, _, _ = struct.unpack("<6I", header)
                if length:
                    connection.recv(length, socket.MSG_WAITALL)
                if command == _A_CNXN or (command == _A_AUTH and arg0 == _AUTH_SIGNATURE):
                    token = os.urandom(20)
                    connection.sendall(struct.pack("<6I", _A_AUTH, _AUTH_TOKEN, 0, len(token), sum(token),
                                                   _A_AUTH ^ 0xFFFFFFFF) + token)

    def close(self) -> None:
        self._listener.close()
        for connection in self._connections:
            connection.close()


def wait_listed(adb_server_port: int, serial: str, state: str) -> None:
    """Return once the adb server lists ``serial`` in ``state`` (``offline``, ``unauthorized``, ``device``), asking
    it again and again: its device events (``host:track-devices``) do not tell when a network device goes offline."""
    client = adbutils.AdbClient("127.0.0.1", adb_server_port, socket_timeout=20)
    for _ in range(2_000):  # a round trip each (~13 ms here, 0.3 ms of this process's CPU)
        if any(info.serial == serial and info.state == state for info in client.list()):
            return
    raise AssertionError(f"the adb server never listed {serial} as {state}")
