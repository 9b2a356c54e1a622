"""The system language of the simulated phone: which locale the framework runs in and the apps' strings in it.

Android reads ``persist.sys.locale`` when the framework starts (``AndroidRuntime::readLocale``), so a change of
``persist.sys.locale`` shows after ``setprop ctl.restart zygote``; ``SystemLocale.tag`` is the locale of the
running framework. Apps then load their ``values-<language>`` resources: the window manager asks ``translate`` to
put a freshly built window's resource strings into the system language (``android_gym.locales`` holds them, per
package, with the framework's own strings under ``android`` for what the toolkit draws, such as a Switch's
ON/OFF).

Resource strings are told from user data by where the string object comes from: an app writes its resource
strings as literals in its module, and the toolkit passes the very objects on to its views, while user data
(a contact's name, a message, a file name, typed text) is always made at run time, read from a database, a file
or the keyboard, even when it spells a UI word. ``translate`` rewrites only the views' strings that are one of
the literal objects of the phone's modules (their constants, found through the modules' functions, classes and
values and kept alive here, so no other string can ever take their identity); a composed string (``f"{n}
selected"``) stays English.
"""

from __future__ import annotations

import enum
import sys
import types
from collections.abc import Iterator

from android_gym import locales
from android_gym.sim.ui.views import View

_PREFIX = "android_gym.sim."
#: The view kinds whose ``hint`` is text shown to the user (a field's hint, a label drawn on a canvas).
_TEXT_HINTS = frozenset({"edit", "label"})


class SystemLocale:
    """The locale of the running framework (a BCP 47 tag, ``en-US`` at first boot: ``ro.product.locale``)."""

    def __init__(self, tag: str = locales.ENGLISH) -> None:
        self.tag = tag

    @property
    def android_name(self) -> str:
        """The locale as ``Locale.toString()`` prints it in the ``Configuration`` string (``de_DE``)."""
        return self.tag.replace("-", "_")

    def translate(self, root: View, package: str) -> None:
        """Put the resource strings of the window ``root`` (a tree just built for ``package``) into the system
        language, in place (``resource_strings``); other strings stay as they are."""
        if not locales.strings(self.tag):
            return
        for view, name, value in resource_strings(root):
            setattr(view, name, locales.resource(self.tag, package, value))

    def string(self, value: str, package: str) -> str:
        """``value`` in the system language if it is a resource string (a literal of the phone's modules) that
        ``package`` or the framework translates, else ``value`` itself: ``Resources.getString``. A string the app
        composes (``getString(id, args)``) is made from its template read here, then formatted; user data passed
        in as an argument comes back unchanged. In English (no translations) it is ``value`` without a look: the
        phone's modules are scanned for their literals only in a language that translates them."""
        if not locales.strings(self.tag):
            return value
        return locales.resource(self.tag, package, value) if id(value) in _literals() else value


def resource_strings(root: View) -> Iterator[tuple[View, str, str]]:
    """The resource strings of the tree ``root`` that ``SystemLocale.translate`` puts into the system language,
    as ``(view, attribute, string)``: texts, content descriptions, and the hints of text fields and of labels (the
    text a custom view draws itself, such as a collapsing toolbar's title) that are literal string objects of the
    phone's modules; an icon's hint names its drawable and stays."""
    literal = _literals()
    for view in root.walk():
        for name in ("text", "content_desc", "hint"):
            value = getattr(view, name)
            if value and id(value) in literal and (name != "hint" or view.kind in _TEXT_HINTS):
                yield view, name, value


_LITERALS: dict[int, str] = {}
_SCANNED: set[str] = set()
_MODULES_SEEN = [0]  # len(sys.modules) at the last scan


def _literals() -> dict[int, str]:
    """The string constants of the phone's modules by ``id`` (the objects kept alive in the values), scanned again
    when a module of the phone was imported since."""
    if len(sys.modules) != _MODULES_SEEN[0]:
        _MODULES_SEEN[0] = len(sys.modules)
        for name in sorted({name for name in sys.modules if name.startswith(_PREFIX)} - _SCANNED):
            _SCANNED.add(name)
            for value in _strings_of(sys.modules[name]):
                _LITERALS[id(value)] = value
    return _LITERALS


def _strings_of(module: types.ModuleType) -> Iterator[str]:
    """Every string constant reachable from ``module``'s values: its functions' code (and nested code, defaults),
    its classes' attributes and methods, and the strings in its containers; only code of the phone's modules is
    entered."""
    seen: set[int] = set()
    stack: list[object] = list(vars(module).values())
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            # one-character strings are shared singletons, not the app's own objects, unless made as Named ones
            if len(value) > 1 or isinstance(value, locales.Named):
                yield value
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, types.CodeType):
            stack.extend(value.co_consts)
        elif isinstance(value, types.FunctionType) and value.__module__.startswith(_PREFIX):
            stack.extend((value.__code__, *(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values()))
        elif isinstance(value, type) and value.__module__.startswith(_PREFIX):
            stack.extend(vars(value).values())
        elif callable(value) and hasattr(value, "__wrapped__"):  # functools.cache and other decorators
            stack.append(value.__wrapped__)
        elif isinstance(value, staticmethod | classmethod):
            stack.append(value.__func__)
        elif isinstance(value, property):
            stack.extend(function for function in (value.fget, value.fset) if function is not None)
        elif isinstance(value, enum.Enum):
            stack.append(value.value)
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, tuple | list | set | frozenset):
            stack.extend(value)
