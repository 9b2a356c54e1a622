"""A static HTML report of an evaluation: ``report/index.html`` (the summary tables and every episode) and a page
per episode (goal, outcome, metrics, and each step's screen with the action drawn on it, the agent's reasoning and
the score after it), with the pictures as PNG files beside the pages. Standard library HTML, no scripts."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from html import escape
from pathlib import Path
from string import Template
from typing import Any

from PIL import Image, ImageSequence

from android_gym.evaluation.annotate import describe, draw_step, shorten
from android_gym.evaluation.summary import GROUPS, METRICS, SUMMARY_FILE, Row
from android_gym.metrics.episode import EPISODE_FILE, TRAJECTORY_FILE

REPORT_DIR = "report"
#: Width of the step pictures in the report, in pixels (the recording's GIF is 270 px wide at its default scale).
PICTURE_WIDTH = 270

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328;
       background: #f6f8fa; }
header, main { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 24px; margin: 4px 0 6px; }
h2 { font-size: 19px; margin: 28px 0 8px; }
a { color: #0969da; text-decoration: none; }
a:hover { text-decoration: underline; }
nav { font-size: 14px; display: flex; gap: 18px; }
.goal { background: #fff; border-left: 4px solid #0969da; padding: 10px 14px; margin: 12px 0; font-size: 16px; }
.ok { color: #1a7f37; font-weight: 600; }
.fail { color: #cf222e; font-weight: 600; }
.muted { color: #656d76; font-size: 13px; }
table { border-collapse: collapse; background: #fff; font-size: 14px; margin: 6px 0 14px; }
th, td { border: 1px solid #d0d7de; padding: 4px 9px; text-align: left; vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th, td.nowrap { white-space: nowrap; }
.bar { display: inline-block; height: 9px; background: #2da44e; vertical-align: middle; margin-right: 6px; }
.bar.zero { background: #d0d7de; width: 2px; }
.facts td:first-child { color: #656d76; white-space: nowrap; }
.facts-row { display: flex; flex-wrap: wrap; gap: 0 18px; align-items: flex-start; }
.steps { display: grid; grid-template-columns: repeat(auto-fill, minmax(290px, 1fr)); gap: 14px; margin: 10px 0 40px; }
.step { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 10px; }
.step h3 { font-size: 15px; margin: 0 0 6px; display: flex; justify-content: space-between; }
.step img { display: block; width: 100%; max-width: 270px; margin: 0 auto 8px; border: 1px solid #d0d7de;
            border-radius: 4px; }
.action { font-weight: 600; }
.step code { display: block; font-size: 12px; color: #656d76; word-break: break-all; margin-top: 2px; }
.reasoning { background: #f6f8fa; border-left: 3px solid #8250df; margin: 8px 0 0; padding: 6px 9px;
             font-size: 13px; white-space: pre-wrap; }
.invalid { color: #cf222e; font-size: 13px; }
details { margin: 6px 0; }
pre { background: #fff; border: 1px solid #d0d7de; padding: 8px; overflow-x: auto; font-size: 12px; }
"""

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>$style</style>
</head>
<body>
<header>
<nav>$nav</nav>
<h1>$heading</h1>
</header>
<main>
$body
</main>
</body>
</html>
""")

GROUP_TITLES = {"overall": "Overall", "difficulty": "By AndroidWorld difficulty", "tag": "By AndroidWorld tag",
                "app": "By app", "task": "By task"}
METRIC_TITLES = {
    "task_reward": "task reward (AndroidArena)",
    "task_completion_ratio": "task completion ratio (AndroidArena)",
    "reversed_redundancy_ratio": "reversed redundancy ratio (successful episodes)",
    "reversed_redundancy_ratio_arena": "reversed redundancy ratio (AndroidArena, failed = 0)",
    "reasonable_operation_ratio": "reasonable operation ratio (AndroidLab)",
    "invalid_action_ratio": "invalid action ratio",
    "repeated_action_ratio": "repeated action ratio",
    "sub_goal_success_rate": "sub-goal success rate (AndroidLab)",
}


def page_name(record: dict[str, Any]) -> str:
    """The episode page's path inside ``report/``."""
    return f"{record['task']}/seed_{record['seed']}.html"


def _outcome(record: dict[str, Any]) -> str:
    if record["error"]:
        return f'<span class="fail">error</span> <span class="muted">score {record["score"]:.2f}</span>'
    if record["success"]:
        return f'<span class="ok">✓ success</span> <span class="muted">score {record["score"]:.2f}</span>'
    return f'<span class="fail">✗ failed</span> <span class="muted">score {record["score"]:.2f}</span>'


def _page(title: str, nav: str, heading: str, body: str) -> str:
    return PAGE.substitute(title=escape(title), style=STYLE, nav=nav, heading=heading, body=body)


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


# ----- index ---------------------------------------------------------------------------------------------------
def _summary_table(rows: Sequence[Row]) -> str:
    head = ("<tr><th>name</th><th>episodes</th><th>success rate</th><th>95% interval</th><th>score</th>"
            "<th>steps</th><th>task reward</th><th>invalid</th><th>errors</th></tr>")
    lines = []
    for row in rows:
        width = round(row.success_rate * 80)
        bar = f'<span class="bar" style="width:{width}px"></span>' if width else '<span class="bar zero"></span>'
        name = (f'<a href="#episodes-{escape(row.name)}">{escape(row.name)}</a>' if row.group == "task"
                else escape(row.name))
        lines.append(
            f"<tr><td>{name}</td><td class='num'>{row.episodes}</td>"
            f"<td>{bar}{row.successes}/{row.episodes} = {row.success_rate:.2f}</td>"
            f"<td class='num'>{row.interval[0]:.2f} – {row.interval[1]:.2f}</td>"
            f"<td class='num'>{row.mean_score:.2f}</td><td class='num'>{row.mean_steps:.1f}</td>"
            f"<td class='num'>{_number(row.metrics.get('task_reward'))}</td>"
            f"<td class='num'>{row.invalid_actions}</td><td class='num'>{row.errors}</td></tr>")
    return f"<table>{head}{''.join(lines)}</table>"


def _episodes_table(records: Sequence[dict[str, Any]]) -> str:
    head = ("<tr><th>task</th><th>seed</th><th>outcome</th><th>steps</th><th>invalid</th><th>time (s)</th>"
            "<th>goal</th></tr>")
    lines, previous = [], None
    for record in records:
        anchor = f' id="episodes-{escape(record["task"])}"' if record["task"] != previous else ""
        previous = record["task"]
        lines.append(
            f"<tr{anchor}><td>{escape(record['task'])}</td><td class='num'>"
            f"<a href='{escape(page_name(record))}'>seed {record['seed']}</a></td>"
            f"<td class='nowrap'>{_outcome(record)}</td>"
            f"<td class='num'>{record['steps']}</td><td class='num'>{record['invalid_actions']}</td>"
            f"<td class='num'>{record['wall_seconds']:.1f}</td>"
            f"<td>{escape(shorten(record.get('goal') or record.get('error') or '', 110))}</td></tr>")
    return f"<table>{head}{''.join(lines)}</table>"


def write_index(path: Path, rows: Sequence[Row], records: Sequence[dict[str, Any]], agent: str) -> None:
    """``index.html``: the summary per group and the list of episodes, each linking to its page."""
    overall = rows[0]
    parts = [f"<p>{overall.episodes} episodes of {len({r['task'] for r in records})} tasks, "
             f"{overall.successes} solved: success rate <b>{overall.success_rate:.2f}</b> (95% Wilson interval "
             f"{overall.interval[0]:.2f} – {overall.interval[1]:.2f}), {overall.errors} with errors. "
             f"Files: <a href='../{SUMMARY_FILE}'>{SUMMARY_FILE}</a>, <a href='../results.jsonl'>results.jsonl"
             "</a>.</p>"]
    for group in GROUPS[1:]:
        group_rows = [row for row in rows if row.group == group]
        if group_rows:
            parts.append(f"<h2>{GROUP_TITLES[group]}</h2>{_summary_table(group_rows)}")
    parts.append(f"<h2>Episodes</h2>{_episodes_table(records)}")
    nav = '<a href="../">run folder</a>'
    path.write_text(_page(f"Evaluation of {agent}", nav, f"Evaluation of <code>{escape(agent)}</code>",
                          "\n".join(parts)), encoding="utf-8")


# ----- episode pages -------------------------------------------------------------------------------------------
def _screens(folder: Path, frame_ms: int) -> list[Image.Image]:
    """The recorded screens, after the reset and after each step: the full-size frames when recorded, else the
    GIF's (a frame shown ``k × frame_ms`` stands for ``k`` equal screens), scaled to ``PICTURE_WIDTH``."""
    frames = sorted((folder / "frames").glob("step_*.png")) if (folder / "frames").is_dir() else []
    if frames:
        images = []
        for frame in frames:
            with Image.open(frame) as image:
                images.append(image.convert("RGB"))
    elif (folder / "screen.gif").is_file():
        with Image.open(folder / "screen.gif") as gif:
            images = [screen for frame in ImageSequence.Iterator(gif) for screen in
                      [frame.convert("RGB")] * max(1, round(frame.info.get("duration", frame_ms) / frame_ms))]
    else:
        return []
    return [image.resize((PICTURE_WIDTH, round(image.height * PICTURE_WIDTH / image.width)), Image.LANCZOS)
            if image.width != PICTURE_WIDTH else image for image in images]


def _table(rows: Sequence[tuple[str, str]]) -> str:
    return '<table class="facts">' + "".join(f"<tr><td>{name}</td><td>{value}</td></tr>" for name, value in rows) \
        + "</table>"


def _facts(record: dict[str, Any], about: dict[str, Any]) -> str:
    """The episode's outcome and task beside its metrics, then its parameters (folded)."""
    optimal = f" (a person: {record['optimal_steps']}, AndroidWorld)" if record.get("optimal_steps") else ""
    rows = [("outcome", _outcome(record)), ("steps", f"{record['steps']}{optimal}"),
            ("invalid actions", str(record["invalid_actions"])), ("time", f"{record['wall_seconds']:.2f} s")]
    if record.get("tokens"):
        rows.append(("tokens", escape(", ".join(f"{k.removesuffix('_tokens')} {v}"
                                                for k, v in record["tokens"].items()))))
    if record["error"]:
        rows.append(("error", f'<span class="fail">{escape(record["error"])}</span>'))
    rows += [("apps", escape(", ".join(record.get("apps") or []) or "–")),
             ("difficulty", escape(record.get("difficulty") or "not an AndroidWorld task")),
             ("tags", escape(", ".join(record.get("tags") or []) or "–")),
             ("agent · device", escape(f"{record.get('agent', '?')} · {record.get('device', '?')}"))]
    metrics = [(METRIC_TITLES[name], _number(record["metrics"].get(name))) for name in METRICS
               if record["metrics"].get(name) is not None]
    params = escape(json.dumps(about.get("params", record.get("params")), indent=1, ensure_ascii=False))
    return (f'<div class="facts-row">{_table(rows)}{_table(metrics) if metrics else ""}</div>'
            f"<details><summary>task parameters</summary><pre>{params}</pre></details>")


def _step_card(number: int, step: dict[str, Any] | None, picture: str) -> str:
    image = f'<img src="{escape(picture)}" alt="screen before step {number}" loading="lazy">'
    if step is None:
        return f'<div class="step"><h3><span>Final screen</span></h3>{image}</div>'
    result = f"score {step['score']:.2f}" + (f" ({step['reward']:+.2f})" if step["reward"] else "")
    parts = [f'<h3><span>Step {number}</span><span class="muted">{result}</span></h3>', image,
             f'<div class="action">{escape(describe(step))}</div>',
             f"<code>{escape(json.dumps(step.get('action'), ensure_ascii=False))}</code>"]
    if step.get("invalid_action"):
        parts.append(f'<div class="invalid">invalid: {escape(step["invalid_action"])}</div>')
    elif step.get("screen_changed") is False:
        parts.append('<div class="muted">the screen did not change</div>')
    if step.get("backend_error"):
        parts.append(f'<div class="invalid">device failed: {escape(step["backend_error"])}</div>')
    reasoning = (step.get("agent") or {}).get("reasoning")
    if reasoning:
        parts.append(f'<div class="reasoning">{escape(str(reasoning))}</div>')
    return f'<div class="step">{"".join(parts)}</div>'


def write_episode(run_dir: Path, report_dir: Path, record: dict[str, Any], nav: str) -> None:
    """The episode's page and its pictures (``<task>/seed_<seed>/step_NNN.png``)."""
    page = report_dir / page_name(record)
    pictures = page.with_suffix("")
    pictures.mkdir(parents=True, exist_ok=True)
    folder = run_dir / record["episode_dir"] if record.get("episode_dir") else None
    about, steps, screens = {}, [], []
    if folder is not None and folder.is_dir():
        about = json.loads((folder / EPISODE_FILE).read_text(encoding="utf-8"))
        steps = [json.loads(line) for line in (folder / TRAJECTORY_FILE).read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        screens = _screens(folder, about.get("gif_frame_ms", 600))
    screen_size = tuple(about.get("screen_size") or (1080, 2400))
    cards = []
    for number, screen in enumerate(screens):
        step = steps[number] if number < len(steps) else None
        (draw_step(screen, step, screen_size) if step else screen).save(pictures / f"step_{number:03d}.png")
        cards.append(_step_card(number + 1, step, f"{pictures.name}/step_{number:03d}.png"))
    goal = record.get("goal") or about.get("goal") or ""
    steps_html = (f'<p class="muted">Each picture is the screen the agent acted on, with its action drawn: a red '
                  "ring where it tapped (two for a long press or double tap), an arrow for a scroll or swipe, the "
                  "target element framed in amber, typed text in a dark label.</p>"
                  f'<div class="steps">{"".join(cards)}</div>' if cards else
                  '<p class="muted">Nothing was recorded: the episode did not get past its reset.</p>')
    body = f'<div class="goal">{escape(goal)}</div>{_facts(record, about)}<h2>Steps</h2>{steps_html}'
    heading = f"{escape(record['task'])} · seed {record['seed']} — {_outcome(record)}"
    page.write_text(_page(f"{record['task']} seed {record['seed']}", nav, heading, body), encoding="utf-8")


def write_report(run_dir: Path, records: Sequence[dict[str, Any]], rows: Sequence[Row], agent: str) -> Path:
    """Write ``run_dir/report/`` afresh for ``records`` (sorted by task and seed) and return its index."""
    report_dir = run_dir / REPORT_DIR
    shutil.rmtree(report_dir, ignore_errors=True)
    report_dir.mkdir(parents=True)
    ordered = sorted(records, key=lambda record: (record["task"], record["seed"]))
    for index, record in enumerate(ordered):
        links = ['<a href="../index.html">← all episodes</a>']
        if index:
            links.append(f'<a href="../{escape(page_name(ordered[index - 1]))}">← previous</a>')
        if index + 1 < len(ordered):
            links.append(f'<a href="../{escape(page_name(ordered[index + 1]))}">next →</a>')
        write_episode(run_dir, report_dir, record, " ".join(links))
    write_index(report_dir / "index.html", rows, ordered, agent)
    return report_dir / "index.html"
