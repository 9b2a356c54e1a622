"""Regenerate the committed ``*_pb2.py`` (and ``*_pb2_grpc.py``) modules from their ``.proto`` files
(grpcio-tools' protoc).

    python scripts/regenerate_protos.py          # rewrite the modules
    python scripts/regenerate_protos.py --check  # exit 1, naming the stale ones, if a module is out of date
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
#: protoc's copies of the well-known types (``google/protobuf/empty.proto``).
WELL_KNOWN = resources.files("grpc_tools") / "_proto"


class Proto(NamedTuple):
    """A ``.proto`` compiled with ``-I directory``; ``name`` is its path under ``directory``, which also fixes the
    module that imports it (``android_gym/protos/x.proto`` → ``android_gym.protos.x_pb2``). With ``grpc`` its
    services get a ``_pb2_grpc`` module too. The modules are written next to the ``.proto``."""

    directory: Path
    name: str
    grpc: bool = False
    #: Build the descriptors into ``android_gym.protos.POOL`` instead of protobuf's default pool (see there).
    private_pool: bool = False

    def modules(self) -> list[str]:
        """Paths of the generated modules under ``directory``."""
        stem = self.name.removesuffix(".proto")
        return [f"{stem}_pb2.py", *([f"{stem}_pb2_grpc.py"] if self.grpc else [])]


PROTOS = (
    Proto(ROOT / "task_specs", "task_spec.proto"),
    Proto(ROOT, "android_gym/protos/emulator_controller.proto", grpc=True, private_pool=True),
    Proto(ROOT, "android_gym/protos/snapshot.proto", private_pool=True),
    Proto(ROOT, "android_gym/protos/snapshot_service.proto", grpc=True, private_pool=True),
    Proto(ROOT, "android_gym/protos/accessibility_forwarder.proto", grpc=True, private_pool=True),
)
_DEFAULT_POOL = "_descriptor_pool.Default()"
_IMPORTS_END = "# @@protoc_insertion_point(imports)\n"


def generate(proto: Proto, out: Path) -> None:
    """Compile ``proto`` into ``out`` (its modules land at ``out / module`` for each of ``proto.modules()``)."""
    grpc = [f"--grpc_python_out={out}"] if proto.grpc else []
    code = protoc.main(["protoc", f"-I{proto.directory}", f"-I{WELL_KNOWN}", f"--python_out={out}", *grpc,
                        proto.name])
    if code != 0:
        raise SystemExit(f"protoc failed on {proto.directory / proto.name} (exit {code})")
    if proto.private_pool:
        module = out / proto.modules()[0]
        module.write_text(use_private_pool(module.read_text()))


def use_private_pool(source: str) -> str:
    """A generated ``_pb2`` module rewritten to add its file to ``android_gym.protos.POOL``."""
    if source.count(_DEFAULT_POOL) != 1 or source.count(_IMPORTS_END) != 1:
        raise SystemExit("protoc's output changed shape: update use_private_pool in scripts/regenerate_protos.py")
    source = source.replace(_DEFAULT_POOL, "_POOL")
    return source.replace(_IMPORTS_END, _IMPORTS_END + "from android_gym.protos import POOL as _POOL\n")


def main(argv: list[str] | None = None) -> int:
    """Regenerate, or with ``--check`` compare the committed modules with fresh ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report modules that are out of date")
    args = parser.parse_args(argv)
    stale = []
    for proto in PROTOS:
        with tempfile.TemporaryDirectory() as tmp:
            generate(proto, Path(tmp))
            fresh = {module: (Path(tmp) / module).read_bytes() for module in proto.modules()}
        for module, content in fresh.items():
            committed = proto.directory / module
            if not args.check:
                committed.write_bytes(content)
            elif not committed.is_file() or committed.read_bytes() != content:
                stale.append(str(committed.relative_to(ROOT)))
    if stale:
        print("out of date (run python scripts/regenerate_protos.py):", *stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
