"""``sqlite3`` with the command-line shell's behaviour (SQLite 3.32, the version in Android 13's
``external/sqlite``): list mode with ``|`` between columns, NULL printed empty, ``-header``/``-csv``/``-line``/
``-separator``/``-nullvalue``/``-readonly``, a few dot-commands (``.tables .schema .headers .mode
.separator .nullvalue``), errors as ``Error: no such table: x`` (exit 1). SQL from arguments stops at the
first error; SQL from stdin reports ``Error: near line N: ...`` and goes on.

The database is the named file inside the phone's sandbox. ``ATTACH`` (and ``VACUUM INTO``, which attaches)
is refused by an authorizer (and ``SQLITE_LIMIT_ATTACHED = 0``) so SQL cannot open any other host file;
Python's ``sqlite3`` has no ``readfile``/``writefile`` and keeps ``load_extension`` disabled.
"""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import quote

from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.shell.errors import MAX_BYTES
from android_gym.sim.shell.kept_databases import CONNECTION_STATE, KeptDatabases

VERSION = "3.32.2 2020-06-04 12:58:43 ec02243ea6ce33b090870ae55ab8aa2534b54d216d45c4aa2fdbb00e86861e8c"


class _Options:
    def __init__(self) -> None:
        self.mode = "list"
        self.header = False
        self.separator = "|"
        self.newline = "\n"
        self.null = ""
        self.bail = False
        self.readonly = False


def format_value(value: object, null: str = "") -> bytes:
    """A column value as the shell prints it: text as is, REAL as ``%!.15g``, NULL as ``null``."""
    if value is None:
        return null.encode()
    if isinstance(value, bytes):
        return value
    if isinstance(value, float):
        text = f"{value:.15g}"
        if "e" in text:
            mantissa, exponent = text.split("e")
            text = (mantissa if "." in mantissa else mantissa + ".0") + "e" + exponent
        elif text not in ("inf", "-inf", "nan") and "." not in text:
            text += ".0"
        return {"inf": b"Inf", "-inf": b"-Inf", "nan": b""}.get(text, text.encode())
    return str(value).encode()


def _csv(value: bytes) -> bytes:
    if any(c in value for c in (b'"', b",", b"\n", b"\r")):
        return b'"' + value.replace(b'"', b'""') + b'"'
    return value


def _print_rows(ctx: CommandContext, cursor: sqlite3.Cursor, options: _Options, state: dict) -> None:
    names = [column[0] for column in cursor.description]
    rows = cursor.fetchall()
    newline = options.newline.encode()
    if options.mode == "line":
        width = max(len(name) for name in names)
        for row in rows:
            if state.get("printed"):
                ctx.out(b"\n")
            for name, value in zip(names, row):
                ctx.out(f"{name:>{width}} = ".encode() + format_value(value, options.null) + b"\n")
            state["printed"] = True
        return
    separator = b"," if options.mode == "csv" else options.separator.encode()
    quote_field = _csv if options.mode == "csv" else (lambda v: v)
    if options.header and not state.get("header_done"):
        ctx.out(separator.join(quote_field(name.encode()) for name in names) + newline)
        state["header_done"] = True
    for row in rows:
        fields = [b"" if value is None and options.mode == "csv" and not options.null
                  else quote_field(format_value(value, options.null)) for value in row]
        ctx.out(separator.join(fields) + newline)


def _statements(sql: str) -> list[tuple[str, int]]:
    """Split ``sql`` into complete statements with the line each starts on (``sqlite3_complete`` rules)."""
    statements = []
    start = 0
    for match in re.finditer(";", sql):
        candidate = sql[start:match.end()]
        if sqlite3.complete_statement(candidate):
            if candidate.strip(" \t\r\n;"):
                statements.append((candidate, sql.count("\n", 0, start) + 1))
            start = match.end()
    rest = sql[start:]
    if rest.strip() and not re.fullmatch(r"(\s|--[^\n]*(\n|$))*", rest):
        statements.append((rest, sql.count("\n", 0, start) + 1))
    return statements


def _tables(ctx: CommandContext, db: sqlite3.Connection, pattern: str | None) -> None:
    names = [row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' "
        "AND name LIKE ?1 ORDER BY 1", (pattern or "%",))]
    if not names:
        return
    width = max(len(name) for name in names)
    columns = max(1, 80 // (width + 2))
    rows = (len(names) + columns - 1) // columns
    for i in range(rows):
        line = []
        for j in range(i, len(names), rows):
            line.append(("" if j < rows else "  ") + f"{names[j]:<{width}}")
        ctx.out("".join(line) + "\n")


def _dot_command(ctx: CommandContext, db: sqlite3.Connection, line: str, options: _Options) -> int:
    """Run a dot-command; returns 0, 1 (error) or 2 (``.quit``)."""
    parts = line.split()
    name, args = parts[0][1:], parts[1:]
    if name in ("quit", "exit"):
        return 2
    if name in ("tables", "table"):
        _tables(ctx, db, args[0] if args else None)
    elif name == "schema":
        query = "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
        rows = db.execute(query + (" AND name LIKE ?1" if args else "") + " ORDER BY rowid",
                          (args[0],) if args else ()).fetchall()
        ctx.out("".join(f"{row[0]};\n" for row in rows))
    elif name in ("headers", "header") and args:
        options.header = args[0].lower() in ("on", "1", "yes", "true")
    elif name == "mode" and args and args[0] in ("list", "csv", "line"):
        options.mode = args[0]
        if args[0] == "csv":
            options.separator = ","
    elif name == "separator" and args:
        options.separator = args[0]
    elif name == "nullvalue" and args:
        options.null = args[0]
    else:
        ctx.err(f'Error: unknown command or invalid arguments:  "{name}". Enter ".help" for help\n')
        return 1
    return 0


def _run(ctx: CommandContext, db: sqlite3.Connection, sql: str, options: _Options, from_stdin: bool) -> int:
    state: dict = {}
    errors = 0
    if sql.lstrip().startswith(".") and not from_stdin:
        result = _dot_command(ctx, db, sql.strip(), options)
        return 0 if result == 2 else result
    lines = sql.split("\n") if from_stdin else [sql]
    buffer: list[str] = []
    first_line = 1
    for number, line in enumerate(lines, 1):
        if from_stdin and not buffer and line.lstrip().startswith("."):
            result = _dot_command(ctx, db, line.strip(), options)
            if result == 2:
                break
            errors += result
            continue
        if not buffer:
            first_line = number
        buffer.append(line)
        text = "\n".join(buffer)
        if from_stdin and not sqlite3.complete_statement(text) and number < len(lines):
            continue
        buffer = []
        for statement, offset in _statements(text):
            try:
                cursor = db.execute(statement)
                if cursor.description:
                    _print_rows(ctx, cursor, options, state)
            except sqlite3.Error as error:
                message = str(error)
                if from_stdin:
                    ctx.err(f"Error: near line {first_line + offset - 1}: {message}\n")
                    errors += 1
                    if options.bail:
                        return 1
                    break
                ctx.err(f"Error: {message}\n")
                return 1
    return 1 if errors else 0


def sqlite3_command(ctx: CommandContext, argv: list[str]) -> int:
    """``sqlite3 [OPTIONS] [FILENAME [SQL...]]``."""
    options = _Options()
    args = argv[1:]
    positional: list[str] = []
    commands_first: list[str] = []
    while args:
        arg = args.pop(0)
        if not arg.startswith("-") or arg == "-" or positional:
            positional.append(arg)
            continue
        flag = arg.lstrip("-")
        if flag in ("header", "headers"):
            options.header = True
        elif flag == "noheader":
            options.header = False
        elif flag in ("csv", "list", "line"):
            options.mode = flag
        elif flag in ("separator", "newline", "nullvalue", "cmd", "init") and args:
            value = args.pop(0)
            if flag == "separator":
                options.separator = value
            elif flag == "newline":
                options.newline = value
            elif flag == "nullvalue":
                options.null = value
            elif flag == "cmd":
                commands_first.append(value)
        elif flag == "readonly":
            options.readonly = True
        elif flag == "bail":
            options.bail = True
        elif flag in ("batch", "interactive", "echo", "column"):
            pass
        elif flag == "version":
            ctx.out(VERSION + "\n")
            return 0
        else:
            ctx.err(f"{argv[0]}: Error: unknown option: {arg}\nUse -help for a list of options.\n")
            return 1
    filename = positional[0] if positional else ":memory:"
    # Standard input is read before the database opens, as the real shell reads its first line before it opens.
    sql = [*commands_first, *(positional[1:] or [ctx.stdin.decode("utf-8", "replace")])]
    from_stdin = not positional[1:]
    if filename == ":memory:":
        return _session(ctx, filename, options, sql, from_stdin)
    path = ctx.path(filename)
    # A connection is kept for the next run where that changes nothing anyone can see (``kept_databases``).
    keeping = not options.readonly and not any(CONNECTION_STATE.search(text) for text in sql)
    # The database, its side files and their directory: what the SQL changed on the host carries device time.
    with ctx.phone.fs.device_writes(*ctx.phone.fs.sqlite_files(path)):
        status = _session(ctx, filename, options, sql, from_stdin, (ctx.phone.kept_databases, path) if keeping
                          else None)
    ctx.phone.data_changed()  # an app's screen may show what the SQL changed
    return status


def _session(ctx: CommandContext, filename: str, options: _Options, sql: list[str], from_stdin: bool,
             kept: tuple[KeptDatabases, str] | None = None) -> int:
    """Open ``filename`` and run ``sql`` (the ``-cmd`` commands, then the SQL arguments or else standard input);
    with ``kept`` (the phone's kept connections and the database's path), on the connection kept from an earlier
    run if there is one, handed back to be kept at the end."""
    db = kept[0].take(kept[1]) if kept else None
    if db is None:
        try:
            db = _open(ctx, filename, options.readonly)
        except sqlite3.Error as error:
            ctx.err(f'Error: unable to open database "{filename}": {error}\n')
            return 1
    status = 0
    try:
        for number, text in enumerate(sql, 1):
            status = _run(ctx, db, text, options, from_stdin=from_stdin and number == len(sql))
            if status:
                break
    except BaseException:  # the shell ending the script (its output too long): the connection goes
        db.close()
        raise
    if kept:
        kept[0].keep(kept[1], db)
    else:
        db.close()
    return status


def _authorize(action: int, *_args: object) -> int:
    """Refuse ``ATTACH``/``DETACH`` (``VACUUM INTO`` attaches too): SQL must not reach other host files."""
    return sqlite3.SQLITE_DENY if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH) else sqlite3.SQLITE_OK


def _open(ctx: CommandContext, filename: str, readonly: bool) -> sqlite3.Connection:
    if filename == ":memory:":
        db = sqlite3.connect(":memory:", isolation_level=None)
    else:
        host = ctx.host(filename)
        if host.is_dir():
            raise sqlite3.OperationalError("unable to open database file")
        mode = "ro" if readonly else "rwc"
        db = sqlite3.connect(f"file:{quote(str(host))}?mode={mode}", uri=True, isolation_level=None, timeout=1.0,
                             check_same_thread=False)  # a kept one may serve the next run in another thread
    db.set_authorizer(_authorize)
    if hasattr(db, "setlimit"):  # Python >= 3.11
        db.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_BYTES)  # "string or blob too big", not a host-sized value
    db.text_factory = lambda raw: raw.decode("utf-8", "replace")
    return db


COMMANDS = {"sqlite3": sqlite3_command}
