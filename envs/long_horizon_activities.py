"""Long-horizon cross-app tasks about money, food, sport, maps and music (issue #28): what one app holds is needed
in another.

Each task seeds a source — an expense in Pro Expense, a recipe in Broccoli, an activity in OpenTracks, a favourite
in OsmAnd, a playlist or songs in Retro Music, a received text, a Markor note, a calendar event — among distractors
drawn from the same seed, and names what to find, not its value ("Text Maya how much my 'Gym Membership' expense
came to"). The agent carries the value to one or more sinks: a text sent in Simple SMS Messenger, a Markor note,
an expense, recipe or calendar event added, an activity's description or name, an OsmAnd favourite, map marker or
saved route, a Retro Music playlist or queue, a VLC playlist. Every sink is a sub-goal checked on the device
(``SubgoalTask``: the score is the mean, latched), so a half-done task scores between 0 and 1. Checks read amounts
by value ("30.1" is said by "$30.10", not by "130.1") and words whole and without accents (``long_horizon.mentions``);
rows as the app modules compare them (``expense.same_expense``, ``calendar.event_matches``,
``retro_music.verify_playlist``, ...).

The setup is generic: ``ActivityTask`` empties every app the task uses and seeds what its parameters hold (rows,
notes, texts, contacts, favourites, songs, videos, activities), reusing the single-app modules' tables, writers and
tasks' own setup. The oracles reuse the app modules' step builders (``expense.reveal_rows``,
``recipe.open_recipe``, ``calendar.add_event_steps``, ``retro_music.create_playlist``, ``vlc.add_files``,
``osmand.find_place``, ...) and act through the UI only. A value is typed soon after the screen that shows it, as
a person copies it: the next app is opened straight from that screen, and a source is looked at again before a
later sink (the RL view can type only the goal's texts and those of the screens seen lately).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.envs import calendar, cross_app, expense, markor, opentracks, osmand, recipe, sms, vlc
from android_gym.envs import long_horizon as lh
from android_gym.envs import retro_music as retro
from android_gym.sim.apps import osmand as osmand_app
from android_gym.sim.apps import retro_music as retro_app
from android_gym.sim.apps.calendar import event_row
from android_gym.sim.apps.expense import LIST_NAME_MAX, format_amount
from android_gym.sim.apps.opentracks import IMPERIAL, time_distance_text
from android_gym.sim.apps.osmand_map import format_coordinates
from android_gym.tasks import Subgoal, SubgoalTask, register_task
from android_gym.tasks import params as gen
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.files import CLEAR_STORAGE, MARKOR_DATA, write_files
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    act,
    back_to_home,
    complete,
    expect,
    open_app,
    replace_text,
    scroll_to,
    tap,
    type_into,
)
from android_gym.tasks.sqlite_rows import ReplaceableTable, Row, TablesTask
from android_gym.tasks.user_data import pick
from android_gym.tasks.validators import (
    clear_contacts,
    fuzzy_match,
)
from android_gym.ui import UIElement

TODAY = DEVICE_TIME.date()
#: Outings whose place the goals ask about (none is a title of ``calendar.noise_events``).
OUTINGS = ("Bike tour", "Team run", "Picnic", "Ski day", "Museum visit", "Climbing session", "Lake swim",
           "Castle hike")
NOTE_NAMES = ("money.md", "notes.md", "plans.md", "log.md", "todo.md", "week.md")
#: Restaurants a friend's bill comes from.
RESTAURANTS = ("Luigi's", "the Golden Dragon", "Cafe Central", "the Harbour Grill", "Bistro Nova")
REPLIES = ("Logged, thanks!", "Got it, thanks!", "Done, see you soon!", "Added it, thanks!")


# ----- parameters -----------------------------------------------------------------------------------------------
def expenses_with(rng: np.random.Generator, targets: int, noise: tuple[int, int] = (12, 21)) -> list[Row]:
    """``targets`` expenses first, then 12–20 others; no two share a name."""
    return expense.random_expenses(rng, targets + int(rng.integers(*noise)), unique_names=True)


def recipes_with(rng: np.random.Generator, noise: int = 8) -> tuple[Row, list[Row]]:
    """A recipe with a typeable title and ``noise`` recipes with other titles, in random order."""
    target = recipe.random_recipes(rng, 1, where=lambda r: '"' not in r["title"])[0]
    others = recipe.random_recipes(rng, noise, where=lambda r: r["title"] != target["title"])
    return target, lh.shuffled(rng, [target, *others])


def outing(rng: np.random.Generator, location: str) -> tuple[Row, list[Row]]:
    """An outing at ``location`` (a whole hour, from tomorrow to the month's end) among 4–9 noise events."""
    start = dt.datetime.fromtimestamp(calendar.random_october_ts(rng, TODAY.day + 1, 31), dt.timezone.utc)
    target = event_row(pick(rng, OUTINGS), start, duration_mins=120, location=location)
    noise = calendar.noise_events(rng, int(rng.integers(4, 10)), lambda row: row["title"] != target["title"])
    return target, lh.shuffled(rng, [target, *noise])


def meeting(rng: np.random.Generator, title: str, minutes: int, location: str = "") -> Row:
    """A new event ``title`` the goal spells out, at a whole hour from 8 to 17h, tomorrow to the month's end."""
    day = int(rng.integers(TODAY.day + 1, 32))
    start = dt.datetime(TODAY.year, TODAY.month, day, int(rng.integers(8, 18)), tzinfo=dt.timezone.utc)
    return event_row(title, start, duration_mins=minutes, location=location)


def when(event: Mapping[str, Any]) -> str:
    """How a goal names an event's start: "October 23 at 14h"."""
    start = dt.datetime.fromtimestamp(event["start_ts"], dt.timezone.utc)
    return f"{start:%B} {start.day} at {start.hour}h"


def minutes_of(prep_time: str) -> int:
    """A Broccoli preparation time ("45 mins", "2 hrs") in minutes."""
    amount, unit = prep_time.split()
    return int(amount) * (60 if unit.startswith("hr") else 1)


def songs(rng: np.random.Generator, count: int = 12) -> dict[str, Any]:
    """``count`` distinct songs: ``titles``, and ``songs`` as ``[file name, artist, length in ms]``."""
    titles = [str(title) for title in rng.choice(retro.SONGS, size=count, replace=False)]
    artists = [pick(rng, ("Olivia", "Liam", "Emma", "Noah", "Ava", "Lucas", "Mia", "Ethan")) for _ in titles]
    lengths = [int(rng.integers(retro.SONG_MS[0], retro.SONG_MS[1] + 1)) for _ in titles]
    return {"titles": titles, "songs": [[f"{t}.mp3", a, n] for t, a, n in zip(titles, artists, lengths)]}


def playlist_names(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` distinct Retro Music playlist names."""
    names: list[str] = []
    while len(names) < count:
        name = retro.playlist_name(rng)
        if name not in names:
            names.append(name)
    return names


def track_rows(seed: int, named: Mapping[str, str], noise: int = 12) -> tuple[list[Row], list[Row]]:
    """OpenTracks activities named as ``named``'s keys (with its values as descriptions) among ``noise`` other
    activities, all drawn from ``seed`` (rows hold bytes, so the parameters keep the seed): the targets, and
    every row."""
    rng = np.random.default_rng(seed)
    targets = [{**opentracks.random_activity_row(rng), "name": name, "description": description}
               for name, description in named.items()]
    rows = [opentracks.random_activity_row(rng) for _ in range(noise)]
    for target in targets:
        rows = lh.among(rng, target, rows)
    return targets, rows


def shown_time_distance(track: Mapping[str, Any]) -> str:
    """What OpenTracks' list shows of a track's total time and distance: "1:30:00 (7.46 mi)"."""
    return time_distance_text(track["totaltime"], track["totaldistance"], IMPERIAL)


# ----- sub-goal checks ------------------------------------------------------------------------------------------
def expense_added(wanted: Mapping[str, Any]) -> lh.Check:
    """An expense with ``wanted``'s name and note (fuzzily), amount and category (``expense.same_expense``)."""
    return lambda device: float(any(expense.same_expense(row, wanted) for row in expense.EXPENSES.rows(device)))


def favourite_at(name: str, point: tuple[float, float]) -> lh.Check:
    """An OsmAnd favourite named ``name`` (fuzzily) lies within 0.001° of ``point``."""
    return lambda device: float(any(fuzzy_match(p.name, name) and osmand.coords_match((p.lat, p.lon), point)
                                    for p in osmand.favourites(device) or ()))


def marker_at(point: tuple[float, float]) -> lh.Check:
    """An OsmAnd map marker lies within 0.001° of ``point``."""
    return lambda device: float(osmand.marker_near(device, point))


def retro_playlist(name: str, titles: Sequence[str]) -> lh.Check:
    """Retro Music's playlist ``name`` holds exactly ``titles``, in order (``verify_playlist``)."""
    return lambda device: float(retro.verify_playlist(retro.playlist_rows(device), name, titles))


def queued_last(titles: Sequence[str]) -> lh.Check:
    """Retro Music's playing queue ends with the songs ``titles``, in order (playing a song from a list queues the
    whole list, which is not adding these)."""
    return lambda device: float(retro.playing_queue(device)[-len(titles):] == list(titles))


def vlc_playlist(name: str, files: Sequence[str]) -> lh.Check:
    """VLC's playlist ``name`` holds exactly ``files``, in order (``vlc.holds_exactly``)."""
    return lambda device: float(vlc.holds_exactly(vlc.playlist_rows(device), name, files))


def vlc_playlist_starts(name: str, file: str) -> lh.Check:
    """VLC's playlist ``name`` (fuzzily) holds ``file`` first."""
    return lambda device: float(any(row["order_in_playlist"] == 0 and row["media_file_name"] == file
                                    and fuzzy_match(row["playlist_name"] or "", name)
                                    for row in vlc.playlist_rows(device)))


def track_described(name: str, description: str) -> lh.Check:
    """The OpenTracks activity ``name`` has the description ``description`` (fuzzily)."""
    return lambda device: float(any(row["name"] == name and fuzzy_match(row["description"] or "", description)
                                    for row in opentracks.TRACKS_TABLE.rows(device)))


# ----- oracle steps ---------------------------------------------------------------------------------------------
def back_until(target: Selector, most: int = 4) -> list[OracleStep]:
    """BACK until an element ``target`` finds is on screen (no step once it is)."""
    def step(elements: Sequence[UIElement]) -> Action | None:
        return None if target.present(elements) else Action(ActionType.NAVIGATE_BACK)
    return [step] * most


def expense_row(row: Mapping[str, Any]) -> Selector:
    """The name of ``row``'s item in Expense Logs (as long as the list shows names)."""
    return Selector(text=row["name"][:LIST_NAME_MAX], resource_id=f"{expense.PACKAGE}:id/tv_name")


def look_again(body: str) -> list[OracleStep]:
    """Back in Simple SMS Messenger, which shows the thread left open, check ``body`` is there (to copy from it)."""
    return [open_app(sms.APP_NAME), expect(Selector(text=body, resource_id=f"{sms.PACKAGE}:id/thread_message_body"))]


def reply_in_thread(message: str) -> list[OracleStep]:
    """Back in Simple SMS Messenger, which shows the thread left open, send ``message``."""
    return [open_app(sms.APP_NAME), type_into(sms.MESSAGE_FIELD, message), tap(sms.SEND_BUTTON)]


def see_favourites(names: Sequence[str]) -> list[OracleStep]:
    """Open OsmAnd's My places and check the favourites ``names`` are listed (their coordinates under them)."""
    return [open_app(osmand.APP_NAME), tap(osmand.MENU_BUTTON),
            tap(Selector(text=osmand_app.MY_PLACES, resource_id=f"{osmand_app.PACKAGE}:id/title")),
            *(expect(Selector(text=name, resource_id=f"{osmand_app.PACKAGE}:id/title")) for name in names)]


RECIPE_LIST = Selector(resource_id=f"{recipe.PACKAGE}:id/recycler_view")


def recipe_card(row: Mapping[str, Any]) -> Selector:
    """The title of ``row``'s card in Broccoli's list."""
    return Selector(text=row["title"], resource_id=f"{recipe.PACKAGE}:id/card_text_view_title")


def see_recipe(row: Mapping[str, Any]) -> list[OracleStep]:
    """Open Broccoli, scroll its list (by title) to the recipe's card, whose title no other recipe has here, and
    open its details (``recipe.open_recipe``)."""
    return [open_app(recipe.APP_NAME), *scroll_to(recipe_card(row), RECIPE_LIST), *recipe.open_recipe(row)]


def edit_track(row: Mapping[str, Any], field: str, text: str) -> list[OracleStep]:
    """Open OpenTracks' editor of the activity ``row`` (``opentracks.reveal_details``), put ``text`` in ``field``
    (a ``TrackEditScreen`` id) in place of what it holds, and save."""
    return [*opentracks.reveal_details([row]),
            replace_text(Selector(resource_id=f"{opentracks.PACKAGE}:id/{field}"), text),
            tap(Selector(resource_id=f"{opentracks.PACKAGE}:id/track_edit_save"))]


def rename_track(row: Mapping[str, Any], name: str) -> list[OracleStep]:
    """Rename the activity ``row`` in OpenTracks' editor."""
    return edit_track(row, opentracks.TrackEditScreen.NAME, name)


def see_playlist(name: str, titles: Sequence[str]) -> list[OracleStep]:
    """Open Retro Music's playlist ``name`` and check its songs ``titles`` are listed."""
    return [open_app(retro.APP_NAME), tap(retro.PLAYLISTS_TAB), *retro.reveal(name),
            tap(Selector(text=name, resource_id=f"{retro_app.PACKAGE}:id/title")),
            *(expect(Selector(text=title, resource_id=f"{retro_app.PACKAGE}:id/title")) for title in titles)]


# ----- the base -------------------------------------------------------------------------------------------------
class ActivityTask(TablesTask, SubgoalTask):
    """A long-horizon task over the money, food, sport, maps and music apps: it starts with every app it uses
    emptied, then seeds what its parameters hold (see ``tables`` and ``seed_extras``)."""

    app_packages: ClassVar[tuple[str, ...]] = (sms.PACKAGE,)
    setup_clears_teardown = True  # the contacts teardown deletes, clear_state deletes too
    #: ``clear_extras`` starts no app: shell commands on files, settings and providers (``pm clear`` of the contacts
    #: provider, the texts deleted, folders emptied, VLC stopped) and pulls and pushes of stopped apps' files.
    extras_leave_apps_stopped = True

    def tables(self) -> list[tuple[ReplaceableTable, list[Row]]]:
        """``expenses``, ``recipes`` and ``events`` of the parameters and ``tracks()``, of the apps the task uses."""
        params = self.params
        return [(table, rows) for table, rows in ((expense.EXPENSES, params.get("expenses", [])),
                                                  (recipe.RECIPES, params.get("recipes", [])),
                                                  (opentracks.TRACKS_TABLE, self.tracks()),
                                                  (calendar.EVENTS, params.get("events", [])))
                if table.package in self.app_packages]

    def clear_extras(self, device: Device) -> None:
        """No contacts, texts or notes, and for Retro Music no files in shared storage (one shell line); every other
        app the task uses emptied."""
        packages = set(self.app_packages)
        storage = [CLEAR_STORAGE] if retro_app.PACKAGE in packages else []  # RetroPlayingQueue's clearing
        clear_contacts(device, *storage, *lh.clearing(packages))
        if retro_app.PACKAGE in packages:
            retro.clear_playlists(device)
            retro.clear_queue(device)
        if vlc.vlc.PACKAGE in packages:
            vlc.clear_vlc(device)
        if calendar.PACKAGE in packages:
            calendar.reset_preferences(device)
        if osmand_app.PACKAGE in packages:
            osmand.OsmAndMarkFavorite({}).clear(device)  # favourites and markers
            osmand.OsmAndTrack({}).clear(device)  # saved tracks

    def seed_extras(self, device: Device) -> None:
        """What else the parameters hold: ``people`` (the contacts), received ``texts``, Markor ``notes``,
        ``favourites``, Retro Music ``songs`` and ``playlists``, VLC ``videos``."""
        params = self.params
        lh.seed_people(device, params.get("people", []), params.get("texts", []))
        write_files(device, MARKOR_DATA, params.get("notes", {}))
        if "favourites" in params:
            osmand.OsmAndMarkFavorite({"favourites": params["favourites"]}).seed_state(device)
        if "songs" in params:
            retro.write_songs(device, [(name, artist, length) for name, artist, length in params["songs"]])
            retro.scan_music(device)
            retro.seed_playlists(device, params.get("playlists", {}))
        if "videos" in params:
            names, specs = list(params["videos"]), list(params["videos"].values())
            vlc.VlcCreatePlaylist({"files": names, "noise_files": [], "specs": specs,
                                   "frame_seed": params["frame_seed"]}).seed_state(device)

    def tracks(self) -> list[Row]:
        """OpenTracks' activities (default: none)."""
        return []

    def teardown(self, device: Device) -> None:
        """Stop the apps, go home, delete the contacts."""
        super().teardown(device)
        clear_contacts(device)


class _TrackTask(ActivityTask):
    """A task whose OpenTracks holds the activities ``named()`` among ``noise`` others drawn from ``track_seed``."""

    noise: ClassVar[int] = 12

    def named(self) -> dict[str, str]:
        """The activities the goal is about, name → description: ``track`` with ``description``."""
        return {self.params["track"]: self.params.get("description", "")}

    def tracks(self) -> list[Row]:
        """``track_rows`` of the parameters."""
        return track_rows(self.params["track_seed"], self.named(), self.noise)[1]

    def target_tracks(self) -> list[Row]:
        """The activities the goal is about, in ``named()`` order."""
        return track_rows(self.params["track_seed"], self.named(), self.noise)[0]

    def target_track(self) -> Row:
        """The (first) activity the goal is about."""
        return self.target_tracks()[0]


def _note_name(rng: np.random.Generator) -> str:
    return pick(rng, NOTE_NAMES)


def _friend_texts(rng: np.random.Generator, found: Mapping[str, Any], body: str) -> list[list[str]]:
    """The texts received: ``body`` from the friend of ``found`` (``friends``), a message from each other one."""
    return [[found["friend_number"], body], *([number, gen.message(rng)] for _, number in found["people"][1:])]


# ----- money ----------------------------------------------------------------------------------------------------
@register_task
class ExpenseAmountToTextNoteAndEvent(ActivityTask):
    """Pro Expense → SMS → Markor → Calendar: text a friend what an expense came to, keep the amount in a note, add
    a reminder to pay it back."""

    name = "ExpenseAmountToTextNoteAndEvent"
    app_packages = (expense.PACKAGE, sms.PACKAGE, markor.PACKAGE, calendar.PACKAGE)
    complexity = 6.5
    template = ('I owe {friend} for my "{expense}" expense in Pro Expense. Text {friend} its amount, write it in a new '
                'Markor note {note}, then add an event "Pay back" on {when} lasting 30 minutes to Simple Calendar Pro.')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The expense among 12–20 others, the friend among three contacts, the note's name."""
        rows = expenses_with(rng, 1)
        event = meeting(rng, "Pay back", 30)
        return {"expenses": lh.shuffled(rng, rows), "target": rows[0], "expense": rows[0]["name"],
                "note": _note_name(rng), "event": event, "when": when(event), **lh.friends(rng, 3)}

    def amount(self) -> str:
        """The amount as the app shows it."""
        return format_amount(self.params["target"]["amount"])

    def subgoals(self) -> Sequence[Subgoal]:
        """The amount texted; in the note; the event added."""
        return [Subgoal("text the amount", lh.texted(self.params["friend_number"], self.amount())),
                Subgoal("note the amount", lh.note_holds(self.params["note"], self.amount())),
                Subgoal("add the reminder event", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Find the expense (its form shows the amount), text it, write the note, add the event."""
        return [*expense.reveal_rows([self.params["target"]]), *lh.text_contact(self.params["friend"], self.amount()),
                *lh.write_note(self.params["note"], [self.amount()]), *lh.add_event(self.params["event"]), complete()]


@register_task
class ExpenseAmountsToNoteAndTextLarger(ActivityTask):
    """Pro Expense ⇄ Markor → SMS: copy two expenses' amounts into a note, one at a time, and text a friend the
    larger."""

    name = "ExpenseAmountsToNoteAndTextLarger"
    app_packages = (expense.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 5.5
    template = ('Note the amounts of my "{first}" and "{second}" expenses in Pro Expense in a new Markor note {note}, '
                "one per line, then text {friend} the larger one.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two expenses with different amounts among 12–20 others, the friend, the note's name."""
        rows = expenses_with(rng, 2)
        while rows[0]["amount"] == rows[1]["amount"]:
            rows = expenses_with(rng, 2)
        return {"expenses": lh.shuffled(rng, rows), "targets": rows[:2], "first": rows[0]["name"],
                "second": rows[1]["name"], "note": _note_name(rng), **lh.friends(rng, 3)}

    def smaller_first(self) -> list[Row]:
        """The two expenses, the smaller amount first."""
        return sorted(self.params["targets"], key=lambda row: row["amount"])

    def subgoals(self) -> Sequence[Subgoal]:
        """The smaller amount noted; the larger noted; the larger texted."""
        smaller, larger = (format_amount(row["amount"]) for row in self.smaller_first())
        return [Subgoal("note the smaller amount", lh.note_holds(self.params["note"], smaller)),
                Subgoal("note the larger amount", lh.note_holds(self.params["note"], larger)),
                Subgoal("text the larger amount", lh.texted(self.params["friend_number"], larger))]

    def oracle(self) -> Sequence[OracleStep]:
        """Open the smaller expense (its form shows the amount) and type it into a new note; back in Pro Expense,
        go back to Expense Logs and scroll to the larger one, open it and type it into the note (Markor opens again
        in its editor), leave the editor; text the larger amount."""
        smaller, larger = self.smaller_first()
        direction = "up" if larger["modified_date"] > smaller["modified_date"] else "down"  # newest first
        return [*expense.reveal_rows([smaller]), open_app(markor.APP_NAME), *markor.new_note(self.params["note"]),
                type_into(markor.EDITOR, format_amount(smaller["amount"])), open_app(expense.APP_NAME),
                *back_until(expense.LOG_LIST), *scroll_to(expense_row(larger), expense.LOG_LIST, direction),
                *expense.reveal_rows([larger]), open_app(markor.APP_NAME),
                type_into(markor.EDITOR, format_amount(larger["amount"])), *markor.leave_editor(),
                *lh.text_contact(self.params["friend"], format_amount(larger["amount"])), complete()]


@register_task
class TextedBillToExpenseNoteAndReply(ActivityTask):
    """SMS → Markor, Pro Expense → SMS: note where a friend's dinner was and what it cost, log my share, reply."""

    name = "TextedBillToExpenseNoteAndReply"
    app_packages = (sms.PACKAGE, expense.PACKAGE, markor.PACKAGE)
    complexity = 4.5
    template = ('Write the place and the total of the dinner bill {friend} texted me in a new Markor note {note}, '
                'one per line. Log my share as a Social expense "{expense}" with the note "Split bill" in Pro Expense, '
                'then reply to {friend}: "{reply}"')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The friend's bill (a place, a total of 40–200 dollars, half of it the share) among two other texts,
        the expense's row, the note's name and the reply."""
        found = lh.friends(rng, 3)
        cents = int(rng.integers(4000, 20001))
        total, share = expense.two_decimals(cents), expense.two_decimals(cents // 2)
        place = pick(rng, RESTAURANTS)
        body = f"Dinner last night. Place: {place}, total: {total}, your share: {share}"
        texts = _friend_texts(rng, found, body)
        row = expense.expense_row(f"Dinner with {found['friend'].split()[0]}", share, "Social", "Split bill",
                                  DEVICE_TIME)
        return {**found, "texts": lh.shuffled(rng, texts), "body": body, "place": place, "total": total,
                "row": row, "expense": row["name"], "note": _note_name(rng), "reply": pick(rng, REPLIES),
                "expenses": expenses_with(rng, 0)}

    def subgoals(self) -> Sequence[Subgoal]:
        """Place and total noted; the share logged; the reply sent."""
        params = self.params
        return [Subgoal("note the place and total", lh.note_holds(params["note"], params["place"], params["total"])),
                Subgoal("log the share", expense_added(params["row"])),
                Subgoal("reply", lh.texted(params["friend_number"], params["reply"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text, write the note, look at the text again for the share, add the expense, reply in the
        thread left open."""
        params = self.params
        return [*lh.read_text(params["friend"], params["body"]),
                *lh.write_note(params["note"], [params["place"], params["total"]]), *look_again(params["body"]),
                *lh.without_completion(expense.add_expenses([params["row"]])), *reply_in_thread(params["reply"]),
                complete()]


@register_task
class TrackRentalCostToExpenseAndText(_TrackTask):
    """OpenTracks → SMS → Pro Expense → OpenTracks: an activity's description says what the bike rental cost; text
    it, log it, rename the activity."""

    name = "TrackRentalCostToExpenseAndText"
    app_packages = (opentracks.PACKAGE, expense.PACKAGE, sms.PACKAGE)
    complexity = 4.0
    noise = 6  # a list short enough that the description is among the texts an RL agent can copy
    template = ('My OpenTracks activity "{track}" says what the bike rental cost. Text {friend} the amount, log it '
                'in Pro Expense as a Transportation expense "Bike rental" with the note "{track}", then rename the '
                'activity to "{new_name}".')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The activity (a question name) and its cost of 8–60 dollars, the expense's row, the friend."""
        track = pick(rng, opentracks.ACTIVITY_NAMES)
        cost = expense.two_decimals(int(rng.integers(800, 6001)))
        row = expense.expense_row("Bike rental", cost, "Transportation", track, DEVICE_TIME)
        return {"track": track, "track_seed": int(rng.integers(2**31)), "description": f"Bike rental: {cost}",
                "cost": cost, "row": row, "expenses": expenses_with(rng, 0), "new_name": f"{track} by bike",
                **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The expense logged; the amount texted; the activity renamed."""
        renamed = lambda device: float(any(row["name"] == self.params["new_name"]  # noqa: E731
                                           and row["description"] == self.params["description"]
                                           for row in opentracks.TRACKS_TABLE.rows(device)))
        return [Subgoal("text the amount", lh.texted(self.params["friend_number"], self.params["cost"])),
                Subgoal("log the rental", expense_added(self.params["row"])),
                Subgoal("rename the activity", renamed)]

    def oracle(self) -> Sequence[OracleStep]:
        """Find the activity (its description shows under it), text the amount, add the expense, rename it."""
        return [*opentracks.reveal_rows([self.target_track()]),
                expect(Selector(text=self.params["description"])),
                *lh.text_contact(self.params["friend"], self.params["cost"]),
                *lh.without_completion(expense.add_expenses([self.params["row"]])),
                *rename_track(self.target_track(), self.params["new_name"]), complete()]


# ----- food -----------------------------------------------------------------------------------------------------
@register_task
class RecipeToCookingEventAndText(ActivityTask):
    """Broccoli → SMS → Calendar: text a friend how many a recipe serves, block its preparation time."""

    name = "RecipeToCookingEventAndText"
    app_packages = (recipe.PACKAGE, calendar.PACKAGE, sms.PACKAGE)
    complexity = 4.5
    template = ('Text {friend} how many servings my Broccoli recipe "{title}" makes, then add an event "Cook it" to '
                "Simple Calendar Pro on {when}, lasting as long as the recipe takes to prepare.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The recipe among eight others, the event (its length the preparation time), the friend."""
        target, rows = recipes_with(rng)
        event = meeting(rng, "Cook it", minutes_of(target["preparationTime"]))
        return {"recipes": rows, "target": target, "title": target["title"], "event": event, "when": when(event),
                **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The servings texted; the event added."""
        servings = self.params["target"]["servings"]
        return [Subgoal("text the servings", lh.texted(self.params["friend_number"], servings)),
                Subgoal("add the cooking event", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Open the recipe, text the servings, add the event."""
        return [*see_recipe(self.params["target"]),
                *lh.text_contact(self.params["friend"], self.params["target"]["servings"]),
                *lh.add_event(self.params["event"]), complete()]


@register_task
class TextedRecipeToBroccoliAndExpense(ActivityTask):
    """SMS → Broccoli → Pro Expense → SMS: save the recipe a friend lh.texted, log the groceries, thank them."""

    name = "TextedRecipeToBroccoliAndExpense"
    app_packages = (sms.PACKAGE, recipe.PACKAGE, expense.PACKAGE)
    complexity = 3.8
    template = ("Add the recipe {friend} texted me to Broccoli with its title, description, servings and time. Then "
                'log a Food expense named "Groceries" of {cost} with the note "For dinner" in Pro Expense, and reply '
                'to {friend}: "{reply}"')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The recipe (none of the eight in the app has its title), the text, the expense, the reply."""
        target, rows = recipes_with(rng)
        found = lh.friends(rng, 3)
        body = (f"Try my recipe. Title: {target['title']}, servings: {target['servings']}, "
                f"time: {target['preparationTime']}, about: {target['description']}")
        cost = expense.two_decimals(int(rng.integers(1500, 9001)))
        texts = _friend_texts(rng, found, body)
        return {**found, "recipes": [row for row in rows if row["title"] != target["title"]], "texts": texts,
                "body": body, "wanted": recipe.recipe_row(target["title"], target["description"], target["servings"],
                                                          target["preparationTime"]),
                "cost": cost, "row": expense.expense_row("Groceries", cost, "Food", "For dinner", DEVICE_TIME),
                "reply": pick(rng, REPLIES)}

    def recipe_saved(self, fields: Sequence[str]) -> lh.Check:
        """A recipe with the texted title whose ``fields`` are the texted ones (fuzzily)."""
        wanted = self.params["wanted"]
        return lambda device: float(any(fuzzy_match(row["title"] or "", wanted["title"])
                                        and all(fuzzy_match(row[f] or "", wanted[f]) for f in fields)
                                        for row in recipe.RECIPES.rows(device)))

    def subgoals(self) -> Sequence[Subgoal]:
        """The recipe's title saved; its description, servings and time right; the groceries logged; the reply."""
        return [Subgoal("save the recipe", self.recipe_saved(())),
                Subgoal("with its details", self.recipe_saved(("description", "servings", "preparationTime"))),
                Subgoal("log the groceries", expense_added(self.params["row"])),
                Subgoal("reply", lh.texted(self.params["friend_number"], self.params["reply"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text, fill in Broccoli's form, add the expense, reply."""
        params = self.params
        return [*lh.read_text(params["friend"], params["body"]), open_app(recipe.APP_NAME),
                *recipe.add_recipe(params["wanted"]), *lh.without_completion(expense.add_expenses([params["row"]])),
                *reply_in_thread(params["reply"]), complete()]


@register_task
class RecipesToTextsAndCookingEvents(ActivityTask):
    """Broccoli ⇄ SMS → Calendar: text a friend how many two recipes serve, one at a time, then block each recipe's
    preparation time in the calendar."""

    name = "RecipesToTextsAndCookingEvents"
    app_packages = (recipe.PACKAGE, sms.PACKAGE, calendar.PACKAGE)
    complexity = 9.0
    template = ('Text {friend} how many servings my Broccoli recipes "{first}" and "{second}" make, one text each. '
                'Then add events "Cook {first}" on {when_first} and "Cook {second}" on {when_second} to Simple '
                "Calendar Pro, each lasting as long as its recipe takes to prepare.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two recipes with different titles and servings among eight others, an event for each, the friend."""
        first, rows = recipes_with(rng)
        second = recipe.random_recipes(rng, 1, where=lambda r: '"' not in r["title"]
                                       and r["servings"] != first["servings"]
                                       and all(r["title"] != row["title"] for row in rows))[0]
        events = [meeting(rng, f"Cook {row['title']}", minutes_of(row["preparationTime"])) for row in (first, second)]
        return {"recipes": lh.shuffled(rng, [*rows, second]), "targets": [first, second], "first": first["title"],
                "second": second["title"], "events": [], "cooking": events, "when_first": when(events[0]),
                "when_second": when(events[1]), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each recipe's servings texted; each cooking event added."""
        first, second = self.params["targets"]
        number = self.params["friend_number"]
        return [Subgoal("text the first recipe's servings", lh.texted(number, first["servings"])),
                Subgoal("text the second recipe's servings", lh.texted(number, second["servings"])),
                *(Subgoal(f"add {event['title']!r}", lh.event_added(event)) for event in self.params["cooking"])]

    def oracle(self) -> Sequence[OracleStep]:
        """Open the first recipe, text its servings; back in Broccoli open the second, text its servings in the
        same thread; add both events (leaving the calendar between them, so it opens on its month again)."""
        first, second = self.params["targets"]
        return [*see_recipe(first), *lh.text_contact(self.params["friend"], first["servings"]),
                open_app(recipe.APP_NAME), act(Action(ActionType.NAVIGATE_BACK)),
                *scroll_to(recipe_card(second), RECIPE_LIST, "up" if second["title"] < first["title"] else "down"),
                *recipe.open_recipe(second), *reply_in_thread(second["servings"]),
                *lh.add_event(self.params["cooking"][0]), *back_to_home(), *lh.add_event(self.params["cooking"][1]),
                complete()]


# ----- sport ----------------------------------------------------------------------------------------------------
@register_task
class TrackStatsToNoteAndText(_TrackTask):
    """OpenTracks ⇄ Markor → SMS: copy three activities' times and distances into a note, one at a time, and text
    one of them."""

    name = "TrackStatsToNoteAndText"
    app_packages = (opentracks.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 4.5
    noise = 4  # a list short enough that each activity's line is among the texts an RL agent can copy
    template = ('Note the time and distance of my OpenTracks activities "{first}", "{second}" and "{third}" in a new '
                'Markor note {note}, one per line, and text {friend} those of "{third}".')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Three activities (question names) among four others, named in the goal in the list's order
        (newest first); the note's name; the friend."""
        short = [name for name in opentracks.ACTIVITY_NAMES if len(name) <= 20]  # a goal short enough to copy by
        names = [str(name) for name in rng.choice(short, size=3, replace=False)]
        seed = int(rng.integers(2**31))
        targets = track_rows(seed, dict.fromkeys(names, ""), cls.noise)[0]
        first, second, third = (row["name"] for row in sorted(targets, key=lambda row: -row["starttime"]))
        return {"names": names, "first": first, "second": second, "third": third, "track_seed": seed,
                "note": _note_name(rng), **lh.friends(rng, 3)}

    def named(self) -> dict[str, str]:
        """The three activities, without descriptions."""
        return dict.fromkeys(self.params["names"], "")

    def in_list_order(self) -> list[Row]:
        """The three activities as the list shows them: newest first."""
        return sorted(self.target_tracks(), key=lambda row: -row["starttime"])

    def subgoals(self) -> Sequence[Subgoal]:
        """The first two activities' lines in the note; the last one's texted; its line in the note."""
        first, second, third = (shown_time_distance(row) for row in self.in_list_order())
        note = self.params["note"]
        return [Subgoal("note the first line", lh.note_holds(note, first)),
                Subgoal("note the second line", lh.note_holds(note, second)),
                Subgoal("text the last line", lh.texted(self.params["friend_number"], third)),
                Subgoal("note the last line", lh.note_holds(note, third))]

    def oracle(self) -> Sequence[OracleStep]:
        """For each activity, in list order: scroll OpenTracks' list to it (the app opens again where it was),
        then type its line into the note (Markor opens again in its editor); the last one is texted before it is
        noted. Leaving the editor saves the note."""
        steps: list[OracleStep] = []
        for number, row in enumerate(self.in_list_order()):
            line = shown_time_distance(row)
            steps += opentracks.reveal_rows([row])
            if number == 2:
                steps += lh.text_contact(self.params["friend"], line)
            steps.append(open_app(markor.APP_NAME))
            if number == 0:
                steps += markor.new_note(self.params["note"])
            steps.append(type_into(markor.EDITOR, line))
        return [*steps, *markor.leave_editor(), complete()]


@register_task
class EventPlaceToTrackDescriptionAndText(_TrackTask):
    """Calendar → OpenTracks → SMS, Markor: describe an activity with the place of the outing it was, text the place
    and note it."""

    name = "EventPlaceToTrackDescriptionAndText"
    app_packages = (calendar.PACKAGE, opentracks.PACKAGE, sms.PACKAGE, markor.PACKAGE)
    complexity = 5.0
    template = ('Set the description of my OpenTracks activity "{track}" to the location of my "{outing}" event in '
                "Simple Calendar Pro. Then text {friend} that location and keep it in a new Markor note {note}.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The outing (at an address) among noise events, the activity among noise activities, the friend."""
        event, events = outing(rng, pick(rng, sms.ADDRESSES))
        return {"event": event, "events": events, "outing": event["title"],
                "track": pick(rng, opentracks.ACTIVITY_NAMES), "track_seed": int(rng.integers(2**31)),
                "note": _note_name(rng), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The description set; the place texted; the place noted."""
        place = self.params["event"]["location"]
        return [Subgoal("describe the activity", track_described(self.params["track"], place)),
                Subgoal("text the place", lh.texted(self.params["friend_number"], place)),
                Subgoal("note the place", lh.note_holds(self.params["note"], place))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event's place, put it in the activity's description, text it, note it."""
        place = self.params["event"]["location"]
        return [*calendar.reveal_rows([self.params["event"]]),
                *edit_track(self.target_track(), opentracks.TrackEditScreen.DESCRIPTION, place),
                *lh.text_contact(self.params["friend"], place), *lh.write_note(self.params["note"], [place]),
                complete()]


# ----- maps -----------------------------------------------------------------------------------------------------
def _favourites(rng: np.random.Generator, count: int) -> list[list[Any]]:
    """``count`` favourites ``[name, lat, lon]`` with distinct names at distinct towns."""
    names = [str(name) for name in rng.choice(osmand.FAVOURITE_NAMES, size=count, replace=False)]
    places = [str(place) for place in rng.choice(sorted(osmand.LOCATIONS), size=count, replace=False)]
    return [[name, *osmand.LOCATIONS[place]] for name, place in zip(names, places)]


def _coordinates(favourite: Sequence[Any]) -> str:
    """A favourite's coordinates as OsmAnd shows them."""
    return format_coordinates(favourite[1], favourite[2])


@register_task
class FavouriteCoordinatesToEventAndText(ActivityTask):
    """OsmAnd → SMS → Calendar: meet at a favourite place: its coordinates lh.texted, and an event's location."""

    name = "FavouriteCoordinatesToEventAndText"
    app_packages = (osmand_app.PACKAGE, calendar.PACKAGE, sms.PACKAGE)
    complexity = 5.0
    template = ('Text {friend} the coordinates of my OsmAnd favorite "{favourite}", then add an event "{event_title}" '
                "to Simple Calendar Pro on {when} lasting 1 hour with those coordinates as its location.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Three or four favourites, one the meeting place; the event; the friend."""
        favourites = _favourites(rng, int(rng.integers(3, 5)))
        target = favourites[int(rng.integers(len(favourites)))]
        event = meeting(rng, f"Meet {pick(rng, ('Ana', 'Ben', 'Cleo', 'Dev'))}", 60, _coordinates(target))
        return {"favourites": favourites, "favourite": target[0], "coordinates": _coordinates(target),
                "event": event, "event_title": event["title"], "when": when(event), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The coordinates texted; the event added."""
        return [Subgoal("text the coordinates", lh.texted(self.params["friend_number"], self.params["coordinates"])),
                Subgoal("add the event", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the favourite's coordinates in My places, text them, add the event."""
        return [*see_favourites([self.params["favourite"]]),
                expect(Selector(text=self.params["coordinates"])),
                *lh.text_contact(self.params["friend"], self.params["coordinates"]),
                *lh.add_event(self.params["event"]), complete()]


@register_task
class EventPlaceToFavouriteMarkerAndText(ActivityTask):
    """Calendar → OsmAnd → SMS: save an outing's town as a favourite, mark it, text its coordinates."""

    name = "EventPlaceToFavouriteMarkerAndText"
    app_packages = (calendar.PACKAGE, osmand_app.PACKAGE, sms.PACKAGE)
    complexity = 4.0
    template = ('Save the place of my "{outing}" event in Simple Calendar Pro as an OsmAnd favorite named "{outing}" '
                "and put a map marker there. Then text {friend} its coordinates as OsmAnd shows them.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The outing at a town among noise events, the friend."""
        event, events = outing(rng, pick(rng, sorted(osmand.LOCATIONS)))
        lat, lon = osmand.LOCATIONS[event["location"]]
        return {"event": event, "events": events, "outing": event["title"], "point": [lat, lon],
                "coordinates": format_coordinates(lat, lon), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The favourite saved; the marker placed; the coordinates texted."""
        point = tuple(self.params["point"])
        return [Subgoal("save the favourite", favourite_at(self.params["outing"], point)),  # type: ignore[arg-type]
                Subgoal("put a marker", marker_at(point)),  # type: ignore[arg-type]
                Subgoal("text the coordinates", lh.texted(self.params["friend_number"], self.params["coordinates"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event's place; in OsmAnd find it, save it as a favourite, find it again, Marker; text."""
        place = self.params["event"]["location"]
        return [*calendar.reveal_rows([self.params["event"]]), open_app(osmand.APP_NAME), *osmand.find_place(place),
                tap(osmand.FAVORITE_BUTTON), replace_text(osmand.NAME_FIELD, self.params["outing"]),
                tap(osmand.SAVE_FAVORITE), *osmand.find_place(place), expect(Selector(text=self.params["coordinates"])),
                tap(osmand.MARKER_BUTTON), *lh.text_contact(self.params["friend"], self.params["coordinates"]),
                complete()]


@register_task
class FavouritesToNoteMarkerAndText(ActivityTask):
    """OsmAnd → SMS → Markor → OsmAnd: text a favourite's coordinates, note two favourites' coordinates, mark one."""

    name = "FavouritesToNoteMarkerAndText"
    app_packages = (osmand_app.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 4.0
    template = ('Text {friend} the coordinates of my OsmAnd favorite "{second}". Write those of "{first}" and '
                '"{second}" in a new Markor note {note}, one per line, then put an OsmAnd map marker on "{first}".')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Three or four favourites, the first two the goal's; the note's name; the friend."""
        favourites = _favourites(rng, int(rng.integers(3, 5)))
        return {"favourites": lh.shuffled(rng, favourites), "targets": favourites[:2], "first": favourites[0][0],
                "second": favourites[1][0], "note": _note_name(rng), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The second's coordinates texted; each coordinate pair in the note; the marker on the first."""
        first, second = self.params["targets"]
        return [Subgoal("text the second place", lh.texted(self.params["friend_number"], _coordinates(second))),
                Subgoal("note the first place", lh.note_holds(self.params["note"], _coordinates(first))),
                Subgoal("note the second place", lh.note_holds(self.params["note"], _coordinates(second))),
                Subgoal("mark the first place", marker_at((first[1], first[2])))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read both in My places, text the second's coordinates, write the note, back in OsmAnd (still on My
        places) open the first and mark it."""
        first, second = self.params["targets"]
        return [*see_favourites([first[0], second[0]]), *lh.text_contact(self.params["friend"], _coordinates(second)),
                *lh.write_note(self.params["note"], [_coordinates(first), _coordinates(second)]),
                open_app(osmand.APP_NAME), tap(Selector(text=first[0], resource_id=f"{osmand_app.PACKAGE}:id/title")),
                tap(osmand.MARKER_BUTTON), complete()]


@register_task
class OutingPlacesToRouteFavouriteAndText(ActivityTask):
    """Calendar → SMS → OsmAnd: text where an outing is, plan and save a route through two outings' towns, save
    the second town as a favourite."""

    name = "OutingPlacesToRouteFavouriteAndText"
    app_packages = (calendar.PACKAGE, sms.PACKAGE, osmand_app.PACKAGE)
    complexity = 6.0
    template = ('Text {friend} the place of my "{first}" event in Simple Calendar Pro. Then save an OsmAnd track from '
                'there to the place of my "{second}" event, and save that place as a favorite named "{second}".')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two outings with different titles at different towns on different days, among noise events; the
        friend."""
        towns = [str(town) for town in rng.choice(sorted(osmand.LOCATIONS), size=2, replace=False)]
        first, events = outing(rng, towns[0])
        second = first
        while second["title"] == first["title"] or second["start_ts"] // 86400 == first["start_ts"] // 86400:
            second = outing(rng, towns[1])[0]
        return {"outings": [first, second], "events": lh.shuffled(rng, [*events, second]), "first": first["title"],
                "second": second["title"], "towns": towns, **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The first place texted; a track through both places; the second place a favourite."""
        towns = self.params["towns"]
        return [Subgoal("text the first place", lh.texted(self.params["friend_number"], towns[0].split(",")[0])),
                Subgoal("save the route", osmand.OsmAndTrack({"waypoints": towns}).is_successful),
                Subgoal("save the favourite", favourite_at(self.params["second"], osmand.LOCATIONS[towns[1]]))]

    def oracle(self) -> Sequence[OracleStep]:
        """See both events' places, text the first, plan the route (Menu → Plan a route, each town searched and
        added), save it, then find the second town again and save it as a favourite."""
        first, second = self.params["towns"]
        steps = [*calendar.reveal_rows(self.params["outings"]),
                 *lh.text_contact(self.params["friend"], osmand.search_text(first)), open_app(osmand.APP_NAME),
                 tap(osmand.MENU_BUTTON), tap(Selector(text=osmand_app.PLAN_A_ROUTE,
                                                       resource_id=f"{osmand_app.PACKAGE}:id/title"))]
        for town in (first, second):
            steps += [*osmand.find_place(town), tap(osmand.ADD_POINT)]
        return [*steps, tap(osmand.SAVE_PLAN), tap(osmand.CONFIRM), *osmand.find_place(second),
                tap(osmand.FAVORITE_BUTTON), replace_text(osmand.NAME_FIELD, self.params["second"]),
                tap(osmand.SAVE_FAVORITE), complete()]


# ----- music and video ------------------------------------------------------------------------------------------
def _retro_row(title: str) -> Selector:
    return Selector(text=title, resource_id=f"{retro_app.PACKAGE}:id/title")


def retro_playlist_has(name: str, title: str) -> lh.Check:
    """Retro Music's playlist ``name`` (exactly) holds the song ``title``."""
    return lambda device: float(any(row["playlist_name"] == name and row["media_file_name"] == title
                                    for row in retro.playlist_rows(device)))


@register_task
class NotedSongsToPlaylistAndText(ActivityTask):
    """Markor → Retro Music → SMS: make a playlist of the songs a note lists, text the first song's artist."""

    name = "NotedSongsToPlaylistAndText"
    app_packages = (markor.PACKAGE, retro_app.PACKAGE, sms.PACKAGE)
    complexity = 5.0
    template = ('Make a Retro Music playlist "{playlist}" of the songs listed in my Markor note {note}, in order. '
                "Then text {friend} the artist of its first song.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """12 songs; the note lists four, two other notes four others each; the playlist's name; the friend."""
        library = songs(rng)
        titles = library["titles"]
        names = [str(name) for name in rng.choice(NOTE_NAMES, size=3, replace=False)]
        notes = {name: "\n".join(titles[4 * i:4 * i + 4]) for i, name in enumerate(names)}
        return {**library, "notes": notes, "note": names[0], "wanted": titles[:4],
                "artist": library["songs"][0][1], "playlist": retro.playlist_name(rng), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The playlist started with the first song; it holds the four in order; the artist texted."""
        params = self.params
        return [Subgoal("start the playlist", retro_playlist_has(params["playlist"], params["wanted"][0])),
                Subgoal("add every listed song", retro_playlist(params["playlist"], params["wanted"])),
                Subgoal("text the artist", lh.texted(params["friend_number"], params["artist"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the note, make the playlist from the Songs tab, see the artist, text it."""
        params = self.params
        return [*cross_app.read_note(params["note"], params["wanted"]), open_app(retro.APP_NAME),
                tap(retro.SONGS_TAB), *retro.create_playlist(params["playlist"], params["wanted"]),
                *retro.reveal(params["wanted"][0]), expect(Selector(text=params["artist"])),
                *lh.text_contact(params["friend"], params["artist"]), complete()]


@register_task
class TextedSongsToPlaylistQueueAndReply(ActivityTask):
    """SMS → Retro Music → SMS: add the three songs a friend recommends to a playlist and the queue, then reply."""

    name = "TextedSongsToPlaylistQueueAndReply"
    app_packages = (sms.PACKAGE, retro_app.PACKAGE)
    complexity = 4.5
    template = ('Add the songs {friend} texted me about to the end of my Retro Music playlist "{playlist}", in the '
                'order given, and to the playing queue. Then reply to {friend}: "{reply}"')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """12 songs; two or three playlists of other songs; the friend's three songs among other texts."""
        library = songs(rng)
        titles = library["titles"]
        names = playlist_names(rng, int(rng.integers(2, 4)))
        playlists = {name: titles[3 + 3 * i:6 + 3 * i] for i, name in enumerate(names)}
        found = lh.friends(rng, 3)
        body = f'Songs for the road: "{titles[0]}", "{titles[1]}" and "{titles[2]}"'
        texts = _friend_texts(rng, found, body)
        return {**library, **found, "playlists": playlists, "playlist": names[0], "wanted": titles[:3],
                "texts": lh.shuffled(rng, texts), "body": body, "reply": pick(rng, REPLIES)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The first song in the playlist; all three at its end in order; all three at the queue's end in order;
        the reply."""
        params = self.params
        wanted = params["wanted"]
        full = [*params["playlists"][params["playlist"]], *wanted]
        return [Subgoal("add the first song", retro_playlist_has(params["playlist"], wanted[0])),
                Subgoal("add every song in order", retro_playlist(params["playlist"], full)),
                Subgoal("queue the songs in order", queued_last(wanted)),
                Subgoal("reply", lh.texted(params["friend_number"], params["reply"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text; in the Songs tab add each song to the playlist, then each to the queue; reply."""
        params = self.params
        steps = [*lh.read_text(params["friend"], params["body"]), open_app(retro.APP_NAME), tap(retro.SONGS_TAB)]
        for title in params["wanted"]:
            steps += [*retro.song_action(title, retro_app.ADD_TO_PLAYLIST), tap(_retro_row(params["playlist"]))]
        for title in params["wanted"]:
            steps += retro.song_action(title, retro_app.ADD_TO_QUEUE)
        return [*steps, *reply_in_thread(params["reply"]), complete()]


@register_task
class PlaylistSongsToTextAndNote(ActivityTask):
    """Retro Music → SMS → Markor: text a friend a playlist's first song, note all its songs."""

    name = "PlaylistSongsToTextAndNote"
    app_packages = (retro_app.PACKAGE, sms.PACKAGE, markor.PACKAGE)
    complexity = 4.0
    template = ('Text {friend} the title of the first song of my Retro Music playlist "{playlist}", then write all '
                "its songs in a new Markor note named {note}, one per line.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """12 songs; two or three playlists of four songs each, the first the goal's; the note; the friend."""
        library = songs(rng)
        titles = library["titles"]
        names = playlist_names(rng, int(rng.integers(2, 4)))
        playlists = {name: titles[4 * i:4 * i + 4] for i, name in enumerate(names)}
        return {**library, "playlists": playlists, "playlist": names[0], "wanted": titles[:4],
                "note": _note_name(rng), **lh.friends(rng, 3)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The first song texted; the note holds all four."""
        params = self.params
        return [Subgoal("text the first song", lh.texted(params["friend_number"], params["wanted"][0])),
                Subgoal("note the songs", lh.note_holds(params["note"], *params["wanted"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Open the playlist, text its first song, write the note."""
        params = self.params
        return [*see_playlist(params["playlist"], params["wanted"]),
                *lh.text_contact(params["friend"], params["wanted"][0]),
                *lh.write_note(params["note"], params["wanted"]), complete()]


@register_task
class TextedVideosToVlcPlaylistAndReply(ActivityTask):
    """SMS → VLC → SMS: make a VLC playlist of the videos a friend lh.texted, in their order, then reply."""

    name = "TextedVideosToVlcPlaylistAndReply"
    app_packages = (sms.PACKAGE, vlc.vlc.PACKAGE)
    complexity = 4.2
    template = ('Make a VLC playlist "{playlist}" of the videos {friend} texted me, in the order given (they are in '
                'Internal Memory/VLCVideos). Then reply to {friend}: "{reply}"')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Eight videos, four of them texted; the playlist's name; the friend; the reply."""
        names = vlc.distinct_names(rng, 8)
        found = lh.friends(rng, 3)
        body = f"Watch these in order: {', '.join(names[:4])}"
        texts = _friend_texts(rng, found, body)
        return {**found, "videos": dict(zip(names, vlc.video_specs(rng, names))),
                "frame_seed": int(rng.integers(2**31)), "wanted": names[:4], "playlist": vlc.playlist_name(rng),
                "texts": lh.shuffled(rng, texts), "body": body, "reply": pick(rng, REPLIES)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The playlist started with the first video; it holds the four in order; the reply."""
        params = self.params
        return [Subgoal("start the playlist", vlc_playlist_starts(params["playlist"], params["wanted"][0])),
                Subgoal("add every video in order", vlc_playlist(params["playlist"], params["wanted"])),
                Subgoal("reply", lh.texted(params["friend_number"], params["reply"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text; in VLC's VLCVideos folder add each video to the new playlist; reply."""
        params = self.params
        plan = [(params["playlist"], params["wanted"], True)]
        return [*lh.read_text(params["friend"], params["body"]), *vlc.open_videos_folder(),
                *vlc.add_files(plan, vlc.file_order(list(params["videos"]))), *reply_in_thread(params["reply"]),
                complete()]
