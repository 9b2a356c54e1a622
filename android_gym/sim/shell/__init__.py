"""The device shell: what ``adb shell`` runs as ``/system/bin/sh -c <command>`` on the simulated phone.

The top layer below the phone itself: its commands drive everything (the OS, the framework's services, input
and the screen) through ``device.ShellDevice``.

Android's shell is mksh. This package implements the part of its language that device automation uses:
words and POSIX quoting (``'...'`` literal, ``"..."`` with ``\\`` escapes and ``$`` expansion, backslash),
``;`` ``&`` ``&&`` ``||`` ``|`` and newlines, redirections (``>`` ``>>`` ``<`` ``2>`` ``2>&1`` ``>&2``
``&>`` ``<<EOF`` here-documents), ``$VAR`` ``${VAR}`` ``${VAR:-x}`` ``$?`` ``$'...'`` ``$(...)`` and backquotes
(run by this same interpreter), ``$((...))`` (mksh's 32-bit arithmetic), ``~``, field splitting, pathname
globbing against the phone's file system, ``if``/``for``/``while``/``until``, ``{ }`` and ``( )``.
Commands are Python functions (``commands/``); nothing typed here ever reaches a host shell.

The tokenizer is hand-written rather than ``shlex``: ``shlex`` cannot keep ``$(...)`` with nested quotes
as one word, forgets which characters were quoted (globbing and field splitting need that), splits
``2>&1`` inconsistently in ``punctuation_chars`` mode and has no here-documents.

Error messages follow mksh R59c (``external/mksh``): ``/system/bin/sh: NAME: inaccessible or not found``
(127), ``/system/bin/sh: no closing quote`` and ``/system/bin/sh: syntax error: unexpected 'x'`` (1),
``/system/bin/sh: can't create FILE: <strerror>`` (1). As a device caps a process's memory, no variable, word,
here-document, command output or file a redirection writes may exceed ``MAX_BYTES`` (32 MiB): the script ends
as mksh does when an allocation fails, ``internal error: can't allocate N data bytes`` (1).

Modules: ``lexer`` (tokens, quote scanning, here-documents) -> ``parser`` (immutable trees, cached) ->
``interpreter`` (execution, redirections, builtins, ``Shell``), which expands words with ``expansion``
(parameters, field splitting, globbing) and ``arith`` (``$((...))``); ``streams`` (stdin, output sinks),
``environment`` (``SHELL``, ``ENVIRONMENT``) and ``errors`` are shared by them.
"""

from android_gym.sim.shell.environment import ENVIRONMENT, SHELL
from android_gym.sim.shell.errors import MAX_BYTES, ShellSyntaxError
from android_gym.sim.shell.interpreter import MAX_COMMANDS, MAX_DEPTH, Shell, ShellOutput
from android_gym.sim.shell.streams import LiveOutput, StdinSource

__all__ = ["ENVIRONMENT", "MAX_BYTES", "MAX_COMMANDS", "MAX_DEPTH", "SHELL", "LiveOutput", "Shell", "ShellOutput",
           "ShellSyntaxError", "StdinSource"]
