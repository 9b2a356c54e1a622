"""Generated index files (``envs/index.json``, ``sim/apps/index.json``): JSON that lists what modules define, so
that a process can use it without importing them; each is written by ``python -m <its generator>``, whose
``--check`` exits 1 when the file is out of date."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def render(index: Any) -> str:
    """The index as its file holds it (keys sorted: a diff shows what changed)."""
    return json.dumps(index, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None, description: str, path: Path, build: Callable[[], Any], generator: str) -> int:
    """The command line of an index's ``generator`` module: rewrite ``path`` with what ``build`` returns, or with
    ``--check`` only compare it; the exit status."""
    parser = argparse.ArgumentParser(prog=f"python -m {generator}", description=description)
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {path.name} is not what the modules define")
    args = parser.parse_args(argv)
    text = render(build())
    if args.check:
        up_to_date = path.read_text() == text
        print(f"{path.name} is up to date" if up_to_date else f"{path.name} is out of date: run python -m {generator}")
        return 0 if up_to_date else 1
    path.write_text(text)
    print(f"wrote {path}")
    return 0
