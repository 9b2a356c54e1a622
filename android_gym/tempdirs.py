"""Where android_gym keeps short-lived files: in memory when the host can."""

from __future__ import annotations

import os
from pathlib import Path

#: Environment variable naming the directory for short-lived files instead (a test's own directory).
TMPDIR_VAR = "ANDROID_GYM_TMPDIR"


def fast_tmp_dir() -> str | None:
    """``$ANDROID_GYM_TMPDIR`` if set, else a memory-backed directory when the host has one (``/dev/shm``), else
    ``None`` (the system's temporary directory): SQLite's fsyncs and the creation and removal of files cost nothing
    there."""
    if os.environ.get(TMPDIR_VAR):
        return os.environ[TMPDIR_VAR]
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
