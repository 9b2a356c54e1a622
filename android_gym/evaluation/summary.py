"""An evaluation's summary from its records: per task, app, AndroidWorld difficulty and tag, and overall — the
episodes, successes, success rate with Wilson's 95 % interval, mean score, steps, invalid actions, errors, tokens
and the means of the per-episode metrics — as a terminal table and as ``summary.csv``."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from android_gym.metrics import EPISODE_METRICS, wilson_interval

SUMMARY_FILE = "summary.csv"
#: The groups of the summary, in the order they are shown. A task counts under each app it uses and each of its
#: AndroidWorld tags; tasks that are not AndroidWorld's have no difficulty or tags.
GROUPS = ("overall", "difficulty", "tag", "app", "task")
DIFFICULTIES = ("easy", "medium", "hard")
#: The per-episode metrics averaged in the summary (the score has its own column).
METRICS = tuple(name for name in EPISODE_METRICS if name != "score")


@dataclass(frozen=True)
class Row:
    """One group's figures; ``metrics`` maps each metric to its mean over the episodes where it is defined."""

    group: str
    name: str
    episodes: int
    successes: int
    interval: tuple[float, float]
    mean_score: float
    mean_steps: float
    invalid_actions: int
    errors: int
    mean_tokens: float | None
    metrics: dict[str, float | None]

    @property
    def success_rate(self) -> float:
        """Successes over episodes."""
        return self.successes / self.episodes


def _members(record: dict[str, Any]) -> Iterable[tuple[str, str]]:
    yield "overall", "all"
    if record.get("difficulty"):
        yield "difficulty", record["difficulty"]
    for tag in record.get("tags") or ():
        yield "tag", tag
    for app in record.get("apps") or ():
        yield "app", app
    yield "task", record["task"]


def _order(key: tuple[str, str]) -> tuple[int, int, str]:
    group, name = key
    rank = DIFFICULTIES.index(name) if group == "difficulty" and name in DIFFICULTIES else len(DIFFICULTIES)
    return GROUPS.index(group), rank, name


def _mean(values: Iterable[float | None]) -> float | None:
    defined = [value for value in values if value is not None]
    return fmean(defined) if defined else None


def _row(group: str, name: str, records: Sequence[dict[str, Any]]) -> Row:
    successes = sum(bool(record["success"]) for record in records)
    tokens = [sum(record["tokens"].values()) if record.get("tokens") else None for record in records]
    return Row(
        group, name, len(records), successes, wilson_interval(successes, len(records)),
        fmean(record["score"] for record in records), fmean(record["steps"] for record in records),
        sum(record["invalid_actions"] for record in records), sum(record["error"] is not None for record in records),
        _mean(tokens), {metric: _mean(record["metrics"].get(metric) for record in records) for metric in METRICS})


def summarize_records(records: Sequence[dict[str, Any]]) -> list[Row]:
    """The summary's rows: overall, then per difficulty (easy, medium, hard), tag, app and task, names sorted."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        for key in _members(record):
            groups.setdefault(key, []).append(record)
    return [_row(*key, groups[key]) for key in sorted(groups, key=_order)]


def format_table(rows: Sequence[Row]) -> str:
    """The rows as a plain-text table, a blank line between groups."""
    header = ("group", "name", "episodes", "success", "rate", "95% interval", "score", "steps", "invalid", "errors")
    lines = [[row.group, row.name, str(row.episodes), str(row.successes), f"{row.success_rate:.2f}",
              f"[{row.interval[0]:.2f}, {row.interval[1]:.2f}]", f"{row.mean_score:.2f}", f"{row.mean_steps:.1f}",
              str(row.invalid_actions), str(row.errors)] for row in rows]
    widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]
    numeric = range(2, len(header))

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.rjust(width) if i in numeric else cell.ljust(width)
                         for i, (cell, width) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), line(["-" * width for width in widths])]
    for index, cells in enumerate(lines):
        if index and rows[index].group != rows[index - 1].group:
            out.append("")
        out.append(line(cells))
    return "\n".join(out)


def write_csv(rows: Sequence[Row], path: Path) -> None:
    """The rows as CSV: the table's columns (rate and interval as numbers), mean tokens, then each metric's mean
    (empty where no episode of the group defines it)."""
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["group", "name", "episodes", "successes", "success_rate", "success_low", "success_high",
                         "mean_score", "mean_steps", "invalid_actions", "errors", "mean_tokens", *METRICS])
        for row in rows:
            writer.writerow([row.group, row.name, row.episodes, row.successes, _number(row.success_rate),
                             _number(row.interval[0]), _number(row.interval[1]), _number(row.mean_score),
                             _number(row.mean_steps), row.invalid_actions, row.errors, _number(row.mean_tokens),
                             *(_number(row.metrics[metric]) for metric in METRICS)])


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}".rstrip("0").rstrip(".")
