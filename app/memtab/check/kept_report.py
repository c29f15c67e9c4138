"""`memtab check`'s whole report kept for its next run (docs/formats.md §19.10), as the trust
commands keep theirs (`kept.reports`): keyed by a digest of every memory file's `lstat` as listed
(none changed within git's racy margin, `Listed.stamps`), the workspace, the stale days and the
code; and used only while everything else the check read is as it was — every answer its rules
got of the disk, the checkouts' indexes and PATH (`CheckEngine`, as a file's `Worked` is
restated), each project's checkout there or not as it was, and no stale finding's days moved.
What it keeps is what `--json` prints: a warm run rebuilds no record. Private, written by
rename, ignored when damaged (`KeptAnswer`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from memtab.check.checkout import Answered
from memtab.check.documents import Document
from memtab.kept.per_file import KeptAnswer
from memtab.store.home import Home

DAY_MS = 24 * 60 * 60 * 1000
FOREVER_MS = 2**62


class KeptCheck(NamedTuple):
    """A check's report as `--json` prints it, and what else it holds while."""

    document: dict[str, Any]
    problems: tuple[str, ...]
    found: bool
    until_ms: int
    """When a memory turns stale or a stale one's days change (its finding says them)."""
    asked: tuple[Answered, ...]
    """Every question the rules asked, once, with its answer."""
    signatures: tuple[tuple[str, bytes], ...]
    """Each checkout whose index answered some, and its signature then."""
    checkouts: tuple[tuple[str, bool], ...]
    """Each project, and whether its checkout was on this disk."""


def kept_checks(home: Home) -> KeptAnswer:
    return KeptAnswer.of_home(home, "check-report", valid=_a_kept_check)


def stale_until(documents: Iterable[Document], now_ms: int, stale_days: int) -> int:
    """When what `CheckEngine._stale` says of `documents` at `now_ms` next changes: a memory
    turns stale (unused for more than `stale_days`), or a stale one's count of days grows."""
    if stale_days <= 0:
        return FOREVER_MS
    limit = stale_days * DAY_MS
    until = FOREVER_MS
    for document in documents:
        used = document.last_used_ms
        if used is None:
            continue
        age = now_ms - used
        turns = used + limit + 1 if age <= limit else used + (age // DAY_MS + 1) * DAY_MS
        until = min(until, turns)
    return until


def _a_kept_check(held: Any) -> bool:
    if type(held) is not tuple or len(held) != len(KeptCheck._fields):
        return False
    document, problems, found, until, asked, signatures, checkouts = held
    return (
        type(document) is dict
        and type(problems) is tuple
        and all(type(problem) is str for problem in problems)
        and type(found) is bool
        and type(until) is int
        and type(asked) is tuple
        and all(_an_answer(answered) for answered in asked)
        and type(signatures) is tuple
        and all(_a_pair(pair, bytes) for pair in signatures)
        and type(checkouts) is tuple
        and all(_a_pair(pair, bool) for pair in checkouts)
    )


def _an_answer(answered: Any) -> bool:
    return (
        type(answered) is tuple
        and len(answered) == 2
        and type(answered[0]) is tuple
        and len(answered[0]) > 0
        and type(answered[0][0]) is str
    )


def _a_pair(pair: Any, second: type) -> bool:
    return (
        type(pair) is tuple and len(pair) == 2 and type(pair[0]) is str and type(pair[1]) is second
    )
