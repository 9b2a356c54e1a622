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


def test_llm_agent_loop_solves_tasks_in_each_dialect():
    runs = (("androidarena", "SimpleSmsReply"), ("appagent", "SendSms"), ("androidworld", "ClockTimerEntry"))
    for dialect, task in runs:
        result = subprocess.run([sys.executable, str(EXAMPLES / "llm_agent.py"), "--dialect", dialect, "--task", task,
                                 "--show-prompt"], capture_output=True, text=True, check=True, timeout=120)
        assert "How to write your action:" in result.stdout
        assert result.stdout.strip().endswith("score: 1.00  unreadable replies: 0  invalid actions: 0"), result.stdout
