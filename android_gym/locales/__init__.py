"""The phone's visible strings in the system languages other than English, as the real apps ship them.

One JSON file per language (``de.json``, ``fr.json``): for each package, groups of strings, each group naming the
resource file it was taken from (AOSP's ``values-de``/``values-fr`` resources, the apps' own
``res/values-de|fr/strings.xml``), mapping the English string the simulator shows to the translation. Only the
strings the simulator shows are kept; a string the real app leaves untranslated is absent and stays English.

A string whose English text does not tell which resource it is (a weekday's one-letter initial, "T" for Tuesday
and Thursday; one English text that an app has under two names it translates apart) is a ``Named`` string in the
app's module, and its key in the file is the English text followed by its resource name in Android's reference
syntax: ``"T @string/tuesday_letter"``. A plural's ``one`` and ``other`` items are keyed by their English texts; an
item English has no counterpart for (French's ``many``, for millions) by the English ``other`` item, the plural's
name and the quantity: ``"{} years @plurals/years:many"`` (``plural_key``).

The simulated phone's window manager uses ``strings`` to show an app in the system language; oracles, which look
for English words, use ``english_of`` and ``translations_of`` to find the translated element (a person who reads
the language looks for the translated word), without asking the device which language it runs in.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

#: The system languages (BCP 47 tags, as ``persist.sys.locale`` holds them) with a strings file.
TRANSLATED = {"de-DE": "de.json", "fr-FR": "fr.json"}
#: The language the simulator's apps are written in.
ENGLISH = "en-US"
#: The package whose strings the toolkit's own words (dialog buttons, a Switch's ON/OFF) come from.
FRAMEWORK_PACKAGE = "android"


#: What joins a ``Named`` string's English text and its resource name in a key of the strings files.
_NAME_MARK = " @string/"
#: What joins a plural item's English text and its plural's name and quantity (``plural_key``).
_PLURAL_MARK = " @plurals/"
#: Where a key's English text ends.
_ENGLISH_END = re.compile(f"{re.escape(_NAME_MARK)}|{re.escape(_PLURAL_MARK)}")


class Named(str):
    """A resource string that its English text does not identify, with the name it has in the app's resources
    (``tuesday_letter``): translated by that name. It equals its English text as any string does."""

    name: str

    def __new__(cls, english: str, name: str) -> Named:
        named = super().__new__(cls, english)
        named.name = name
        return named

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # pickles with its name
        return str(self), self.name


def key(string: str) -> str:
    """The key of the resource string ``string`` in the strings files: its English text, and a ``Named`` string's
    resource name after it."""
    return f"{string}{_NAME_MARK}{string.name}" if isinstance(string, Named) else string


def plural_key(other: str, name: str, quantity: str) -> str:
    """The key of the item for ``quantity`` (``"many"``) of the plural ``name`` whose English ``other`` item is
    ``other``: ``"{} years @plurals/years:many"``."""
    return f"{other}{_PLURAL_MARK}{name}:{quantity}"


def _english(key: str) -> str:
    """The English text of a key of the strings files."""
    return _ENGLISH_END.split(key, 1)[0]


@functools.cache
def strings(language: str) -> dict[str, dict[str, str]]:
    """``{package: {key: translated}}`` for ``language`` (a tag of ``TRANSLATED``; empty for English or a
    language without a file, whose phone shows the English strings)."""
    if language not in TRANSLATED:
        return {}
    data = json.loads(resources.files(__package__).joinpath(TRANSLATED[language]).read_text(encoding="utf-8"))
    return {package: {english: translated for group in groups for english, translated in group["strings"].items()}
            for package, groups in data["packages"].items()}


def translation(language: str, package: str, english: str) -> str | None:
    """The resource string ``english`` of the app ``package`` in ``language``: the app's ``values-<lang>``
    string, else the framework's (a toolkit word); ``None`` when neither translates it."""
    tables, wanted = strings(language), key(english)
    return tables.get(package, {}).get(wanted) or tables.get(FRAMEWORK_PACKAGE, {}).get(wanted)


def resource(language: str, package: str, english: str) -> str:
    """The resource string ``english`` of the app ``package`` as it loads in ``language``: its ``translation``,
    else ``english`` itself."""
    return translation(language, package, english) or english


@functools.cache
def _reverse(package: str | None) -> dict[str, frozenset[str]]:
    """Every translation in every language → the English strings it translates, among ``package``'s strings
    and the framework's (every package's when ``None``)."""
    found: dict[str, set[str]] = {}
    for language in TRANSLATED:
        for owner, table in strings(language).items():
            if package is None or owner in (package, FRAMEWORK_PACKAGE):
                for english, translated in table.items():
                    found.setdefault(translated, set()).add(_english(english))
    return {translated: frozenset(english) for translated, english in found.items()}


@functools.cache
def _forward(package: str | None) -> dict[str, frozenset[str]]:
    """Every English string → its translations in every language, among ``package``'s strings and the
    framework's (every package's when ``None``)."""
    found: dict[str, set[str]] = {}
    for translated, english in _reverse(package).items():
        for word in english:
            found.setdefault(word, set()).add(translated)
    return {english: frozenset(words) for english, words in found.items()}


def english_of(shown: str, package: str | None = None) -> frozenset[str]:
    """The English strings that ``shown`` is a translation of, in any language (empty if none): among the
    strings of ``package`` (the app showing it) and the framework, or of every app when no package is given."""
    return _reverse(package).get(shown, frozenset())


def translations_of(english: str, package: str | None = None) -> frozenset[str]:
    """The translations of the English string ``english`` in every language (empty if none), as ``package`` and
    the framework translate it, or as any app does when no package is given."""
    return _forward(package).get(english, frozenset())
