"""The catalogue's index (``envs/index.json``) and cheap imports: ``import android_gym`` registers every task name
and Gymnasium id without importing a task's module, and a task's module is imported when the task is needed."""

from __future__ import annotations

import ast
import compileall
import json
import pkgutil
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

import android_gym
from android_gym import evaluation, wrappers
from android_gym.envs import INDEX_FILE
from android_gym.lazy_names import type_checking_imports
from android_gym.sim import apps


def run_python(code: str) -> subprocess.CompletedProcess:
    """``code`` run by a new interpreter (nothing imported yet), its output captured."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600)


def printed_json(code: str):
    """What ``code``, run by a new interpreter, prints as JSON on its last line."""
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_the_index_is_what_the_modules_register():
    result = subprocess.run([sys.executable, "-m", "android_gym.envs.index", "--check"], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_registers_every_id_and_name_and_a_task_imports_its_own_module_only():
    seen = printed_json("""
        import contextlib, io, json, sys
        import gymnasium as gym
        import android_gym
        import android_gym.cli

        def heavy():
            return sorted(name for name in sys.modules if name.startswith(
                ("android_gym.envs.", "android_gym.sim.apps", "android_gym.sim.phone", "android_gym.wrappers.",
                 "android_gym.evaluation.")))

        android_gym.cli.build_parser()
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            gym.pprint_registry()
        before = heavy()
        names = android_gym.task_names()
        env = gym.make("AndroidWorld/SendSms-v0", pixels=False)
        _, info = env.reset(seed=0)
        print(json.dumps({"before": before, "registry": printed.getvalue(), "names": names, "after": heavy(),
                          "steps": env.spec.max_episode_steps, "params": sorted(info["params"])}))
        """)
    index = json.loads(INDEX_FILE.read_text())
    assert seen["before"] == []
    assert all(f"{env_id.split('/')[1]}" in seen["registry"] for env_id in index["envs"])
    assert seen["names"] == sorted([*index["tasks"], *index["aliases"]])
    assert {"AndroidWorld/SendSms-v0", "MiniWoB/click-button-v0",
            "AndroidWorld/ClockTimerEntryWithoutStopwatch-v0"} <= set(index["envs"])
    assert [name for name in seen["after"] if name.startswith("android_gym.envs.")] == ["android_gym.envs.sms"]
    assert seen["steps"] == android_gym.get_task("SimpleSmsSend").max_steps()
    assert seen["params"] == ["message", "number"]


def test_a_task_registered_under_a_catalogue_name_before_its_module_is_imported_stays_registered():
    seen = printed_json("""
        import json
        import gymnasium as gym
        import android_gym

        class Mine(android_gym.Task):
            name, complexity = "SimpleSmsSend", 4.5

        android_gym.register_task(Mine)
        reply = android_gym.get_task("SimpleSmsReply")  # imports the module that registers SimpleSmsSend too
        print(json.dumps([android_gym.get_task("SimpleSmsSend") is Mine, android_gym.get_task("SendSms") is Mine,
                          gym.spec("AndroidWorld/SimpleSmsSend-v0").max_episode_steps, reply.__module__]))
        """)
    assert seen == [True, True, 45, "android_gym.envs.sms"]


@pytest.mark.parametrize("package", [wrappers, evaluation, apps], ids=lambda package: package.__name__)
def test_a_package_of_lazy_names_offers_each_and_none_is_a_submodules_name(package):
    submodules = {module.name for module in pkgutil.iter_modules(package.__path__)}
    lazy = {name for name, _, _ in type_checking_imports(package.__spec__.loader.get_code(package.__name__),
                                                         package.__name__)}
    source = ast.parse(Path(package.__file__).read_text()).body
    block = next(node for node in source if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    assert lazy == {alias.asname or alias.name for node in block.body for alias in node.names}  # as written
    assert lazy <= set(package.__all__) <= set(dir(package))  # `import *` takes every lazy name
    assert not set(package.__all__) & submodules  # importing that submodule would replace the name
    for name in package.__all__:
        assert getattr(package, name) is vars(package)[name]  # imported, then kept


LAZY_PACKAGE = {
    "__init__.py": """
        from typing import TYPE_CHECKING
        from android_gym.lazy_names import lazy_names
        if TYPE_CHECKING:
            from lazypkg.shapes import Square
            from .colours import RED as CRIMSON
        __all__ = ["CRIMSON", "Square"]
        __getattr__, __dir__ = lazy_names(__name__)
        """,
    "shapes.py": "class Square: pass\n",
    "colours.py": "RED = (255, 0, 0)\n",
}


@pytest.mark.parametrize("layout", ["pyc files", "zip of pyc files"])
def test_lazy_names_work_in_a_package_installed_without_its_source(tmp_path, layout):
    """A ``.pyc``-only install (or a zipped one) has no source to read: the names come from the compiled code."""
    package = tmp_path / "lazypkg"
    package.mkdir()
    for name, text in LAZY_PACKAGE.items():
        (package / name).write_text(textwrap.dedent(text))
    assert compileall.compile_dir(package, legacy=True, quiet=1)  # lazypkg/*.pyc beside the sources
    for source in package.glob("*.py"):
        source.unlink()
    path = tmp_path
    if layout == "zip of pyc files":
        path = tmp_path / "lazypkg.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for compiled in package.glob("*.pyc"):
                archive.write(compiled, f"lazypkg/{compiled.name}")
        shutil.rmtree(package)
    seen = printed_json(f"""
        import json, sys
        sys.path.insert(0, {str(path)!r})
        import lazypkg
        print(json.dumps([lazypkg.__file__.endswith(".pyc"), lazypkg.CRIMSON, lazypkg.Square.__module__,
                          "Square" in dir(lazypkg)]))
        """)
    assert seen == [True, [255, 0, 0], "lazypkg.shapes", True]
