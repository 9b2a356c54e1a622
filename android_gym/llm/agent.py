"""``LLMAgent``: a language model plays the phone through an OpenAI-compatible chat API, one request per step
(two with ``summarize``), following the ``Agent`` protocol of ``android_gym.agents``.

Each step it sends the prompt of ``android_gym.llm.prompts`` (goal, history, compressed UI text, and in
multimodal mode the Set-of-Mark screenshot), reads the reply in its action dialect and returns the ``Action``.
Nothing it meets raises into the episode: a reply that cannot be read, or a request that fails after its
retries, becomes an ``InvalidAction`` whose reason the env reports in ``info["invalid_action"]``; the step
counts, nothing happens on the phone, and the next prompt's history tells the model what went wrong, so it
tries again. Tokens, requests and cost add up per episode in ``usage``.

One ID system: with the index dialects (``androidworld``, ``appagent``) the UI lines are labelled with the
element's index (``[12]``), the number the actions take and the number the screenshot's mark shows; the marks
are drawn on exactly the elements of the UI list. With ``androidarena`` the lines keep the compression's stable
IDs (``[n51d6]``), which that dialect's actions name, and the screenshot goes unmarked.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from android_gym.actions import Action, InvalidAction
from android_gym.appdocs.store import as_stores, render_docs, screen_docs
from android_gym.device.state import foreground_activity
from android_gym.errors import InvalidActionError, LLMConfigError, LLMRequestError
from android_gym.llm.client import ChatClient, Usage
from android_gym.llm.prompts import png_data_url, reason_of, step_message, summary_messages, system_prompt
from android_gym.wrappers.compression import CompressedUI, readable, step_compression
from android_gym.wrappers.dialects import DIALECTS, GRID, Dialect, Screen
from android_gym.wrappers.grid import Grid, draw_grid
from android_gym.wrappers.set_of_mark import draw_marks

MODES = ("text", "multimodal")
#: Environment variables ``make_agent`` reads, by setting; keyword arguments win.
ENV_VARS = {
    "model": "ANDROID_GYM_LLM_MODEL",
    "base_url": "ANDROID_GYM_LLM_BASE_URL",
    "api_key_env": "ANDROID_GYM_LLM_API_KEY_ENV",
    "mode": "ANDROID_GYM_LLM_MODE",
    "dialect": "ANDROID_GYM_LLM_DIALECT",
    "summarize": "ANDROID_GYM_LLM_SUMMARIZE",
    "timeout": "ANDROID_GYM_LLM_TIMEOUT",
    "max_retries": "ANDROID_GYM_LLM_MAX_RETRIES",
    "temperature": "ANDROID_GYM_LLM_TEMPERATURE",
    "max_tokens": "ANDROID_GYM_LLM_MAX_TOKENS",
    "prices": "ANDROID_GYM_LLM_PRICES",
    "docs": "ANDROID_GYM_LLM_DOCS",
}


@dataclass
class Step:
    """One decision of an episode: the screen it was made on (as the model read it, and as the dialect reads
    replies against it), the model's reply, the action read from it (or why there is none), and the history line
    written once the next screen showed what came of it."""

    ui_text: str
    screen: Screen
    reply: str | None = None
    action: Action | None = None
    error: str | None = None
    reason: str = ""
    history: str | None = None


class LLMAgent:
    """A chat model as an agent: ``reset(env)`` then ``act(observation, info)`` each step (``Agent`` protocol).

    ## Arguments
    ``client``: the ``ChatClient`` to ask. ``mode``: ``"text"`` (compressed UI text only) or ``"multimodal"``
    (plus the screenshot, needs ``pixels=True``). ``dialect``: ``"androidworld"`` (AndroidWorld's JSON actions,
    the M3A/T3A baseline), ``"androidarena"`` or ``"appagent"`` (``android_gym.wrappers.dialects``).
    ``summarize``: ask the model for a summary of each step for the history (M3A); without it the history line
    says the action, the reason given and whether the screen changed. ``docs``: app documentation
    (``android_gym.appdocs``: docs files or folders, or stores) whose entries for the elements on screen go into
    each step's prompt, as AppAgent's deployment does; an env wrapped in ``AppDocs`` hands them over in
    ``info["app_docs"]`` instead.

    ## Per episode
    ``usage``: tokens, requests, retries, failed requests and cost. ``steps``: every ``Step``. ``errors``: the
    failed requests' messages.
    """

    def __init__(self, client: ChatClient, *, mode: str = "text", dialect: str = "androidworld",
                 summarize: bool = False, docs: Any = None) -> None:
        if mode not in MODES:
            raise LLMConfigError(f"unknown mode {mode!r}; use one of {MODES}")
        if dialect not in DIALECTS:
            raise LLMConfigError(f"unknown dialect {dialect!r}; use one of {sorted(DIALECTS)}")
        self.client, self.mode, self.summarize = client, mode, bool(summarize)
        self.dialect: Dialect = DIALECTS[dialect]()
        self._ids = "hash" if dialect == "androidarena" else "index"
        image = None if mode == "text" else "marked" if self._ids == "index" else "plain"
        self.system = system_prompt(self.dialect, self._ids, image)
        self.usage, self.steps, self.errors = Usage(), [], []
        self._goal = ""
        self.docs = as_stores(docs) if docs is not None else {}
        self._device: Any = None
        self._screen_size = (0, 0)

    def reset(self, env: gym.Env) -> None:
        """Start a new episode of ``env`` (already reset): empty history, usage and errors."""
        spaces = getattr(env.observation_space, "spaces", {})
        if self.mode == "multimodal" and "pixels" not in spaces:
            raise LLMConfigError("multimodal mode shows the model the screenshot, and this env has no 'pixels': "
                                 "make it with pixels=True (the default) or use mode='text'")
        self.usage, self.steps, self.errors = Usage(), [], []
        self._device = env.unwrapped.device if self.docs else None
        self._screen_size = env.unwrapped.device.screen_size

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action | InvalidAction:
        """The model's next action for the screen of ``observation``, or an ``InvalidAction`` saying why there
        is none (an unreadable reply, a failed request)."""
        compressed = step_compression(observation, info)
        step = Step(ui_text=compressed.to_text(ids=self._ids),
                    screen=Screen(elements=info.get("ui_elements", []), screen_size=self._screen_size,
                                  compressed=compressed))
        self._goal = readable(observation["goal"])
        grid = self._grid(info) if self.steps and self.steps[-1].action == GRID else None
        if self.steps and self.steps[-1].history is None:
            self._conclude(self.steps[-1], step.ui_text, info)
        self.steps.append(step)
        image = self._image(observation, info, compressed, grid) if self.mode == "multimodal" else None
        messages = [{"role": "system", "content": self.system},
                    step_message(self._goal, self._history(), step.ui_text, image, self._docs(info, compressed),
                                 grid.describe() if grid else "")]
        step.reply = self._ask(messages)
        if step.reply is None:
            step.error = f"the model could not be asked: {self.errors[-1]}"
            return InvalidAction(f"no action: {step.error}")
        step.reason = reason_of(step.reply)
        try:
            step.action = self.dialect.parse(step.reply, step.screen)
        except InvalidActionError as error:
            step.error = str(error)
            return InvalidAction(step.error)
        return step.action

    def _docs(self, info: dict[str, Any], compressed: CompressedUI) -> str:
        """The docs of the elements of the UI list, labelled as the list labels them."""
        found = info.get("app_docs")
        if found is None and self._device is not None:
            found = screen_docs(self.docs, foreground_activity(self._device), info.get("ui_elements", []))
        if not found:
            return ""
        labels = {node.index: f"[{node_id if self._ids == 'hash' else node.index}]"
                  for node_id, node in compressed.nodes.items()}
        return render_docs(found, labels)

    def _ask(self, messages: list[dict[str, Any]]) -> str | None:
        """The model's reply (usage counted), or ``None`` with the failure recorded in ``errors``."""
        try:
            reply = self.client.complete(messages)
        except LLMRequestError as error:
            self.usage.add(Usage(retries=error.attempts - 1, failures=1))
            self.errors.append(str(error))
            return None
        self.usage.add(reply.usage)
        return reply.text

    def _grid(self, info: dict[str, Any]) -> Grid | None:
        """AppAgent's grid when the last reply asked for it (``grid()``, in the AppAgent dialect)."""
        if self.dialect.name != "appagent" or info.get("invalid_action"):
            return None
        return Grid(*self._screen_size)

    def _image(self, observation: dict[str, Any], info: dict[str, Any], compressed: CompressedUI,
               grid: Grid | None) -> str:
        """The screenshot as a data URL: with AppAgent's grid when asked for, else marked with the UI list's
        numbers for the index dialects."""
        pixels = observation["pixels"]
        if grid is not None:
            pixels = draw_grid(pixels)
        elif self._ids == "index":
            elements = info.get("ui_elements", [])
            marked = sorted({node.index for node in compressed.nodes.values() if node.index < len(elements)})
            pixels = draw_marks(pixels, [elements[i] for i in marked])
        return png_data_url(pixels)

    def _history(self) -> list[str]:
        return [f"Step {n}: {step.history}" for n, step in enumerate(self.steps[:-1], start=1)]

    def _conclude(self, step: Step, after: str, info: dict[str, Any]) -> None:
        """Write ``step``'s history line, now that the screen after it (``after``) and the env's verdict are in."""
        if step.action is None:
            what = "no reply came" if step.reply is None else "your reply could not be read as an action"
            step.history = f"{what} ({step.error}); nothing was done."
            return
        action = self.dialect.format(step.action, step.screen) or step.action.to_json()
        refused = info.get("invalid_action")
        if refused:
            outcome = f"The phone refused it: {refused}"
        else:
            outcome = "The screen did not change." if after == step.ui_text else "The screen changed."
        if self.summarize:
            summary = self._ask(summary_messages(self._goal, action, step.reason, step.ui_text, after, outcome))
            if summary is not None:
                step.history = f"{action}. {' '.join(summary.split())}"
                return
        reason = f" Reason: {step.reason}" if step.reason else ""
        step.history = f"{action}.{reason} {outcome}"

    def stats(self) -> dict[str, Any]:
        """This episode's numbers, JSON-ready: steps, unreadable replies, failed requests, tokens, cost."""
        return {"model": self.client.model, "steps": len(self.steps),
                "unreadable_replies": sum(step.reply is not None and step.action is None for step in self.steps),
                "failed_requests": self.usage.failures, "requests": self.usage.requests,
                "retries": self.usage.retries, "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens, "cost_usd": self.usage.cost}


def _flag(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"not a yes/no value: {value!r}")


#: How each setting is read from its environment variable's text.
_PARSERS: dict[str, Callable[[str], Any]] = {"summarize": _flag, "timeout": float, "max_retries": int,
                                             "temperature": float, "max_tokens": int, "prices": json.loads,
                                             "docs": lambda value: value.split(os.pathsep)}


def make_agent(**options: Any) -> LLMAgent:
    """An ``LLMAgent`` configured by keyword arguments, else by environment variables (``ENV_VARS``) — the
    factory for ``--agent android_gym.llm:make_agent``.

    Settings: ``model`` (required), ``base_url``, ``api_key_env`` (the variable holding the key, default
    ``OPENAI_API_KEY``), ``mode``, ``dialect``, ``summarize``, ``timeout``, ``max_retries``, ``temperature``,
    ``max_tokens``, ``prices`` (model → [input, output] US dollars per million tokens; JSON in the environment),
    ``docs`` (app docs files or folders; in the environment separated by ``os.pathsep``).
    ``LLMConfigError`` for an unknown setting or a value that cannot work; ``LLMDependencyError`` without the
    ``openai`` client.
    """
    unknown = sorted(set(options) - set(ENV_VARS))
    if unknown:
        raise LLMConfigError(f"unknown LLM agent setting(s) {unknown}; known: {sorted(ENV_VARS)}")
    settings = dict(options)
    for name, variable in ENV_VARS.items():
        if name not in settings and os.environ.get(variable):
            try:
                settings[name] = _PARSERS.get(name, str)(os.environ[variable])
            except ValueError as error:
                raise LLMConfigError(f"{variable}={os.environ[variable]!r} cannot be read: {error}") from None
    agent_options = {name: settings.pop(name) for name in ("mode", "dialect", "summarize", "docs") if name in settings}
    return LLMAgent(ChatClient(settings.pop("model", ""), **settings), **agent_options)
