"""What `memtab duplicates`, `memtab contradictions` and `memtab leaks` share: the report found
and judged, its exit status, how a finding's place is said. Each command is a module of its own
(`*_commands`), so that running one imports only its engine. Exit 0: nothing found, 1: something
was, 2: the memory could not be read."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from memtab.cli.common import print_json_bytes
from memtab.cli.failure import Kind, failed
from memtab.fs.config.settings_file import SettingsFileError
from memtab.humanize import plural
from memtab.kept.reports import KeptPrinted
from memtab.llm.settings import ProviderSettings, resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStoreError
from memtab.trust.judging.asking import ModelJudge
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace

R = TypeVar("R")
COULD_NOT_READ = 2


def found_report(
    home: Home,
    command: str,
    find: Callable[[bool], R],
    judge: Callable[[R, ModelJudge], R] | None = None,
    *,
    json: bool,
    offline: bool = False,
    printed: Callable[[], KeptPrinted | None] | None = None,
    printed_of: Callable[[R], KeptPrinted | None] | None = None,
) -> R | int:
    """`find`'s report, judged by the configured model (`judge`, `trust.judging`) unless
    `offline`, no model is configured or settings name none usable; or the exit status of
    its failure (said as `memtab check`'s). `find` is told whether it may answer with the
    report its last run kept (`kept.reports`): when no model judges it. With `json` and no
    model, what `printed` says a run over the same memory printed is printed again (its exit
    status returned): no report is rebuilt and no engine imported; and a report just kept is
    printed as it was kept (`printed_of`), its JSON made once."""
    settings = None if judge is None or offline else _model_settings()
    try:
        if json and settings is None and printed is not None:
            again = printed()
            if again is not None:
                return _printed_again(again)
        report = find(settings is None)
    except (HomeError, MemoryStoreError, PathError, OSError) as error:
        words = f"cannot read the memory: {error}"
        kind: Kind = "system" if isinstance(error, OSError) else "refused"
        return failed(words, kind, json=json, command=command, error=error, status=COULD_NOT_READ)
    if judge is None or settings is None:
        kept = printed_of(report) if json and printed_of is not None else None
        return report if kept is None else _printed_again(kept)
    model = ModelJudge(home, settings, files=getattr(report, "files_read", 0))
    try:
        return judge(report, model)
    finally:
        model.close()


def _printed_again(kept: KeptPrinted) -> int:
    """Print what was kept of a report (`kept.reports`); its exit status."""
    print_json_bytes(kept.printed)
    return exit_status(kept.problems, kept.found)


def _model_settings() -> ProviderSettings | None:
    """The configured model's settings, None when none is usable."""
    try:
        settings = resolve_provider_settings()
    except (SettingsFileError, ProviderError):
        return None
    return None if settings.is_offline else settings


def say_found(found: Sequence[object], words: str, what: str, files_read: int) -> None:
    files = plural(files_read, "memory file")
    print(f"{words} in {files}." if found else f"No {what} in {files}.")


def exit_status(problems: Sequence[str], found: Sequence[object] | bool) -> int:
    """The exit status (module doc), what could not be read said on stderr."""
    for problem in problems:
        print(f"memtab: not read: {problem}", file=sys.stderr)
    return 1 if found else 0


def place_in_words(place: MemoryPlace) -> str:
    """ "path:line  (where in words)"."""
    line = f":{place.line}" if place.line is not None else ""
    return f"{place.path}{line}  ({where_in_words(place)})"
