"""The ``android-gym`` command: run with recording, random agent, list, errors."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest
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
    variant = next(line for line in listing.splitlines() if "/ClockTimerEntryWithoutStopwatch-v0 " in line)
    assert variant.split()[1:] == "steps= 10 ClockTimerEntry + Do not tap the Stopwatch tab.".split()
    assert main(["run", "ClockTimerEntryWithoutStopwatch", "--episodes", "2"]) == 0
    assert "success rate: 2/2" in capsys.readouterr().out
    assert main(["run", "SendSmz"]) == 2
    assert "Did you mean" in capsys.readouterr().err


def test_console_script_is_installed():
    result = subprocess.run([sys.executable, "-m", "android_gym.cli", "list"], capture_output=True, text=True,
                            check=True)
    assert "AndroidWorld/SimpleSmsSend-v0" in result.stdout


def test_devices_lists_the_sim_and_what_adb_sees(served_phone, capsys):
    assert main(["devices"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("sim\t")
    assert f"adb:{served_phone.serial}\tdevice" in lines


def test_run_on_the_adb_path(fresh_served_phone, capsys):
    assert main(["run", "SendSms", "--device", f"adb:{fresh_served_phone.serial}", "--episodes", "1"]) == 0
    assert "success rate: 1/1 = 1.00" in capsys.readouterr().out


def test_sim_serve_on_a_taken_port_says_which(served_phone, capsys):
    assert main(["sim", "serve", "--adb-port", str(served_phone.adb_port)]) == 2
    assert f"cannot listen on 127.0.0.1 ports {served_phone.console_port}/{served_phone.adb_port}" in \
        capsys.readouterr().err


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "phone.example"])
def test_sim_serve_refuses_to_expose_the_phone_without_insecure(host, capsys):
    assert main(["sim", "serve", "--host", host]) == 2
    refusal = capsys.readouterr().err
    assert f"--host {host} gives anyone who can reach it a root adb shell, with no credentials" in refusal
    assert "--adb-auth" in refusal and "--insecure" in refusal


def test_sim_serve_exposes_the_phone_with_insecure_and_a_warning(capsys):
    from android_gym.sim.adb_harness import free_port_pair

    # A port taken by this test: serving stops at listening, after the warning.
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", free_port_pair()))
        port = taken.getsockname()[1]
        assert main(["sim", "serve", "--host", "0.0.0.0", "--insecure", "--adb-port", str(port)]) == 2
    err = capsys.readouterr().err
    assert "android-gym: warning: --host 0.0.0.0 gives anyone" in err and "cannot listen on 0.0.0.0" in err


@pytest.mark.parametrize("argv, message", [
    (["--adb-port", "70000"], "not a TCP port: 70000"),
    (["--size", "wide"], "expected WIDTHxHEIGHT like 1080x2400, got 'wide'"),
])
def test_sim_serve_rejects_bad_arguments(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "serve", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
