"""benchmarks/throughput.py, scaling.py and learning.py run end to end on tiny sizes: the tables have the rows and
columns they promise, the figures are consistent with each other, and the plot is a real PNG. No timing asserts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from PIL import Image

from android_gym.actions import Action, ActionType

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def scripts():
    """The two scripts as modules (scaling imports throughput as its sibling, as when run from benchmarks/)."""
    sys.path.insert(0, str(BENCHMARKS))
    modules = {}
    try:
        for name in ("throughput", "scaling", "learning", "resets", "fuzz", "rl_view", "generalization"):
            spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
            modules[name] = importlib.util.module_from_spec(spec)
            sys.modules[name] = modules[name]
            spec.loader.exec_module(modules[name])
        yield modules
    finally:
        sys.path.remove(str(BENCHMARKS))
        for name in modules:
            sys.modules.pop(name, None)


def table(output: str) -> list[list[str]]:
    """The Markdown table in ``output``: header then body rows, as stripped cells (the rule line dropped)."""
    lines = [line for line in output.splitlines() if line.startswith("|") and not line.startswith("|-")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def number(cell: str) -> float:
    return float(cell.replace(",", "").removesuffix("x"))


def test_throughput_prints_a_row_per_screen(scripts, capsys):
    rows = scripts["throughput"].main(["--screens", "540x1200,270x600", "--steps", "8", "--resets", "2",
                                       "--memory-envs", "1", "--memory-steps", "3"])
    output = capsys.readouterr().out
    assert output.startswith("machine: ") and "CPUs" in output and "Python" in output
    header, *body = table(output)
    assert header == ["screen", "steps/s a11y only", "a11y outside Chrome", "Chrome share a11y", "steps/s pixels",
                      "pixels outside Chrome", "Chrome share pixels", "reset ms a11y only", "reset ms pixels",
                      "MB/env (pixels)", "MB/env steady"]
    assert [row[0] for row in body] == ["540x1200", "270x600"]
    for printed, returned in zip(body, rows):
        rates = [cell for name, cell in zip(header, printed) if "share" not in name]
        assert all(number(cell) > 0 for cell in rates[1:])  # an env costs memory, every rate is a rate
        assert all(0 <= returned[name] <= 1 for name in header if "share" in name)
        assert number(printed[1]) == pytest.approx(returned["steps/s a11y only"], abs=0.5)


def test_throughput_under_the_valid_action_policy_on_the_cpu_clock(scripts, capsys):
    rows = scripts["throughput"].main(["--screens", "540x1200", "--steps", "8", "--resets", "1", "--memory-envs", "1",
                                       "--memory-steps", "3", "--policy", "random-valid", "--clock", "cpu"])
    assert "seeded random-valid policy, one process, cpu time" in capsys.readouterr().out
    assert rows[0]["steps/s a11y only"] > 0 and rows[0]["steps/s pixels"] > 0


class _ChromeThenHome:
    """Taps Chrome in the home screen's dock, goes home, goes home again, and so on: two of each three steps show
    Chrome."""

    def __init__(self) -> None:
        self._step = 0

    def reset(self, env) -> None:
        pass

    def act(self, observation, info) -> Action:
        self._step += 1
        if self._step % 3 == 1:
            chrome = next(e for e in info["ui_elements"] if "Chrome" in (e.text, e.content_description))
            return Action(ActionType.CLICK, index=chrome.index)
        return Action(ActionType.NAVIGATE_HOME)


def test_throughput_counts_the_steps_that_show_chrome_apart(scripts, monkeypatch):
    monkeypatch.setattr(scripts["throughput"], "load_agent", lambda policy, seed: _ChromeThenHome())
    rate = scripts["throughput"].steps_per_second("AndroidWorld/SendSms-v0", False, 6, device="sim:540x1200")
    assert 0 < rate.browser_share < 1 and rate.outside_browser > 0 and rate.steps_per_second > 0


def test_resets_prints_the_catalogue_figures_and_the_slowest_tasks(scripts, capsys):
    per_task = scripts["resets"].main(["--tasks", "SimpleSmsRe*", "--resets", "1", "--slowest", "2"])
    output = capsys.readouterr().out
    assert sorted(per_task) == ["SimpleSmsReply", "SimpleSmsReplyMostRecent", "SimpleSmsResend"]
    catalogue, slowest = (table(part) for part in output.split("| slowest task"))
    assert catalogue == [["catalogue", "median reset ms", "worst reset ms"],
                         ["all tasks", f"{sorted(per_task.values())[1]:.2f}", f"{max(per_task.values()):.2f}"]]
    assert [row[0] for row in slowest] == sorted(per_task, key=lambda task: -per_task[task])[:2]


def test_resets_times_cpu_when_asked(scripts, capsys, monkeypatch):
    ticks = iter(range(1000))
    monkeypatch.setitem(scripts["resets"].CLOCKS, "cpu", lambda: next(ticks) / 1000)  # 1 ms a read
    per_task = scripts["resets"].main(["--tasks", "SimpleSmsResend", "--resets", "1", "--clock", "cpu"])
    assert "(cpu time)" in capsys.readouterr().out
    assert per_task == {"SimpleSmsResend": 1.0}


def test_rl_view_prints_steps_per_second_per_task(scripts, capsys, monkeypatch):
    ticks = iter(range(1000))
    monkeypatch.setitem(scripts["rl_view"].CLOCKS, "cpu", lambda: next(ticks) / 8)  # 0.125 s a read
    rates = scripts["rl_view"].main(["--tasks", "SendSms,SystemWifiTurnOn", "--steps", "5", "--clock", "cpu"])
    output = capsys.readouterr().out
    assert rates == {"SendSms": 40.0, "SystemWifiTurnOn": 40.0}  # 5 steps between two reads
    assert "(cpu time)" in output
    assert table(output) == [["task", "RL steps/s"], ["SendSms", "40"], ["SystemWifiTurnOn", "40"]]


def test_resets_refuses_a_glob_that_matches_nothing(scripts):
    with pytest.raises(SystemExit, match="no registered task"):
        scripts["resets"].main(["--tasks", "NoSuchTask*"])


def test_fuzz_counts_every_garbage_action_and_solves_after_it(scripts, capsys):
    totals = scripts["fuzz"].main(["--tasks", "SimpleSmsSend", "--episodes", "6", "--max-actions", "8",
                                   "--solve-every", "2"])
    output = capsys.readouterr().out
    assert output.startswith("1 tasks, 6 episodes") and "FAILED" not in output
    assert totals["failures"] == 0 and totals["oracle_solved"] == 3
    assert totals["actions"] == totals["invalid"] + totals["acted"] > 0
    assert f"        actions: {totals['actions']}" in output


def test_throughput_rejects_a_malformed_screen(scripts, capsys):
    with pytest.raises(SystemExit):
        scripts["throughput"].main(["--screens", "540by1200"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_scaling_table_and_plot(scripts, tmp_path, capsys, monkeypatch):
    """The table's wiring: every mode × screen setting × env count (the rates are not checked: 2 steps after 1
    warm-up step, not the script's 10, keep the ten measurements short)."""
    monkeypatch.setattr(scripts["scaling"], "WARMUP_STEPS", 1)
    path = tmp_path / "figures" / "scaling.png"
    rows = scripts["scaling"].main(["--steps", "2", "--envs", "2,1", "--plot", str(path)])
    output = capsys.readouterr().out
    assert output.startswith("machine: ")
    header, *body = table(output)
    assert header == ["mode", "pixels", "envs", "vector steps/s", "env steps/s", "speedup",
                      "env steps/s outside Chrome", "speedup outside Chrome"]
    series = [("gym sync", "off"), ("gym async", "off"), ("sb3 SubprocVecEnv", "off"), ("gym sync", "on"),
              ("gym async", "on")]  # make_rl_env drops the screen: no sb3 row with pixels on
    assert [tuple(row[:3]) for row in body] == [(*s, n) for s in series for n in ("1", "2")]
    assert "sb3 with pixels on: skipped" in output
    for row, result in zip(body, rows):
        assert number(row[4]) == pytest.approx(int(row[2]) * number(row[3]), rel=0.01, abs=1)
        assert result["env steps/s"] == pytest.approx(result["envs"] * result["vector steps/s"])
    assert [row[5] for row in body[::2]] == ["1.00x"] * len(series)
    assert {cell for row in body for cell in row[6:]} == {"-"}  # the vector modes time whole vector steps
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (640, 400)


def test_scaling_prints_only_without_plot(scripts, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rows = scripts["scaling"].main(["--steps", "2", "--envs", "1", "--modes", "sync", "--pixels", "off"])
    assert [(row["mode"], row["pixels"], row["envs"]) for row in rows] == [("gym sync", "off", 1)]
    assert "plot:" not in capsys.readouterr().out
    assert not any(tmp_path.iterdir())


def test_scaling_processes_mode_steps_separate_processes_together(scripts, capsys):
    rows = scripts["scaling"].main(["--steps", "3", "--envs", "2", "--modes", "processes", "--pixels", "off"])
    assert "random-valid in the processes mode" in capsys.readouterr().out
    [row] = rows
    assert (row["mode"], row["pixels"], row["envs"], row["speedup"]) == ("processes", "off", 2, 1.0)
    assert row["vector steps/s"] > 0 and row["env steps/s"] == pytest.approx(2 * row["vector steps/s"])
    assert row["env steps/s outside Chrome"] > 0 and row["speedup outside Chrome"] == 1.0  # over itself, at N=2


@pytest.mark.parametrize(("option", "value", "message"), [("--envs", "0,2", "positive integers"),
                                                           ("--modes", "sync,ray", "unknown ray")])
def test_scaling_rejects_bad_options(scripts, capsys, option, value, message):
    with pytest.raises(SystemExit):
        scripts["scaling"].main([option, value])
    assert message in capsys.readouterr().err


def test_scaling_plot_without_matplotlib_fails_before_measuring(scripts, tmp_path, monkeypatch, capsys):
    from android_gym.errors import AndroidGymError

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(AndroidGymError, match=r"pip install -e \".\[rl\]\""):
        scripts["scaling"].main(["--envs", "1", "--plot", str(tmp_path / "scaling.png")])
    assert capsys.readouterr().out == ""  # nothing was measured
    assert not any(tmp_path.iterdir())


def test_learning_suite_table_and_figure(scripts, tmp_path, capsys):
    """Two tasks in the multitask regime (one run; train_ppo's own tests cover the single-task ones and cloning
    demonstrations for several tasks), tiny budgets and no demonstrations: a row per task with the run's figures,
    and a real PNG."""
    rows = scripts["learning"].main(["--tasks", "ClockStopWatchRunning", "SystemWifiTurnOff", "--regimes",
                                     "multitask", "--steps", "32", "--bc-episodes", "0", "--eval-episodes", "2",
                                     "--workers", "1", "--n-steps", "64", "--policy-net", "elements",
                                     "--out", str(tmp_path)])
    body = table(capsys.readouterr().out)[1:]
    assert [(row[0], row[2]) for row in body] == [("ClockStopWatchRunning", "multitask (one policy)"),
                                                  ("SystemWifiTurnOff", "multitask (one policy)")]
    assert [row["final_held_out_success"] for row in rows] == [number(row[3].split("/")[0]) for row in body]
    assert [row[4] for row in body] == ["64", "64"]  # 32 steps per task: one rollout of --n-steps, not of 256
    assert [row["policy_net"] for row in rows] == ["elements", "elements"]
    assert (tmp_path / "results.md").read_text().count("\n") == 4
    assert Image.open(tmp_path / "results.png").format == "PNG"


def test_generalization_tables_give_each_held_out_value_alone(scripts):
    """The policies' table, then one of the held-out values alone, each a condition train_ppo tests under."""
    generalization = scripts["generalization"]
    from _examples import load_example

    assert set(generalization.FACTORS) <= set(load_example("train_ppo").TEST_CONDITIONS)
    conditions = (*generalization.CONDITIONS, *generalization.FACTORS)
    rows = [{"task": task, **{name: 0.05 * number for number, name in enumerate(conditions)}, "wall_seconds": 30.0}
            for task in ("SendSms", "MarkorCreateFolder")]
    text = generalization.tables(rows, [])
    first, factors = text.split("\n\n")[:2]
    assert table(first) == [["task", *generalization.CONDITIONS, "wall-clock"],
                            ["SendSms", "0.00", "0.05", "0.10", "0.15", "30 s"],
                            ["MarkorCreateFolder", "0.00", "0.05", "0.10", "0.15", "30 s"]]
    assert table(factors) == [["task (default phone but)", *generalization.FACTORS],
                              ["SendSms", "0.20", "0.25", "0.30", "0.35"],
                              ["MarkorCreateFolder", "0.20", "0.25", "0.30", "0.35"]]


def test_startup_prints_the_cpu_of_a_fresh_process_per_scenario(capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("startup", BENCHMARKS / "startup.py")
    startup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(startup)
    monkeypatch.setattr(sys, "argv", ["startup.py", "--runs", "1", "phone"])
    startup.main()
    name, _, seconds, *_ = capsys.readouterr().out.split()
    assert name == "phone" and float(seconds) > 0
