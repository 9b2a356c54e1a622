"""Intents and broadcast results: the messages apps, the activity manager and ``am`` pass one another."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Intent:
    """The parts of an Android Intent that ``am start`` and apps use."""

    action: str = ""
    data: str = ""
    mime_type: str = ""
    component: str = ""
    categories: tuple[str, ...] = ()
    extras: dict[str, str] = field(default_factory=dict)


@dataclass
class BroadcastResult:
    """The result an ordered broadcast carries from receiver to receiver (``BroadcastReceiver.setResultCode`` /
    ``setResultData``). ``am broadcast`` starts it at code 0 with no data and prints it at the end."""

    code: int = 0
    data: str | None = None


#: ``Intent.ACTION_MAIN`` and the categories of an app's launcher activity (``CATEGORY_LAUNCHER``) and of the home
#: app's (``CATEGORY_HOME``); ``CATEGORY_DEFAULT`` and ``CATEGORY_BROWSABLE`` of the filters implicit intents reach.
ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_LAUNCHER, CATEGORY_HOME = "android.intent.category.LAUNCHER", "android.intent.category.HOME"
CATEGORY_DEFAULT, CATEGORY_BROWSABLE = "android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"


@dataclass(frozen=True)
class IntentFilter:
    """An activity's ``<intent-filter>`` as its manifest declares it: ``<action>``s, ``<category>``s and ``<data>``
    schemes and MIME types (``*`` wildcards, as ``image/*`` or ``*/*``).

    The package manager keeps them without running the app (``AppInfo.intent_filters``), so an implicit intent starts
    only the apps whose filters take it; the app's ``resolve`` then names the activity."""

    actions: tuple[str, ...]
    categories: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()
    mime_types: tuple[str, ...] = ()

    def takes(self, intent: Intent) -> bool:
        """Whether ``intent`` passes the filter: its action is one of the filter's (an intent without one passes)
        and each of its categories is one of the filter's, as ``IntentFilter.match`` tests them; and, for a filter
        that names data, its data's scheme or its type is one the filter names (looser than ``match``, which wants
        both to pass: the app's ``resolve`` decides)."""
        if intent.action and intent.action not in self.actions:
            return False
        if not set(intent.categories) <= set(self.categories):
            return False
        if not (self.schemes or self.mime_types):
            return True
        scheme = intent.data.split(":", 1)[0] if ":" in intent.data else ""
        return (bool(scheme) and scheme in self.schemes) or any(
            _type_matches(pattern, intent.mime_type) for pattern in self.mime_types)


def _type_matches(pattern: str, mime_type: str) -> bool:
    """``IntentFilter.findMimeType``: ``*/*`` takes any type, ``image/*`` any image type, otherwise the same type."""
    if not mime_type:
        return False
    if pattern in ("*", "*/*"):
        return True
    kind, _, subtype = pattern.partition("/")
    return pattern == mime_type or (subtype == "*" and mime_type.partition("/")[0] == kind)
