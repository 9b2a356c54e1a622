"""Names a package offers but imports only when first used (PEP 562), so that importing it stays cheap."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_names(package: str, names: Mapping[str, Sequence[str]]) -> tuple[Callable[[str], Any],
                                                                           Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for ``names`` (module → the names it defines that the
    package offers): a name is imported from its module at first use, then kept as the package's own attribute."""
    module = sys.modules[package]
    homes = {name: home for home, offered in names.items() for name in offered}

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(module), *homes})

    return __getattr__, __dir__
