"""The scripts of ``examples/`` as modules, for the benchmarks that reuse their pieces (run the benchmarks from
``benchmarks/``, or with it on ``sys.path``: ``from _examples import load_example``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py`` as the module ``name``, registered in ``sys.modules`` before it runs (its dataclasses
    look their module up)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
