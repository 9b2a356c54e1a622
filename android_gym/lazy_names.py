"""Names a package offers but imports only when first used (PEP 562), so that importing it stays cheap.

The package names each such name once where static type checkers look for it, an import under ``if TYPE_CHECKING:``,
and once in ``__all__`` (which ``from package import *`` and the type checkers read); ``lazy_names`` finds in that
block which module defines each name. It reads the package's compiled code (its loader's ``get_code``), not its
source, so a package installed without its ``.py`` files (``.pyc`` only, or zipped) works too.
"""

from __future__ import annotations

import dis
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from types import CodeType
from typing import Any

#: Jump instructions, relative or absolute (Python 3.13 lists every jump in ``hasjrel``).
_JUMPS = frozenset(dis.hasjrel + dis.hasjabs)


def lazy_names(package: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for the names its ``if TYPE_CHECKING:`` block imports: a
    name is imported from its module at first use, then kept as the package's own attribute."""
    module = sys.modules[package]
    homes = {name: (home, attribute)
             for name, home, attribute in type_checking_imports(module.__spec__.loader.get_code(package), package)}

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        home, attribute = homes[name]
        value = getattr(importlib.import_module(home), attribute)
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(module), *homes})

    return __getattr__, __dir__


def type_checking_imports(code: CodeType, package: str) -> Iterator[tuple[str, str, str]]:
    """(name, module, attribute) for each ``from module import attribute [as name]`` of a module's top-level
    ``if TYPE_CHECKING:`` blocks, read from the module's compiled ``code`` (relative modules resolved against
    ``package``). Each such import compiles to ``LOAD_CONST level, LOAD_CONST names, IMPORT_NAME module`` and an
    ``IMPORT_FROM attribute, STORE_NAME name`` pair for each name, between the test's jump and the offset it jumps
    to."""
    instructions = list(dis.get_instructions(code))
    block_end, home = -1, ""
    for index, instruction in enumerate(instructions):
        if instruction.opname == "LOAD_NAME" and instruction.argval == "TYPE_CHECKING":
            block_end = next(later.argval for later in instructions[index + 1:] if later.opcode in _JUMPS)
        elif instruction.offset >= block_end:
            continue
        elif instruction.opname == "IMPORT_NAME":
            level = instructions[index - 2].argval
            home = importlib.util.resolve_name("." * level + instruction.argval, package)
        elif instruction.opname == "IMPORT_FROM":
            yield instructions[index + 1].argval, home, instruction.argval
