"""Long-horizon cross-app tasks about people and time (issue #28): what one app holds is needed in another.

Each task seeds a source — an event in Simple Calendar Pro, a contact, a received text, a task in Tasks, the
paused stopwatch in Clock — among distractors drawn from the same seed, and names what to find, not its value
("Text Maya the location of my 'Dentist appointment' event"). The agent carries the value to one or more sinks:
a text sent in Simple SMS Messenger, a contact saved, a task added or completed, an event created, a Markor
note, a timer started in Clock, a system setting. Every sink is a sub-goal checked on the device
(``SubgoalTask``: the score is the mean, latched), so a half-done task scores between 0 and 1.

The oracles are built from the single-app tasks' own oracles where one exists (``part_steps``: adding a
contact, a task or an event, typing a timer, a Settings toggle, reading the stopwatch) and act through the UI
only; between apps they go back to the home screen, as ``compose`` does.
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar
from xml.etree import ElementTree

import numpy as np

from android_gym.device.base import Device
from android_gym.device.reads import pull_read
from android_gym.envs import calendar, clock, contacts, markor, sms, system, tasks_app
from android_gym.envs import long_horizon as lh
from android_gym.errors import RemoteFileNotFoundError
from android_gym.sim.apps.deskclock import PREFS_PATH as CLOCK_PREFS
from android_gym.sim.apps.deskclock import TIMER_RUNNING
from android_gym.sim.apps.tasks import LOW
from android_gym.tasks import Subgoal, SubgoalTask, get_task, register_task
from android_gym.tasks import files as device_files
from android_gym.tasks import params as gen
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    back_to_home,
    complete,
    expect,
    tap,
)
from android_gym.tasks.sqlite_rows import ReplaceableTable, Row, TablesTask
from android_gym.tasks.user_data import pick
from android_gym.tasks.validators import (
    clear_contacts,
    fuzzy_match,
)

TODAY = DEVICE_TIME.date()
#: Personal events whose place or time the goals ask about (none is a title of ``calendar.noise_events``).
EVENT_TITLES = ("Dentist appointment", "Parent-teacher meeting", "Book club", "Yoga class", "Car service",
                "Job interview", "Birthday dinner", "Jazz concert", "Flat viewing", "Team offsite")
#: What a received text is about (the goal's words) → the text (``params.MESSAGES``).
TOPICS = {"the parcel": "The package arrived this morning.", "my umbrella": "I found your umbrella in my car.",
          "the keys": "I left the keys under the mat.", "the slides": "Please send me the slides before noon.",
          "the train": "The train is delayed, I will take the bus.", "my passport": "Remember to bring your passport.",
          "the plants": "Don't forget to water the plants.", "the dog": "Beware of the dog when you come over."}
#: Dishes a friend keeps an eye on, for texts saying how long they still need.
DISHES = ("lasagna", "roast chicken", "banana bread", "apple pie", "pizza")
NOTE_NAMES = ("run_log.md", "notes.md", "plans.md", "today.md", "errands.md")
_CONTACTS_LIST = Selector(resource_id="android:id/list")  # PeopleActivity's list (AOSP contact_list_content.xml)


# ----- parameters -----------------------------------------------------------------------------------------------
def personal_event(rng: np.random.Generator, title: str, first_day: int = TODAY.day + 1, **fields: Any) -> Row:
    """An ``events`` row titled ``title`` at a whole hour from ``first_day`` to the month's end, 15–60 minutes,
    with a generated description and ``fields`` (a location, ...) on top."""
    row = calendar.random_event(rng, calendar.random_october_ts(rng, first_day, 31))
    return {**row, "title": title, **fields}


def with_noise(rng: np.random.Generator, target: Row, count: tuple[int, int] = (4, 12)) -> list[Row]:
    """The target event among a random number of AndroidWorld's noise events (other titles), in random order."""
    noise = calendar.noise_events(rng, int(rng.integers(*count)), lambda row: row["title"] != target["title"])
    return lh.shuffled(rng, [*noise, target])


def topic_texts(rng: np.random.Generator, topic: str, count: int) -> list[tuple[str, str]]:
    """``count`` received texts ``(number, body)``, one about ``topic`` (first), the others about other topics."""
    others = [text for name, text in TOPICS.items() if name != topic]
    bodies = [TOPICS[topic], *(others[i] for i in rng.choice(len(others), size=count - 1, replace=False))]
    return [(number, body) for (_, number), body in zip(lh.people(rng, count), bodies)]


def event_day(row: Mapping[str, Any]) -> dt.date:
    """The (UTC) day an event starts."""
    return dt.datetime.fromtimestamp(row["start_ts"], dt.timezone.utc).date()


def event_minutes(row: Mapping[str, Any]) -> int:
    """How long an event lasts, in minutes."""
    return (row["end_ts"] - row["start_ts"]) // 60


def meeting(rng: np.random.Generator, title: str, minutes: int) -> dict[str, Any]:
    """A new event ``title`` the goal spells out: ``event`` (the row), ``event_title``, ``date`` (ISO) and
    ``hour``, at a whole hour from tomorrow to the month's end."""
    start = dt.datetime.fromtimestamp(calendar.random_october_ts(rng, TODAY.day + 1, 31), dt.timezone.utc)
    event = calendar.event_row(title, start, duration_mins=minutes)
    return {"event": event, "event_title": title, "date": start.date().isoformat(), "hour": start.hour}


def due_day(row: Mapping[str, Any]) -> dt.date:
    """The day a ``tasks`` row is due."""
    return dt.datetime.fromtimestamp(row["dueDate"] / 1000, tasks_app.ZONE).date()


def task_due_on(rng: np.random.Generator, title: str, first_day: int, last_day: int) -> Row:
    """A ``tasks`` row titled ``title``, not done, due on a day (no time) between the days given (inclusive)."""
    due = TODAY.replace(day=int(rng.integers(first_day, last_day + 1)))
    return tasks_app.task_row(title, int(rng.integers(4)), due, remote_id=str(int(rng.integers(100_000_000, 2**62))))


def todo_list(rng: np.random.Generator, target: Row) -> list[Row]:
    """The target task among 5–12 of AndroidWorld's noise tasks, in random order."""
    return lh.among(rng, target, [tasks_app.random_task_row(rng) for _ in range(int(rng.integers(5, 13)))])


# ----- sub-goal checks ------------------------------------------------------------------------------------------
def task_due(title: str, day: dt.date) -> Callable[[Device], float]:
    """A task titled ``title`` (fuzzily), not deleted, is due on ``day``."""
    def check(device: Device) -> float:
        return 1.0 if any(fuzzy_match(row["title"] or "", title) and not row["deleted"] and row["dueDate"]
                          and due_day(row) == day
                          for row in tasks_app.TASKS_TABLE.rows(device)) else 0.0
    return check


def task_done(title: str) -> Callable[[Device], float]:
    """The task titled ``title`` is marked completed (and not deleted)."""
    return lambda device: 1.0 if any(row["title"] == title and row["completed"] > 0 and not row["deleted"]
                                     for row in tasks_app.TASKS_TABLE.rows(device)) else 0.0


def clock_preferences(device: Device) -> dict[str, str]:
    """The Clock's SharedPreferences (``TimerDAO`` keys and the rest) as name → value; empty when it has none."""
    try:
        found = pull_read(device, CLOCK_PREFS)
    except RemoteFileNotFoundError:
        return {}
    try:
        root = ElementTree.fromstring(found.decode("utf-8", "replace"))
    except ElementTree.ParseError:
        return {}
    return {element.get("name", ""): element.get("value", "") for element in root}


def timer_started(length_ms: int) -> Callable[[Device], float]:
    """The Clock has a running timer of ``length_ms`` (``TimerDAO``: ``timer_setup_timet_<id>``,
    ``timer_state_<id>``)."""
    def check(device: Device) -> float:
        prefs = clock_preferences(device)
        return 1.0 if any(key.startswith("timer_setup_timet_") and value == str(length_ms)
                          and prefs.get(f"timer_state_{key.rsplit('_', 1)[1]}") == str(TIMER_RUNNING)
                          for key, value in prefs.items()) else 0.0
    return check


def setting_reached(task_name: str) -> Callable[[Device], float]:
    """The system task ``task_name``'s goal state holds (Wi-Fi off, brightness at its minimum, ...)."""
    return get_task(task_name)({}).is_successful


# ----- oracle steps ---------------------------------------------------------------------------------------------
def see_event(row: Mapping[str, Any]) -> list[OracleStep]:
    """Find the event in Simple Calendar Pro (its day, its item; opened when it has a location) and stay there: the
    next app is opened from the event's screen, as a person switches apps to copy from it."""
    return calendar.reveal_rows([row])


def text_number(number: str, message: str) -> list[OracleStep]:
    """Send ``message`` to ``number`` (``SimpleSmsSend``'s steps), then home."""
    return [*lh.part_steps("SimpleSmsSend", {"number": number, "message": message}), *back_to_home()]


def add_task(title: str, due: dt.date) -> list[OracleStep]:
    """Add a task ``title`` due on ``due`` with low priority (``TasksAddTask``'s steps), then home."""
    steps = lh.part_steps("TasksAddTask", {"title": title, "due": due.isoformat(), "importance": LOW})
    return [*steps, *back_to_home()]


def see_task(row: Mapping[str, Any]) -> list[OracleStep]:
    """Scroll "My Tasks" to the task ``row``, then home."""
    return [*tasks_app.reveal_rows([{**row, "_id": 0}]), *back_to_home()]


def complete_task(row: Mapping[str, Any]) -> list[OracleStep]:
    """Tick the task ``row`` in "My Tasks" (``TasksCompleteTask``'s steps), then home."""
    return [*lh.part_steps("TasksCompleteTask", {"title": row["title"], "rows": [row]}), *back_to_home()]


def start_timer(minutes: int) -> list[OracleStep]:
    """Type ``minutes`` on the Clock's timer keypad (``ClockTimerEntry``'s steps) and start it, then home."""
    entry = lh.part_steps("ClockTimerEntry", {"hours": minutes // 60, "minutes": minutes % 60, "seconds": 0})
    return [*entry, tap(Selector(resource_id=clock.FAB.resource_id, content_desc="Start")), *back_to_home()]


def read_stopwatch(shown: str) -> list[OracleStep]:
    """Open the Clock's Stopwatch tab and check it shows ``shown``, then home."""
    return [*lh.part_steps("ClockStopWatchPausedVerify", {}), expect(Selector(text=shown)), *back_to_home()]


def change_setting(task_name: str) -> list[OracleStep]:
    """The Settings steps of the system task ``task_name``, then home."""
    return [*lh.part_steps(task_name, {}), *back_to_home()]


# ----- the base -------------------------------------------------------------------------------------------------
class PeopleTask(TablesTask, SubgoalTask):
    """A long-horizon task over the people-and-time apps: it starts with every app it uses empty, then seeds
    what ``contacts``, ``events``, ``todo``, ``inbox``, ``stopwatch_ms`` and ``settings_from`` give."""

    app_packages = (sms.PACKAGE,)
    setup_clears_teardown = True  # the contacts and events teardown deletes, clear_state deletes too
    #: ``clear_extras`` starts no app: shell commands on files and providers (``pm clear`` of the contacts provider
    #: and the Clock, the texts deleted, Markor's folder emptied, the Tasks app stopped and its preferences removed)
    #: and a pull and push of the stopped calendar's preferences.
    extras_leave_apps_stopped = True
    #: The system tasks whose start state this task sets up (``SystemWifiTurnOff`` turns Wi-Fi on first).
    settings_from: ClassVar[tuple[str, ...]] = ()

    def contacts(self) -> dict[str, str]:
        """The contacts, name → number: ``params["people"]`` (``long_horizon.friends``), if any."""
        return {name: number for name, number in self.params.get("people", [])}

    def events(self) -> list[Row]:
        """The calendar's events."""
        return []

    def todo(self) -> list[Row]:
        """The Tasks app's tasks."""
        return []

    def inbox(self) -> list[tuple[str, str]]:
        """Texts received, ``(number, body)``, oldest first."""
        return []

    def stopwatch_ms(self) -> int | None:
        """The time the stopwatch is left paused at, if any."""
        return None

    def tables(self) -> list[tuple[ReplaceableTable, list[Row]]]:
        """The calendar's ``events`` and the Tasks app's ``todo``, of the apps the task uses."""
        tables = ((calendar.EVENTS, self.events()), (tasks_app.TASKS_TABLE, self.todo()))
        return [(table, rows) for table, rows in tables if table.package in self.app_packages]

    def clear_extras(self, device: Device) -> None:
        """No contacts; the texts, the Clock, Markor's folder and the Tasks app's view emptied in the same shell line;
        the calendar's preferences reset."""
        packages = set(self.app_packages)
        commands = lh.clearing(packages, device_files.clear_directory_command(device_files.MARKOR_DATA))
        if clock.PACKAGE in packages:
            commands.append(f"pm clear {shlex.quote(clock.PACKAGE)}")
        if tasks_app.PACKAGE in packages:
            commands.append(tasks_app.RESET_VIEW_STATE)
        clear_contacts(device, *commands)
        if calendar.PACKAGE in packages:
            calendar.reset_preferences(device)

    def seed_extras(self, device: Device) -> None:
        """The contacts, received texts, the paused stopwatch and the settings' start states."""
        lh.seed_people(device, self.contacts().items(), self.inbox())
        if self.stopwatch_ms() is not None:
            get_task("ClockStopWatchPausedVerifyReport")({"elapsed_ms": self.stopwatch_ms(), "lap_ms": []}
                                                         ).seed_state(device)
        for task_name in self.settings_from:
            get_task(task_name)({}).seed_state(device)

    def teardown(self, device: Device) -> None:
        """Stop the apps, go home, delete the contacts and events the task left."""
        super().teardown(device)
        clear_contacts(device)
        if calendar.PACKAGE in self.app_packages:
            calendar.EVENTS.clear(device)


class _WithEvent(PeopleTask):
    """The calendar holds ``params["events"]``, the target ``params["event"]`` among them."""

    def events(self) -> list[Row]:
        """``params["events"]``."""
        return [dict(row) for row in self.params["events"]]


class _WithTodo(PeopleTask):
    """The Tasks app holds ``params["todo"]``, the target ``params["task"]`` among them."""

    def todo(self) -> list[Row]:
        """``params["todo"]``."""
        return [dict(row) for row in self.params["todo"]]


def _event_params(rng: np.random.Generator, **fields: Any) -> dict[str, Any]:
    """A personal event with ``fields`` among noise: ``event``, ``events``, ``title``."""
    target = personal_event(rng, pick(rng, EVENT_TITLES), **fields)
    return {"event": target, "events": with_noise(rng, target), "title": target["title"]}


# ----- the tasks --------------------------------------------------------------------------------------------------
@register_task
class TextEventLocationThenAddTask(_WithEvent):
    """Calendar → SMS, Tasks: text a contact an event's place, then add a task for the event's day."""

    name = "TextEventLocationThenAddTask"
    app_packages = (calendar.PACKAGE, sms.PACKAGE, tasks_app.PACKAGE)
    complexity = 4.5
    template = ("Text {friend} the location of my '{title}' event in Simple Calendar Pro, then add a task titled "
                "'{title}' in the Tasks app due on the day of that event.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The event (with an address) among noise, the friend among 3–5 contacts."""
        return {**_event_params(rng, location=pick(rng, sms.ADDRESSES)), **lh.friends(rng, int(rng.integers(3, 6)))}

    def subgoals(self) -> Sequence[Subgoal]:
        """The place texted; the task due on the event's day."""
        event = self.params["event"]
        return [Subgoal(f"text {self.params['friend']} the location", lh.texted(self.params["friend_number"],
                                                                              event["location"])),
                Subgoal("add the task on the event's day", task_due(event["title"], event_day(event)))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event, text its location, add the task."""
        event = self.params["event"]
        return [*see_event(event), *lh.text_contact(self.params["friend"], event["location"]), *back_to_home(),
                *add_task(event["title"], event_day(event)), complete()]


@register_task
class SaveTextSenderThenReply(PeopleTask):
    """SMS → Contacts → SMS: save whoever texted about a topic as a contact, then reply to them by name."""

    name = "SaveTextSenderThenReply"
    app_packages = (sms.PACKAGE, contacts.PACKAGE, calendar.PACKAGE)
    complexity = 7.0
    template = ("Someone texted me about {topic}. Save their number as a new contact named {name}, reply to them "
                "in Simple SMS Messenger: {reply} Then add an event '{event_title}' to Simple Calendar Pro on "
                "{date} at {hour}h lasting 30 minutes.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The topic, 3–5 texts (one about it), the new contact's name and the reply."""
        topic = pick(rng, list(TOPICS))
        texts = topic_texts(rng, topic, int(rng.integers(3, 6)))
        shown = [list(text) for text in lh.shuffled(rng, texts)]
        name = gen.person_name(rng)
        return {"topic": topic, "texts": shown, "number": texts[0][0],
                "body": texts[0][1], "name": name, "reply": gen.message(rng, tuple(TOPICS.values())),
                **meeting(rng, f"Coffee with {name}", 30)}

    def inbox(self) -> list[tuple[str, str]]:
        """The texts."""
        return [(number, body) for number, body in self.params["texts"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """The contact saved; the reply sent; the event added."""
        return [Subgoal("save the sender as a contact", lh.contact_saved(self.params["name"], self.params["number"])),
                Subgoal("reply to the sender", lh.texted(self.params["number"], self.params["reply"])),
                Subgoal("add the coffee", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text, save the number, reply (by the contact's name now), add the event."""
        params = self.params
        return [*lh.read_text(params["number"], params["body"]), *back_to_home(),
                *lh.save_contact(params["name"], params["number"]), *back_to_home(),
                *lh.text_contact(params["name"], params["reply"]), *back_to_home(),
                *lh.add_event(params["event"]), *back_to_home(), complete()]


@register_task
class StopwatchTimeToCoachAndNote(PeopleTask):
    """Clock → SMS, Markor: text the paused stopwatch's time to a contact and keep it in a note."""

    name = "StopwatchTimeToCoachAndNote"
    app_packages = (clock.PACKAGE, sms.PACKAGE, markor.PACKAGE)
    complexity = 4.0
    template = ("The paused stopwatch in the Clock app shows my run's time. Text that time to my coach {friend}, "
                "then write it in a new Markor note named {note}.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A time between 10 and 60 minutes, the coach among 3–5 contacts, the note's name."""
        elapsed = int(rng.integers(60_000, 360_000)) * 10
        seconds = elapsed // 1000
        return {"elapsed_ms": elapsed, "shown": f"{seconds // 60}:{seconds % 60:02d}",
                "note": pick(rng, NOTE_NAMES), **lh.friends(rng, int(rng.integers(3, 6)))}

    def stopwatch_ms(self) -> int | None:
        """``params["elapsed_ms"]``."""
        return int(self.params["elapsed_ms"])

    def subgoals(self) -> Sequence[Subgoal]:
        """The time texted; the note written."""
        shown = self.params["shown"]
        return [Subgoal("text the time to the coach", lh.texted(self.params["friend_number"], shown)),
                Subgoal("write the time in a note", lh.note_holds(self.params["note"], shown))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the stopwatch, text the time, write the note."""
        shown = self.params["shown"]
        return [*read_stopwatch(shown), *lh.text_contact(self.params["friend"], shown), *back_to_home(),
                *lh.write_note(self.params["note"], [shown]), *back_to_home(), complete()]


@register_task
class EventLengthTimerThenWifiOff(_WithEvent):
    """Calendar → Clock, Settings: start a timer as long as an event, then turn Wi-Fi off."""

    name = "EventLengthTimerThenWifiOff"
    app_packages = (calendar.PACKAGE, clock.PACKAGE, system.SETTINGS)
    settings_from = ("SystemWifiTurnOff", "SystemBrightnessMin")
    complexity = 4.5
    template = ("I'm going into my '{title}' event now. Start a timer in the Clock app that lasts as long as the "
                "event (see Simple Calendar Pro), then turn wifi off and the brightness to the min value.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The event among noise."""
        return _event_params(rng)

    def subgoals(self) -> Sequence[Subgoal]:
        """The timer running; Wi-Fi off."""
        minutes = event_minutes(self.params["event"])
        return [Subgoal(f"start a {minutes}-minute timer", timer_started(minutes * 60_000)),
                Subgoal("turn wifi off", setting_reached("SystemWifiTurnOff")),
                Subgoal("dim the screen", setting_reached("SystemBrightnessMin"))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event's times, start the timer, turn Wi-Fi off."""
        event = self.params["event"]
        return [*see_event(event), *start_timer(event_minutes(event)), *change_setting("SystemWifiTurnOff"),
                *change_setting("SystemBrightnessMin"), complete()]


@register_task
class TaskDueDatesToCalendarEvents(_WithTodo):
    """Tasks → Calendar → Tasks: put two tasks on the calendar on their due dates, then tick both off."""

    name = "TaskDueDatesToCalendarEvents"
    app_packages = (tasks_app.PACKAGE, calendar.PACKAGE)
    complexity = 7.5
    template = ("Block time for my tasks '{title_1}' and '{title_2}' from the Tasks app: in Simple Calendar Pro, "
                "create an event with each task's title on its due date at {hour}h lasting 60 minutes. Then mark "
                "both tasks as completed.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two tasks (due from the 16th on) among noise tasks, and the events' hour."""
        first, second = (str(title) for title in rng.choice(tasks_app.TARGET_TITLES, size=2, replace=False))
        targets = [task_due_on(rng, first, TODAY.day + 1, 31), task_due_on(rng, second, TODAY.day + 1, 31)]
        hour = int(rng.integers(8, 18))
        events = [calendar.event_row(row["title"], dt.datetime.combine(due_day(row), dt.time(hour), dt.timezone.utc),
                                     duration_mins=60) for row in targets]
        todo = lh.among(rng, targets[1], todo_list(rng, targets[0]))
        return {"title_1": first, "title_2": second, "tasks": targets, "todo": todo, "hour": hour, "events": events}

    def events(self) -> list[Row]:
        """No events at the start (``params["events"]`` are the ones to create)."""
        return []

    def subgoals(self) -> Sequence[Subgoal]:
        """Each event on its task's due date; each task completed."""
        tasks, events = self.params["tasks"], self.params["events"]
        return [*(Subgoal(f"create the event {row['title']!r}", lh.event_added(row)) for row in events),
                *(Subgoal(f"complete {row['title']!r}", task_done(row["title"])) for row in tasks)]

    def oracle(self) -> Sequence[OracleStep]:
        """Find the due dates, create the events, tick the tasks."""
        tasks = self.params["tasks"]
        return [*see_task(tasks[0]), *see_task(tasks[1]), *(step for row in self.params["events"]
                                                            for step in [*lh.add_event(row), *back_to_home()]),
                *complete_task(tasks[0]), *complete_task(tasks[1]), complete()]


@register_task
class ForwardContactNumberThenRemind(PeopleTask):
    """Contacts → SMS, Tasks: text one contact another's number, then add a reminder task."""

    name = "ForwardContactNumberThenRemind"
    app_packages = (contacts.PACKAGE, sms.PACKAGE, tasks_app.PACKAGE)
    complexity = 4.0
    template = ("Text {friend} the phone number of {who} from my contacts, then add a task 'Call {who}' in the "
                "Tasks app due tomorrow.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The recipient and the person whose number is sent, among 4–6 contacts."""
        params = lh.friends(rng, int(rng.integers(4, 7)))
        who, number = params["people"][int(rng.integers(1, len(params["people"])))]
        return {**params, "who": who, "who_number": number}

    def subgoals(self) -> Sequence[Subgoal]:
        """The number texted; the reminder added."""
        return [Subgoal("text the number", lh.texted_number(self.params["friend_number"],
                                                          self.params["who_number"])),
                Subgoal("add the reminder", task_due(f"Call {self.params['who']}", TODAY + dt.timedelta(days=1)))]

    def oracle(self) -> Sequence[OracleStep]:
        """Look the number up, text it, add the task."""
        who, number = self.params["who"], self.params["who_number"]
        return [*lh.see_contact(who, number), *back_to_home(), *lh.text_contact(self.params["friend"], number),
                *back_to_home(), *add_task(f"Call {who}", TODAY + dt.timedelta(days=1)), complete()]


@register_task
class EventDescriptionToNoteThenText(_WithEvent):
    """Calendar → SMS, Markor: text a contact an event's place, then copy its description into a note."""

    name = "EventDescriptionToNoteThenText"
    app_packages = (calendar.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 4.0
    template = ("Text {friend} where my '{title}' event in Simple Calendar Pro takes place, then copy the event's "
                "description into a new Markor note named {note}.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The event (with an address) among noise, the note's name, the friend among 3–5 contacts."""
        return {**_event_params(rng, location=pick(rng, sms.ADDRESSES)), "note": pick(rng, NOTE_NAMES),
                **lh.friends(rng, int(rng.integers(3, 6)))}

    def subgoals(self) -> Sequence[Subgoal]:
        """The place texted; the description in the note."""
        event = self.params["event"]
        return [Subgoal("text the place", lh.texted(self.params["friend_number"], event["location"])),
                Subgoal("copy the description", lh.note_holds(self.params["note"], event["description"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event, text the place, write the note."""
        event = self.params["event"]
        return [*see_event(event), *lh.text_contact(self.params["friend"], event["location"]), *back_to_home(),
                *lh.write_note(self.params["note"], [event["description"]]), *back_to_home(), complete()]


@register_task
class TextedAddressToCalendarEvent(PeopleTask):
    """SMS → Calendar: answer a contact who texted an address, then make an event there."""

    name = "TextedAddressToCalendarEvent"
    app_packages = (sms.PACKAGE, calendar.PACKAGE)
    complexity = 5.5
    template = ("{friend} texted me an address. Reply to {friend}: {reply} Then, in Simple Calendar Pro, create an "
                "event '{event_title}' on {date} at {hour}h lasting 60 minutes with that address as its location.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The friend among 3–5 contacts, who all texted (the friend the address), the event and the reply."""
        params = lh.friends(rng, int(rng.integers(3, 6)))
        address = pick(rng, sms.ADDRESSES)
        others = [gen.message(rng) for _ in params["people"][1:]]
        texts = [[params["friend_number"], address], *([number, text] for (_, number), text
                                                       in zip(params["people"][1:], others))]
        new = meeting(rng, pick(rng, EVENT_TITLES), 60)
        new["event"]["location"] = address
        return {**params, **new, "address": address, "texts": lh.shuffled(rng, texts),
                "reply": gen.message(rng, (address, *others))}

    def inbox(self) -> list[tuple[str, str]]:
        """The texts."""
        return [(number, body) for number, body in self.params["texts"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """The reply; the event at the address."""
        return [Subgoal("reply", lh.texted(self.params["friend_number"], self.params["reply"])),
                Subgoal("create the event at the address", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the address, reply, create the event."""
        params = self.params
        return [*lh.read_text(params["friend"], params["address"]), *back_to_home(),
                *lh.text_contact(params["friend"], params["reply"]), *back_to_home(),
                *lh.add_event(params["event"]), *back_to_home(), complete()]


@register_task
class EventPhoneNumberToContact(_WithEvent):
    """Calendar → Contacts → SMS: save the number in an event's description as a contact, then text it."""

    name = "EventPhoneNumberToContact"
    app_packages = (calendar.PACKAGE, contacts.PACKAGE, sms.PACKAGE, tasks_app.PACKAGE)
    complexity = 5.5
    template = ("Save the number in the description of my '{title}' event (Simple Calendar Pro) as a contact named "
                "{name} and text it: {message} Then add a task 'Confirm {title}' due that day in Tasks.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The number, the event (at an address) whose description names it, the contact's name and the text."""
        number = gen.phone_number(rng)
        params = _event_params(rng, description=f"Confirm by phone: {number}", location=pick(rng, sms.ADDRESSES))
        return {**params, "number": number, "name": gen.person_name(rng), "message": gen.message(rng)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The contact; the text; the task on the event's day."""
        params = self.params
        return [Subgoal("save the number", lh.contact_saved(params["name"], params["number"])),
                Subgoal("text the number", lh.texted(params["number"], params["message"])),
                Subgoal("add the task", task_due(f"Confirm {params['title']}", event_day(params["event"])))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the description and day, save the contact, text it by name, add the task."""
        params = self.params
        return [*see_event(params["event"]), *lh.save_contact(params["name"], params["number"]), *back_to_home(),
                *lh.text_contact(params["name"], params["message"]), *back_to_home(),
                *add_task(f"Confirm {params['title']}", event_day(params["event"])), complete()]


@register_task
class TaskDueDateToTwoFriends(_WithTodo):
    """Tasks → SMS (twice) → Tasks: tell two contacts when a task is due, then tick it off."""

    name = "TaskDueDateToTwoFriends"
    app_packages = (tasks_app.PACKAGE, sms.PACKAGE)
    complexity = 4.5
    template = ("Text {friend} and {friend_2} the due date of my task '{task_title}' in the Tasks app, then mark "
                "that task as completed.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The task (due a week or more ahead, so the list shows its date) among noise tasks; two friends lh.among
        4–6 contacts."""
        target = task_due_on(rng, pick(rng, tasks_app.TARGET_TITLES), TODAY.day + 7, 31)
        params = lh.friends(rng, int(rng.integers(4, 7)))
        day = due_day(target)
        return {**params, "friend_2": params["people"][1][0], "friend_2_number": params["people"][1][1],
                "task_title": target["title"], "task": target, "todo": todo_list(rng, target),
                "due_text": f"{day:%b} {day.day}", "due_forms": [f"{day:%b} {day.day}", f"{day:%B} {day.day}",
                                                                 day.isoformat(), f"{day.month}/{day.day}"]}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each friend told the date (as the list shows it, spelled out or in ISO form); the task completed."""
        forms = self.params["due_forms"]
        return [Subgoal("text the first friend", lh.texted_any(self.params["friend_number"], *forms)),
                Subgoal("text the second friend", lh.texted_any(self.params["friend_2_number"], *forms)),
                Subgoal("complete the task", task_done(self.params["task_title"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the due date, text both lh.friends, tick the task."""
        due = self.params["due_text"]
        return [*see_task(self.params["task"]), *lh.text_contact(self.params["friend"], due), *back_to_home(),
                *lh.text_contact(self.params["friend_2"], due), *back_to_home(), *complete_task(self.params["task"]),
                complete()]


@register_task
class TextedCookingTimeToTimer(PeopleTask):
    """SMS → Clock → SMS, Tasks: start a timer for the minutes a contact lh.texted, answer, and note a to-do."""

    name = "TextedCookingTimeToTimer"
    app_packages = (sms.PACKAGE, clock.PACKAGE, tasks_app.PACKAGE)
    complexity = 5.5
    template = ("{friend} texted me how long the {dish} still needs in the oven. Start a timer for that long in the "
                "Clock app, reply to {friend}: {reply} Then add a task 'Take out the {dish}' in the Tasks app due "
                "today.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The friend among 3–5 contacts, their text (5–55 minutes), others' texts, the reply."""
        params = lh.friends(rng, int(rng.integers(3, 6)))
        dish, minutes = pick(rng, DISHES), int(rng.integers(5, 56))
        body = f"The {dish} needs {minutes} more minutes in the oven."
        texts = [[params["friend_number"], body], *([number, gen.message(rng)] for _, number in params["people"][1:])]
        return {**params, "dish": dish, "minutes": minutes, "body": body,
                "texts": lh.shuffled(rng, texts), "reply": gen.message(rng)}

    def inbox(self) -> list[tuple[str, str]]:
        """The texts."""
        return [(number, body) for number, body in self.params["texts"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """The timer; the reply; the task."""
        return [Subgoal("start the timer", timer_started(self.params["minutes"] * 60_000)),
                Subgoal("reply", lh.texted(self.params["friend_number"], self.params["reply"])),
                Subgoal("add the task", task_due(f"Take out the {self.params['dish']}", TODAY))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the text, start the timer, reply, add the task."""
        params = self.params
        return [*lh.read_text(params["friend"], params["body"]), *back_to_home(), *start_timer(params["minutes"]),
                *lh.text_contact(params["friend"], params["reply"]), *back_to_home(),
                *add_task(f"Take out the {params['dish']}", TODAY), complete()]


@register_task
class ContactNumberToCallEvent(PeopleTask):
    """SMS, Contacts → Calendar: a text to a contact, then an event to call them with their number in it."""

    name = "ContactNumberToCallEvent"
    app_packages = (contacts.PACKAGE, calendar.PACKAGE, sms.PACKAGE)
    complexity = 5.0
    template = ("Text {friend}: {message} Then, in Simple Calendar Pro, create an event '{event_title}' on {date} "
                "at {hour}h lasting 30 minutes whose description is {friend}'s phone number from my contacts.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The friend among 4–6 contacts, the event and the text."""
        params = lh.friends(rng, int(rng.integers(4, 7)))
        new = meeting(rng, f"Call {params['friend']}", 30)
        new["event"]["description"] = params["friend_number"]
        return {**params, **new, "message": gen.message(rng)}

    def subgoals(self) -> Sequence[Subgoal]:
        """The text; the event with the number."""
        return [Subgoal("text the friend", lh.texted(self.params["friend_number"], self.params["message"])),
                Subgoal("create the call event", lh.event_added(self.params["event"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Text the friend, look the number up, create the event."""
        params = self.params
        return [*lh.text_contact(params["friend"], params["message"]), *back_to_home(),
                *lh.see_contact(params["friend"], params["friend_number"]), *back_to_home(),
                *lh.add_event(params["event"]), *back_to_home(),
                complete()]


@register_task
class CinemaRoutine(_WithEvent):
    """Calendar → SMS, Settings: text a contact where an event is, then Bluetooth off and the screen dimmed."""

    name = "CinemaRoutine"
    app_packages = (calendar.PACKAGE, sms.PACKAGE, system.SETTINGS)
    settings_from = ("SystemBluetoothTurnOff", "SystemBrightnessMin")
    complexity = 5.5
    template = ("I'm off to my '{title}' event. Text {friend} where it takes place (see Simple Calendar Pro), then "
                "turn bluetooth off and the brightness to the min value.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The event (with an address) among noise; the friend among 3–5 contacts."""
        return {**_event_params(rng, location=pick(rng, sms.ADDRESSES)), **lh.friends(rng, int(rng.integers(3, 6)))}

    def subgoals(self) -> Sequence[Subgoal]:
        """The place texted; Bluetooth off; brightness at its minimum."""
        return [Subgoal("text the place", lh.texted(self.params["friend_number"], self.params["event"]["location"])),
                Subgoal("turn bluetooth off", setting_reached("SystemBluetoothTurnOff")),
                Subgoal("dim the screen", setting_reached("SystemBrightnessMin"))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event, text its place, change both settings."""
        event = self.params["event"]
        return [*see_event(event), *lh.text_contact(self.params["friend"], event["location"]), *back_to_home(),
                *change_setting("SystemBluetoothTurnOff"), *change_setting("SystemBrightnessMin"), complete()]


@register_task
class TextSenderJoinsEvent(_WithEvent):
    """SMS → Contacts, Calendar → SMS: save whoever texted about a topic, then text them an event's place."""

    name = "TextSenderJoinsEvent"
    app_packages = (sms.PACKAGE, contacts.PACKAGE, calendar.PACKAGE)
    complexity = 4.0
    template = ("Whoever texted me about {topic} is coming to my '{title}' event. Save their number as a new contact "
                "named {name}, then text them the event's location from Simple Calendar Pro.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The topic, 3–5 texts (one about it), the new contact's name, the event (with an address) among noise."""
        topic = pick(rng, list(TOPICS))
        texts = topic_texts(rng, topic, int(rng.integers(3, 6)))
        return {"topic": topic, "texts": [list(text) for text in lh.shuffled(rng, texts)],
                "number": texts[0][0], "body": texts[0][1], "name": gen.person_name(rng),
                **_event_params(rng, location=pick(rng, sms.ADDRESSES))}

    def inbox(self) -> list[tuple[str, str]]:
        """The texts."""
        return [(number, body) for number, body in self.params["texts"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """The contact; the place texted."""
        return [Subgoal("save the sender", lh.contact_saved(self.params["name"], self.params["number"])),
                Subgoal("text the place", lh.texted(self.params["number"], self.params["event"]["location"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the texts, save the sender, see the event, text its place."""
        params = self.params
        return [*lh.read_text(params["number"], params["body"]), *back_to_home(),
                *lh.save_contact(params["name"], params["number"]), *back_to_home(), *see_event(params["event"]),
                *lh.text_contact(params["name"], params["event"]["location"]), *back_to_home(), complete()]


@register_task
class InviteThreeFriendsToEvent(_WithEvent):
    """Calendar → SMS (three times) → Tasks: text three contacts an event's place, then add a to-do for its day."""

    name = "InviteThreeFriendsToEvent"
    app_packages = (calendar.PACKAGE, sms.PACKAGE, tasks_app.PACKAGE)
    complexity = 9.0
    template = ("Text the location of my '{title}' event in Simple Calendar Pro to each of these lh.friends, one "
                "message each: {friend}, {friend_2}, {friend_3}. Then add a task 'Book a table' in the Tasks app due "
                "on the day of the event.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The event (with an address) among noise; three friends among 5–7 contacts."""
        params = {**_event_params(rng, location=pick(rng, sms.ADDRESSES)), **lh.friends(rng, int(rng.integers(5, 8)))}
        for n in (2, 3):
            params[f"friend_{n}"], params[f"friend_{n}_number"] = params["people"][n - 1]
        return params

    def subgoals(self) -> Sequence[Subgoal]:
        """Each friend texted the place; the task on the event's day."""
        event, params = self.params["event"], self.params
        return [*(Subgoal(f"text {params[key]}", lh.texted(params[f"{key}_number"], event["location"]))
                  for key in ("friend", "friend_2", "friend_3")),
                Subgoal("add the task", task_due("Book a table", event_day(event)))]

    def oracle(self) -> Sequence[OracleStep]:
        """See the event, text the three lh.friends, add the task."""
        event, params = self.params["event"], self.params
        texts = [step for key in ("friend", "friend_2", "friend_3")
                 for step in [*lh.text_contact(params[key], event["location"]), *back_to_home()]]
        return [*see_event(event), *texts, *add_task("Book a table", event_day(event)), complete()]
