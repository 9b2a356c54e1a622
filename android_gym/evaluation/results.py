"""An evaluation's folder: ``run.json`` (which agent), ``results.jsonl`` (one line per finished episode, keyed by
task and seed, appended whole), and a lock so that two evaluations never write to one folder."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

from android_gym.errors import RunDirError

RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"
LOCK_FILE = ".lock"


def episode_key(record: dict[str, Any]) -> tuple[str, int]:
    """What identifies an episode of a run: its task and seed."""
    return record["task"], record["seed"]


def latest(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per episode, the last one written (a retried episode's newer record replaces the older one),
    in the order the episodes first appear."""
    return list({episode_key(record): record for record in records}.values())


def read_results(path: Path) -> list[dict[str, Any]]:
    """The records of a results file; a last line cut short (the run was killed while writing it) is left out.
    ``RunDirError`` for a line in the middle that is not a record."""
    return _parse(path.read_bytes(), path) if path.is_file() else []


def _parse(data: bytes, path: Path) -> list[dict[str, Any]]:
    records = []
    for number, line in enumerate(data.split(b"\n")[:-1], 1):  # the last piece is empty, or a line cut short
        try:
            record = json.loads(line)
            episode_key(record)
        except (ValueError, KeyError, TypeError) as error:
            raise RunDirError(f"{path}, line {number}, is not an episode's record ({error}); is this the folder "
                              "of an `android-gym eval` run?") from None
        records.append(record)
    return records


class RunFolder:
    """An evaluation's output folder, locked while open: the records done so far, and ``append`` for a new one.

    ``agent`` must be the one the folder's run was started with (``run.json``), so one results file never mixes
    agents; ``RunDirError`` otherwise, or when another evaluation holds the folder.
    """

    def __init__(self, path: str | Path, agent: str) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.path / LOCK_FILE, "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise RunDirError(f"another `android-gym eval` is writing to {self.path}; wait for it or choose another "
                              "--out") from None
        try:
            self._check_agent(agent)
            self.records = self._read_and_trim()
            self._results = os.open(self.path / RESULTS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except BaseException:
            self._lock.close()
            raise

    def _check_agent(self, agent: str) -> None:
        run_file = self.path / RUN_FILE
        if not run_file.is_file() and any(entry.name != LOCK_FILE for entry in self.path.iterdir()):
            raise RunDirError(f"{self.path} is not empty and holds no `android-gym eval` run ({RUN_FILE}); choose a "
                              "new or empty folder for --out")
        if run_file.is_file():
            started = json.loads(run_file.read_text(encoding="utf-8")).get("agent")
            if started != agent:
                raise RunDirError(f"{self.path} holds a run of --agent {started}, not {agent}; resume it with "
                                  f"--agent {started}, or choose another --out")
        else:
            run_file.write_text(json.dumps({"agent": agent}) + "\n", encoding="utf-8")

    def _read_and_trim(self) -> list[dict[str, Any]]:
        """The records so far; a last line that a killed run left unfinished is cut off, so the next record
        starts on a line of its own."""
        path = self.path / RESULTS_FILE
        data = path.read_bytes() if path.is_file() else b""
        if data and not data.endswith(b"\n"):
            os.truncate(path, data.rfind(b"\n") + 1)
        return _parse(data, path)

    def append(self, record: dict[str, Any]) -> None:
        """Add one episode's record: one line written with a single ``write`` to the end of the file, then
        synced, so a killed run leaves either the whole line or a torn last line that the next run cuts off."""
        data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        written = os.write(self._results, data)
        while written < len(data):  # a regular file takes it whole; this only guards the contract of write()
            written += os.write(self._results, data[written:])
        os.fsync(self._results)
        self.records.append(record)

    def close(self) -> None:
        """Close the results file and release the folder."""
        os.close(self._results)
        self._lock.close()

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
