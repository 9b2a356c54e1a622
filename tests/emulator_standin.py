"""A stand-in for the SDK's ``emulator`` binary: it takes the flags ``android_gym.emulator`` passes and serves the
simulated phone on the ports they name (adb, console, gRPC), as the real emulator would serve the AVD.

Like the emulator, it refuses an AVD that has no ``<name>.ini`` in ``$ANDROID_AVD_HOME`` (default
``~/.android/avd``) and an unknown flag. ``ANDROID_GYM_STANDIN_BOOT=never`` keeps ``sys.boot_completed`` unset, as
on an emulator whose boot hangs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from android_gym.sim.server import SimServer


def _ports(text: str) -> tuple[int, int]:
    console, _, adb = text.partition(",")
    return int(console), int(adb)


def parse(argv: list[str]) -> argparse.Namespace:
    """The subset of the emulator's flags android_gym uses; any other flag is an error, as for the emulator."""
    parser = argparse.ArgumentParser(prog="emulator", allow_abbrev=False)
    parser.add_argument("-avd", required=True)
    parser.add_argument("-ports", type=_ports, required=True, help="CONSOLE,ADB")
    parser.add_argument("-grpc", type=int)
    for flag in ("-no-window", "-no-audio", "-no-boot-anim", "-no-snapshot-save"):
        parser.add_argument(flag, action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Serve the simulated phone until the console's ``kill`` (or a signal)."""
    args = parse(argv)
    avd_home = Path(os.environ.get("ANDROID_AVD_HOME") or Path.home() / ".android" / "avd")
    if not (avd_home / f"{args.avd}.ini").is_file():
        print(f"ERROR | Unknown AVD name [{args.avd}], use -list-avds to see valid list.", flush=True)
        return 1
    console_port, adb_port = args.ports
    server = SimServer(adb_port=adb_port, console_port=console_port, grpc_port=args.grpc)
    server.phone_host.avd_name = args.avd
    if os.environ.get("ANDROID_GYM_STANDIN_BOOT") == "never":
        del server.phone.props["sys.boot_completed"]
    window = "no window" if args.no_window else "a window"
    print(f"INFO | pid {os.getpid()}: AVD {args.avd} with {window} on console {console_port}, adb {adb_port}, "
          f"gRPC {args.grpc}", flush=True)
    asyncio.run(server.serve())
    print("INFO | killed through the console", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
