"""The example scripts run as a user would run them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_quickstart_solves_sendsms():
    result = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True, text=True,
                            check=True, timeout=120)
    assert "goal: Send a text message" in result.stdout
    assert result.stdout.strip().endswith("solved: True")
