"""Fixtures of the wrapper tests: real device dumps (``tests/fixtures/uiautomator/README.md`` says where each is
from)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.fixture(scope="session")
def launcher_dump() -> str:
    """A real ``uiautomator dump`` of the Pixel Launcher home screen (1080x1794)."""
    return _read("pixel_launcher_home_1080x1794")


@pytest.fixture(scope="session")
def real_dump() -> Callable[[str], str]:
    """``real_dump(name)``: the real ``uiautomator dump`` ``tests/fixtures/uiautomator/<name>.xml``."""
    return _read


def _read(name: str) -> str:
    return (FIXTURES / "uiautomator" / f"{name}.xml").read_text(encoding="utf-8")
