"""Declarative tasks: ``task_specs/*.textproto`` (messages of ``task_spec.proto``) turned into registered tasks.

A spec names the app rows a question is about (``state``), the random rows around them (``noise``: redrawn
while they satisfy every exclusion condition, so they never change the answer) and how the agent's ``answer``
is checked (``expectations``). Each app whose rows specs can hold is described once by a ``RecordKind``
(its table, field types, how a record becomes a row, random noise records, and the oracle steps that bring rows
on screen); a spec itself needs no Python. A malformed spec fails at load with file, line and reason.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from google.protobuf import text_format

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.errors import SpecError
from android_gym.sim import keycodes
from android_gym.task_specs import task_spec_pb2 as pb
from android_gym.tasks.draws import exact_draws, sample_indices
from android_gym.tasks.oracle import OracleStep, act
from android_gym.tasks.registry import register_task
from android_gym.tasks.spec_values import (
    answer_matches,
    format_answer,
    format_date,
    parse_bool,
    parse_date,
    parse_duration,
    parse_number,
    parse_time,
    reword_date,
    satisfies,
)
from android_gym.tasks.sqlite_rows import ReplaceableTable, Row, SqliteRowsTask

#: Field types a record kind declares: how a field's text is read and compared.
FIELD_PARSERS: dict[str, Callable[[str], Any]] = {
    "text": str,
    "number": parse_number,
    "int": int,
    "bool": parse_bool,
    "date": parse_date,
    "time": parse_time,
    "duration": parse_duration,
}
#: A noise record is redrawn at most this often before the spec is declared unsatisfiable.
_NOISE_TRIES = 200
_PLACEHOLDER = re.compile(r"\{([^{}\[\]]+)(?:\[(\d+)\])?\}")


@dataclass(frozen=True)
class RecordKind:
    """What specs need to know about one app's rows.

    ``state_field`` is the ``State`` field holding them (``events``); ``fields`` maps each record field to a
    ``FIELD_PARSERS`` type; ``to_row`` turns a typed record (missing fields ``None``) into the table's row and
    ``from_row`` reads a row back as one; ``random_row`` draws a noise row (the app's own AndroidWorld generator,
    calling only ``integers``, ``random`` and ``bytes``: it draws from ``draws.exact_draws``); ``reveal`` gives the
    oracle steps that bring rows on screen; ``noise_count`` is the default number of noise rows; ``reset_app``
    (optional) resets what else the app keeps that changes what it shows (view preferences), before the table is
    emptied, in the stopped app's files only: it starts no app (``TablesTask.extras_leave_apps_stopped``). With
    ``noise_sees_state``, ``random_row`` also takes the spec's typed records (AndroidWorld's Joplin noise favours the
    notebooks they are in). ``table`` may be any ``ReplaceableTable``.
    ``number_types`` (optional) are numeric field types of the app's own, by name: text → the number as the app
    stores it (OpenTracks keeps distances rounded to what it shows in miles); a condition's value is read the same
    way. ``detail_fields`` are fields the app's list does not show; when an expectation reads one, the oracle uses
    ``reveal_details`` (steps that open each row) instead of ``reveal``.
    """

    state_field: str
    table: ReplaceableTable
    fields: Mapping[str, str]
    to_row: Callable[[Mapping[str, Any]], Row]
    from_row: Callable[[Row], dict[str, Any]]
    random_row: Callable[..., Row]
    reveal: Callable[[Sequence[Row]], list[OracleStep]]
    noise_count: int
    reset_app: Callable[[Device], None] | None = None
    noise_sees_state: bool = False
    number_types: Mapping[str, Callable[[str], float]] = dataclasses.field(default_factory=dict)
    detail_fields: frozenset[str] = frozenset()
    reveal_details: Callable[[Sequence[Row]], list[OracleStep]] | None = None

    def parser(self, kind: str) -> Callable[[str], Any]:
        """How a field of type ``kind`` (``FIELD_PARSERS``' or one of ``number_types``) is read."""
        return self.number_types[kind] if kind in self.number_types else FIELD_PARSERS[kind]

    def is_number(self, field_name: str) -> bool:
        """Whether ``field_name`` holds numbers (so answers can sum it)."""
        kind = self.fields[field_name]
        return kind in ("number", "int") or kind in self.number_types

    def typed(self, record: Mapping[str, str]) -> dict[str, Any]:
        """Every field read as its type; an empty or missing field is ``None``."""
        return {name: self.parser(kind)(record[name]) if record.get(name) else None
                for name, kind in self.fields.items()}

    def condition_value(self, field: str, text: str) -> Any:
        """A condition's value read as ``field``'s type ("0" on a date field: no date)."""
        if self.fields[field] == "date" and text.strip() == "0":
            return None
        return self.parser(self.fields[field])(text)


_KINDS: dict[str, RecordKind] = {}


def register_record_kind(kind: RecordKind) -> RecordKind:
    """Make an app's rows usable in specs (under ``State.<state_field>``)."""
    _KINDS[kind.state_field] = kind
    return kind


#: How deep a parameter's value may hold placeholders of other parameters (a recipe body with its quantity).
_NESTING = 3


def _satisfies_all(record: Mapping[str, Any], conditions: Sequence[tuple[str, str, Any]]) -> bool:
    """Whether ``record`` satisfies every ``(field, operator name, value)`` condition (a loop, not ``all`` of a
    generator: a noise row is checked against the conditions, and a task draws up to a hundred)."""
    for field, op, value in conditions:
        if not satisfies(record[field], op, value):
            return False
    return True


def _fill(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with its placeholders filled, then those that the values brought in (a drawn body that says
    "- {ingredient_quantity} {ingredient}"), up to ``_NESTING`` levels; text that is no template stays as it is."""
    text = template.format(**values)
    for _ in range(_NESTING):
        if "{" not in text:
            break
        try:
            nested = text.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError):
            break
        if nested == text:
            break
        text = nested
    return text


def _records(spec: pb.TaskSpec, kind: RecordKind) -> list[dict[str, str]]:
    """The state's records as field → template text."""
    return [{field.name: value for field, value in message.ListFields()}
            for message in getattr(spec.state, kind.state_field)]


class SpecTask(SqliteRowsTask):
    """A task defined by a ``TaskSpec``: its parameters are drawn from the spec, its app starts with the spec's
    rows plus noise, and it succeeds when the agent's answer matches the expectation. Built by ``build_task``.
    """

    spec: ClassVar[pb.TaskSpec]
    kind: ClassVar[RecordKind]
    scored_at_end = True
    reads_baseline = False  # the answer is checked, not the table
    empties_at_teardown = True  # as AndroidWorld's IR tasks do
    extras_leave_apps_stopped = True  # ``clear_extras`` runs the kind's ``reset_app``, which starts no app

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Each parameter's value (a list for ``count`` > 1), the wording of reworded dates and a noise seed."""
        today = cls.device_time.date()
        params: dict[str, Any] = {}
        wording: dict[str, str] = {}
        with exact_draws(rng) as draws:  # (a task's picks cost a tenth of ``Generator.choice``'s)
            for param, pool in zip(cls.spec.params, cls._pools()):
                picks = [pool[i] for i in sample_indices(draws, len(pool), max(param.count, 1))]
                params[param.name] = picks[0] if param.count <= 1 else picks
                if param.reword_date:
                    wording[param.name] = reword_date(picks[0], today, draws)
            return {**params, "wording": wording, "noise_seed": int(draws.integers(2**31))}

    @classmethod
    @functools.cache
    def _pools(cls) -> tuple[tuple[str, ...], ...]:
        """Each parameter's values to draw from (``_pool``), made once per task: the spec and the device time are
        the class's."""
        today = cls.device_time.date()
        return tuple(tuple(_pool(param, today)) for param in cls.spec.params)

    @classmethod
    @functools.cache
    def _spec_records(cls) -> tuple[dict[str, str], ...]:
        """The spec's records as written (``_records``), read once per task."""
        return tuple(_records(cls.spec, cls.kind))

    @property
    def goal(self) -> str:
        """The prompt with the parameters filled in, dates reworded where the spec says so."""
        return _fill(self.spec.prompt, {**self.params, **self.params.get("wording", {})})

    def relevant_records(self) -> list[dict[str, Any]]:
        """The spec's records with the parameters filled in, typed."""
        return [self.kind.typed({name: _fill(text, self.params) for name, text in record.items()})
                for record in self._spec_records()]

    def noise_rows(self) -> list[Row]:
        """Random rows, none whose record satisfies every exclusion condition (drawn from the noise seed)."""
        rng = np.random.default_rng(self.params["noise_seed"])
        conditions = [(c.field, pb.Condition.Operator.Name(c.op), self.kind.condition_value(
            c.field, _fill(c.value, self.params))) for c in self.spec.noise.exclude]
        count = self.spec.noise.count or self.kind.noise_count
        context = (self.relevant_records(),) if self.kind.noise_sees_state else ()
        rows = []
        random_row, from_row = self.kind.random_row, self.kind.from_row
        with exact_draws(rng) as draws:
            for _ in range(count):
                for _ in range(_NOISE_TRIES):
                    row = random_row(draws, *context)
                    if not conditions or not _satisfies_all(from_row(row), conditions):
                        rows.append(row)
                        break
                else:
                    raise SpecError(f"{self.name}: no noise record escapes the exclusion conditions in "
                                    f"{_NOISE_TRIES} draws; loosen them or set noise.count to 0")
        return rows

    def initial_rows(self) -> list[Row]:
        """The relevant rows and the noise rows, shuffled together (row ids give nothing away)."""
        rows = [self.kind.to_row(record) for record in self.relevant_records()] + self.noise_rows()
        order = np.random.default_rng(self.params["noise_seed"] + 1).permutation(len(rows))
        return [rows[int(i)] for i in order]

    def expected(self) -> tuple[list[Any], str]:
        """The expected answer items and how they are matched (DATE + TIME expectations read as DATETIME)."""
        records = self.relevant_records()
        parts = [(_expected_items(e, records, self.params), pb.Expectation.MatchType.Name(e.match))
                 for e in self.spec.expectations]
        if len(parts) == 1:
            return parts[0]
        by_match = dict((match, items) for items, match in parts)
        return [dt.datetime.combine(d, t) for d, t in zip(by_match["DATE"], by_match["TIME"])], "DATETIME"

    def is_successful(self, device: Device) -> float:
        """1.0 when the agent's answer matches the expected one."""
        if self.answer is None:
            return 0.0
        items, match = self.expected()
        tolerance = max((e.tolerance for e in self.spec.expectations), default=0.0)
        return 1.0 if answer_matches(self.answer, items, match, tolerance) else 0.0

    def clear_extras(self, device: Device) -> None:
        """Reset the app's view state (if its kind says how)."""
        if self.kind.reset_app is not None:
            self.kind.reset_app(device)

    def teardown(self, device: Device) -> None:
        """Empty the app's table, which stops the app first (the task's only one, so the base teardown's stop would
        find it stopped), then go home: ``empties_at_teardown`` in one round trip fewer."""
        self.table.clear(device)
        device.key(keycodes.HOME)

    def oracle(self) -> list[OracleStep]:
        """Bring the relevant rows on screen, then answer."""
        rows = [self.kind.to_row(record) for record in self.relevant_records()]
        read = {e.transform.field for e in self.spec.expectations if e.WhichOneof("expected") == "transform"}
        reveal = self.kind.reveal_details if read & self.kind.detail_fields and self.kind.reveal_details \
            else self.kind.reveal
        return [*reveal(rows), act(Action(ActionType.ANSWER, text=format_answer(*self.expected())))]


def _pool(param: pb.Param, today: dt.date) -> list[str]:
    if param.HasField("date_range"):
        days = range(param.date_range.from_day, param.date_range.to_day + 1)
        return [format_date(today + dt.timedelta(days=day)) for day in days]
    return list(param.values)


def _expected_items(expectation: pb.Expectation, records: list[dict[str, Any]], params: Mapping[str, Any]) -> list:
    if expectation.WhichOneof("expected") == "value":
        return [_fill(expectation.value, params)]
    op, field = pb.Transform.Aggregate.Name(expectation.transform.op), expectation.transform.field
    if op == "COUNT":
        return [len(records)]
    values = [record[field] for record in records]
    return [sum(values)] if op == "SUM" else values


# Loading and validation.

def _line_of(text: str, needle: str, start: int = 1) -> int:
    """The first line at or after ``start`` that contains ``needle`` (``start`` when none does)."""
    for number, line in enumerate(text.splitlines()[start - 1:], start):
        if needle in line:
            return number
    return start


def _fail(path: Path, line: int, reason: str) -> SpecError:
    return SpecError(f"{path}:{line}: {reason}")


def parse_specs(path: Path) -> list[pb.TaskSpec]:
    """The specs in a ``.textproto`` file; ``SpecError`` with the line of a syntax error."""
    text = path.read_text(encoding="utf-8")
    specs = pb.TaskSpecs()
    try:
        text_format.Parse(text, specs)
    except text_format.ParseError as error:
        line = error.GetLine() or 1
        reason = re.sub(r"^\d+:\d+ : ", "", str(error))
        raise _fail(path, line, reason) from None
    return list(specs.tasks)


def _check_spec(spec: pb.TaskSpec, path: Path, text: str) -> RecordKind:
    """Validate one spec (everything a task needs to run); returns its record kind."""
    start = _line_of(text, f'"{spec.name}"') if spec.name else 1

    def fail(reason: str, needle: str | None = None) -> SpecError:
        return _fail(path, _line_of(text, needle, start) if needle else start, f"{spec.name or 'task'}: {reason}")

    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", spec.name):
        raise fail("needs a name made of letters, digits and _ (it becomes the task and Gymnasium id)")
    if spec.complexity <= 0:
        raise fail("needs a complexity > 0 (the step budget is 10 × complexity)")
    kinds = [field.name for field, _ in spec.state.ListFields()]
    if len(kinds) != 1 or kinds[0] not in _KINDS:
        raise fail(f"state must hold rows of exactly one app, one of {sorted(_KINDS)}; it holds {kinds}", "state")
    kind = _KINDS[kinds[0]]
    params = _check_params(spec, fail)
    templates = [spec.prompt, *(c.value for c in spec.noise.exclude),
                 *(e.value for e in spec.expectations if e.WhichOneof("expected") == "value"),
                 *(text for record in _records(spec, kind) for text in record.values())]
    for template in templates:
        _check_placeholders(template, params, fail)
    for record in _records(spec, kind):
        for name, template in record.items():
            _check_values(kind.fields[name], kind.parser(kind.fields[name]), template, spec, params, fail)
    for condition in spec.noise.exclude:
        if condition.field not in kind.fields:
            raise fail(f"exclusion field {condition.field!r} is not one of {sorted(kind.fields)}",
                       f'"{condition.field}"')
        if condition.op == pb.Condition.OPERATOR_UNSPECIFIED:
            raise fail(f"the exclusion on {condition.field!r} needs an op", f'"{condition.field}"')
    _check_expectations(spec, kind, fail)
    return kind


def _check_params(spec: pb.TaskSpec, fail: Callable[..., SpecError]) -> dict[str, int]:
    """Each parameter's count, after checking its pool."""
    counts: dict[str, int] = {}
    for param in spec.params:
        needle = f'"{param.name}"'
        if param.name in counts or not param.name.isidentifier():
            raise fail(f"parameter {param.name!r} is repeated or not an identifier", needle)
        if bool(param.values) == param.HasField("date_range"):
            raise fail(f"parameter {param.name!r} needs either values or a date_range", needle)
        size = len(set(param.values)) if param.values else param.date_range.to_day - param.date_range.from_day + 1
        if size < max(param.count, 1):
            raise fail(f"parameter {param.name!r} draws {max(param.count, 1)} distinct values from {size}", needle)
        if param.reword_date:
            if param.count > 1:
                raise fail(f"parameter {param.name!r}: reword_date needs a single value (count <= 1)", needle)
            for value in _pool(param, dt.date(2000, 1, 1)):
                _parsed(parse_date, value, f"parameter {param.name!r}", fail, needle)
        counts[param.name] = max(param.count, 1)
    return counts


def _check_placeholders(template: str, params: Mapping[str, int], fail: Callable[..., SpecError]) -> None:
    try:
        fields = [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]
    except ValueError as error:
        raise fail(f"bad braces in {template!r}: {error}", template[:30]) from None
    for field in fields:
        match = re.fullmatch(r"([A-Za-z_]\w*)(?:\[(\d+)\])?", field)
        if not match or match.group(1) not in params:
            raise fail(f"{{{field}}} names no parameter (declared: {sorted(params)})", f"{{{field}")
        count, index = params[match.group(1)], match.group(2)
        if (count > 1) != (index is not None) or (index is not None and int(index) >= count):
            use = f"{{{match.group(1)}[0]}} … [{count - 1}]" if count > 1 else f"{{{match.group(1)}}}"
            raise fail(f"{{{field}}}: parameter {match.group(1)!r} has {count} value(s); write {use}", f"{{{field}")


def _check_values(kind: str, parser: Callable[[str], Any], template: str, spec: pb.TaskSpec,
                  params: Mapping[str, int], fail: Callable[..., SpecError]) -> None:
    """A typed field's text parses (with ``parser``, for its type ``kind``), for every value its placeholders can
    take."""
    match = _PLACEHOLDER.fullmatch(template)
    if not match:
        if "{" not in template:
            _parsed(parser, template, f"{kind} {template!r}", fail, template)
        return
    param = next(p for p in spec.params if p.name == match.group(1))
    for value in _pool(param, dt.date(2000, 1, 1)):
        _parsed(parser, value, f"parameter {param.name!r} value {value!r} (used as a {kind})", fail,
                f'"{value}"')


def _parsed(parser: Callable[[str], Any], text: str, what: str, fail: Callable[..., SpecError], needle: str) -> Any:
    try:
        return parser(text)
    except ValueError as error:
        raise fail(f"{what}: {error}", needle) from None


def _check_expectations(spec: pb.TaskSpec, kind: RecordKind, fail: Callable[..., SpecError]) -> None:
    matches = [pb.Expectation.MatchType.Name(e.match) for e in spec.expectations]
    if not (len(matches) == 1 or sorted(matches) == ["DATE", "TIME"]):
        raise fail(f"needs one expectation, or a DATE and a TIME one; has {matches}", "expectations")
    for expectation, match in zip(spec.expectations, matches):
        if match == "MATCH_TYPE_UNSPECIFIED":
            raise fail("an expectation needs a match type", "expectations")
        which = expectation.WhichOneof("expected")
        if which is None:
            raise fail("an expectation needs a transform or a value", "expectations")
        if which == "transform":
            op, field = pb.Transform.Aggregate.Name(expectation.transform.op), expectation.transform.field
            if op == "AGGREGATE_UNSPECIFIED":
                raise fail("a transform needs an op (IDENTITY, COUNT or SUM)", "transform")
            if op != "COUNT" and field not in kind.fields:
                raise fail(f"transform field {field!r} is not one of {sorted(kind.fields)}", "transform")
            if op == "SUM" and not kind.is_number(field):
                raise fail(f"SUM needs a number field; {field!r} is {kind.fields[field]}", "transform")
            if op in ("SUM", "COUNT") and match != "NUMBER":
                raise fail(f"{op} gives a number: match it as NUMBER, not {match}", "match")
            if op == "IDENTITY" and match in ("DATE", "TIME") and kind.fields[field] != match.lower():
                raise fail(f"a {match} match needs a {match.lower()} field; {field!r} is {kind.fields[field]}",
                           "match")


def build_task(spec: pb.TaskSpec, kind: RecordKind) -> type[SpecTask]:
    """The task class a (validated) spec defines."""
    return type(spec.name, (SpecTask,), {
        "__doc__": f"Declarative task from task_specs: {spec.prompt}",
        "name": spec.name, "spec": spec, "kind": kind, "table": kind.table,
        "app_packages": (kind.table.package,), "template": spec.prompt, "complexity": spec.complexity,
    })


def load_specs(paths: Sequence[Path]) -> list[type[SpecTask]]:
    """Parse, validate and register the tasks of every spec file; ``SpecError`` on the first problem."""
    tasks: dict[str, type[SpecTask]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for spec in parse_specs(path):
            kind = _check_spec(spec, path, text)
            if spec.name in tasks:
                raise _fail(path, _line_of(text, f'"{spec.name}"'), f"{spec.name}: defined twice")
            task = build_task(spec, kind)
            try:  # one trial draw catches what only shows with real values (e.g. unsatisfiable noise)
                trial = task(task.generate_params(np.random.default_rng(0)))
                trial.initial_rows()
                trial.expected()
            except (SpecError, ValueError, KeyError, IndexError) as error:
                raise _fail(path, _line_of(text, f'"{spec.name}"'), f"{spec.name}: {error}") from None
            tasks[spec.name] = task
    for task in tasks.values():
        register_task(task)
    return list(tasks.values())

