"""Starting Ray in tests survives a cold, slow machine (#27 item 11): no Ray is started here, a stand-in records
what would be."""

from __future__ import annotations

import os

import pytest
from ray_start import RAY_GCS_WAIT_S, start_local_ray


class StandInRay:
    """Fails ``ray.init`` with each of ``errors`` in turn, then starts; records calls and the GCS wait it saw."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls: list[str] = []
        self.gcs_waits: list[str | None] = []
        self.options: dict = {}

    def init(self, **options) -> None:
        self.calls.append("init")
        self.gcs_waits.append(os.environ.get("RAY_gcs_server_port_wait_time_s"))
        self.options = options
        if self.errors:
            raise self.errors.pop(0)

    def shutdown(self) -> None:
        self.calls.append("shutdown")


COLD = RuntimeError("Timed out waiting for file /tmp/ray-x/session_1/gcs_server_port_abc")


def test_ray_waits_longer_for_its_gcs_in_a_short_temp_dir(tmp_path):
    ray = StandInRay()
    before = os.environ.get("RAY_gcs_server_port_wait_time_s")
    start_local_ray(ray, tmp_path, num_cpus=2)
    assert ray.calls == ["init"] and ray.gcs_waits == [RAY_GCS_WAIT_S]
    assert ray.options == {"_temp_dir": str(tmp_path), "num_cpus": 2}
    assert os.environ.get("RAY_gcs_server_port_wait_time_s") == before  # only while Ray starts


def test_a_port_file_timeout_is_shut_down_and_tried_once_more(tmp_path):
    ray = StandInRay(COLD)
    start_local_ray(ray, tmp_path)
    assert ray.calls == ["init", "shutdown", "init"]


def test_a_second_timeout_or_another_error_is_raised_after_shutting_down(tmp_path):
    ray = StandInRay(COLD, COLD)
    with pytest.raises(RuntimeError, match="Timed out waiting for file"):
        start_local_ray(ray, tmp_path)
    assert ray.calls == ["init", "shutdown", "init", "shutdown"]
    ray = StandInRay(ValueError("bad option"))
    with pytest.raises(ValueError, match="bad option"):
        start_local_ray(ray, tmp_path)
    assert ray.calls == ["init", "shutdown"]
