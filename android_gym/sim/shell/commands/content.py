"""``content query|insert|delete|update`` (AOSP ``cmds/content/src/com/android/commands/content/Content.java``)
for ``content://settings/{system,secure,global}``, the telephony provider (``content://sms...``) and the contacts
provider (``content://com.android.contacts/...``, legacy ``content://contacts/phones``; writes on the former) and
the MediaStore's audio (``content://media/external/audio/media``, queries only).

Rows print as ``Row: N col=val, col2=val2`` (NULL as ``NULL``, blobs as ``BLOB``), ``No result found.`` when
empty. Provider failures print ``Error while accessing provider:<authority>`` and the exception, exit 0, as
``Content.java`` catches them.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

from android_gym.device.base import SETTINGS_NAMESPACES
from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.system.contacts import AUTHORITY as CONTACTS_AUTHORITY
from android_gym.sim.system.contacts import LEGACY_AUTHORITY
from android_gym.sim.system.media_store import AUTHORITY as MEDIA_AUTHORITY
from android_gym.sim.system.media_store import MediaStore

_USAGE = """usage: adb shell content [subcommand] [options]

usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...]
usage: adb shell content update --uri <URI> [--user <userId>] [--where <WHERE>] [--extra <BINDING>...]
usage: adb shell content delete --uri <URI> [--user <userId>] --where <WHERE>
usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] \
[--sort <SORT_ORDER>]
"""
_CONTACTS_AUTHORITIES = (CONTACTS_AUTHORITY, LEGACY_AUTHORITY)
_BIND_TYPES = {"s": str, "i": int, "l": int, "f": float, "d": float,
               "b": lambda v: v.lower() in ("true", "1"), "n": lambda v: None}


class _ProviderError(Exception):
    """What the provider threw: ``(java exception class, message)``."""


def _authority(uri: str) -> str:
    return uri.removeprefix("content://").split("/", 1)[0]


def _settings_table(ctx: CommandContext, uri: str) -> tuple[str, str | None]:
    path = uri.removeprefix("content://settings/").strip("/").split("/")
    if not path or path[0] not in SETTINGS_NAMESPACES or len(path) > 2:
        raise _ProviderError("java.lang.IllegalArgumentException", f"Invalid URI: {uri}")
    return path[0], path[1] if len(path) == 2 else None


def _settings_db(ctx: CommandContext, namespace: str, name: str | None) -> sqlite3.Connection:
    """The namespace as an in-memory ``(_id, name, value)`` table, so selections run as SQL."""
    db = sqlite3.connect(":memory:")
    db.set_authorizer(lambda action, *_: sqlite3.SQLITE_DENY if action in (sqlite3.SQLITE_ATTACH,
                                                                           sqlite3.SQLITE_DETACH) else 0)
    db.execute("CREATE TABLE settings (_id INTEGER PRIMARY KEY, name TEXT, value TEXT)")
    rows = [(key, value) for key, value in ctx.phone.settings.items(namespace) if name is None or key == name]
    db.executemany("INSERT INTO settings (name, value) VALUES (?, ?)", rows)
    return db


def _query(ctx: CommandContext, uri: str, projection: list[str] | None, where: str | None,
           sort: str | None) -> list[dict[str, object]]:
    authority = _authority(uri)
    try:
        if authority == "settings":
            namespace, name = _settings_table(ctx, uri)
            with closing(_settings_db(ctx, namespace, name)) as db:
                columns = ", ".join(projection) if projection else "_id, name, value"
                cursor = db.execute(f"SELECT {columns} FROM settings" + (f" WHERE {where}" if where else "")
                                    + (f" ORDER BY {sort}" if sort else ""))
                names = [column[0] for column in cursor.description]
                return [dict(zip(names, row)) for row in cursor.fetchall()]
        if authority in ("sms", "mms-sms"):
            return ctx.phone.telephony.query(uri, projection, where, sort)
        if authority in _CONTACTS_AUTHORITIES:
            return ctx.phone.contacts.query(uri, projection, where, sort)
        if authority == MEDIA_AUTHORITY:
            return MediaStore(ctx.phone).query(uri, projection, where, sort)
    except ValueError as error:
        raise _ProviderError("java.lang.IllegalArgumentException", str(error)) from None
    except sqlite3.Error as error:
        raise _ProviderError("android.database.sqlite.SQLiteException", f"{error} (code 1 SQLITE_ERROR)") from None
    raise _ProviderError("java.lang.IllegalStateException", f"Could not find provider: {authority}")


def _value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "BLOB"
    return str(value)


def _binds(specs: list[str]) -> dict[str, object]:
    values: dict[str, object] = {}
    for spec in specs:
        name, _, rest = spec.partition(":")
        kind, _, raw = rest.partition(":")
        if kind not in _BIND_TYPES:
            raise _ProviderError("java.lang.IllegalArgumentException", f"Unsupported type: {kind}")
        values[name] = _BIND_TYPES[kind](raw)
    return values


def _write(ctx: CommandContext, verb: str, uri: str, binds: dict[str, object], where: str | None) -> None:
    authority = _authority(uri)
    store = ctx.phone.settings
    try:
        if authority == "settings":
            namespace, name = _settings_table(ctx, uri)
            if verb == "insert":
                if "name" not in binds:
                    raise _ProviderError("java.lang.IllegalArgumentException", "name must not be empty")
                store.put(namespace, str(binds["name"]), "" if binds.get("value") is None else str(binds["value"]))
            else:
                with closing(_settings_db(ctx, namespace, name)) as db:
                    names = [row[0] for row in db.execute(
                        "SELECT name FROM settings" + (f" WHERE {where}" if where else ""))]
                for key in names:
                    if verb == "delete":
                        store.delete(namespace, key)
                    elif "value" in binds:
                        store.put(namespace, key, "" if binds["value"] is None else str(binds["value"]))
            ctx.phone.invalidate()
            return
        if authority == "sms":
            telephony = ctx.phone.telephony
            if verb == "insert":
                telephony.insert(uri, binds)
                ctx.phone.data_changed()
                return
            if verb == "delete":
                telephony.delete(uri, where)
                ctx.phone.data_changed()
                return
            raise _ProviderError("java.lang.UnsupportedOperationException", f"Cannot update URL: {uri}")
        if authority in _CONTACTS_AUTHORITIES:  # legacy writes are refused as unknown URIs
            contacts = ctx.phone.contacts
            if verb == "insert":
                contacts.insert(uri, binds)
            elif verb == "delete":
                contacts.delete(uri, where)
            else:
                contacts.update(uri, binds, where)
            return
    except ValueError as error:
        raise _ProviderError("java.lang.IllegalArgumentException", str(error)) from None
    except sqlite3.Error as error:
        raise _ProviderError("android.database.sqlite.SQLiteException", f"{error} (code 1 SQLITE_ERROR)") from None
    raise _ProviderError("java.lang.IllegalStateException", f"Could not find provider: {authority}")


def content(ctx: CommandContext, argv: list[str]) -> int:
    """``content query --uri URI [--projection a:b] [--where W] [--sort S]``, ``insert --bind n:t:v``,
    ``delete [--where W]``, ``update --bind n:t:v [--where W]``."""
    if len(argv) < 2 or argv[1] not in ("query", "insert", "delete", "update"):
        ctx.err(_USAGE if len(argv) < 2 else f"[ERROR] Unsupported operation: {argv[1]}\n\n{_USAGE}")
        return 1
    verb = argv[1]
    args = argv[2:]
    uri = where = sort = None
    projection: list[str] | None = None
    bind_specs: list[str] = []
    while args:
        opt = args.pop(0)
        if not args:
            ctx.out("\n")
            ctx.err(f"[ERROR] Unsupported argument: {opt}\n\n{_USAGE}")
            return 1
        value = args.pop(0)
        if opt == "--uri":
            uri = value
        elif opt == "--projection":
            projection = value.split(":")
        elif opt == "--where":
            where = value
        elif opt == "--sort":
            sort = value
        elif opt in ("--bind", "--extra"):
            bind_specs.append(value)
        elif opt != "--user":
            ctx.out("\n")
            ctx.err(f"[ERROR] Unsupported argument: {opt}\n\n{_USAGE}")
            return 1
    if uri is None:
        ctx.out("\n")
        ctx.err(f"[ERROR] Content provider URI not specified. Did you specify --uri argument?\n\n{_USAGE}")
        return 1
    try:
        if verb == "query":
            rows = _query(ctx, uri, projection, where, sort)
            if not rows:
                ctx.out("No result found.\n")
            for index, row in enumerate(rows):
                ctx.out(f"Row: {index} " + ", ".join(f"{k}={_value(v)}" for k, v in row.items()) + "\n")
        else:
            _write(ctx, verb, uri, _binds(bind_specs), where)
    except _ProviderError as error:
        kind, message = error.args
        ctx.err(f"Error while accessing provider:{_authority(uri)}\n{kind}: {message}\n")
    except ValueError as error:
        ctx.err(f"Error while accessing provider:{_authority(uri)}\njava.lang.NumberFormatException: {error}\n")
    return 0


COMMANDS = {"content": content}
