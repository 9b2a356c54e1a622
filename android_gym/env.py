"""``AndroidEnv``: one task on one device as a Gymnasium environment."""

from __future__ import annotations

import functools
import pickle
import string
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from android_gym import actions
from android_gym.actions import Action
from android_gym.device import Device, open_device
from android_gym.device.config import ConfigDistribution, DeviceConfig, parse_device_config, pixel_scale
from android_gym.device.state import dump_elements
from android_gym.errors import AndroidGymError, ConfigError, DeviceError, InvalidActionError, short_repr
from android_gym.screen_leases import ScreenLeases
from android_gym.spaces import SharedText
from android_gym.tasks import Task, get_task
from android_gym.ui import UIElement

if TYPE_CHECKING:
    from android_gym.device.sim import Reads

#: Observation text is ASCII: every other character of the UI appears as an XML character reference.
TEXT_CHARSET = string.printable
MAX_TREE_CHARS = 1 << 22
MAX_GOAL_CHARS = 2048
#: ``info["invalid_action"]`` of a step taken after the episode ended.
EPISODE_ENDED = "the episode has ended: call reset()"


def to_ascii_xml(xml: str) -> str:
    """The same XML with every non-ASCII character written as a numeric character reference (lossless); an ASCII
    text is itself (``str.isascii`` reads a flag the string keeps: no copy)."""
    return xml if xml.isascii() else xml.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _pinned_params(options: Any, params: Mapping[str, Any], task: str) -> Mapping[str, Any]:
    """The parameters ``reset(options=...)`` pins among the task's ``params``; ``ConfigError`` naming what is
    accepted unless ``options`` is None or a mapping whose optional ``"params"`` maps parameter names to values."""
    accepted = f"{task}'s parameters are {sorted(params)}"
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ConfigError(f"reset(options={short_repr(options)}): options are None or a dict, such as "
                          f"{{'params': {{name: value}}}} to pin task parameters ({accepted})")
    pinned = options.get("params", {})
    if not isinstance(pinned, Mapping):
        raise ConfigError(f"reset(options={{'params': {short_repr(pinned)}}}): 'params' is a dict of parameter name "
                          f"to value ({accepted}); leave it out to draw every parameter from the seed")
    unknown = set(pinned) - set(params)
    if unknown:
        raise ConfigError(f"unknown parameter(s) [{', '.join(sorted(map(short_repr, unknown)))}] for {task}; "
                          f"its parameters are {sorted(params)}")
    return pinned


#: The types of the values ``_immutable`` tells at a glance, by their type alone (most of a task's parameters).
_ATOMS = frozenset((str, bytes, int, float, complex, bool, type(None)))


def _immutable(value: Any) -> bool:
    """Whether nothing can change ``value`` in place: a string, a number, a bool, None, or a tuple or frozenset of
    such values."""
    if type(value) in _ATOMS:
        return True
    if isinstance(value, (tuple, frozenset)):
        return _all_immutable(value)
    return isinstance(value, (str, bytes, int, float, complex))


def _all_immutable(values: Collection[Any]) -> bool:
    """``_immutable`` of every value, the atoms told by their types in one pass without a Python step each (a
    task's rows hold hundreds)."""
    return _ATOMS.issuperset(map(type, values)) or all(map(_immutable, values))


def _copier(params: Mapping[str, Any]) -> Callable[[], dict[str, Any]]:
    """What makes a fresh copy of ``params`` each call (``_fresh_copier``), or when they hold more than lists, dicts
    and immutable values, one pickle of them loaded anew (8x faster than deepcopy)."""
    copier = _fresh_copier(dict(params))
    if copier is None:
        return functools.partial(pickle.loads, pickle.dumps(params, protocol=pickle.HIGHEST_PROTOCOL))
    return copier


def _fresh_copier(value: Any) -> Callable[[], Any] | None:
    """What makes a copy of ``value`` as it is now, its lists and dicts made anew and the values nothing can change in
    place shared (a task's 50 rows are copied 10x faster than their pickle is loaded); ``None`` when it holds
    anything else (a set, an object)."""
    kind = type(value)
    if kind is not list and kind is not dict:
        return (lambda: value) if _immutable(value) else None
    items = list(value.values() if kind is dict else value)
    if _all_immutable(items):
        return kind(value).copy  # a copy of a copy: what the caller does to ``value`` later stays out
    makers = [_fresh_copier(item) for item in items]
    if None in makers:
        return None
    if kind is list:
        return lambda: [make() for make in makers]
    named = list(zip(value, makers))
    return lambda: {name: make() for name, make in named}


@functools.lru_cache(maxsize=8)
def screen_space(height: int, width: int) -> spaces.Box:
    """The space of a screen's pixels, one per screen size in a process: a ``Box`` keeps four arrays of the
    screen's shape (its bounds and where they hold; 30 MB at 1080x2400), which every env of that size shares."""
    return spaces.Box(0, 255, (height, width, 3), np.uint8)


class AndroidEnv(gym.Env):
    """An Android app task on a simulated or real phone.

    ## Description
    The agent operates a phone through AndroidWorld-style actions to reach a goal given in words, e.g. "Send a
    text message using Simple SMS Messenger to +14155550123 with message: See you at 6." Each reset draws new
    task parameters from the env's seed, writes the apps' initial state over the device protocol and starts
    on the home screen. The default device is the built-in simulated phone; no emulator is needed.

    ## Action Space
    ``Dict(action_type: Discrete(14), index: Discrete(513, start=-1), touch_position: Box(0, 1, (2,)),
    direction: Discrete(4), text: Text(1000), app_name: Text(64))`` mirroring AndroidWorld's JSONAction
    (see ``android_gym.actions``). ``step`` also accepts an ``Action``, an AndroidWorld JSON action string, or
    an ``InvalidAction`` (a wrapper's untranslatable agent output, reported as invalid). An ``index`` refers to
    ``info["ui_elements"]`` of the current observation.

    ## Observation Space
    ``Dict(pixels: Box(0, 255, (H, W, 3), uint8), a11y_tree: Text, goal: Text)``: the screen, the uiautomator
    XML of the foreground window (ASCII, non-ASCII characters as XML character references, so it is lossless),
    and the goal. ``pixels=False`` leaves the pixels out. The pixels are read-only and never change afterwards (copy
    them to draw on them: ``np.array(obs["pixels"])``); no two observations the caller holds share memory. They are
    the screen's own memory, not a copy, unless the caller still holds an earlier observation of the same unchanged
    screen: a loop that keeps only the last observation gets a changed screen without a copy (7.8 MB at 1080x2400).

    ## Rewards
    The increase of the task score (in [0, 1]) since the previous step; an episode that solves the task sums
    to 1. Tasks whose check disturbs the device (``scored_at_end``, e.g. reading the clipboard) are scored only
    on the episode's last step: when the agent ends it, or at the task's step budget (the registered limit).

    ## Starting State
    The task's initial app state, device clock at the task's device time (2023-10-15 15:34 UTC), home screen.
    On a device provisioned by ``android-gym setup-device``, the task's apps first get their data back from the
    snapshots taken then (AndroidWorld's reset, in the same shell round trip as the task fixes the clock), then the
    task writes its own state.
    Whatever earlier episodes did, a reset gives the same phone: after the previous task's ``hand_over`` (on the
    simulated phone, whose rewind stops every app and goes home, only a teardown's own clearing) the device rewinds
    what changed since the last set-up (and the databases the set-up wrote) to the baseline it kept in the env's
    first reset (the phone as the env was made, once the task's ``prepare`` stopped its apps and fixed the clock),
    then the task is set up. The simulated phone gets all of it back: every app process the episode started is
    stopped (with the screens it held), every file written (app data, databases, shared storage), the settings and
    the clip (``Phone.rewind``); so the same seed gives the same observations, rewards and infos step after step. An
    adb device gets back what adb reaches (``AdbDevice.rewind``): the apps the episode showed are stopped and their
    data restored from their snapshots where the device was provisioned, and the settings that changed are put back;
    shared storage, the clip and apps without snapshots are not. Neither undoes the device configuration
    (``device_config``), which the env applies itself.

    ## Episode End
    Terminated when the score reaches 1 or the agent ends the episode (``status`` / ``answer``); truncated by
    the registered step budget (10 × task complexity) or when the device fails (``info["backend_error"]``;
    the next reset reconnects). A step after the env terminated or truncated the episode warns (once per
    episode), does not act and returns the final observation again with reward 0, the same flags and
    ``info["invalid_action"]`` saying to call ``reset()``. Truncation by the ``TimeLimit`` wrapper is invisible
    here: ``max_episode_steps`` may exceed the task's budget, so the env cannot tell that step from any other.

    ## Arguments
    ``task``: registered task name, or a ``Task`` class (registered or not). ``device``: ``"sim"`` (default),
    ``"sim:WIDTHxHEIGHT"`` or a ``Device``.
    ``pixels``: include the screen in observations. ``render_mode``: ``None`` or ``"rgb_array"``.
    ``share_pixels``: the observation's pixels are the screen itself, the same array while the screen does not
    change, never a copy: for loops and wrappers that only read them. Off by default, as Gymnasium asks an env for
    new observation data on every call (``check_env`` fails on shared arrays, read-only or not, and ``gym.make``'s
    checker warns).
    ``device_config``: the phone each episode runs on (``android_gym.device.config``): ``None`` (leave the device
    as it is), a ``DeviceConfig`` or a dict of its fields (screen, font scale, dark theme, language, navigation
    mode), or ``"train"`` / ``"heldout"`` to draw one per episode from the env's rng after the task's parameters
    (so a seed gives the same task under every distribution). ``reset(options={"device_config": ...})`` overrides
    it for one episode. The observation's pixels keep the shape of the device's screen when the env was made: a
    configuration with another screen is drawn at its own size and scaled to that shape (``render()`` and
    ``info["screen_size"]`` give the real screen; touch positions are fractions of the screen either way). A
    device narrower than 1080 px (``sim:270x600``) shows each phone at its own pixel scale: the phone's dp
    geometry with proportionally fewer pixels (``DeviceConfig.screen_at``), so small screens stay fast.

    ## Version History
    * v0: initial release.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, task: str | type[Task], device: str | Device | None = None, pixels: bool = True,
                 render_mode: str | None = None, device_config: Any = None, share_pixels: bool = False) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise AndroidGymError(f"render_mode {render_mode!r} is not supported; use None or 'rgb_array'")
        self.task_class: type[Task] = task if isinstance(task, type) else get_task(task)
        self.render_mode = render_mode
        self._device_spec = device
        self._pixels = pixels
        self._share_pixels = share_pixels
        self._device_config = parse_device_config(device_config)
        self._device: Device | None = open_device(device)
        self._applied_config: DeviceConfig | None = None  # what the device was last configured as (None: unknown)
        # A configuration's screen is drawn at the device's own pixel scale (1/4 on sim:270x600): screen_at.
        self._screen_scale: float | None = None  # read from the device when a configuration is first applied
        self._episode_config: DeviceConfig | None = None
        self._fitted: tuple[np.ndarray, np.ndarray] | None = None  # _fit's last screen to scale, and it scaled
        self._screen: np.ndarray | None = None  # the last observation's pixels before they were handed out
        self._leases = ScreenLeases()  # how they are handed out (unless share_pixels)
        width, height = self._device.screen_size
        observation = {
            "a11y_tree": SharedText(MAX_TREE_CHARS, min_length=0, charset=TEXT_CHARSET),
            "goal": SharedText(MAX_GOAL_CHARS, min_length=0, charset=TEXT_CHARSET),
        }
        if pixels:
            observation = {"pixels": screen_space(height, width), **observation}
        self.observation_space = spaces.Dict(observation)
        self.action_space = actions.action_space()
        self.task: Task | None = None
        self._elements: list[UIElement] = []
        self._copy_params: Callable[[], dict[str, Any]] = dict  # a fresh copy of the episode's parameters
        self._goal = ""  # the observation's goal text (ASCII)
        # The last dump parsed, as the device gave it and as the observation shows it.
        self._last_dump: str | None = None
        self._last_tree = ""
        self._shown: set[str] = set()  # the packages of this episode's screens (whose apps a rewind stops)
        self._score = 0.0
        self._scored_at: int | None = None  # the device's ``changes`` when the score was last read from it
        self._scored_reads: Reads | None = None  # what that check read of the phone, when the device noted it all
        self._steps = 0
        self._healthy = True
        # The final observation (its pixels, if any, read-only and as first handed out), terminated, truncated.
        self._ended: tuple[dict[str, Any], bool, bool] | None = None
        self._warned_ended = False

    @property
    def device(self) -> Device:
        """The device the env drives (reopened after a failure at the next reset)."""
        if self._device is None:
            raise AndroidGymError("the env is closed")
        return self._device

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Tear down the previous task, rewind what its episode changed on the device (see Starting State), draw
        parameters (``options["params"]`` pins them) and set up the next.

        ``seed`` is None or a non-negative ``int`` (Gymnasium's rule); ``options`` is None or a dict whose
        ``"params"``, if given, maps some of the task's parameter names to values, and whose ``"device_config"``
        replaces the env's for this episode (other keys are left to wrappers). Anything else raises
        ``ConfigError`` before the previous episode is touched.
        """
        if seed is not None and not (isinstance(seed, int) and seed >= 0):
            raise ConfigError(f"reset(seed={short_repr(seed)}): a seed is None or a non-negative Python int "
                              "(int(seed) converts a NumPy integer)")
        super().reset(seed=seed)
        params = self.task_class.generate_params(self.np_random)
        params.update(_pinned_params(options, params, self.task_class.name))
        config = self._draw_config(options)
        if not self._healthy or self._device is None:
            self._reconnect()
        stopped = False  # whether the device's rewind stopped every app and went home
        if self.task is not None:
            try:
                stopped = self._rewind()
            except DeviceError:
                self._reconnect()  # a broken device is replaced; the new one has nothing to tear down
        if config is not None:
            if self._screen_scale is None:
                self._screen_scale = pixel_scale(self.device)
            config.apply(self.device, self._applied_config, self._screen_scale)
            self._applied_config = config
        self._episode_config = config
        self.task = self.task_class(params)
        self.task.prepare(self.device, stopped)  # ``initialize``'s phases, with the device's baseline kept between
        keep_baseline = getattr(self.device, "keep_baseline", None)
        if keep_baseline is not None:
            keep_baseline()  # the first: the phone as it was made, the task's apps stopped, the clock fixed
        self.task.reset_state(self.device)
        checkpoint = getattr(self.device, "checkpoint", None)
        if checkpoint is not None:
            checkpoint()  # what changes from now on is the episode's, which the next reset rewinds
        # info["params"] is a fresh copy each step: what an agent does to it never reaches the task.
        self._copy_params = _copier(self.task.params)
        self._goal = to_ascii_xml(self.task.goal)
        observation = self._observe()
        self._steps = 0
        self._ended, self._warned_ended = None, False
        self._scored_at = self._scored_reads = None
        self._score = 0.0 if self.task.scored_at_end else self._read_score()
        return observation, self._info(None, None)

    def step(self, action: Any):
        """Execute one action; invalid actions are reported in ``info["invalid_action"]`` and change nothing."""
        if self.task is None:
            raise AndroidGymError("call reset() before step()")
        if self._ended is not None:
            return self._step_after_end()
        invalid = backend_error = None
        parsed: Action | None = None
        self._steps += 1
        try:
            parsed = actions.to_action(action, self.device.screen_size)
            if parsed.action_type is actions.ActionType.ANSWER:
                self.task.answer = parsed.text or ""
            actions.execute(parsed, self.device, self._elements)
        except InvalidActionError as error:
            invalid, parsed = str(error), None
        except DeviceError as error:
            backend_error = str(error)
        if backend_error is None:
            try:
                observation = self._observe()
                score = self._evaluate(ending=parsed is not None and parsed.ends_episode)
            except DeviceError as error:
                backend_error = str(error)
        if backend_error is not None:
            self._healthy = False
            observation, score = self._blank_observation(), self._score
        reward = float(score - self._score)
        self._score = score
        terminated = score >= 1.0 or (parsed is not None and parsed.ends_episode)
        truncated = backend_error is not None
        if terminated or truncated:
            self._ended = (self._final(observation), terminated, truncated)
        return observation, reward, terminated, truncated, self._info(invalid, backend_error)

    def look(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The observation and info of the phone as it is now, without acting or scoring: for a wrapper that changed
        the phone between steps (``Distractors``), so that element indices refer to what is on screen."""
        if self.task is None:
            raise AndroidGymError("call reset() before look()")
        return self._observe(), self._info(None, None)

    def render(self) -> np.ndarray | None:
        """The current screen for ``render_mode="rgb_array"``."""
        if self.render_mode == "rgb_array":
            return self.device.screenshot()
        return None

    def close(self) -> None:
        """Close the device if this env opened it. Idempotent."""
        if self._device is not None and self._device is not self._device_spec:
            self._device.close()
        self._device = None

    # ----- internals ---------------------------------------------------------------------------------------
    def _step_after_end(self):
        """A step after the env ended the episode: warn once, act not, repeat the final observation and flags."""
        if not self._warned_ended:
            self._warned_ended = True
            gym.logger.warn("step() was called after the episode ended (terminated or truncated); the action "
                            "was not executed: call reset() to start a new episode")
        observation, terminated, truncated = self._ended
        if "pixels" in observation:
            observation = {**observation, "pixels": self._handed(observation["pixels"])}
        return dict(observation), 0.0, terminated, truncated, self._info(EPISODE_ENDED, None)

    def _final(self, observation: dict[str, Any]) -> dict[str, Any]:
        """``observation`` kept to repeat after the episode's end: its pixels the read-only screen they were handed
        out from."""
        if "pixels" not in observation:
            return observation
        assert self._screen is not None
        return {**observation, "pixels": self._screen}

    def _draw_config(self, options: Any) -> DeviceConfig | None:
        """This episode's configuration: ``options["device_config"]`` or the env's, drawn from ``np_random`` when
        it is a distribution."""
        chosen = self._device_config
        if isinstance(options, Mapping) and "device_config" in options:
            chosen = parse_device_config(options["device_config"])
        return chosen.sample(self.np_random) if isinstance(chosen, ConfigDistribution) else chosen

    def _evaluate(self, ending: bool) -> float:
        """The task's score now; a ``scored_at_end`` task is checked only on the episode's last step, another when
        the episode ends (an ``answer`` is the task's to check) or something it read may have changed since its
        score was read: on a device that counts its ``changes`` (the simulated phone), nothing did while they stay
        the same (an action refused before it reached the phone), nor when what the check read of the phone, noted
        by the device (``SimDevice.noting``: file versions, the focused activity), reads the same again (a step
        that wrote nothing the check reads)."""
        if self.task.scored_at_end:
            if not ending and self._steps < self.task_class.max_steps():
                return self._score
            return self.task.is_successful(self.device)
        if not ending and self._scored_at is not None:
            if getattr(self.device, "changes", None) == self._scored_at:
                return self._score
            if self._scored_reads is not None and self._scored_reads.unchanged():
                return self._score
        return self._read_score()

    def _read_score(self) -> float:
        """``is_successful`` of the task, noting the device's ``changes`` after it (the check's own shell commands
        included) and, on a device that notes them, what it read."""
        noting = getattr(self.device, "noting", None)
        if noting is None:
            score, self._scored_reads = self.task.is_successful(self.device), None
        else:
            with noting() as reads:
                score = self.task.is_successful(self.device)
            self._scored_reads = reads if reads.complete else None
        self._scored_at = getattr(self.device, "changes", None)
        return score

    def _observe(self) -> dict[str, Any]:
        xml = self.device.ui_dump()
        if xml != self._last_dump:  # an unchanged screen is not parsed again, nor one seen lately (dump_elements)
            try:
                elements = dump_elements(self.device, xml)
            except ValueError as error:
                raise DeviceError(f"the device returned an unreadable UI dump: {error}") from error
            self._elements, self._last_tree, self._last_dump = list(elements), to_ascii_xml(xml), xml
            if elements:
                self._shown.add(elements[0].package_name)
        observation: dict[str, Any] = {"a11y_tree": self._last_tree, "goal": self._goal}
        if self._pixels:
            observation = {"pixels": self._show(self._fit(self._screenshot())), **observation}
        return observation

    def _screenshot(self) -> np.ndarray:
        """The device's screen; one the caller holds an observation of is taken again in other memory when the
        device can (``SimDevice.screenshot_again``: the phone's kept frame, copied only where it differs), so the
        observation need not copy all of it (``ScreenLeases``)."""
        screen = self.device.screenshot()
        again = getattr(self.device, "screenshot_again", None)
        if again is not None and not self._share_pixels and self._leases.held(screen):
            twin = again()
            return screen if twin is None else twin
        return screen

    def _fit(self, pixels: np.ndarray) -> np.ndarray:
        """The device's screen at the observation's shape: scaled when a device configuration changed the screen
        size (once per screen: a read-only screen, the simulated phone's, is the same array until it changes)."""
        height, width, _ = self.observation_space["pixels"].shape
        if pixels.shape[:2] != (height, width):
            if self._fitted is None or self._fitted[0] is not pixels or pixels.flags.writeable:
                scaled = Image.fromarray(pixels).resize((width, height), Image.Resampling.BILINEAR)
                self._fitted = pixels, np.asarray(scaled)  # read-only: it shares the bytes Pillow packed
            pixels = self._fitted[1]
        return pixels

    def _show(self, screen: np.ndarray) -> np.ndarray:
        """The observation's pixels of ``screen`` (``_fit``'s), which is noted as the last shown (``_final``): read-only
        from now on (a writable one is a device's fresh array, a real device's, now the env's)."""
        screen.flags.writeable = False
        self._screen = screen
        return self._handed(screen)

    def _handed(self, pixels: np.ndarray) -> np.ndarray:
        """The read-only screen ``pixels`` as an observation hands them out: over the same memory unless the caller
        holds an earlier observation of it (``ScreenLeases``), or with ``share_pixels`` the screen itself."""
        return pixels if self._share_pixels else self._leases.handed(pixels)

    def _blank_observation(self) -> dict[str, Any]:
        self._elements, self._last_dump = [], None
        observation: dict[str, Any] = {"a11y_tree": "", "goal": self._goal}
        if self._pixels:
            blank = np.zeros(self.observation_space["pixels"].shape, np.uint8)
            observation = {"pixels": self._show(blank), **observation}
        return observation

    def _info(self, invalid: str | None, backend_error: str | None) -> dict[str, Any]:
        return {"ui_elements": list(self._elements), "score": self._score, "params": self._copy_params(),
                "invalid_action": invalid, "backend_error": backend_error, "screen_size": self._screen_size(),
                "device_config": self._episode_config.as_dict() if self._episode_config else None}

    def _screen_size(self) -> tuple[int, int] | None:
        return self._device.screen_size if self._device is not None and self._healthy else None

    def _rewind(self) -> bool:
        """The last task's ``hand_over`` (the next episode's is set up after), then undo what its episode did to the
        phone, on a device that can (``rewind``: the simulated phone all of it, an adb device what adb reaches),
        telling it the packages the episode showed but the task's own, which its ``prepare`` stops and restores
        anyway. Whether the rewind was full (``full_rewind``: it left every app stopped, home in front, so neither
        the hand-over nor ``prepare`` need stop them)."""
        full = getattr(self.device, "full_rewind", False)
        self.task.hand_over(self.device, full)
        rewind = getattr(self.device, "rewind", None)
        if rewind is not None:
            rewind(self._shown.difference(self.task_class.app_packages))
        self._shown = set()
        return full

    def _reconnect(self) -> None:
        if self._device is not None and self._device is not self._device_spec:
            self._device.close()
        self._device = open_device(self._device_spec)
        self._applied_config = None  # a new device's configuration is unknown
        self._healthy = True
