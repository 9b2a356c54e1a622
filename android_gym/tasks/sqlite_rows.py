"""Tasks over one table of an app's SQLite database: seeding rows, and AndroidWorld's row-integrity checks
(``sqlite_validators.validate_rows_addition_integrity`` / ``validate_rows_removal_integrity``).

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


class SqliteRowsTask(Task):
    """A task on one app table: it declares the ``table`` and its ``initial_rows()``; ``clear_state`` empties the
    table, ``seed_state`` inserts the rows and remembers the table as seeded in ``self.before`` for the success
    check. ``reset_state`` (a reset's set-up) does both with one stop of the app and one write of the table
    (``ReplaceableTable.replace``), and ``hand_over`` (a reset's teardown) leaves the table for it.

    Subclasses set ``table`` (an ``AppTable`` or another ``ReplaceableTable``) and implement ``initial_rows``
    (usually rows kept in ``params``, so pinned parameters pin the whole initial state), ``is_successful`` and
    ``oracle``. What else they clear or write goes in ``clear_extras`` and ``seed_extras``, not in the phases.
    """

    table: ClassVar[ReplaceableTable]
    #: Whether ``teardown`` also empties the table (AndroidWorld's ``SQLiteApp.tear_down``).
    empties_at_teardown: ClassVar[bool] = False
    #: Whether seeding reads the table back into ``self.before`` (a check that compares rows needs it).
    reads_baseline: ClassVar[bool] = True
    #: A reset's ``hand_over`` leaves all to the next episode's set-up: ``prepare`` stops the apps and goes home, and
    #: ``reset_state`` empties the table in the write that seeds it; nothing reads the table before (a provisioned
    #: device's snapshot restore replaces it, which the write then finds).
    setup_clears_teardown = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A subclass's own ``clear_state`` or ``seed_state`` would be skipped by ``reset_state``: refused."""
        super().__init_subclass__(**kwargs)
        overridden = sorted({"clear_state", "seed_state"} & vars(cls).keys())
        if overridden:
            raise TypeError(f"{cls.__name__} overrides {' and '.join(overridden)}: a reset's set-up "
                            "(reset_state) does not call them; put what it clears or writes besides its table in "
                            "clear_extras or seed_extras")

    def initial_rows(self) -> list[Row]:
        """The rows the task starts with (targets and noise)."""
        return []

    def clear_extras(self, device: Device) -> None:
        """What the task clears besides its table, before the table is emptied (default: nothing)."""

    def seed_extras(self, device: Device) -> None:
        """What the task writes besides its rows, after them (default: nothing)."""

    def clear_state(self, device: Device) -> None:
        """``clear_extras``, then empty the table."""
        self.clear_extras(device)
        self.table.clear(device)

    def seed_state(self, device: Device) -> None:
        """Insert the initial rows, read the table back as the baseline, then ``seed_extras``."""
        self.table.insert(device, self.initial_rows())
        self._seeded(device)

    def reset_state(self, device: Device) -> None:
        """``clear_state`` and ``seed_state`` with the table's clear and insert as one ``replace``; it does not stop
        the table's app again when ``prepare`` just did and nothing ran since (one of the task's apps, and no
        ``clear_extras`` of the task's own)."""
        self.clear_extras(device)
        stopped = self.table.package in self.app_packages and type(self).clear_extras is SqliteRowsTask.clear_extras
        self.table.replace(device, self.initial_rows(), stopped=stopped)
        self._seeded(device)

    def _seeded(self, device: Device) -> None:
        if self.reads_baseline:
            self.before = self.table.rows(device)
        self.seed_extras(device)

    def teardown(self, device: Device) -> None:
        """Stop the task's apps and go home, then empty the table if ``empties_at_teardown``."""
        super().teardown(device)
        if self.empties_at_teardown:
            self.table.clear(device)
