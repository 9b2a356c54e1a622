"""The LLM agent's prompts, in the structure of AndroidWorld's M3A and T3A agents (``android_world/agents/m3a.py``,
``t3a.py``): a fixed part (the role, how the screen is shown, the action syntax, guidelines, the reply format) and,
each step, the goal, the history of earlier steps with a line on what each did, and the current screen, as the
compressed UI text and, in multimodal mode, the Set-of-Mark screenshot. An optional second request per step
summarizes it from the screens before and after (M3A's summary), for the history. The wording is ours.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Sequence

import numpy as np
from PIL import Image

from android_gym.llm.client import Message
from android_gym.wrappers.dialects import Dialect

#: Longest reason kept for the history (characters).
REASON_CHARS = 300
_MARKER = re.compile(r"(?i)\baction\b[\s*_`]*:")
_LABEL = re.compile(r"(?im)^\s*[*_`]*(reason|thought|observation)[*_`]*\s*:\s*")

GUIDELINES = """\
Guidelines:
- Take the simplest way to the goal. Open an app with the action that opens apps, not through the app drawer.
- Type with the typing action instead of tapping keys; clear a field first if it holds text you do not want.
- Act only on elements of the current screen. What you need may be further down or up: scroll to reveal it (to
  see what lies below, scroll down).
- If the history shows an action did not do what you expected, do not repeat it unchanged: try another way.
- A question is answered with the answer action before you finish; showing the answer on screen is not enough.
- When the goal is reached (or already was at the start), finish at once."""


def system_prompt(dialect: Dialect, ids: str, image: str | None) -> str:
    """The fixed part: the role, how the screen is shown (``ids``: ``"index"`` or ``"hash"`` labels on the UI
    lines; ``image``: ``"marked"``, ``"plain"`` or ``None``), the dialect's action syntax and the guidelines."""
    if ids == "index":
        naming = ("The number in brackets at the start of a line, e.g. [12], is the element's number: actions name "
                  "elements by it.")
    else:
        naming = ("The ID in brackets at the start of a line, e.g. [n51d6], names the element in actions; an element "
                  "keeps its ID from step to step.")
    shown = {
        "marked": " You also get a screenshot of the screen, on which the same elements are boxed in green and "
                  "labelled with the same numbers.",
        "plain": " You also get a screenshot of the screen, to see what the list cannot say (its numbers are in the "
                 "list only).",
        None: "",
    }[image]
    return f"""\
You operate an Android phone on behalf of a user. The user's goal is either a task to carry out on the phone or a \
question to answer from what the phone holds.

You work step by step, one action per step. At each step you get the goal, the history of your earlier steps, and \
the current screen as a list of UI elements: one line per element, [label] class resource-id "text" <actions> \
(states), indented under the element that contains it. {naming}{shown}

{dialect.describe()}

{GUIDELINES}"""


def step_message(goal: str, history: Sequence[str], ui_text: str, image_url: str | None,
                 docs: str = "", grid: str = "") -> Message:
    """The user message of one step: the goal, the history, the screen (and the screenshot as a data URL), what
    exploration documented about the elements on screen (``docs``, AppAgent's deployment phase), and in AppAgent's
    grid mode the grid drawn on the screenshot (``grid``, its description)."""
    past = "\n".join(history) if history else "None yet: this is the first step."
    notes = (f"Notes from an earlier exploration of this app, on what acting on elements of this screen did (use "
             f"them to pick the element that serves the goal):\n{docs}\n\n" if docs else "")
    if grid:
        notes += (f"Grid mode, as you asked with grid(): {grid} Act with tap(area, subarea), "
                  "long_press(area, subarea) or swipe(area, subarea, direction, dist).\n\n")
    text = (f"Goal: {goal}\n\nYour steps so far:\n{past}\n\nThe current screen:\n{ui_text}\n\n{notes}"
            f"{'The screenshot of the current screen is attached. ' if image_url else ''}"
            "What is the next action? Reply in the format described.")
    if image_url is None:
        return {"role": "user", "content": text}
    return {"role": "user", "content": [{"type": "text", "text": text},
                                        {"type": "image_url", "image_url": {"url": image_url}}]}


def summary_messages(goal: str, action: str, reason: str, before: str, after: str, outcome: str) -> list[Message]:
    """The request for a step's summary (M3A's second call): the action and its reason, the screens before and
    after, and what the phone said of it."""
    return [
        {"role": "system", "content": "You review one step of an agent that operates an Android phone for a user, "
                                      "and write the line the agent will read about it in its history."},
        {"role": "user", "content": f"""\
The user's goal: {goal}

The screen before the step:
{before}

The action taken: {action}
The agent's reason: {reason or "(none given)"}
{outcome}

The screen after the step:
{after}

In one line of at most 50 words: what the step meant to do, whether it worked (compare the two screens; be \
critical, the action or its reason may have been wrong), and anything later steps must remember (facts read on the \
screen, what to do or avoid next)."""}]


def reason_of(reply: str) -> str:
    """The reasoning part of a reply: the text before its last ``Action:`` (else all of it), labels such as
    ``Reason:`` dropped, on one line, shortened to ``REASON_CHARS``."""
    markers = list(_MARKER.finditer(reply))
    text = reply[:markers[-1].start()] if markers else reply
    text = " ".join(_LABEL.sub("", text).split())
    return text if len(text) <= REASON_CHARS else text[:REASON_CHARS - 3] + "..."


def png_data_url(pixels: np.ndarray) -> str:
    """An ``(H, W, 3)`` uint8 screenshot as a ``data:image/png;base64,...`` URL, as chat APIs take images."""
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
