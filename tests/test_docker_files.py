"""docker/: the Dockerfile lints (hadolint), the entrypoint parses and passes shellcheck, and compose.yaml gives
every emulator /dev/kvm and its own host ports. No image is built here (no Docker engine, no KVM)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[1] / "docker"
DOCKERFILE = DOCKER / "Dockerfile"
ENTRYPOINT = DOCKER / "entrypoint.sh"
#: The ports the container publishes: console, adb, gRPC.
CONTAINER_PORTS = {5554, 5555, 8554}


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: `pip install -e '.[dev]'` installs it"
    return path


def _compose_services() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())["services"]


def _host_ports(service: dict) -> dict[int, int]:
    """Container port → host port, from ``"127.0.0.1:HOST:CONTAINER"`` entries."""
    return {int(container): int(host) for host, container in
            (entry.rsplit(":", 2)[-2:] for entry in service["ports"])}


def test_the_dockerfile_passes_hadolint():
    result = subprocess.run([_tool("hadolint"), "--failure-threshold", "style", str(DOCKERFILE)],
                            capture_output=True, text=True, cwd=DOCKER)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_entrypoint_parses_and_passes_shellcheck():
    syntax = subprocess.run(["bash", "-n", str(ENTRYPOINT)], capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stderr
    lint = subprocess.run([_tool("shellcheck"), str(ENTRYPOINT)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout


def test_the_image_publishes_the_ports_the_entrypoint_forwards_and_compose_maps():
    script = ENTRYPOINT.read_text()
    forwarded = {int(port) for port in re.findall(r'socat "tcp-listen:(\d+),', script)}
    exposed = {int(port) for port in re.search(r"^EXPOSE (.+)$", DOCKERFILE.read_text(), re.M).group(1).split()}
    assert forwarded == exposed == CONTAINER_PORTS
    for name, service in _compose_services().items():
        assert set(_host_ports(service)) == CONTAINER_PORTS, name


def test_the_healthcheck_asks_the_emulator_the_entrypoint_starts():
    console_port = re.search(r"^CONSOLE_PORT=(\d+)$", ENTRYPOINT.read_text(), re.M).group(1)
    healthcheck = re.search(r"^HEALTHCHECK .*\n(.*)$", DOCKERFILE.read_text(), re.M).group(1)
    assert f"adb -s emulator-{console_port} shell getprop sys.boot_completed" in healthcheck


def test_compose_gives_each_emulator_kvm_limits_and_its_own_host_ports():
    services = _compose_services()
    assert len(services) >= 2
    all_ports: list[int] = []
    for name, service in services.items():
        assert "/dev/kvm" in service["devices"], name
        assert service["deploy"]["resources"]["limits"] == {"cpus": "4", "memory": "6G"}, name
        ports = _host_ports(service)
        # A host adb server scans the odd ports 5555-5585 and names what answers emulator-<port - 1>: the
        # console must sit right below the adb port for `adb emu` and incoming SMS to reach it.
        assert ports[5555] in range(5555, 5586, 2) and ports[5554] == ports[5555] - 1, name
        assert all(entry.startswith("127.0.0.1:") for entry in service["ports"]), name
        all_ports += ports.values()
    assert len(all_ports) == len(set(all_ports)), sorted(all_ports)

