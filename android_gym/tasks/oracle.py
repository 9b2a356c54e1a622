"""Oracle steps: UI actions described by what a person looks for on screen, resolved at each step.

An oracle is a list of steps; each step turns the current ``ui_elements`` into one env ``Action`` (a tap on
the element whose text is "Send", typing into the field whose hint is "Type a message…", a key press).
Nothing here touches the device: an oracle acts only through the env's actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from android_gym import locales
from android_gym.actions import Action, ActionType
from android_gym.errors import AndroidGymError
from android_gym.ui import UIElement

#: A step returns the action to take, or ``None`` when there is nothing to do (the policy moves on at once).
OracleStep = Callable[[Sequence[UIElement]], Action | None]
#: The launcher's package (Pixel Launcher, as on the emulator images AndroidWorld uses).
LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
#: Enough BACK presses to leave any app screen the tasks use.
_MAX_BACKS = 8


class OracleError(AndroidGymError):
    """An oracle step found no element matching what it looks for (the task's UI assumption broke)."""


def _shows(shown: str | None, wanted: str, package: str | None = None) -> bool:
    """Whether a person looking for the English ``wanted`` finds it in ``shown``: the same string, or its
    translation in the phone's language (``android_gym.locales``; the element's text says which), as the app
    ``package`` translates it (another app may translate another English word the same)."""
    return shown == wanted or (shown is not None and wanted in locales.english_of(shown, package))


def _shows_part(shown: str, wanted: str, package: str) -> bool:
    """Whether ``shown`` holds the English ``wanted`` or one of its translations in the app ``package``."""
    return wanted in shown or any(word in shown for word in locales.translations_of(wanted, package))


@dataclass(frozen=True)
class Selector:
    """Matches an element by exact text, text part, content description, resource id and/or class suffix. Texts
    are given in English and also match their translation, so an oracle works in every system language."""

    text: str | None = None
    content_desc: str | None = None
    resource_id: str | None = None
    class_suffix: str | None = None
    text_contains: str | None = None
    #: The package whose strings the texts are, when not the element's window's (SystemUI's heads-up lies in the
    #: app's window).
    app: str | None = None

    def matches(self, element: UIElement) -> bool:
        """Whether ``element`` has every property this selector names."""
        package = self.app or element.package_name
        return ((self.text is None or _shows(element.text, self.text, package))
                and (self.text_contains is None or _shows_part(element.text or "", self.text_contains, package))
                and (self.content_desc is None or _shows(element.content_description, self.content_desc, package))
                and (self.resource_id is None or element.resource_name == self.resource_id)
                and (self.class_suffix is None or element.class_name.endswith(self.class_suffix)))

    def lookup(self, elements: Sequence[UIElement]) -> UIElement | None:
        """The last (top-most) matching element on screen, ``None`` when there is none."""
        return next((element for element in reversed(elements)
                     if self.matches(element) and element.bbox_pixels.area > 0), None)

    def find(self, elements: Sequence[UIElement]) -> UIElement:
        """The last (top-most) matching element; ``OracleError`` when there is none."""
        found = self.lookup(elements)
        if found is None:
            raise OracleError(f"no element on screen matches {self}")
        return found

    def present(self, elements: Sequence[UIElement]) -> bool:
        """Whether a matching element is on screen."""
        return self.lookup(elements) is not None


def as_english(shown: str, choices: Sequence[str]) -> str:
    """The one of the English ``choices`` that ``shown`` is, or translates (a month name read off the screen in
    the phone's language); ``OracleError`` when it is none of them."""
    found = [choice for choice in choices if _shows(shown, choice)]
    if not found:
        raise OracleError(f"{shown!r} is none of {list(choices)}")
    return found[0]


def tap_found(find: Callable[[Sequence[UIElement]], UIElement | None], missing: str) -> OracleStep:
    """Tap (the touch target of) the element ``find`` picks from the screen; ``OracleError(missing)`` when it
    picks none."""
    def step(elements: Sequence[UIElement]) -> Action:
        found = find(elements)
        if found is None:
            raise OracleError(missing)
        return Action(ActionType.CLICK, index=touch_target(found, elements).index)
    return step


def touch_target(element: UIElement, elements: Sequence[UIElement]) -> UIElement:
    """The element a tap on ``element`` is for: itself when clickable or checkable, else the nearest clickable
    ancestor (a list row around its title), so oracle demonstrations name what an agent would act on."""
    if element.is_clickable or element.is_checkable:
        return element
    depth = element.depth
    for candidate in reversed(elements[:element.index]):
        if candidate.depth < depth:
            if candidate.is_clickable:
                return candidate
            depth = candidate.depth
    return element


def tap(selector: Selector) -> OracleStep:
    """Click the element ``selector`` finds (through its clickable row, see ``touch_target``)."""
    return lambda elements: Action(ActionType.CLICK, index=touch_target(selector.find(elements), elements).index)


def type_into(selector: Selector, text: str) -> OracleStep:
    """Focus the field ``selector`` finds, type ``text`` and press ENTER (AndroidWorld's input_text)."""
    return lambda elements: Action(ActionType.INPUT_TEXT, index=selector.find(elements).index, text=text)


def long_press(selector: Selector, on_first_word: bool = False) -> OracleStep:
    """Long-press the element ``selector`` finds: at its centre, or on the first word of its text."""
    def step(elements: Sequence[UIElement]) -> Action:
        box = selector.find(elements).bbox_pixels
        x, y = box.center
        return Action(ActionType.LONG_PRESS, x=box.x_min + 48 if on_first_word else x, y=y)
    return step


def replace_text(selector: Selector, text: str) -> OracleStep:
    """Type ``text`` into the field ``selector`` finds in place of what it holds (``clear_text``)."""
    return lambda elements: Action(ActionType.INPUT_TEXT, index=selector.find(elements).index, text=text,
                                   clear_text=True)


def drag(selector: Selector, direction: str) -> OracleStep:
    """AndroidWorld's ``scroll`` on an element: a drag from its centre to its edge (``left`` drags right)."""
    return lambda elements: Action(ActionType.SCROLL, index=selector.find(elements).index, direction=direction)


def expect(selector: Selector) -> OracleStep:
    """Check that ``selector`` is on screen (nothing to do), ``OracleError`` otherwise: an oracle that reads an
    answer off the screen proves the screen shows it."""
    def step(elements: Sequence[UIElement]) -> None:
        selector.find(elements)
    return step


#: The way back from each scrolling direction.
_OPPOSITE = {"down": "up", "up": "down", "left": "right", "right": "left"}


def _contents(container: UIElement, elements: Sequence[UIElement]) -> tuple:
    """What shows inside ``container``: the texts, descriptions and places of the elements within its bounds."""
    box = container.bbox_pixels
    return tuple((e.text, e.content_description, e.bbox_pixels) for e in elements[container.index + 1:]
                 if box.x_min <= e.bbox_pixels.x_min and e.bbox_pixels.x_max <= box.x_max
                 and box.y_min <= e.bbox_pixels.y_min and e.bbox_pixels.y_max <= box.y_max)


def _span(element: UIElement, direction: str) -> tuple[int, int]:
    """Where ``element`` starts and ends along the axis a scroll towards ``direction`` moves."""
    box = element.bbox_pixels
    return (box.y_min, box.y_max) if direction in ("up", "down") else (box.x_min, box.x_max)


def _looks_whole(element: UIElement, container: UIElement, direction: str, elements: Sequence[UIElement]) -> bool:
    """Whether the row of ``element`` (what a tap on it is for, ``touch_target``), in the list ``container``
    scrolling towards ``direction``, shows whole as far as the screen tells. A list cuts every row crossing its edge
    at one line, the list's edge or, in a list with padding, the padding's (``clipToPadding``), so a row with more
    of the list beyond it towards the edge that rows cross coming in (its bottom edge scrolling down) is not cut
    there. The row reaching as far as the list's content does is whole when it is as long as a row like it (the
    same class, id and depth in the list) lying clear of both ends of the content, or, when none does, of that end
    (a short list at its start), to a pixel (bounds are rounded to the screen's pixels): a cut row is shorter; with
    no like row, when it keeps off the list's edge."""
    inside = list(takewhile(lambda other: other.depth > container.depth, elements[container.index + 1:]))
    spans = [_span(other, direction) for other in inside]
    first, last = min(start for start, _ in spans), max(end for _, end in spans)
    towards_end = direction in ("down", "right")

    def clear(start: int, end: int) -> bool:
        return end < last if towards_end else start > first

    row = touch_target(element, elements)
    start, end = _span(row, direction)
    if clear(start, end):
        return True
    likes = [_span(other, direction) for other in inside
             if (other.class_name, other.resource_name, other.depth) == (row.class_name, row.resource_name, row.depth)]
    likes = [span for span in likes if clear(*span)]
    if not likes:
        low, high = _span(container, direction)
        return end < high if towards_end else start > low
    inner = [span for span in likes if first < span[0] and span[1] < last]
    return any(abs(like_end - like_start - (end - start)) <= 1 for like_start, like_end in inner or likes)


def scroll_until(find: Callable[[Sequence[UIElement]], UIElement | None], container: Selector, what: str,
                 direction: str | Callable[[Sequence[UIElement]], str] = "down",
                 max_scrolls: int = 20) -> list[OracleStep]:
    """Scroll ``container`` towards ``direction`` (or the one it picks from the first screen) until the element
    ``find`` picks is shown (no step once it is), then check that it is on screen: ``OracleError`` naming ``what``
    if it never showed.

    Shown means, as a careful person sees it before tapping: what a tap on the element is for (``touch_target``:
    its row) has more of the list beyond it towards the edge the rows cross coming in, or reaches as far as the
    list's content but is as long as a row like it inside (``_looks_whole``: a row cut at the list's edge, or its
    padding's, is shorter) or, with no like, keeps off the list's edge, or the list cannot scroll that way any
    further (the last scroll left it as it was: the end of a list whose last row has no like); a list that cannot
    scroll (its node is not ``scrollable``: all its rows lie inside it) is not scrolled. A row half scrolled in at
    that edge thus costs one more scroll. When a scroll left the list as it was (its end reached) before the element
    showed, the scrolling turns back, as a person looks the other way for what was above (a list scrolled down
    earlier, whose wanted row now lies above)."""
    seen: dict[str, Any] = {"direction": direction, "contents": None}

    def step(elements: Sequence[UIElement]) -> Action | None:
        if callable(seen["direction"]):
            seen["direction"] = seen["direction"](elements)
        found = find(elements)
        view = container.find(elements)
        if not view.is_scrollable:  # all of it is on screen: nothing to scroll to (the check tells if it showed)
            return None
        contents = _contents(view, elements)
        ended = contents == seen["contents"]  # the last scroll moved nothing: the list's end that way
        if found is not None and (ended or _looks_whole(found, view, seen["direction"], elements)):
            return None
        if ended:
            seen["direction"] = _OPPOSITE[seen["direction"]]
        seen["contents"] = contents
        return Action(ActionType.SCROLL, index=view.index, direction=seen["direction"])

    def check(elements: Sequence[UIElement]) -> None:
        if find(elements) is None:
            raise OracleError(f"{what} is not on screen")

    return [step] * max_scrolls + [check]


def scroll_to(target: Selector, container: Selector, direction: str = "down",
              max_scrolls: int = 20) -> list[OracleStep]:
    """``scroll_until`` an element ``target`` finds is shown."""
    return scroll_until(target.lookup, container, f"an element matching {target}", direction, max_scrolls)


def hide_keyboard_unless(shown: Selector) -> OracleStep:
    """BACK, closing the keyboard, when nothing ``shown`` finds is on screen (on a short screen the keyboard can
    cover what the next step taps); nothing when it is."""
    return lambda elements: None if shown.present(elements) else Action(ActionType.NAVIGATE_BACK)


def act(action: Action) -> OracleStep:
    """A step that needs nothing from the screen (open an app, go back, answer, ...)."""
    return lambda elements: action


def open_app(name: str) -> OracleStep:
    """Open an app by name."""
    return act(Action(ActionType.OPEN_APP, app_name=name))


#: What a person taps to get a distractor out of the way: the notification-permission prompt's "Don't allow"
#: (PermissionController ``grant_permissions.xml``), Simple-Commons' "What's new" "OK" and rating dialog's "Later"
#: (``WhatsNewDialog``, ``RateStarsDialog``: AlertDialog buttons, beside their title and
#: ``rate_our_app`` text), and the low-battery warning's "No thanks" (SystemUI ``battery_saver_dismiss_action``) in its
#: heads-up.
DISTRACTOR_DISMISSALS = (
    Selector(resource_id="com.android.permissioncontroller:id/permission_deny_button"),
    Selector(text="OK", resource_id="android:id/button1"),
    Selector(text="Later", resource_id="android:id/button2"),
    Selector(text="No thanks", class_suffix="Button", app="com.android.systemui"),
)
_NOTIFICATION_ROW = Selector(resource_id="com.android.systemui:id/expandableNotificationRow")
#: What tells each dismissal's button is the distractor's (an "OK" or "Later" of a task's own dialog is not).
_SHOWN_WITH = (DISTRACTOR_DISMISSALS[0], Selector(text="What's new", class_suffix="TextView"),
               Selector(text="Rate our app please :)"), _NOTIFICATION_ROW)


def dismiss_distractor(elements: Sequence[UIElement]) -> Action | None:
    """A tap that dismisses a distractor in the way (a permission prompt, a low-battery heads-up), or ``None``
    when none is on screen: what a competent user does before going on with the task."""
    for selector, shown_with in zip(DISTRACTOR_DISMISSALS, _SHOWN_WITH, strict=True):
        if selector.present(elements) and shown_with.present(elements):
            return tap(selector)(elements)
    return None


def _declare_complete(elements: Sequence[UIElement]) -> Action:
    return Action(ActionType.STATUS, goal_status="complete")


def complete() -> OracleStep:
    """Declare the task done."""
    return _declare_complete


def declares_completion(step: OracleStep) -> bool:
    """Whether ``step`` is ``complete()`` (a composite drops its parts' ones but the last)."""
    return step is _declare_complete


def _back_unless_home(elements: Sequence[UIElement]) -> Action | None:
    if any(element.package_name == LAUNCHER_PACKAGE for element in elements):
        return None
    return Action(ActionType.NAVIGATE_BACK)


def back_to_home() -> list[OracleStep]:
    """Press BACK until the launcher is in front, as a person leaves an app so it starts afresh next time."""
    return [_back_unless_home] * _MAX_BACKS


class OraclePolicy:
    """Plays a task's oracle steps one per env step; ``act`` takes the step's ``info["ui_elements"]``."""

    def __init__(self, steps: Sequence[OracleStep]) -> None:
        self._steps = list(steps)
        self._next = 0

    @property
    def done(self) -> bool:
        """Whether every step has been played."""
        return self._next >= len(self._steps)

    def act(self, elements: Sequence[UIElement]) -> Action:
        """The next action (steps with nothing to do are passed over); after the last step it keeps declaring the
        task complete."""
        while not self.done:
            step = self._steps[self._next]
            self._next += 1
            action = step(elements)
            if action is not None:
                return action
        return Action(ActionType.STATUS, goal_status="complete")
