"""The simulated phone's layers stay one-way: each package under ``android_gym/sim`` imports only the layers below
it, and no module imports another that imports it back. Imports are read with ``ast``, including those under
``if TYPE_CHECKING:`` and inside functions."""

from __future__ import annotations

import ast
import inspect
import pkgutil
from pathlib import Path

import pytest

import android_gym.sim
import android_gym.sim.apps
from android_gym.errors import ConfigError
from android_gym.sim.apps import INSTALLABLE_APPS, INSTALLED_APPS
from android_gym.sim.apps.launcher import Launcher
from android_gym.sim.apps.sms import SimpleSmsMessenger
from android_gym.sim.framework.app import App
from android_gym.sim.phone import Phone

SIM = Path(android_gym.sim.__file__).parent
#: Each layer and the layers it may import (besides itself). Modules directly under sim/ not listed here (the
#: phone and the servers around it) sit above every layer.
ALLOWED = {
    "int32": set(),
    "keycodes": set(),
    "ui": {"int32"},
    "system": {"ui", "int32"},
    "framework": {"system", "ui", "keycodes", "int32"},
    "shell": {"framework", "system", "ui", "keycodes", "int32"},
    "apps": {"framework", "system", "ui", "keycodes", "int32"},
}


def imported_modules(source: str, module: str, known: set[str]) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, absolute, wherever the import statement is;
    ``from package import name`` counts as importing the submodule ``package.name`` when that is in ``known``."""
    package = module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return found


def sim_modules() -> dict[str, Path]:
    """Every module under ``android_gym/sim`` by dotted name."""
    modules = {}
    for path in SIM.rglob("*.py"):
        parts = ("android_gym", "sim", *path.relative_to(SIM).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def layer_of(module: str) -> str | None:
    """The layer a module of ``android_gym.sim`` belongs to, or ``None`` for the modules above the layers."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in ALLOWED else None


@pytest.fixture(scope="module", name="graph")
def import_graph() -> dict[str, set[str]]:
    """sim module → the sim modules it imports (the sources do not change while the tests run: parsed once)."""
    modules = sim_modules()
    graph = {}
    for name, path in modules.items():
        module = name + ".__init__" if path.name == "__init__.py" else name
        graph[name] = {other for other in imported_modules(path.read_text(), module, set(modules))
                       if other in modules and other != name}
    return graph


def test_imported_modules_sees_type_checking_and_local_imports() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from android_gym.sim.phone import Phone\n"
              "def f():\n    from ..apps import sms\n    import android_gym.sim.apps.vlc\n")
    known = {"android_gym.sim.apps.sms"}
    found = imported_modules(source, "android_gym.sim.system.radios", known)
    assert {"android_gym.sim.phone", "android_gym.sim.apps.sms", "android_gym.sim.apps.vlc"} <= found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_layers_below(layer: str, graph: dict[str, set[str]]) -> None:
    wrong = sorted(f"{module} imports {other}" for module, imports in graph.items() if layer_of(module) == layer
                   for other in imports if layer_of(other) not in {layer, *ALLOWED[layer]})
    assert not wrong, "\n".join(wrong)


def test_system_and_ui_never_import_apps(graph: dict[str, set[str]]) -> None:
    wrong = [f"{module} imports {other}" for module, imports in graph.items()
             if layer_of(module) in ("system", "ui") for other in imports if other.startswith("android_gym.sim.apps")]
    assert not wrong


def test_no_import_cycle(graph: dict[str, set[str]]) -> None:
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(other):] + [other]))
            if other not in state:
                visit(other, [*path, other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_every_app_module_is_installed() -> None:
    """Adding an app is its module plus its line in ``INSTALLED_APPS`` (or ``INSTALLABLE_APPS`` for one a new phone
    does not have): an app class left out of both lists (itself or a subclass of it, for a base class such as
    Markor's) fails."""
    defined = set()
    for info in pkgutil.iter_modules(android_gym.sim.apps.__path__, "android_gym.sim.apps."):
        module = __import__(info.name, fromlist=["_"])
        defined.update(cls for _, cls in inspect.getmembers(module, inspect.isclass)
                       if issubclass(cls, App) and cls.__module__ == info.name and cls.package)
    missing = [cls for cls in defined
               if not any(issubclass(known, cls) for known in (*INSTALLED_APPS, *INSTALLABLE_APPS))]
    assert defined and not missing


def test_phone_installs_the_apps_it_is_given() -> None:
    phone = Phone(apps=(Launcher, SimpleSmsMessenger))
    try:
        assert phone.packages.names() == [Launcher.package, SimpleSmsMessenger.package]
        assert phone.run("pm list packages").stdout.decode().split() == sorted(
            f"package:{app.package}" for app in (Launcher, SimpleSmsMessenger))
        assert phone.activities.foreground()[0] == Launcher.package
    finally:
        phone.close()


def test_phone_without_a_home_app_says_what_to_add() -> None:
    with pytest.raises(ConfigError, match="home"):
        Phone(apps=(SimpleSmsMessenger,))
