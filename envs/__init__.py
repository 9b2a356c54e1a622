"""The task catalogue: one module per app; importing a module registers its tasks."""

from android_gym.envs import (  # noqa: F401
    audio_recorder,
    calendar,
    camera,
    clipboard,
    clock,
    composite,
    constrained,
    contacts,
    cross_app,
    draw,
    expense,
    files,
    gallery,
    markor,
    open_app,
    recipe,
    sms,
    specs,
    system,
    tasks_app,
)
