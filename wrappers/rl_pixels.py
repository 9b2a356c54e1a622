"""A pixels-only view of a task for CNN policies, as AndroidEnv gives it: the screen downscaled, a discrete touch
grid, optionally the last frames stacked along the channels (``make_pixel_env``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import FrameStackObservation, PassiveEnvChecker

from android_gym.wrappers.rl_actions import AdapterConfigError, TouchGridActions, require_sizes
from android_gym.wrappers.rl_observations import PixelObservation

#: SB3's ``CnnPolicy`` (NatureCNN: 8×8 stride 4, 4×4 stride 2, 3×3) needs images of at least 36 × 36.
MIN_SIDE = 36
#: The default view, on the 9:20 phone screen: 120 × 54 pixels keep the aspect ratio exactly (1/20 of a 1080 × 2400
#: screen each way), and the 20 × 9 grid makes square 120-pixel cells, each 6 × 6 observation pixels, fine enough
#: that a cell centre lies on 483 of the 484 elements the oracles of the registry's 123 tasks tap (seed 0); on a
#: 10 × 10 grid, 303, and none on the Clock's Start button or tab bar.
DEFAULT_SHAPE = (120, 54)
DEFAULT_GRID = (20, 9)


class StackChannels(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Frames stacked on a first axis, ``(S, H, W, C)``, as one channel-last image ``(H, W, S·C)`` (oldest frame's
    channels first), the image layout SB3's ``CnnPolicy`` takes."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ObservationWrapper.__init__(self, env)
        stack, height, width, channels = env.observation_space.shape
        self.observation_space = spaces.Box(0, 255, (height, width, stack * channels), np.uint8)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        """The frames as channels."""
        return np.ascontiguousarray(np.moveaxis(observation, 0, 2)).reshape(self.observation_space.shape)


def _image_shape(shape: Any) -> tuple[int, int]:
    """``(height, width)``, each an integer of at least ``MIN_SIDE``."""
    try:
        height, width = shape
    except (TypeError, ValueError):
        raise AdapterConfigError(f"shape must be (height, width), got {shape!r}") from None
    try:
        require_sizes(MIN_SIDE, height=height, width=width)
    except AdapterConfigError as error:
        raise AdapterConfigError(f"{error}: SB3's CnnPolicy (NatureCNN) needs images of at least "
                                 f"{MIN_SIDE} x {MIN_SIDE}") from None
    return int(height), int(width)


def make_pixel_env(env_id: str, device: str | None = None, *, shape: tuple[int, int] = DEFAULT_SHAPE,
                   grayscale: bool = True, frame_stack: int = 1, grid: tuple[int, int] = DEFAULT_GRID,
                   long_press: bool = False, **make_kwargs: Any) -> gym.Env:
    """A task seen through pixels only, for SB3's ``PPO("CnnPolicy", env)``: ``gym.make(env_id, pixels=True,
    share_pixels=True, device=device, **make_kwargs)``, then ``TouchGridActions``, ``PixelObservation`` and, when
    ``frame_stack`` > 1, Gymnasium's ``FrameStackObservation`` with the frames as channels (``StackChannels``), under
    Gymnasium's ``PassiveEnvChecker`` (unless ``disable_env_checker=True``).

    ## Action Space
    ``Discrete(R·C [+ R·C] + 6)`` with ``grid = (R, C)``: tap the centre of cell ``r·C + c`` (cells numbered row
    by row over the whole screen, status and navigation bars included), long-press each cell (if ``long_press``),
    back, home, and swipe up / down / left / right. The default 20 × 9 grid has 186 actions.

    ## Observation Space
    ``Box(0, 255, (H, W, K·S), uint8)``, channel-last, with ``shape = (H, W)``: the screen scaled down, K = 1
    grey channel (or 3 RGB with ``grayscale=False``) per frame, the ``S = frame_stack`` last frames with the
    oldest first (after a reset, the first frame repeated). Default ``Box(0, 255, (120, 54, 1), uint8)``. The goal
    text is not in the observation: a policy learns one goal per task, or goals the screen itself shows.

    ## Rewards, Starting State, Episode End
    The task env's (``AndroidEnv``): the score's increase, the home screen, the task's step budget.

    ## Arguments
    ``device``: ``None`` (the simulated 1080 × 2400 phone), ``"sim:WxH"`` or a real device; cells are fractions of
    the screen, so an id means the same place on any screen. ``shape``: at least 36 × 36 (NatureCNN's minimum).
    ``frame_stack``: at least 1, with K·S channels fewer than ``min(H, W)`` (SB3 takes the smallest axis for the
    channels). ``make_kwargs``: to ``gym.make`` (e.g. ``max_episode_steps``). Raises ``AdapterConfigError``
    for a configuration the view cannot take.
    """
    height, width = _image_shape(shape)
    require_sizes(1, frame_stack=frame_stack)
    channels = (1 if grayscale else 3) * frame_stack
    if channels >= min(height, width):
        raise AdapterConfigError(f"{frame_stack} stacked {'grey' if grayscale else 'RGB'} frames make {channels} "
                                 f"channels, not fewer than the image's {min(height, width)} pixels a side, so "
                                 "SB3 would read the channels as an image axis: stack fewer frames or enlarge shape")
    if "pixels" in make_kwargs:
        raise AdapterConfigError("make_pixel_env makes the env with pixels=True: do not pass pixels=")
    # PixelObservation scales a new image every step, so the task env may hand it the screen itself, the same
    # array while the screen does not change (share_pixels: never a 7.8 MB copy at 1080x2400); Gymnasium's checker
    # then checks the view's own observations, which are new every call, rather than the task env's shared screen.
    check = not make_kwargs.pop("disable_env_checker", False)
    env = gym.make(env_id, pixels=True, device=device, disable_env_checker=True,
                   **{"share_pixels": True, **make_kwargs})
    try:
        env = PixelObservation(TouchGridActions(env, grid=grid, long_press=long_press), shape=(height, width),
                               grayscale=grayscale)
    except AdapterConfigError:
        env.close()
        raise
    if frame_stack > 1:
        env = StackChannels(FrameStackObservation(env, frame_stack))
    return PassiveEnvChecker(env) if check else env
