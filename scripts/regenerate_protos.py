"""Regenerate the committed ``*_pb2.py`` modules from their ``.proto`` files (grpcio-tools' protoc).

    python scripts/regenerate_protos.py          # rewrite the modules
    python scripts/regenerate_protos.py --check  # exit 1, naming the stale ones, if a module is out of date
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
#: (directory holding the .proto, file name): the _pb2 module is written next to it.
PROTOS = ((ROOT / "task_specs", "task_spec.proto"),)


def generate(directory: Path, proto: str, out: Path) -> Path:
    """Compile ``directory/proto`` into ``out``; returns the generated module's path."""
    code = protoc.main(["protoc", f"-I{directory}", f"--python_out={out}", proto])
    if code != 0:
        raise SystemExit(f"protoc failed on {directory / proto} (exit {code})")
    return out / proto.replace(".proto", "_pb2.py")


def main(argv: list[str] | None = None) -> int:
    """Regenerate, or with ``--check`` compare the committed modules with fresh ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report modules that are out of date")
    args = parser.parse_args(argv)
    stale = []
    for directory, proto in PROTOS:
        committed = directory / proto.replace(".proto", "_pb2.py")
        with tempfile.TemporaryDirectory() as tmp:
            fresh = generate(directory, proto, Path(tmp)).read_bytes()
        if args.check:
            if not committed.is_file() or committed.read_bytes() != fresh:
                stale.append(str(committed.relative_to(ROOT)))
        else:
            committed.write_bytes(fresh)
    if stale:
        print("out of date (run python scripts/regenerate_protos.py):", *stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
