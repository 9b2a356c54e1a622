"""The phone's visible strings in the system languages other than English, as the real apps ship them.

One JSON file per language (``de.json``, ``fr.json``): for each package, groups of strings, each group naming the
resource file it was taken from (AOSP's ``values-de``/``values-fr`` resources, the apps' own
``res/values-de|fr/strings.xml``), mapping the English string the simulator shows to the translation. Only the
strings the simulator shows are kept; a string the real app leaves untranslated is absent and stays English.

The simulated phone's window manager uses ``strings`` to show an app in the system language; oracles, which look
for English words, use ``english_of`` and ``translations_of`` to find the translated element (a person who reads
the language looks for the translated word), without asking the device which language it runs in.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

#: The system languages (BCP 47 tags, as ``persist.sys.locale`` holds them) with a strings file.
TRANSLATED = {"de-DE": "de.json", "fr-FR": "fr.json"}
#: The language the simulator's apps are written in.
ENGLISH = "en-US"


@functools.cache
def strings(language: str) -> dict[str, dict[str, str]]:
    """``{package: {english: translated}}`` for ``language`` (a tag of ``TRANSLATED``; empty for English or a
    language without a file, whose phone shows the English strings)."""
    if language not in TRANSLATED:
        return {}
    data = json.loads(resources.files(__package__).joinpath(TRANSLATED[language]).read_text(encoding="utf-8"))
    return {package: {english: translated for group in groups for english, translated in group["strings"].items()}
            for package, groups in data["packages"].items()}


@functools.cache
def _reverse() -> dict[str, frozenset[str]]:
    """Every translation in every language → the English strings it translates."""
    found: dict[str, set[str]] = {}
    for language in TRANSLATED:
        for table in strings(language).values():
            for english, translated in table.items():
                found.setdefault(translated, set()).add(english)
    return {translated: frozenset(english) for translated, english in found.items()}


@functools.cache
def _forward() -> dict[str, frozenset[str]]:
    """Every English string → its translations in every language."""
    found: dict[str, set[str]] = {}
    for translated, english in _reverse().items():
        for word in english:
            found.setdefault(word, set()).add(translated)
    return {english: frozenset(words) for english, words in found.items()}


def english_of(shown: str) -> frozenset[str]:
    """The English strings that ``shown`` is a translation of, in any language (empty if none)."""
    return _reverse().get(shown, frozenset())


def translations_of(english: str) -> frozenset[str]:
    """The translations of the English string ``english`` in every language (empty if none)."""
    return _forward().get(english, frozenset())
