"""Names a package offers but imports only when first used (PEP 562), so that importing it stays cheap.

The package names each such name once where static type checkers look for it, an import under ``if TYPE_CHECKING:``,
and once in ``__all__`` (which ``from package import *`` and the type checkers read); ``lazy_names`` finds in that
block, from the package's source, which module defines each name.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def lazy_names(package: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for the names its ``if TYPE_CHECKING:`` block imports: a
    name is imported from its module at first use, then kept as the package's own attribute."""
    module = sys.modules[package]
    homes = dict(type_checking_imports(Path(module.__file__).read_text(), package))

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(module), *homes})

    return __getattr__, __dir__


def type_checking_imports(source: str, package: str) -> Iterator[tuple[str, str]]:
    """(name, module) for each ``from module import name`` of the source's top-level ``if TYPE_CHECKING:`` blocks
    (relative modules resolved against ``package``)."""
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.If) and isinstance(statement.test, ast.Name) and \
                statement.test.id == "TYPE_CHECKING":
            for node in statement.body:
                if isinstance(node, ast.ImportFrom):
                    home = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                    yield from ((alias.asname or alias.name, home) for alias in node.names)
