"""Markor's file search: the file browser's Search (``filesystem__menu.xml`` ``action_search``), its dialog, the
search itself and the dialog of results. The browser (``markor.MainScreen``) shows the dialogs and acts on a chosen
result.

Facts come from github.com/gsantner/markor at ``ab2175460`` ("Markor v2.10.9"): ``frontend/filesearch/
FileSearchDialog.java``, ``FileSearchEngine.java``, ``FileSearchResultSelectorDialog.java``,
``frontend/MarkorDialogFactory.showSearchFilesDialog``, ``opoc/frontend/filebrowser/GsFileBrowserFragment.java``
(``executeSearchAction``, ``showFile``), ``opoc/util/GsFileUtils.java`` (``isTextFile``), ``model/AppSettings.java``,
``res/values/strings.xml`` and ``string-not_translatable.xml``.

* Search opens a dialog ("Search": "Recursive search in current directory.", the query field and the check boxes
  Regex search, Case sensitive, Search in content and, shown only with the last, Stop search after first match, all
  kept in the settings); nothing has focus until the field is tapped. ENTER in the field or OK closes it and, for a
  query that is not empty, searches.
* The search walks the browser's current folder and every folder below it (``.git``, ``.tmp`` and names with
  "thumb" skipped, as the ignore list the settings add): a file matches when its name contains the query (or, with
  Regex search, the whole name matches it; a ``*`` not after a dot means ``.*``), ignoring case unless asked; with
  Search in content a text file (a ``text/`` ``mime_type``: Markdown, text, YAML, JSON, AsciiDoc and the platform's
  text types) matches by its lines instead, listing each matching line (the first only, if asked) — a file whose lines
  do not match can still match by name. Folders are searched, never found. Results sort by path, ignoring case.
* The results ("Select") list each file by its path under the searched folder, "(n) " before it when n lines
  matched, under a filter field (when anything was found) that keeps the results
  whose path or lines contain its text; nothing found shows "¯\\_(ツ)_/¯". A tap on a file without lines closes
  the dialog and opens it; on one with lines it shows or hides them, and a tap on a line opens the file with the
  dialog left open. A long press on a file closes the dialog and shows the file in the browser: its folder, the
  list scrolled so that its row is at the top (``showAndBlink``).

Not simulated: the query history spinner (the app keeps the last 20 queries while it runs and fills the field with
the last), the progress snackbar and its CANCEL (the search here is instant), the maximum search depth setting,
encrypted files, the caret going to the chosen line, the row's blink and the toast an invalid regex shows (the
search just does not run).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from android_gym.sim.apps import files
from android_gym.sim.apps.markor_editor import ACCENT, MENU_SIZE, PACKAGE, Settings
from android_gym.sim.ui.dialogs import alert_dialog, dialog_scroll_view
from android_gym.sim.ui.views import (
    TEXT_SECONDARY,
    Callback,
    View,
    check_box,
    column,
    edit_text,
    scroll_list,
    text_view,
)

# res/values/strings.xml
SEARCH, SELECT = "Search", "Select"
RECURSIVE_SEARCH = "Recursive search in current directory."
REGEX_SEARCH, CASE_SENSITIVE = "Regex search", "Case sensitive"
SEARCH_IN_CONTENT, FIRST_MATCH_ONLY = "Search in content", "Stop search after first match"
NOTHING_FOUND = "     ¯\\_(ツ)_/¯     "  # FileSearchResultSelectorDialog's message
OK, CANCEL = "OK", "CANCEL"  # android.R.string.ok / cancel on AppCompat's buttons
# string-not_translatable.xml: the check boxes' settings, in the dialog's order, and the ignore list
KEY_REGEX, KEY_CASE = "pref_key__is_search_query_use_regex", "pref_key__is_search_query_case_sensitive"
KEY_CONTENT, KEY_FIRST_ONLY = "pref_key__is_search_in_content", "pref_key__is_only_first_content_match"
KEY_IGNORE = "pref_key__filesearch_ignorelist"
OPTIONS = ((KEY_REGEX, REGEX_SEARCH), (KEY_CASE, CASE_SENSITIVE), (KEY_CONTENT, SEARCH_IN_CONTENT),
           (KEY_FIRST_ONLY, FIRST_MATCH_ONLY))
DEFAULT_IGNORED = (r"^\.git$", r"^\.tmp$", r".*[Tt]humb.*")  # FileSearchEngine.defaultIgnoredDirs
MAX_PREVIEW = 100  # FileSearchEngine.maxPreviewLength
#: GsFileUtils.gatherMimeType's own types, by extension (without the dot), in its order.
_OWN_TYPES = tuple((re.compile(pattern), mime) for pattern, mime in (
    (r"ya?ml", "text/yaml"), (r"json.*", "text/json"),
    (r"(md)|(markdown)|(mkd)|(mdown)|(mkdn)|(mdwn)|(mdx)|(rmd)", "text/markdown"),
    (r"(te?xt)|(taskpaper)", "text/plain"), (r"webp", "image/webp"), (r"jpe?g", "image/jpeg"), (r"png", "image/png"),
    (r"a(sciidoc)?doc", "text/asciidoc")))
_STAR = re.compile(r"(?<![.])[*]")  # a "*" not after "." becomes ".*"
_LINES = re.compile(r"\r\n|\r|\n")  # BufferedReader.readLine's line ends
_LIST_ITEM = 42  # ?android:attr/textAppearanceListItem, 16sp
_PAD = 26  # expandable_list_group_item's 10 dp padding


@dataclass(frozen=True)
class FitFile:
    """A result: the path under the searched folder and the matching lines (text, 0-based line number)."""

    path: str
    lines: tuple[tuple[str, int], ...] = ()

    @property
    def label(self) -> str:
        """``FitFile.toString``: the count of matching lines, if any, before the path."""
        return (f"({len(self.lines)}) " if self.lines else "") + self.path


def mime_type(name: str, is_dir: bool = False) -> str:
    """``GsFileUtils.getMimeType``: ``inode/directory`` for a folder, the app's own types by extension, else the
    platform's (``Files.probeContentType``: ``files.mime_type``, Android's ``MimeMap``), else ``*/*``. Not
    simulated: ``URLConnection.guessContentTypeFromName`` and the ``file -b`` probe of a file no table knows."""
    if is_dir:
        return "inode/directory"
    extension = name.rpartition(".")[2].lower() if "." in name else ""
    for pattern, mime in _OWN_TYPES:
        if pattern.fullmatch(extension):
            return mime
    platform = files.mime_type(name)
    return "*/*" if platform == files.UNKNOWN_MIME else platform


def _is_text_file(name: str) -> bool:
    """``GsFileUtils.isTextFile``: its mime type is ``text/``."""
    return mime_type(name).startswith("text/")


class _Matcher:
    """The query as ``QueueSearchFilesTask`` prepares it: lower-cased unless case sensitive, a regex if asked."""

    def __init__(self, query: str, regex: bool, case_sensitive: bool) -> None:
        self.case_sensitive = case_sensitive
        self.query = query if case_sensitive else query.lower()
        self.pattern = re.compile(_STAR.sub(".*", self.query)) if regex else None

    def _prepared(self, text: str) -> str:
        return text if self.case_sensitive else text.lower()

    def name_matches(self, name: str) -> bool:
        """``getFileIfNameMatches``: the whole name matches the regex, or it contains the query."""
        name = self._prepared(name)
        return bool(self.pattern.fullmatch(name)) if self.pattern else self.query in name

    def line_preview(self, line: str) -> str | None:
        """``matchLine``: the line (cut around the match when long) if it matches, else ``None``."""
        prepared = self._prepared(line)
        if self.pattern:
            found = self.pattern.search(prepared)
            start, end = (found.start(), found.end()) if found else (-1, -1)
        else:
            start = prepared.find(self.query)
            end = start + len(self.query)
        if start < 0 or end > len(line):
            return None
        if len(line) < MAX_PREVIEW:
            return line
        margin = (MAX_PREVIEW - (end - start)) // 2
        return f"… {line[max(start - margin, 0):min(end + margin, len(line))]} …"


def _ignore_patterns(settings: Settings, case_sensitive: bool) -> tuple[set[str], list[re.Pattern[str]]]:
    """``splitRegexExactFiles`` of the settings' ignore list and the defaults: quoted names are exact, the rest
    regexes (lower-cased unless case sensitive)."""
    exact, patterns = set(), []
    for pattern in [*str(settings.get(KEY_IGNORE, "")).replace("\r", "").split("\n"), *DEFAULT_IGNORED]:
        pattern = pattern if case_sensitive else pattern.lower()
        if pattern.startswith('"'):
            if pattern.replace('"', ""):
                exact.add(pattern.replace('"', ""))
        elif pattern:
            try:
                patterns.append(re.compile(_STAR.sub(".*", pattern)))
            except re.error:
                continue
    return exact, patterns


def search_files(root: Path, query: str, settings: Settings) -> list[FitFile] | None:
    """``QueueSearchFilesTask`` over the host folder ``root`` with the options the settings hold; ``None`` when the
    query is an invalid regex (the search is cancelled)."""
    case_sensitive = bool(settings.get(KEY_CASE, False))
    try:
        matcher = _Matcher(query, bool(settings.get(KEY_REGEX, False)), case_sensitive)
    except re.error:
        return None
    in_content, first_only = bool(settings.get(KEY_CONTENT, False)), bool(settings.get(KEY_FIRST_ONLY, False))
    exact, patterns = _ignore_patterns(settings, case_sensitive)
    results, queue = [], [root]
    while queue:
        folder = queue.pop(0)
        for entry in sorted(folder.iterdir()):
            name = entry.name if case_sensitive else entry.name.lower()
            if name in exact or any(pattern.fullmatch(name) for pattern in patterns):
                continue
            if entry.is_dir():
                if not entry.is_symlink():
                    queue.append(entry)
                continue
            path = entry.relative_to(root).as_posix()
            lines = _matching_lines(entry, matcher, first_only) if in_content and _is_text_file(entry.name) else ()
            if lines or matcher.name_matches(entry.name):
                results.append(FitFile(path, lines))
    return sorted(results, key=lambda result: result.path.lower())


def _matching_lines(path: Path, matcher: _Matcher, first_only: bool) -> tuple[tuple[str, int], ...]:
    """``getContentMatches``: the file's matching lines with their numbers (only the first, if asked)."""
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ()
    lines = _LINES.split(text)
    if lines and not lines[-1]:
        lines.pop()  # readLine gives no line after the last line end
    found = []
    for number, line in enumerate(lines):
        preview = matcher.line_preview(line)
        if preview is not None:
            found.append((preview, number))
            if first_only:
                break
    return tuple(found)


def filter_results(results: list[FitFile], text: str) -> list[FitFile]:
    """``FileSearchResultSelectorDialog.filter``: the results whose path contains ``text`` (ignoring case) with all
    their lines, or those of whose lines some contain it, with those lines only."""
    if not text.strip():
        return results
    text = text.lower()
    kept = []
    for result in results:
        in_path = text in result.path.lower()
        lines = tuple(line for line in result.lines if in_path or text in line[0].lower())
        if in_path or lines:
            kept.append(FitFile(result.path, lines))
    return kept


@dataclass
class FileSearch:
    """The state of the search dialogs: the query, the results, the filter and the expanded results."""

    query: str = ""
    results: list[FitFile] = field(default_factory=list)
    filter: str = ""
    expanded: set[str] = field(default_factory=set)

    def set_query(self, text: str) -> None:
        """The query field's text changed."""
        self.query = text

    def set_filter(self, text: str) -> None:
        """The filter field's text changed: a new adapter, every result collapsed."""
        self.filter, self.expanded = text, set()

    def toggle(self, path: str) -> None:
        """A result with lines was tapped: its lines show or hide."""
        self.expanded ^= {path}

    def shown(self) -> list[FitFile]:
        """The results the filter keeps."""
        return filter_results(self.results, self.filter)


def search_dialog(state: FileSearch, settings: Settings, submit: Callback, cancel: Callback) -> View:
    """``FileSearchDialog``: the message, the query field (ENTER submits), the check boxes, CANCEL and OK."""
    query = edit_text(state.query, SEARCH, "search_query", state.set_query, text_size=MENU_SIZE)
    query.on_submit = submit
    boxes = []
    for key, label in OPTIONS:
        # The dialog makes its check boxes in code: no ids.
        box = check_box(label, bool(settings.get(key, False)),
                        lambda key=key: settings.put(key, not settings.get(key, False)), text_size=MENU_SIZE,
                        padding=30, button_tint=ACCENT)
        if key == KEY_FIRST_ONLY and not settings.get(KEY_CONTENT, False):  # View.INVISIBLE: room, nothing shown
            box = View(height=box.text_size + 2 * box.padding)
        boxes.append(box)
    form = column(text_view(RECURSIVE_SEARCH, text_size=MENU_SIZE, padding=24), query, *boxes, padding=30)
    return alert_dialog([dialog_scroll_view(form, "search_dialog")],
                        [("button2", CANCEL, cancel), ("button1", OK, submit)], title=SEARCH, package=PACKAGE)


def results_dialog(state: FileSearch, choose: Callable[[str], None], show: Callable[[str], None],
                   open_line: Callable[[str], None], cancel: Callback) -> View:
    """``FileSearchResultSelectorDialog``: "Select", the filter field (when anything was found), the results (an
    ``ExpandableListView``: a result's lines under it when expanded) and CANCEL; ``choose``, ``show`` and
    ``open_line`` take a result's path (a tap, a long press, a tap on one of its lines)."""
    rows: list[View] = []
    for result in state.shown():
        def tapped(result: FitFile = result) -> None:
            if result.lines:
                state.toggle(result.path)
            else:
                choose(result.path)
        rows.append(text_view(result.label, resource_id="android:id/text1", clickable=True, focusable=True,
                              long_clickable=True, on_click=tapped, on_long_click=lambda p=result.path: show(p),
                              text_size=_LIST_ITEM, padding=_PAD))
        if result.path in state.expanded:
            rows += [text_view(f"+{number}: {line}", resource_id="android:id/text1", clickable=True, focusable=True,
                               on_click=lambda p=result.path: open_line(p), text_size=_LIST_ITEM,
                               text_color=TEXT_SECONDARY, padding=42)
                     for line, number in result.lines]
    body: list[View] = []
    if state.results:
        body.append(edit_text(state.filter, SEARCH, "search_filter", state.set_filter, text_size=MENU_SIZE, margin=52))
    else:
        body.append(text_view(NOTHING_FOUND, resource_id="android:id/message", text_size=MENU_SIZE, padding=60))
    results = scroll_list(*rows, key="search_results", weight=1)
    results.class_name = "android.widget.ExpandableListView"
    body.append(results)
    return alert_dialog(body, [("button2", CANCEL, cancel)], title=SELECT, package=PACKAGE)
