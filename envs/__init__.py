"""The task catalogue: one module per app; importing a module registers its tasks."""

from android_gym.envs import clipboard, clock, composite, constrained, contacts, open_app, sms, system  # noqa: F401
