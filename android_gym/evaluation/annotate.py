"""A recorded step's action in words and drawn on the screen it was taken on: a ring on a tap, two on a long
press, an arrow for a scroll or swipe, the target element framed, typed text in a label by the field, and a
banner for actions that touch nothing (back, home, open an app, answer, ...)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw, ImageFont

#: Colours: the touch (a red that reads on white and dark screens), the target element, the typed-text label.
TOUCH = (229, 57, 53)
TARGET = (255, 179, 0)
LABEL_BG = (33, 33, 33)
LABEL_FG = (255, 255, 255)
INVALID = (198, 40, 40)

_VERBS = {"click": "tap", "double_tap": "double tap", "long_press": "long press", "navigate_back": "back",
          "navigate_home": "home", "keyboard_enter": "enter", "wait": "wait"}


def element_name(element: dict[str, Any] | None) -> str:
    """How a person would name a recorded target element: its label, else its resource id's name, else class."""
    if not element:
        return ""
    return (element.get("label") or element.get("resource_id", "").rpartition("/")[2]
            or element.get("class", "").rpartition(".")[2])


def shorten(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def describe(step: dict[str, Any]) -> str:
    """The step's action in a few words: ``tap "Send"``, ``type "Hi" into "Message"``, ``scroll down``,
    ``open app Clock``, ``answer "3"``, ``invalid: <reason>`` ..."""
    action = step.get("action")
    if not isinstance(action, dict) or "action_type" not in action:
        return f"invalid: {shorten(step.get('invalid_action') or action, 120)}"
    kind = action["action_type"]
    target = element_name(step.get("element"))
    where = f' "{shorten(target, 40)}"' if target else (f" ({action['x']}, {action['y']})" if "x" in action else "")
    if kind == "input_text":
        text = f'type "{shorten(action.get("text", ""))}"'
        return text + (f" into{where}" if where else "")
    if kind in ("scroll", "swipe"):
        return f"{kind} {action.get('direction', '?')}{where if kind == 'scroll' else ''}"
    if kind == "open_app":
        return f"open app {shorten(action.get('app_name', ''), 40)}"
    if kind == "answer":
        return f'answer "{shorten(action.get("text", ""), 80)}"'
    if kind == "status":
        return f"declare the task {action.get('goal_status', 'complete')}"
    return _VERBS.get(kind, kind) + where


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _label(draw: ImageDraw.ImageDraw, image: Image.Image, text: str, anchor_y: int, colour: tuple[int, int, int],
           size: int) -> None:
    """A dark label with ``text`` across the image at ``anchor_y`` (kept inside the image)."""
    font = _font(size)
    pad = max(2, size // 3)
    text = shorten(text, 48)
    width = min(image.width - 2 * pad, int(draw.textlength(text, font=font)) + 2 * pad)
    height = size + 2 * pad
    top = min(max(0, anchor_y), image.height - height)
    draw.rounded_rectangle([pad, top, pad + width, top + height], radius=pad, fill=colour)
    draw.text((2 * pad, top + pad), text, font=font, fill=LABEL_FG)


def draw_step(image: Image.Image, step: dict[str, Any], screen_size: tuple[int, int]) -> Image.Image:
    """A copy of ``image`` (the screen before ``step``, at any scale of ``screen_size``) with the step drawn on."""
    out = image.convert("RGB")
    draw = ImageDraw.Draw(out)
    scale = out.width / screen_size[0]
    unit = max(2, round(out.width / 90))  # line width: 3 px on a 270 px wide screen
    size = max(10, round(out.width / 22))  # label text: 12 px there
    action = step.get("action") if isinstance(step.get("action"), dict) else {}
    if step.get("invalid_action"):
        _label(draw, out, f"invalid: {step['invalid_action']}", out.height // 16, INVALID, size)
        return out
    element = step.get("element")
    if element:
        x1, y1, x2, y2 = (round(value * scale) for value in element["bounds"])
        draw.rectangle([x1, y1, x2 - 1, y2 - 1], outline=TARGET, width=unit)
    points = [(round(x * scale), round(y * scale)) for x, y in step.get("touch", [])]
    kind = action.get("action_type")
    if len(points) == 2:
        _arrow(draw, points[0], points[1], unit)
    elif len(points) == 1:
        x, y = points[0]
        radius = 5 * unit
        rings = 2 if kind in ("long_press", "double_tap") else 1
        for ring in range(rings):
            r = radius + ring * 2 * unit
            draw.ellipse([x - r, y - r, x + r, y + r], outline=TOUCH, width=unit)
        draw.ellipse([x - unit, y - unit, x + unit, y + unit], fill=TOUCH)
    if kind == "input_text":
        below = (points[0][1] + 7 * unit) if points else out.height // 2
        _label(draw, out, f'type "{action.get("text", "")}"', below, LABEL_BG, size)
    elif not points:  # below the status bar
        _label(draw, out, describe(step), out.height // 16, LABEL_BG, size)
    return out


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], unit: int) -> None:
    """A line from ``start`` to ``end`` with a head at ``end``."""
    draw.line([start, end], fill=TOUCH, width=unit)
    (x1, y1), (x2, y2) = start, end
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = 5 * unit
    left = (x2 - head * ux + head * 0.6 * uy, y2 - head * uy - head * 0.6 * ux)
    right = (x2 - head * ux - head * 0.6 * uy, y2 - head * uy + head * 0.6 * ux)
    draw.polygon([end, left, right], fill=TOUCH)
    draw.ellipse([x1 - unit, y1 - unit, x1 + unit, y1 + unit], fill=TOUCH)
