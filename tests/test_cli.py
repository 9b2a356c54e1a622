"""The ``android-gym`` command: run with recording, random agent, list, errors."""

from __future__ import annotations

import json
import subprocess
import sys

from PIL import Image

from android_gym.cli import main


def test_run_oracle_records_episodes(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["run", "AndroidWorld/SendSms-v0", "--agent", "oracle", "--episodes", "2", "--seed", "0",
                 "--record", str(out)]) == 0
    assert "success rate: 2/2 = 1.00" in capsys.readouterr().out
    for episode in ("episode_000", "episode_001"):
        folder = out / episode
        goal = (folder / "goal.txt").read_text()
        assert goal.startswith("Send a text message using Simple SMS Messenger to ")
        lines = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]
        assert lines[-1]["score"] == 1.0 and sum(line["reward"] for line in lines) == 1.0
        assert all({"action", "reward", "score", "invalid_action"} <= set(line) for line in lines)
        assert lines[0]["action"]["action_type"] == "open_app"
        with Image.open(folder / "screen.gif") as gif:
            assert gif.n_frames == len(lines) + 1 and gif.size == (270, 600)
    goals = {(out / e / "goal.txt").read_text() for e in ("episode_000", "episode_001")}
    assert len(goals) == 2


def test_run_random_agent(capsys):
    assert main(["run", "SendSms", "--agent", "random", "--episodes", "2", "--seed", "1"]) == 0
    assert "success rate: 0/2 = 0.00" in capsys.readouterr().out


def test_list_and_errors(capsys):
    assert main(["list"]) == 0
    listing = capsys.readouterr().out
    assert "AndroidWorld/SendSms-v0" in listing and "AndroidWorld/SimpleSmsReplyMostRecent-v0" in listing
    assert main(["run", "SendSmz"]) == 2
    assert "Did you mean" in capsys.readouterr().err


def test_console_script_is_installed():
    result = subprocess.run([sys.executable, "-m", "android_gym.cli", "list"], capture_output=True, text=True,
                            check=True)
    assert "AndroidWorld/SimpleSmsSend-v0" in result.stdout
