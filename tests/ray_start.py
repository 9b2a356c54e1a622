"""Starting a local Ray for the tests, robustly on a cold, slow machine (a fresh 2-core CI box)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from unittest import mock

#: How long Ray waits for the GCS to publish its port file (Ray's ``RAY_gcs_server_port_wait_time_s``, 30 s by
#: default): a cold first start on a busy 2-core machine can take longer.
RAY_GCS_WAIT_S = "120"
#: What Ray says when a process it started did not publish its port in time (``…/gcs_server_port_…``).
RAY_PORT_TIMEOUT = "Timed out waiting for file"


def start_local_ray(ray: Any, temp_dir: Path, **options: Any) -> None:
    """``ray.init(**options)`` made robust for a cold, slow machine: Ray waits ``RAY_GCS_WAIT_S`` for its GCS, keeps
    its session under ``temp_dir`` (short: Unix socket paths are limited to 107 bytes), and after a
    ``RAY_PORT_TIMEOUT`` is shut down and started once more."""
    for attempt in (1, 2):
        try:
            with mock.patch.dict(os.environ, {"RAY_gcs_server_port_wait_time_s": RAY_GCS_WAIT_S}):
                ray.init(_temp_dir=str(temp_dir), **options)
            return
        except Exception as error:
            ray.shutdown()
            if attempt == 2 or RAY_PORT_TIMEOUT not in str(error):
                raise
