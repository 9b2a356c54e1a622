"""``android-gym eval`` on the simulated phone: real runs of the oracle and a do-nothing agent over three tasks,
resuming after a limit, a Ctrl-C and a torn results line, the summary (terminal and CSV), the HTML report read
back with lxml, and the errors a bad suite, agent, device list or run folder gives."""

from __future__ import annotations

import csv
import json

import pytest
import sample_agents
from lxml import html
from PIL import Image

from android_gym.cli import main
from android_gym.errors import DeviceSpecError, RunDirError, SuiteError
from android_gym.evaluation import RunFolder, read_results, resolve_suite, task_info, worker_devices
from android_gym.evaluation.suite import androidworld_metadata

TASKS = ["SimpleSmsSend", "ClockStopWatchRunning", "SystemWifiTurnOn"]
SUITE = ",".join(TASKS)
EPISODES = {(task, seed) for task in TASKS for seed in (0, 1)}


def results(out):
    return read_results(out / "results.jsonl")


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    """The oracle over the three tasks, two seeds each, in this process; its folder and what it printed."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("eval") / "oracle"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["eval", SUITE, "--agent", "oracle", "--seeds", "2", "--out", str(out)]) == 0
    return out, printed.getvalue()


def test_the_oracle_solves_every_episode(oracle_run):
    out, _ = oracle_run
    records = results(out)
    assert {(record["task"], record["seed"]) for record in records} == EPISODES and len(records) == 6
    for record in records:
        assert record["success"] and record["score"] == 1.0 and record["error"] is None
        assert record["invalid_actions"] == 0 and record["steps"] > 0 and record["tokens"] is None
        assert record["metrics"]["task_reward"] == 1.0 and record["metrics"]["reasonable_operation_ratio"] == 1.0
        assert isinstance(record["params"], dict) and record["goal"]
        folder = out / record["episode_dir"]
        assert folder == out / "episodes" / record["task"] / f"seed_{record['seed']}"
        assert json.loads((folder / "episode.json").read_text())["seed"] == record["seed"]
        assert len((folder / "trajectory.jsonl").read_text().splitlines()) == record["steps"]
        assert len((folder / "oracle.jsonl").read_text().splitlines()) == record["steps"]
    sms = [record for record in records if record["task"] == "SimpleSmsSend"]
    assert sms[0]["apps"] == ["SMS Messenger"] and sms[0]["difficulty"] == "medium" and sms[0]["optimal_steps"] == 6
    assert sms[0]["params"] != sms[1]["params"]  # each seed its own parameters
    assert not (out / ".staging").exists()


def test_summary_table_and_csv(oracle_run):
    out, printed = oracle_run
    table = printed.splitlines()
    assert table[0].split() == ["group", "name", "episodes", "success", "rate", "95%", "interval", "score", "steps",
                                "invalid", "errors"]
    assert table[2].split()[:6] == ["overall", "all", "6", "6", "1.00", "[0.61,"]
    assert f"report:  {out / 'report' / 'index.html'}" in printed
    rows = {(row["group"], row["name"]): row for row in csv.DictReader((out / "summary.csv").open())}
    assert set(rows) == {("overall", "all"), ("difficulty", "easy"), ("difficulty", "medium"),
                         ("tag", "parameterized"), ("tag", "screen_reading"),
                         ("app", "Clock"), ("app", "SMS Messenger"), ("app", "Settings"),
                         *(("task", task) for task in TASKS)}
    easy = rows["difficulty", "easy"]  # ClockStopWatchRunning and SystemWifiTurnOn
    assert (easy["episodes"], easy["successes"], easy["success_rate"]) == ("4", "4", "1")
    assert float(easy["success_low"]) == pytest.approx(0.5101, abs=1e-4) and easy["success_high"] == "1"
    assert rows["task", "SimpleSmsSend"]["mean_steps"] == "6" and rows["task", "SimpleSmsSend"]["task_reward"] == "1"
    assert rows["overall", "all"]["sub_goal_success_rate"] == ""  # nothing records sub-goals


def test_html_report_links_every_episode_and_picture(oracle_run):
    out, _ = oracle_run
    index = out / "report" / "index.html"
    tree = html.parse(str(index))
    pages = [link.get("href") for link in tree.iter("a") if link.get("href", "").endswith(".html")]
    assert sorted(pages) == sorted(f"{task}/seed_{seed}.html" for task, seed in EPISODES)
    assert [h2.text_content() for h2 in tree.iter("h2")] == ["By AndroidWorld difficulty", "By AndroidWorld tag",
                                                             "By app", "By task", "Episodes"]
    for record in results(out):
        page = index.parent / f"{record['task']}/seed_{record['seed']}.html"
        tree = html.parse(str(page))
        assert record["goal"] in tree.find(".//div[@class='goal']").text_content()
        cards = tree.findall(".//div[@class='step']")
        assert len(cards) == record["steps"] + 1  # each step's screen, then the final screen
        actions = [card.find(".//div[@class='action']") for card in cards[:-1]]
        assert actions[0].text_content().startswith("open app ")
        for image in tree.iter("img"):
            with Image.open(page.parent / image.get("src")) as picture:
                assert picture.size == (270, 600)
        links = {link.text_content(): link.get("href") for link in tree.iter("a")}
        assert links["← all episodes"] == "../index.html"
        assert all((page.parent / href).is_file() for href in links.values())


def test_a_do_nothing_agent_in_two_worker_processes(tmp_path, capsys):
    out = tmp_path / "idle"
    assert main(["eval", SUITE, "--agent", "sample_agents:make_idle", "--seeds", "2", "--workers", "2",
                 "--no-oracle-metrics", "--out", str(out)]) == 0
    records = results(out)
    assert {(record["task"], record["seed"]) for record in records} == EPISODES
    assert all(record["score"] == 0.0 and not record["success"] and record["steps"] == 3 for record in records)
    assert {record["worker"] for record in records} == {0, 1}
    assert all(record["metrics"]["task_reward"] is None for record in records)  # no oracle replayed
    for task, seed in EPISODES:  # waiting leaves the screen as it was: the GIF merges those frames, the report not
        page = html.parse(str(out / "report" / task / f"seed_{seed}.html"))
        assert len(list(page.iter("img"))) == 4
        assert [div.text_content() for div in page.iter("div") if div.get("class") == "action"] == \
            ["wait", "wait", "declare the task complete"]
    assert capsys.readouterr().out.splitlines()[2].split()[:5] == ["overall", "all", "6", "0", "0.00"]


def test_resume_after_a_limit_a_ctrl_c_and_a_torn_line(tmp_path, monkeypatch, capsys, oracle_run):
    monkeypatch.setattr(sample_agents, "INTERRUPT_AT", 2)  # each run's agent stops as its third episode starts
    out = tmp_path / "resumed"
    command = ["eval", SUITE, "--agent", "sample_agents:Interrupting", "--seeds", "2", "--out", str(out)]
    assert main([*command, "--limit", "1"]) == 0
    assert len(results(out)) == 1
    assert main(command) == 130  # two more episodes, then Ctrl-C
    assert "run the same command again to go on" in capsys.readouterr().err
    assert len(results(out)) == 3 and (out / ".staging").exists()  # the interrupted episode's recording
    with (out / "results.jsonl").open("a") as file:
        file.write('{"task": "SimpleSmsSend", "seed": 1, "sco')  # killed while writing a line
    assert main(command) == 130  # plays the next two, stops again
    assert main(command) == 0
    records = results(out)
    keys = [(record["task"], record["seed"]) for record in records]
    assert len(keys) == 6 and set(keys) == EPISODES  # each episode once: none repeated, none lost
    assert all(record["success"] for record in records)
    straight = {(record["task"], record["seed"]): record for record in results(oracle_run[0])}
    for record in records:  # resuming changes nothing about an episode
        twin = straight[record["task"], record["seed"]]
        assert (record["params"], record["steps"], record["score"]) == (twin["params"], twin["steps"], twin["score"])
    assert sorted(path.name for path in (out / "episodes").iterdir()) == sorted(TASKS)
    assert not (out / ".staging").exists()
    assert main(command) == 0 and len(results(out)) == 6  # nothing left to play


def test_agent_reasoning_tokens_and_errors_reach_results_and_report(tmp_path):
    out = tmp_path / "chatty"
    assert main(["eval", "ClockStopWatchRunning", "--agent", "sample_agents:Chatty", "--out", str(out)]) == 0
    [record] = results(out)
    assert record["tokens"] == {"prompt_tokens": 300, "completion_tokens": 21}  # 3 steps
    page = html.parse(str(out / "report" / "ClockStopWatchRunning" / "seed_0.html"))
    reasoning = [div.text_content() for div in page.iter("div") if div.get("class") == "reasoning"]
    assert reasoning == [f"Step {i}: <the oracle> knows & acts." for i in (1, 2, 3)]

    out = tmp_path / "crashing"
    command = ["eval", "ClockStopWatchRunning", "--agent", "sample_agents:Crashing", "--out", str(out)]
    assert main(command) == 0
    [record] = results(out)
    assert record["error"] == "RuntimeError: the model's reply was empty" and record["steps"] == 1
    assert not record["success"] and record["metrics"]["task_completion_ratio"] == pytest.approx(1 / 3)
    assert main([*command, "--retry-errors"]) == 0
    assert len(results(out)) == 2  # the retry's record is added ...
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert rows[0]["episodes"] == "1" and rows[0]["errors"] == "1"  # ... and replaces the first in the summary
    page = html.parse(str(out / "report" / "ClockStopWatchRunning" / "seed_0.html"))
    assert "RuntimeError: the model's reply was empty" in page.find(".//table[@class='facts']").text_content()


@pytest.mark.parametrize("argv, message", [
    (["NoSuchTask"], "no task named 'NoSuchTask'"),
    (["Nothing*"], "the glob 'Nothing*' matches no registered task"),
    (["SendSms,"], "empty item in the suite"),
    (["SendSms", "--agent", "sample_agents:make_idel"], "has no attribute 'make_idel'"),
    (["SendSms", "--workers", "2", "--device", "adb:emulator-5554"],
     "--workers 2 on --device adb:emulator-5554: a device serves one worker; list one device per worker"),
    (["SendSms", "--devices", "adb:emulator-5554,adb:emulator-5554"], "listed twice"),
])
def test_configuration_errors_say_what_to_fix(argv, message, tmp_path, capsys):
    assert main(["eval", *argv, "--out", str(tmp_path / "run")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run" / "results.jsonl").exists() or not results(tmp_path / "run")


def test_a_run_folder_keeps_its_agent(oracle_run, capsys):
    out, _ = oracle_run
    assert main(["eval", SUITE, "--agent", "random-valid", "--out", str(out)]) == 2
    assert f"{out} holds a run of --agent oracle, not random-valid; resume it with --agent oracle" in \
        capsys.readouterr().err
    with RunFolder(out, "oracle"):  # another evaluation is writing to it
        assert main(["eval", SUITE, "--out", str(out)]) == 2
    assert f"another `android-gym eval` is writing to {out}" in capsys.readouterr().err
    assert main(["eval", SUITE, "--out", str(out / "episodes")]) == 2  # a folder of something else
    assert "is not empty and holds no `android-gym eval` run (run.json); choose a new or empty folder" in \
        capsys.readouterr().err
    with pytest.raises(RunDirError, match="is not an episode's record"):
        (out.parent / "garbage").mkdir()
        (out.parent / "garbage" / "results.jsonl").write_text("not json\n{}\n")
        read_results(out.parent / "garbage" / "results.jsonl")


def test_report_command_rewrites_the_summary(oracle_run, capsys):
    out, _ = oracle_run
    (out / "summary.csv").unlink()
    assert main(["report", str(out)]) == 0
    assert (out / "summary.csv").is_file() and "overall" in capsys.readouterr().out
    assert main(["report", str(out / "episodes")]) == 2


def test_suites(tmp_path):
    androidworld = resolve_suite("androidworld")
    assert len(androidworld_metadata()) == 116  # AndroidWorld's whole list, every task of it built here
    assert sorted(androidworld) == sorted(androidworld_metadata())
    assert resolve_suite("Markor*Note") == ["MarkorCreateNote", "MarkorDeleteNewestNote", "MarkorDeleteNote",
                                            "MarkorEditNote", "MarkorMoveNote"]
    listing = tmp_path / "suite.txt"
    listing.write_text("# my suite\nSendSms\n\nAndroidWorld/ClockTimerEntry-v0  # by env id\nSendSms\n")
    assert resolve_suite(f"{listing},SystemWifiTurnOn") == ["SimpleSmsSend", "ClockTimerEntry", "SystemWifiTurnOn"]
    assert "ClockTimerEntryWithoutStopwatch" in resolve_suite("all")
    listing.write_text("SendSms\nSendSmz\n")
    with pytest.raises(SuiteError, match="line 2: no task named 'SendSmz'. Did you mean SendSms"):
        resolve_suite(str(listing))
    info = task_info("MarkorCreateNoteAndSms")
    assert info.apps == ("Markor", "SMS Messenger") and info.difficulty == "hard" and "multi_app" in info.tags
    assert task_info("TasksAddTask").difficulty is None  # ours, not AndroidWorld's
    assert task_info("ClockTimerEntryWithoutStopwatch").apps == ("Clock",)


def test_worker_devices():
    assert worker_devices("sim", 3) == ["sim"] * 3
    assert worker_devices(devices="sim,sim:540x1200,adb:emulator-5554") == ["sim", "sim:540x1200",
                                                                             "adb:emulator-5554"]
    assert worker_devices(devices="adb:emulator-5554@10.0.0.7") == ["adb:emulator-5554@10.0.0.7"]
    with pytest.raises(DeviceSpecError, match="nothing after '@'"):
        worker_devices(devices="adb:emulator-5554@")

