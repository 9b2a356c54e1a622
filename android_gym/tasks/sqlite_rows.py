"""Tasks over apps' SQLite tables: seeding rows (``TablesTask``; ``SqliteRowsTask`` for one table), and AndroidWorld's
row-integrity checks (``sqlite_validators.validate_rows_addition_integrity`` / ``validate_rows_removal_integrity``).

Every check compares the table as the task left it (``before``, read after seeding) with the table now: rows
the agent should add must appear exactly once each, rows it should delete must be gone, and every other row
must be untouched. Reads and writes go through ``android_gym.device.state`` (pull, query locally, push back),
so the same task runs on the simulator and on a real phone.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from android_gym.device import state
from android_gym.device.base import Device
from android_gym.tasks.base import Task
from android_gym.tasks.validators import one_to_one

Row = dict[str, Any]
#: Whether an added row (first argument) is the expected one (second argument).
RowMatch = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]


class RowTable(Protocol):
    """Where a task's rows live: an ``AppTable``, or an app's rows spread over several tables (a note and the
    notebook it needs) read and written as one."""

    @property
    def package(self) -> str:
        """The app that owns the rows."""
        ...

    def rows(self, device: Device) -> list[Row]:
        """Every row, in a stable order."""
        ...

    def clear(self, device: Device) -> None:
        """Stop the app and delete every row."""
        ...

    def insert(self, device: Device, rows: Iterable[Mapping[str, Any]]) -> None:
        """Stop the app and insert ``rows``."""
        ...


class ReplaceableTable(RowTable, Protocol):
    """A ``RowTable`` that can also swap all its rows for others in one write (a declarative task's reset)."""

    def replace(self, device: Device, rows: Iterable[Mapping[str, Any]], stopped: bool = False) -> None:
        """``clear`` then ``insert`` of ``rows``, with one stop of the app (none if ``stopped``: the caller stopped it
        and nothing ran on the device since) and one write to the device that leaves its database as the two
        would."""
        ...


@dataclass(frozen=True)
class AppTable:
    """One table of an app's database: where it lives and which column identifies a row."""

    package: str
    db_path: str
    table: str
    id_column: str

    def rows(self, device: Device) -> list[Row]:
        """Every row, in id order."""
        return state.sqlite_query(device, self.db_path,
                                  f'SELECT * FROM "{self.table}" ORDER BY "{self.id_column}"')

    def clear(self, device: Device) -> None:
        """Stop the app and delete every row (as AndroidWorld's ``delete_all_rows_from_table``)."""
        clear_tables(device, [self])

    def insert(self, device: Device, rows: Iterable[Mapping[str, Any]]) -> None:
        """Stop the app and insert ``rows`` (column → value; the id column may be left out) in one round trip."""
        statements = self._inserts(rows)
        if statements:
            self._stop_app(device)
            state.sqlite_execute_many(device, self.db_path, statements)

    def replace(self, device: Device, rows: Iterable[Mapping[str, Any]], stopped: bool = False) -> None:
        """Stop the app (unless ``stopped``), then delete every row and insert ``rows``: two transactions, one write
        to the device."""
        if not stopped:
            self._stop_app(device)
        state.sqlite_execute_transactions(device, self.db_path, [[self.delete_statement()], self._inserts(rows)])

    def delete_statement(self) -> tuple[str, tuple[()]]:
        """The statement that deletes every row."""
        return f'DELETE FROM "{self.table}"', ()

    def _inserts(self, rows: Iterable[Mapping[str, Any]]) -> list[tuple[str, tuple[Any, ...]]]:
        """An ``INSERT`` statement per row."""
        sql: dict[tuple[str, ...], str] = {}  # by the rows' columns (most rows share theirs)
        statements = []
        for row in rows:
            columns = tuple(row)
            if columns not in sql:
                names = ", ".join(f'"{column}"' for column in columns)
                sql[columns] = f'INSERT INTO "{self.table}" ({names}) VALUES ({", ".join("?" * len(columns))})'
            statements.append((sql[columns], tuple(row.values())))
        return statements

    def _stop_app(self, device: Device) -> None:
        Task.run(device, f"am force-stop {shlex.quote(self.package)}")


def clear_tables(device: Device, tables: Sequence[AppTable]) -> None:
    """``clear`` of each of ``tables``: their apps stopped in one round trip, then every row of each deleted."""
    if tables:
        packages = dict.fromkeys(table.package for table in tables)
        Task.run(device, " && ".join(f"am force-stop {shlex.quote(package)}" for package in packages))
    for table in tables:
        state.sqlite_execute_many(device, table.db_path, [table.delete_statement()])


def rows_added_exactly(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                       expected: Sequence[Mapping[str, Any]], id_column: str, matches: RowMatch) -> bool:
    """Every row of ``before`` is still there unchanged, and the new rows pair one to one with ``expected``."""
    old = {row[id_column]: dict(row) for row in before}
    now = {row[id_column]: dict(row) for row in after}
    if any(now.get(key) != row for key, row in old.items()):
        return False
    return one_to_one([row for key, row in now.items() if key not in old], expected, matches)


def rows_removed_exactly(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                         removed_ids: Iterable[Any], id_column: str) -> bool:
    """The rows with ``removed_ids`` are gone, nothing was added, and every other row is unchanged."""
    removed = set(removed_ids)
    kept = [row for row in before if row[id_column] not in removed]
    if len(kept) != len(after):  # the common answer while the rows are not yet deleted, told without copying them
        return False
    return [dict(row) for row in kept] == [dict(row) for row in sorted(after, key=lambda row: row[id_column])]


class TablesTask(Task):
    """A task whose set-up empties and seeds app tables: it declares ``tables()``, each with the rows it starts with;
    ``clear_state`` runs ``clear_extras`` and empties the tables, ``seed_state`` inserts the rows and runs
    ``seed_extras``. ``reset_state`` (a reset's set-up) does both with one write per table
    (``ReplaceableTable.replace``), which stops the table's app only if ``prepare`` did not just stop it (it is not
    one of the task's apps, or the task's own ``clear_extras`` ran since), and ``hand_over`` (a reset's teardown)
    leaves the tables for it.

    Subclasses implement ``tables`` and put what else they clear or write in ``clear_extras`` and ``seed_extras``, not
    in the phases.
    """

    #: A reset's ``hand_over`` leaves all to the next episode's set-up: ``prepare`` stops the apps and goes home, and
    #: ``reset_state`` empties each table in the write that seeds it; nothing reads the tables before (a provisioned
    #: device's snapshot restore replaces them, which the writes then find).
    setup_clears_teardown = True
    #: True when ``clear_extras`` starts no app: it changes only the files of stopped apps (an app's preferences
    #: pulled and pushed back, or removed after an ``am force-stop``), so the task's apps that ``prepare`` stopped are
    #: stopped still when ``reset_state`` writes their tables, which need not stop them again.
    extras_leave_apps_stopped: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A subclass's own ``clear_state`` or ``seed_state`` would be skipped by ``reset_state``: refused."""
        super().__init_subclass__(**kwargs)
        overridden = sorted({"clear_state", "seed_state"} & vars(cls).keys())
        if overridden:
            raise TypeError(f"{cls.__name__} overrides {' and '.join(overridden)}: a reset's set-up "
                            "(reset_state) does not call them; put what it clears or writes besides its tables in "
                            "clear_extras or seed_extras")

    def tables(self) -> list[tuple[ReplaceableTable, list[Row]]]:
        """The app tables the task sets up, each with the rows it starts with (default: none)."""
        return []

    def clear_extras(self, device: Device) -> None:
        """What the task clears besides its tables, before they are emptied (default: nothing)."""

    def seed_extras(self, device: Device) -> None:
        """What the task writes besides its rows, after them (default: nothing)."""

    def clear_state(self, device: Device) -> None:
        """``clear_extras``, then every table emptied."""
        self.clear_extras(device)
        for table, _ in self.tables():
            table.clear(device)

    def seed_state(self, device: Device) -> None:
        """Every table's rows inserted, then ``seed_extras`` (``_seeded``)."""
        for table, rows in self.tables():
            table.insert(device, rows)
        self._seeded(device)

    def reset_state(self, device: Device) -> None:
        """``clear_state`` and ``seed_state`` with each table's clear and insert as one ``replace``; it does not stop
        a table's app again when ``prepare`` just did and no app started since (one of the task's apps, and no
        ``clear_extras`` of the task's own, or one that leaves them stopped: ``extras_leave_apps_stopped``)."""
        self.clear_extras(device)
        nothing_ran = self.extras_leave_apps_stopped or type(self).clear_extras is TablesTask.clear_extras
        for table, rows in self.tables():
            table.replace(device, rows, stopped=nothing_ran and table.package in self.app_packages)
        self._seeded(device)

    def _seeded(self, device: Device) -> None:
        """What follows the rows' write in both set-ups: ``seed_extras``."""
        self.seed_extras(device)


class SqliteRowsTask(TablesTask):
    """A task on one app table (``TablesTask`` with one): it declares the ``table`` and its ``initial_rows()``, and
    remembers the table as seeded in ``self.before`` for the success check.

    Subclasses set ``table`` (an ``AppTable`` or another ``ReplaceableTable``) and implement ``initial_rows``
    (usually rows kept in ``params``, so pinned parameters pin the whole initial state), ``is_successful`` and
    ``oracle``.
    """

    table: ClassVar[ReplaceableTable]
    #: Whether ``teardown`` also empties the table (AndroidWorld's ``SQLiteApp.tear_down``).
    empties_at_teardown: ClassVar[bool] = False
    #: Whether seeding reads the table back into ``self.before`` (a check that compares rows needs it).
    reads_baseline: ClassVar[bool] = True

    def initial_rows(self) -> list[Row]:
        """The rows the task starts with (targets and noise)."""
        return []

    def tables(self) -> list[tuple[ReplaceableTable, list[Row]]]:
        """``table`` with ``initial_rows()``."""
        return [(self.table, self.initial_rows())]

    def _seeded(self, device: Device) -> None:
        """The table read back as the baseline (if ``reads_baseline``), then ``seed_extras``."""
        if self.reads_baseline:
            self.before = self.table.rows(device)
        super()._seeded(device)

    def teardown(self, device: Device) -> None:
        """Stop the task's apps and go home, then empty the table if ``empties_at_teardown``."""
        super().teardown(device)
        if self.empties_at_teardown:
            self.table.clear(device)
