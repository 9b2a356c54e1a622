"""The committed ``*_pb2.py``/``*_pb2_grpc.py`` modules are what protoc makes of the committed ``.proto`` files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def regenerate_protos():
    """The regeneration script as a module."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import regenerate_protos
    finally:
        sys.path.pop(0)
    return regenerate_protos


def test_generated_modules_are_up_to_date():
    result = subprocess.run([sys.executable, "scripts/regenerate_protos.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_proto_is_regenerated(regenerate_protos):
    listed = {proto.directory / proto.name for proto in regenerate_protos.PROTOS}
    assert set((ROOT / "task_specs").glob("*.proto")) | set((ROOT / "android_gym").rglob("*.proto")) == listed
    services = [proto for proto in regenerate_protos.PROTOS if "service " in (proto.directory / proto.name).read_text()]
    assert services and all(proto.grpc for proto in services)


def test_check_notices_a_stale_module(tmp_path, monkeypatch, regenerate_protos):
    (tmp_path / "task_spec.proto").write_text((ROOT / "task_specs/task_spec.proto").read_text()
                                              + "\nmessage Extra { string x = 1; }\n")
    (tmp_path / "task_spec_pb2.py").write_bytes((ROOT / "task_specs/task_spec_pb2.py").read_bytes())
    monkeypatch.setattr(regenerate_protos, "ROOT", tmp_path)
    monkeypatch.setattr(regenerate_protos, "PROTOS", (regenerate_protos.Proto(tmp_path, "task_spec.proto"),))
    assert regenerate_protos.main(["--check"]) == 1
    assert regenerate_protos.main([]) == 0 and regenerate_protos.main(["--check"]) == 0
    assert b"_EXTRA" in (tmp_path / "task_spec_pb2.py").read_bytes()


def test_check_notices_a_stale_service_module(tmp_path, monkeypatch, regenerate_protos):
    protos = tmp_path / "android_gym/protos"
    protos.mkdir(parents=True)
    source = (ROOT / "android_gym/protos/emulator_controller.proto").read_text()
    extra = "service EmulatorController {\n  rpc extra(Touch) returns (Touch) {}"
    (protos / "emulator_controller.proto").write_text(source.replace("service EmulatorController {", extra))
    for module in ("emulator_controller_pb2.py", "emulator_controller_pb2_grpc.py"):
        (protos / module).write_bytes((ROOT / "android_gym/protos" / module).read_bytes())
    monkeypatch.setattr(regenerate_protos, "ROOT", tmp_path)
    monkeypatch.setattr(regenerate_protos, "PROTOS",
                        (regenerate_protos.Proto(tmp_path, "android_gym/protos/emulator_controller.proto", grpc=True),))
    assert regenerate_protos.main(["--check"]) == 1
    assert regenerate_protos.main([]) == 0 and regenerate_protos.main(["--check"]) == 0
    generated = (protos / "emulator_controller_pb2_grpc.py").read_bytes()
    assert b"/android.emulation.control.EmulatorController/extra" in generated
