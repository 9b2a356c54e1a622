"""Gymnasium wrappers for android_gym environments."""

from android_gym.wrappers.recording import RecordTrajectory

__all__ = ["RecordTrajectory"]
