"""What a check keeps of each memory file between checks, and between processes
(docs/formats.md §19.10): what its rules found there (`Worked`), and what they asked of
the disk, the checkout's index and PATH to find it, with the answers (`check.checkout`'s
`Asked`). A file's `Worked` is used again while its key, its text and what else the rules
read of it (`where_of`) are the same and every answer holds (`CheckEngine._restate`);
otherwise its rules run again. Kept by `kept.per_file` in the cache file
`trust-check-v<version>-<home>.bin`, as plain tuples (`pack`, `Unpacker`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, get_args

from memtab.check.checkout import Answered, Question
from memtab.check.documents import Document
from memtab.check.findings import Found
from memtab.check.records import FindingKind
from memtab.check.rules.facts import Fact
from memtab.kept.per_file import KeptAnswer, is_line, only
from memtab.store.home import Home

ENGINE = "check"
RULES_VERSION = 26
"""Bumped when what the rules find in a file changes (a test pins what they find in a
corpus to it: tests/unit/check/test_kept.py); the cache of another is not read."""
_KINDS = frozenset(get_args(FindingKind))
_MAX_ANSWER_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Missing:
    """A path of the checkout a file names that is not there: its finding, and the path
    as `git check-ignore` is asked about it (a folder with its `/`)."""

    asked: str
    found: Found


@dataclass(frozen=True, slots=True)
class Worked:
    """What the rules found in one file, and what that depends on besides its text:
    `where` (a digest of what else they read of the file, `where_of`), the questions they
    asked with their answers, and the signature of each checkout whose index answered
    some (those answers hold while it does)."""

    where: bytes
    found: tuple[Found, ...]
    missing: tuple[Missing, ...]
    facts: tuple[Fact, ...]
    aliases: frozenset[str]
    asked: tuple[Answered, ...]
    signatures: tuple[tuple[str, bytes], ...]


def where_of(document: Document, roots: dict[int, str]) -> bytes:
    """What the rules read of a document besides its key and text, as 16 bytes: the
    checkout it is checked against, whether it is a record, where its links resolve.
    `roots`: each scope's roots in words, by the id of the mapping its documents share
    (worked out once per scope and check)."""
    shared = document.scope_roots
    said = roots.get(id(shared))
    if said is None:
        said = roots[id(shared)] = repr(
            sorted((scope, str(root)) for scope, root in shared.items())
        )
    where = "\0".join(
        (
            str(document.checkout),
            str(document.link_root),
            said,
            str(document.record),
            document.path,
            document.agent,
            str(document.history_key),
        )
    )
    return hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def pack(worked: Worked) -> object:
    """`worked` as plain tuples (`marshal` writes them)."""
    return (
        worked.where,
        tuple(_packed_found(found) for found in worked.found),
        tuple((missing.asked, _packed_found(missing.found)) for missing in worked.missing),
        tuple((f.line, f.kind, f.key, f.value, f.shown) for f in worked.facts),
        worked.aliases,
        worked.asked,
        worked.signatures,
    )


def _packed_found(found: Found) -> tuple[object, ...]:
    return (
        found.line,
        found.kind,
        found.subject,
        found.message,
        found.why,
        found.text,
        found.fix,
        found.related,
    )


class Unpacker:
    """`unpack` for one engine: a question and its answer a cache holds once and every
    file that asked it names (`marshal` keeps them one object) is looked at once; the
    objects looked at are held, so an id is never another object's while it is."""

    def __init__(self) -> None:
        self._seen: dict[int, object] = {}

    def forget(self) -> None:
        """The load is done: let go of what was looked at."""
        self._seen.clear()

    def __call__(self, held: Any) -> Worked:
        """A `Worked` from what `pack` made; one of `DAMAGE` for anything else (a cache
        damaged or forged under a valid digest)."""
        where, found, missing, facts, aliases, asked, signatures = held
        if type(where) is not bytes or len(where) != 16:
            raise ValueError("not a digest")
        if not only(tuple, found) or not only(tuple, missing) or not only(tuple, facts):
            raise TypeError("not the types written")
        if not only(str, aliases) or type(aliases) is not frozenset:
            raise TypeError("not the aliases written")
        if type(asked) is not tuple or not all(self._answered(pair) for pair in asked):
            raise TypeError("not the questions written")
        if not only(tuple, signatures) or not all(_signature(pair) for pair in signatures):
            raise TypeError("not the signatures written")
        return Worked(
            where,
            tuple(_found(item) for item in found),
            tuple(_missing(item) for item in missing),
            tuple(_fact(item) for item in facts),
            aliases,
            asked,
            signatures,
        )

    def _answered(self, pair: Any) -> bool:
        if self._seen.get(id(pair)) is pair:
            return True
        if not _answered(pair):
            return False
        self._seen[id(pair)] = pair
        return True


def _found(held: Any) -> Found:
    line, kind, subject, message, why, text, fix, related = held
    if line is not None and not is_line(line):
        raise ValueError("not a line")
    if kind not in _KINDS or not only(str, (subject, message, why, text)):
        raise TypeError("not a finding")
    if fix is not None:
        description, new_line, unique = fix
        if not only(str, (description, new_line)) or type(unique) is not bool:
            raise TypeError("not a fix")
    if type(related) is not tuple or not all(
        type(pair) is tuple and len(pair) == 2 and is_line(pair[0]) and type(pair[1]) is str
        for pair in related
    ):
        raise TypeError("not related lines")
    return Found(line, kind, subject, message, why, text, fix, related)


def _missing(held: Any) -> Missing:
    asked, found = held
    if type(asked) is not str:
        raise TypeError("not a path")
    return Missing(asked, _found(found))


def _fact(held: Any) -> Fact:
    line, kind, key, value, shown = held
    if not is_line(line) or not only(str, (kind, key, value, shown)):
        raise TypeError("not a fact")
    return Fact(line, kind, key, value, shown)


def _answered(pair: Any) -> bool:
    if type(pair) is not tuple or len(pair) != 2:
        return False
    question: Question = pair[0]
    return (
        type(question) is tuple
        and bool(question)
        and type(question[0]) is str
        and all(_plain(part, 1) for part in question)
        and _plain(pair[1], 0)
    )


def _plain(value: object, depth: int) -> bool:
    """Whether `value` is an answer's kind of value: None, a bool, an int, a string, a
    finite float or a tuple of them (not nested deeper than `_MAX_ANSWER_DEPTH`)."""
    if value is None or type(value) in (bool, int, str):
        return True
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is tuple and depth < _MAX_ANSWER_DEPTH:
        return all(_plain(item, depth + 1) for item in value)
    return False


def _signature(pair: Any) -> bool:
    return (
        type(pair) is tuple
        and len(pair) == 2
        and type(pair[0]) is str
        and type(pair[1]) is bytes
        and len(pair[1]) == 16
    )


# `memtab check`'s whole report kept for its next run:
# `memtab check`'s whole report kept for its next run (docs/formats.md §19.10), as the trust
# commands keep theirs (`kept.reports`): keyed by a digest of every memory file's `lstat` as listed
# (none changed within git's racy margin, `Listed.stamps`), the workspace, the stale days and the
# code; and used only while everything else the check read is as it was — every answer its rules
# got of the disk, the checkouts' indexes and PATH (`CheckEngine`, as a file's `Worked` is
# restated), each project's checkout there or not as it was, and no stale finding's days moved.
# What it keeps is what `--json` prints: a warm run rebuilds no record. Private, written by
# rename, ignored when damaged (`KeptAnswer`).

DAY_MS = 24 * 60 * 60 * 1000
FOREVER_MS = 2**62


class KeptCheck(NamedTuple):
    """A check's report as `--json` prints it (`compact_json`'s bytes), and what else it
    holds while."""

    printed: bytes
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
    printed, problems, found, until, asked, signatures, checkouts = held
    return (
        type(printed) is bytes
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
