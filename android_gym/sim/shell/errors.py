"""The shell's exceptions: syntax errors, and the signals that end a script (fatal errors, ``exit``, limits)."""


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
