"""Translation coverage: play every task's oracle (or those a glob names) in English and count, per package, the
distinct resource strings the phone showed and how many of them each system language translates.

Usage: python benchmarks/translations.py [--tasks 'System*'] [--seeds 1] [--jobs 1] [--missing PACKAGE]

The strings counted are the ones ``SystemLocale.translate`` considers (``locale.resource_strings``: literal texts,
content descriptions and text fields' hints of every window the window manager built), recorded as each window
is translated, by their keys in the strings files (``locales.key``: a ``Named`` string with its resource name, so
Tuesday's and Thursday's "T" count as two). A string belongs to the package of the window that showed it, except
a word of the toolkit itself (a module-level constant of ``android_gym.sim.ui``, such as a Switch's ON/OFF or the
text toolbar's Copy) that the app does not translate on its own: that one is the framework's (``android``). A
string counts as translated when the lookup ``translate`` makes finds it: the package's own strings, then the
framework's. ``--missing`` lists a
package's untranslated strings per language, each with a task that showed it.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import gymnasium as gym
from tqdm import tqdm

from android_gym import locales
from android_gym.agents import OracleAgent
from android_gym.device.config import DeviceConfig
from android_gym.evaluation.suite import registered
from android_gym.locales import FRAMEWORK_PACKAGE
from android_gym.sim.framework import locale
from android_gym.tasks.registry import env_id
from android_gym.testing import run_episode

#: The modules whose constants are the toolkit's own words (what the framework draws, in every app's window).
TOOLKIT = "android_gym.sim.ui."
#: ``{package: {string: task that showed it first}}``.
Shown = dict[str, dict[str, str]]


def toolkit_strings() -> frozenset[str]:
    """The toolkit's own words: the module-level string constants of its modules (``SWITCH_ON``, ``COPY``)."""
    return frozenset(value for name, module in list(sys.modules.items()) if name.startswith(TOOLKIT)
                     for value in vars(module).values() if isinstance(value, str))


def owner(string: str, package: str, toolkit: frozenset[str]) -> str:
    """The package a string shown in ``package``'s window belongs to: the framework's for a toolkit word that
    the package does not translate itself in any language, else the window's package."""
    own = any(string in locales.strings(language).get(package, {}) for language in locales.TRANSLATED)
    return FRAMEWORK_PACKAGE if string in toolkit and not own else package


def collect(task: str, seeds: int, device: str) -> tuple[Shown, str]:
    """Play ``task``'s oracle at seeds ``0..seeds-1`` in English, recording the resource strings of every window
    translated: ``({package: {string: task}}, the error if an episode failed)``."""
    seen: dict[str, set[str]] = {}
    original = locale.SystemLocale.translate

    def recording(self: locale.SystemLocale, root, package: str) -> None:
        seen.setdefault(package, set()).update(locales.key(value) for _, _, value in locale.resource_strings(root))
        original(self, root, package)

    locale.SystemLocale.translate = recording  # this worker's phone only: it runs one task at a time
    error = ""
    try:
        for seed in range(seeds):
            env = gym.make(env_id(task), device=device, pixels=False, device_config=DeviceConfig())
            try:
                result = run_episode(env, OracleAgent(), seed=seed)
                if result.score != 1.0:
                    error = f"seed {seed} scored {result.score:.2f}"
            finally:
                env.close()
    except Exception as failure:  # noqa: BLE001 -- a survey reports every failure and goes on
        error = traceback.format_exception_only(failure)[-1].strip()
    finally:
        locale.SystemLocale.translate = original
    toolkit = toolkit_strings()
    shown: Shown = {}
    for package, strings in seen.items():
        for string in strings:
            shown.setdefault(owner(string, package, toolkit), {}).setdefault(string, task)
    return shown, error


def coverage_table(shown: Shown) -> list[str]:
    """The table's lines: per package, the strings shown and how many each language translates."""
    languages = list(locales.TRANSLATED)
    lines = [f"{'package':<42}{'shown':>7}" + "".join(f"{language:>16}" for language in languages)]
    totals = [0] * (1 + len(languages))
    for package in sorted(shown):
        strings = shown[package]
        counts = [len(strings)] + [sum(locales.translation(language, package, s) is not None for s in strings)
                                   for language in languages]
        totals = [total + count for total, count in zip(totals, counts)]
        lines.append(_row(package, counts))
    lines.append(_row("total", totals))
    return lines


def _row(label: str, counts: list[int]) -> str:
    shown, *translated = counts
    return f"{label:<42}{shown:>7}" + "".join(
        f"{f'{count} ({count / shown:.0%})' if shown else '-':>16}" for count in translated)


def missing(shown: Shown, package: str) -> list[str]:
    """The lines listing ``package``'s strings left English, per language, with a task that showed each."""
    lines = []
    for language in locales.TRANSLATED:
        left = sorted((string, task) for string, task in shown.get(package, {}).items()
                      if locales.translation(language, package, string) is None)
        lines.append(f"{package} in {language}: {len(left)} untranslated")
        lines += [f"  {string!r:<70} {task}" for string, task in left]
    return lines


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="*", help="a glob over task names (default: every registered task)")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per task, 0..N-1")
    parser.add_argument("--device", default="sim:270x600", help="the device each env runs on")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--missing", metavar="PACKAGE", action="append", default=[],
                        help="also list this package's untranslated strings (repeatable)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> Shown:
    """Survey the oracles, print the coverage table (and the missing strings asked for); returns what was shown."""
    args = parse_args(argv)
    tasks = [name for name in registered() if fnmatch.fnmatchcase(name, args.tasks)]
    shown: Shown = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(collect, task, args.seeds, args.device) for task in tasks]
        for task, future in zip(tasks, tqdm(futures, desc="oracles in en-US", unit="task", file=sys.stderr)):
            found, error = future.result()
            if error:
                tqdm.write(f"FAIL {task}: {error}", file=sys.stderr)
            for package, strings in found.items():
                for string, where in strings.items():
                    shown.setdefault(package, {}).setdefault(string, where)
    print(f"Resource strings shown by {len(tasks)} oracles (seeds 0-{args.seeds - 1}, en-US, {args.device})")
    print("\n".join(coverage_table(shown)))
    for package in args.missing:
        print()
        print("\n".join(missing(shown, package)))
    return shown


if __name__ == "__main__":
    main()
