"""The task catalogue: one module per app; importing a module registers its tasks."""

from android_gym.envs import sms  # noqa: F401
