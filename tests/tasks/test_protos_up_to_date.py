"""The committed ``*_pb2.py`` modules are what protoc makes of the committed ``.proto`` files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_modules_are_up_to_date():
    result = subprocess.run([sys.executable, "scripts/regenerate_protos.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_check_notices_a_stale_module(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import regenerate_protos
    finally:
        sys.path.pop(0)
    (tmp_path / "task_spec.proto").write_text((ROOT / "task_specs/task_spec.proto").read_text()
                                              + "\nmessage Extra { string x = 1; }\n")
    (tmp_path / "task_spec_pb2.py").write_bytes((ROOT / "task_specs/task_spec_pb2.py").read_bytes())
    monkeypatch.setattr(regenerate_protos, "ROOT", tmp_path)
    monkeypatch.setattr(regenerate_protos, "PROTOS", ((tmp_path, "task_spec.proto"),))
    assert regenerate_protos.main(["--check"]) == 1
    assert regenerate_protos.main([]) == 0 and regenerate_protos.main(["--check"]) == 0
    assert b"_EXTRA" in (tmp_path / "task_spec_pb2.py").read_bytes()
