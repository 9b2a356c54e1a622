"""Fixtures of the wrapper tests: the real device dump, and an env that has played a few oracle steps."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.fixture(scope="session")
def launcher_dump() -> str:
    """A real ``uiautomator dump`` of the Pixel Launcher home screen (1080x1794)."""
    return (FIXTURES / "uiautomator" / "pixel_launcher_home_1080x1794.xml").read_text(encoding="utf-8")
