"""Evaluating an agent over a suite of tasks (``android-gym eval``): tasks × seeds on a pool of devices, every
episode recorded, resumable, summarized per task, app and AndroidWorld difficulty and tag, with an HTML report.

```python
from android_gym import evaluation
tasks = evaluation.resolve_suite("androidworld")            # or "all", "Markor*", a file of task names
records = evaluation.evaluate(tasks, seeds=range(3), agent="random-valid", out="runs/eval", devices=["sim"] * 2)
rows = evaluation.summarize_records(records)
print(evaluation.format_table(rows))
evaluation.write_report(Path("runs/eval"), records, rows, agent="random-valid")
```

Modules: ``suite`` (which tasks, and their apps, difficulty and tags), ``worker`` (plays and records one episode),
``pool`` (workers in this process or in processes of their own), ``runner`` (``evaluate``: what is left to play,
resuming), ``results`` (the run folder: ``results.jsonl``, ``run.json``, its lock), ``summary`` (the table and
``summary.csv``), ``annotate`` and ``report`` (the HTML report). Each name below is imported from its module when
first used (``runner`` brings in Ray's worker pool and every wrapper).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.lazy_names import lazy_names

if TYPE_CHECKING:
    from android_gym.evaluation.report import write_report
    from android_gym.evaluation.results import RESULTS_FILE, RUN_FILE, RunFolder, latest, read_results
    from android_gym.evaluation.runner import evaluate, worker_devices
    from android_gym.evaluation.suite import TaskInfo, resolve_suite, task_info
    from android_gym.evaluation.summary import SUMMARY_FILE, Row, format_table, summarize_records, write_csv

__all__ = ["RESULTS_FILE", "RUN_FILE", "SUMMARY_FILE", "Row", "RunFolder", "TaskInfo", "evaluate",
           "format_table", "latest", "read_results", "resolve_suite", "summarize_records", "task_info",
           "worker_devices", "write_csv", "write_report"]
__getattr__, __dir__ = lazy_names(__name__)
