"""The shell's exceptions: syntax errors, and the signals that end a script (fatal errors, ``exit``, limits)."""

#: The most bytes (characters, for text) one value may hold: a variable, a word's expansion, a here-document, a
#: command's output (so what ``Shell.run`` and ``Phone.run`` return), a file a redirection writes. A device
#: caps a process's memory; 32 MiB is far beyond what automation prints or stores, far below a host's memory.
MAX_BYTES = 32 * 1024 * 1024


class ShellSyntaxError(Exception):
    """The command line does not parse (mksh's ``yyerror``)."""


class _Fatal(Exception):
    """An error that ends the whole script with status 1 (bad substitution, division by zero, ...)."""


class _Exit(BaseException):
    """``exit N``; a ``BaseException`` so no command's ``except Exception`` swallows it."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Abort(BaseException):
    """The script exceeded ``MAX_COMMANDS`` or ``MAX_DEPTH``."""


class _OutOfMemory(_Abort):
    """A value outgrew ``MAX_BYTES``: mksh's failed allocation (``lalloc.c`` ``aresize``: ``internal_errorf(Toomem,
    numb)``, printed ``internal error: can't allocate N data bytes``), which ends the script with status 1."""

    def __init__(self, size: int) -> None:
        super().__init__(f"internal error: can't allocate {size} data bytes")


def check_size(size: int) -> None:
    """Raise ``_OutOfMemory`` if a value of ``size`` bytes would exceed ``MAX_BYTES``."""
    if size > MAX_BYTES:
        raise _OutOfMemory(size)
