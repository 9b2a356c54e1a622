"""Every Python package of the repository ships in the wheel: pyproject.toml lists each one (setuptools builds
only the packages it is told about, so a new subpackage left out would be missing after ``pip install``)."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).parent.parent


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = {ROOT / folder: name for name, folder in config["package-dir"].items()}
    folders[ROOT / "android_gym"] = "android_gym"
    found = set()
    for folder, name in folders.items():
        for init in folder.rglob("__init__.py"):
            parts = init.parent.relative_to(folder).parts
            if "__pycache__" not in parts and not (folder == ROOT / "android_gym" and parts[:1] and
                                                  f"android_gym.{parts[0]}" in config["package-dir"]):
                found.add(".".join((name, *parts)))
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == set(), "these listed packages do not exist"
