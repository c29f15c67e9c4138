"""What a command says when it fails: its words on stderr and, under `--json`, one `CommandFailure`
object on stdout as well, so a script gets JSON either way (docs/formats.md, the conventions)."""

from __future__ import annotations

import errno as errnos
import sys
from typing import Annotated, Any, Literal

from memtab.cli.common import print_json
from memtab.cli.options import CliError
from memtab.fs.records import OmitNone, Record
from memtab.fs.terminal_text import printable

Kind = Literal["usage", "refused", "system", "internal"]


class CommandFailure(Record, write_only=True):
    """What `memtab COMMAND --json` prints on stdout when it fails (a stable contract: fields are
    only added). `kind`: `usage` (words the command does not take), `refused` (Memtab's own refusal,
    said why), `system` (the system refused: `errno` names it, `path` the file when it says),
    `internal` (a fault of Memtab's: the log has its traceback). `output`: what the command did
    before it failed (a run's journal record), where there is such a thing."""

    error: str
    kind: Kind
    errno: Annotated[str | None, OmitNone] = None
    path: Annotated[str | None, OmitNone] = None
    command: Annotated[str | None, OmitNone] = None
    output: Annotated[dict[str, Any] | None, OmitNone] = None


def failed(
    words: str,
    kind: Kind,
    *,
    json: bool,
    command: str | None,
    error: BaseException | None = None,
    status: int = 1,
    quiet: bool = False,
) -> int:
    """Say `words` on stderr (`memtab: …`; not when `quiet`: said already) and, under
    `--json`, the failure on stdout; returns the exit status. When stdout cannot be
    written either (a full disk under it), stderr says so."""
    if not quiet:
        print(f"memtab: {printable(words, multiline=True)}", file=sys.stderr)
    if not json:
        return status
    system = _system_cause(error)
    failure = CommandFailure(
        error=words,
        kind=kind,
        errno=errnos.errorcode.get(system.errno or 0) if system is not None else None,
        path=str(system.filename) if system is not None and system.filename else None,
        command=command,
        output=error.output if isinstance(error, CliError) else None,
    )
    try:
        print_json(failure.to_json())
    except OSError as unwritten:
        print(f"memtab: the JSON could not be written either: {unwritten}", file=sys.stderr)
    return status


def _system_cause(error: BaseException | None) -> OSError | None:
    """The system's refusal `error` is, or that Memtab's refusal was made of (a full disk
    under a save), by the chain of exceptions raised while handling one another."""
    for _ in range(8):
        if error is None or isinstance(error, OSError):
            return error
        error = error.__cause__ or error.__context__
    return None
