"""Dates, times and counts in the phone's locale, as Android formats them with ICU over CLDR data.

Apps compose them in four ways, and each has one function here:

* a skeleton (``DateFormat.getBestDateTimePattern(locale, "MMMEd")``, ``DateFormat.getInstanceForSkeleton``): the
  locale's best pattern for the fields asked for (``best_pattern``), then formatted (``format_skeleton``);
* a fixed pattern (``SimpleDateFormat("hh:mm a", Locale.getDefault())``, Joda's ``toString("EEE")``,
  ``android.text.format.DateFormat.format``): the locale's names for the fields (``format_pattern``);
* a count (``Resources.getQuantityString``): the plural form the locale's CLDR rule picks for it
  (``quantity_string``);
* the 12/24-hour setting (``DateFormat.is24HourFormat``: ``Settings.System.TIME_12_24`` when set, else whether the
  locale's LONG time pattern has an ``H``) and ``LocaleData.timeFormat_Hm``/``timeFormat_hm`` (``clock_pattern``).

The data are Babel's CLDR tables, the data ICU is built from. ``best_pattern`` follows ICU's
``DateTimePatternGenerator``: the nearest skeleton of the locale's ``availableFormats`` (TR35 matching, Babel's
``match_skeleton``), its fields then widened to the lengths asked for (``adjustFieldTypes``: hours and minutes keep
the pattern's length; a month or weekday keeps its format/stand-alone letter). Android 13 ships ICU 71 (CLDR 41),
whose time patterns separate the AM/PM marker with a plain space where CLDR 42 and later put a narrow no-break
space (U+202F), so patterns here use the plain space; and whose FULL and LONG date-time patterns join the time
"at" the date ("{1} 'at' {0}"), which CLDR 42 moved to an ``atTime`` variant Babel does not read
(``_AT_TIME``).
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, NamedTuple

from babel import Locale
from babel.dates import DateTimePattern, match_skeleton, parse_pattern, tokenize_pattern, untokenize_pattern

from android_gym import locales

if TYPE_CHECKING:
    from android_gym.sim.framework.app import Context

#: Pattern letters of one field, as ICU's DateTimePatternGenerator groups them (format and stand-alone forms).
_FIELD_OF = {"L": "M", "c": "E", "e": "E", "H": "h", "K": "h", "k": "h"}
#: Fields whose pattern letter ICU keeps when it widens them (month, weekday, hour).
_KEEP_LETTER = {"M", "E", "h"}
#: Fields whose length ICU keeps by default (``UDATPG_MATCH_NO_OPTIONS``).
_KEEP_LENGTH = {"h", "m", "s"}
_NARROW_NBSP = "\u202f"
#: CLDR 41's dateTimeFormatLength "full" and "long" patterns (common/main/en.xml, de.xml, fr.xml), per language.
_AT_TIME = {"en": "{1} 'at' {0}", "de": "{1} 'um' {0}", "fr": "{1} 'à' {0}"}
_A_MONDAY = dt.date(2023, 10, 16)


@functools.cache
def _locale(tag: str) -> Locale:
    """The Babel locale of a BCP 47 tag (``de-DE``)."""
    return Locale.parse(tag, sep="-")


def _fields(pattern: str) -> dict[str, tuple[str, int]]:
    """``{field: (letter, length)}`` of a pattern or skeleton, fields named as in ``_FIELD_OF``."""
    return {_FIELD_OF.get(letter, letter): (letter, length)
            for kind, value in tokenize_pattern(pattern) if kind == "field" for letter, length in [value]}


def _is_text(letter: str, length: int) -> bool:
    """Whether a field is spelled out (a month name, a weekday) rather than a number."""
    return letter in "EcGa" or (letter in "MLe" and length >= 3)


def is_24_hour(setting: str | None, tag: str) -> bool:
    """``DateFormat.is24HourFormat``: ``time_12_24`` (``Settings.System.TIME_12_24``) when set, else
    ``is24HourLocale``: whether the LONG time pattern of the locale ``tag`` uses ``H``."""
    if setting is not None:
        return setting == "24"
    return _is_24_hour_locale(tag)


@functools.cache
def _is_24_hour_locale(tag: str) -> bool:
    """``DateFormat.is24HourLocale``: whether the LONG time pattern of the locale ``tag`` uses ``H`` (read once per
    locale: the status bar's clock asks at every frame)."""
    return "H" in _locale(tag).time_formats["long"].pattern


def system_tag(phone: Context) -> str:
    """The locale the phone's framework runs in (``SystemLocale.tag``), which apps format with."""
    return phone.window.locale.tag


def phone_is_24_hour(phone: Context) -> bool:
    """``DateFormat.is24HourFormat(context)`` on ``phone``: its ``time_12_24`` setting, else its locale's."""
    return is_24_hour(phone.settings.get("system", "time_12_24"), system_tag(phone))


@functools.cache
def best_pattern(skeleton: str, tag: str) -> str:
    """``DateFormat.getBestDateTimePattern(locale, skeleton)``: the pattern of the locale ``tag`` for the fields
    of ``skeleton`` (``"MMMEd"`` gives ``"E, MMM d"`` in en-US, ``"E, d. MMM"`` in de-DE)."""
    locale = _locale(tag)
    hour = "H" if "H" in locale.time_formats["short"].pattern else "h"
    wanted = skeleton.replace("j", hour)
    found = match_skeleton(wanted, locale.datetime_skeletons)
    if found is None:
        raise KeyError(f"no CLDR pattern of {tag} has the fields of the skeleton {skeleton!r}")
    asked, offered = _fields(wanted), _fields(found)
    tokens = []
    for kind, value in tokenize_pattern(locale.datetime_skeletons[found].pattern.replace(_NARROW_NBSP, " ")):
        if kind == "field":
            letter, length = value
            field = _FIELD_OF.get(letter, letter)
            if field in asked and field not in _KEEP_LENGTH:
                want_letter, want_length = asked[field]
                offered_length = offered.get(field, (letter, length))[1]
                if (offered_length != want_length
                        and _is_text(letter, length) == _is_text(want_letter, want_length)):
                    value = (letter if field in _KEEP_LETTER else want_letter, want_length)
        tokens.append((kind, value))
    return untokenize_pattern(tokens)


@functools.cache
def _compiled(pattern: str) -> DateTimePattern:
    return parse_pattern(pattern)


def date_pattern(width: str, tag: str) -> str:
    """``DateFormat.getDateInstance(width)``'s pattern in the locale ``tag`` (``width``: ``"short"``,
    ``"medium"``, ``"long"`` or ``"full"``): ``"M/d/yy"``, ``"dd.MM.yy"``, ``"dd/MM/y"`` for SHORT."""
    return _locale(tag).date_formats[width].pattern


def time_pattern(width: str, tag: str) -> str:
    """``DateFormat.getTimeInstance(width)``'s pattern in the locale ``tag``: ``"h:mm a"``, ``"HH:mm"`` for
    SHORT (AM/PM after a plain space, as ICU 71 has it)."""
    return _locale(tag).time_formats[width].pattern.replace(_NARROW_NBSP, " ")


def format_pattern(when: dt.date | dt.datetime, pattern: str, tag: str) -> str:
    """``when`` formatted with a fixed date pattern (``SimpleDateFormat``/Joda letters) in the locale ``tag``:
    its month and weekday names, AM/PM markers and digits. Formatted once per moment, zone, pattern and locale:
    screens show the same dates at every frame."""
    return _formatted(when, getattr(when, "tzinfo", None), pattern, tag)


@functools.lru_cache(maxsize=2048)
def _formatted(when: dt.date | dt.datetime, zone: dt.tzinfo | None, pattern: str, tag: str) -> str:
    """``format_pattern``; ``zone`` is in the key because equal moments in two zones read differently."""
    return _compiled(pattern).apply(when, _locale(tag))


def format_skeleton(when: dt.date | dt.datetime, skeleton: str, tag: str) -> str:
    """``when`` formatted with the locale's best pattern for ``skeleton`` (``DateFormat.getInstanceForSkeleton``)."""
    return format_pattern(when, best_pattern(skeleton, tag), tag)


def clock_pattern(is24: bool, tag: str) -> str:
    """``LocaleData.timeFormat_Hm`` or ``timeFormat_hm`` (``DateFormat.getTimeFormatString``): ``"HH:mm"`` or
    ``"h:mm a"`` in en-US."""
    return best_pattern("Hm" if is24 else "hm", tag)


@functools.lru_cache(maxsize=256)
def format_time(when: dt.datetime, is24: bool, tag: str, am_pm: bool = True) -> str:
    """``DateFormat.getTimeFormat(context).format(when)``: "15:34", or "3:34 PM" in en-US; without ``am_pm``
    the marker and the space before it are left out, as SystemUI's ``Clock`` does (``AM_PM_STYLE_GONE``: "3:34").
    Formatted once per time and locale: the status bar asks at every frame."""
    return format_pattern(when, _time_pattern(is24, tag, am_pm), tag)


@functools.cache
def _time_pattern(is24: bool, tag: str, am_pm: bool) -> str:
    """``clock_pattern``, without its AM/PM marker unless ``am_pm``."""
    pattern = clock_pattern(is24, tag)
    return pattern if am_pm else untokenize_pattern(_without_am_pm(tokenize_pattern(pattern)))


def _without_am_pm(tokens: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """The tokens of a pattern without its ``a`` field and the whitespace before it."""
    kept: list[tuple[str, object]] = []
    for kind, value in tokens:
        if kind == "field" and value[0] == "a":
            if kept and kept[-1][0] == "chars":
                text = str(kept.pop()[1]).rstrip()
                kept += [("chars", text)] if text else []
            continue
        kept.append((kind, value))
    return kept


def format_date_time_pattern(width: str, tag: str) -> str:
    """The locale's pattern joining a date of ``width`` and a time, its quoted text unquoted (``"{1}, {0}"``,
    ``"{1} at {0}"`` for a FULL or LONG date in en-US: ``{1}`` the date), as ICU 71 has it."""
    locale = _locale(tag)
    glue = _AT_TIME.get(locale.language) if width in ("full", "long") else None
    glue = glue or str(locale.datetime_formats[width])
    return glue.replace("''", "\0").replace("'", "").replace("\0", "'")  # '' is a quote, 'text' is text


def format_date_time(when: dt.datetime, date_skeleton: str, is24: bool, tag: str) -> str:
    """``DateUtils.formatDateTime`` with a date and the time: the locale's best pattern for ``date_skeleton`` and
    its clock (``clock_pattern``), joined as ICU's ``DateTimePatternGenerator`` joins a date and a time (the
    locale's date-time pattern, "{1}, {0}" in en-US): "10/14/2023, 14:05"."""
    glue = format_date_time_pattern("medium", tag)
    return glue.replace("{1}", format_skeleton(when, date_skeleton, tag)).replace("{0}", format_time(when, is24, tag))


def format_date_time_instance(when: dt.datetime, width: str, tag: str, time_width: str | None = None) -> str:
    """``DateFormat.getDateTimeInstance(width, time_width)`` (``time_width`` defaults to ``width``; java.time's
    ``ofLocalizedDateTime`` reads the same ICU patterns): the locale's date of ``width`` and time of ``time_width``
    joined by its date-time pattern for the date's width: "Oct 14, 2023, 2:05:09 PM" (MEDIUM), "10/14/23, 2:05 PM"
    (SHORT), "Saturday, October 14, 2023 at 2:05 PM" (FULL, SHORT) in en-US."""
    glue = format_date_time_pattern(width, tag)
    return glue.replace("{1}", format_pattern(when, date_pattern(width, tag), tag)).replace(
        "{0}", format_pattern(when, time_pattern(time_width or width, tag), tag))


def week_order(tag: str) -> tuple[int, ...]:
    """The days of the week (Python's numbers, Monday 0) from the first day of the locale's week
    (``Calendar.getFirstDayOfWeek``): Sunday first in en-US, Monday first in de-DE and fr-FR."""
    first = _locale(tag).first_week_day
    return tuple((first + offset) % 7 for offset in range(7))


def weekday_name(day: int, tag: str, pattern: str = "EEEE") -> str:
    """The name of weekday ``day`` (Python's number, Monday 0) in the locale ``tag`` (``DateFormatSymbols``):
    ``"EEEE"`` for the long name ("Sonntag"), ``"EEE"`` for the short one ("So.")."""
    return format_pattern(_A_MONDAY + dt.timedelta(days=day), pattern, tag)


class Plural(NamedTuple):
    """A ``<plurals>`` resource: its name and its English ``one`` and ``other`` items (templates with one ``{}``)."""

    name: str
    one: str
    other: str


def quantity_string(plural: Plural, count: int, package: str, tag: str) -> str:
    """``Resources.getQuantityString(id, count, count)`` of the app ``package`` in the locale ``tag``: the item of
    ``plural`` for the quantity the locale's CLDR plural rule picks for ``count`` (ICU's ``PluralRules.select``:
    "one" in French for 0 and 1, in English and German for 1 only; French's "many" for a million and its
    multiples, CLDR 38 and later), read in the locale, ``count`` put in. A quantity the resource has no item for in
    the locale falls back to its ``other`` item (``ResourcesImpl.getQuantityText``)."""
    quantity = _locale(tag).plural_form(count)
    if quantity == "one":
        form = locales.resource(tag, package, plural.one)
    else:
        many = quantity != "other" and locales.translation(tag, package, locales.plural_key(plural.other, plural.name,
                                                                                            quantity))
        form = many or locales.resource(tag, package, plural.other)
    return form.format(count)
