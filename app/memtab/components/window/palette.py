"""Quick open's and the command palette's rows and matching, without Qt: fuzzy, as in VS Code
(the typed letters in order, case ignored, ranked by word starts, runs and shortness)."""

from __future__ import annotations

import functools
import heapq
import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, TypeVar

from memtab.components.tree.nodes import file_key, ref_key
from memtab.components.tree.scan import HomeScan

SHOWN_AT_MOST = 200
"""Rows the list shows at once: enough to scroll through, few enough to build per key."""


class PaletteEntry(NamedTuple):
    """One row: its name, what shows beside it, what choosing it does, its key (not matched)."""

    label: str
    detail: str
    choose: Callable[[], object]
    keys: str = ""

    @property
    def searched(self) -> str:
        """What typing matches: the name and the detail, not the key."""
        return f"{self.label} {self.detail}"

    @property
    def shown_detail(self) -> str:
        """What the row shows beside the name: the detail, then the key ("Edit · Ctrl+Z")."""
        return " · ".join(part for part in (self.detail, self.keys) if part)

    @property
    def text(self) -> str:
        """The row as the list shows it."""
        shown = self.shown_detail
        return f"{self.label}    {shown}" if shown else self.label


def matching(query: str, entries: Sequence[PaletteEntry]) -> list[PaletteEntry]:
    """The rows shown for `query`, best first: every entry (up to `SHOWN_AT_MOST`) for a
    blank one."""
    if not query.strip():
        return list(entries[:SHOWN_AT_MOST])
    by_label = rank(query, entries, lambda entry: entry.label, SHOWN_AT_MOST)
    named = set(map(id, by_label))
    rest = [entry for entry in entries if id(entry) not in named]
    by_detail = rank(query, rest, lambda entry: entry.searched, SHOWN_AT_MOST)
    return (by_label + by_detail)[:SHOWN_AT_MOST]


def matched_letters(query: str, entry: PaletteEntry) -> tuple[int, ...]:
    """Where in the row's text (`PaletteEntry.text`) the letters typed matched, to
    highlight them: in what the entry is called when they all are there, else across it
    and its path or menu, as `matching` ranked it."""
    if not query.strip():
        return ()
    found = fuzzy_positions(query, entry.label)
    if found is not None:
        return found
    found = fuzzy_positions(query, entry.searched)
    if found is None:
        return ()
    label = len(entry.label)
    gap = len(entry.text) - len(entry.shown_detail) - label  # the spaces between, in the row
    return tuple(at if at < label else at - 1 + gap for at in found if at != label)


def letter_runs(text: str, matched: Sequence[int]) -> list[tuple[str, bool]]:
    """`text` cut where it goes in or out of the `matched` letters: each run, and whether
    it is matched (drawn bold)."""
    wanted = set(matched)
    runs: list[tuple[str, bool]] = []
    for at, letter in enumerate(text):
        inside = at in wanted
        if runs and runs[-1][1] == inside:
            runs[-1] = (runs[-1][0] + letter, inside)
        else:
            runs.append((letter, inside))
    return runs


def moved_row(current: int, step: int, count: int) -> int | None:
    """The row Up/Down/Page keys move to from `current` (`step` rows), kept in the list;
    None when the list is empty."""
    return None if not count else min(max(current + step, 0), count - 1)


def file_entries(scan: HomeScan | None, open_key: Callable[[str], object]) -> list[PaletteEntry]:
    """Every file the scan shows — the workspace's scopes, then the other agents' — each
    opened by its tree row's key; Codex's copy of a Claude Code memory file once, as its
    original where that is listed, else saying whose copy it is (`shown_once`)."""
    if scan is None:
        return []
    paths = [file.path for scope_scan in scan.scopes for file in scope_scan.listing.files]
    entries = [
        PaletteEntry(str(p).rsplit("/", 1)[-1], str(p), functools.partial(open_key, file_key(p)))
        for p in paths
    ]
    if scan.sources is not None:
        links = scan.sources.imports
        listings = scan.sources.listings
        folded = links.shown_once(file.id for listing in listings for file in listing.files)
        for listing in listings:
            for source_file in listing.files:
                if source_file.id in folded:
                    continue  # Codex's copy, shown once: as its original
                where = links.labels.get(source_file.id, source_file.relative)
                opens = functools.partial(open_key, ref_key(source_file.ref))
                entries.append(
                    PaletteEntry(source_file.name, f"{listing.source.label} · {where}", opens)
                )
    return entries


def action_entry(
    name: str, menu: str | None, keys: Sequence[str], choose: Callable[[], object]
) -> PaletteEntry:
    """The command palette's row of an action: its name, its menu (matched with it) and
    its first key (shown, never matched): "Undo    Edit · Ctrl+Z"."""
    return PaletteEntry(name, (menu or "").capitalize(), choose, keys[0] if keys else "")


def by_label(entries: Sequence[PaletteEntry]) -> list[PaletteEntry]:
    """The command palette's order: by what each is called, case ignored."""
    return sorted(entries, key=lambda entry: entry.label.casefold())


T = TypeVar("T")

_WORD_STARTS = frozenset(" /_-.:·")
_AT_WORD_START = 8
_AFTER_PREVIOUS = 5
_MATCHED = 1
_BY_SCORE = operator.itemgetter(0, 1)  # score, then the earlier: never the candidates


def fuzzy_score(query: str, text: str) -> int | None:
    """How well `text` matches `query` (higher is better), or None when it does not: every
    letter of `query` (spaces ignored) in order in `text` (`fuzzy_positions`)."""
    found = fuzzy_positions(query, text)
    if not found:
        return None if found is None else 0
    haystack = text.casefold()
    at_starts = sum(at == 0 or haystack[at - 1] in _WORD_STARTS for at in found)
    in_runs = sum(at == before + 1 for before, at in itertools.pairwise(found))
    score = len(found) * _MATCHED + at_starts * _AT_WORD_START + in_runs * _AFTER_PREVIOUS
    return score * 100 - len(text)


def fuzzy_positions(query: str, text: str) -> tuple[int, ...] | None:
    """Where in `text` the letters of `query` matched, each at its first place after the one before
    (greedy and linear in `text`), to score and highlight them; None when it does not match."""
    wanted = "".join(query.split()).casefold()
    haystack = text.casefold()
    found: list[int] = []
    index = 0
    for letter in wanted:
        at = haystack.find(letter, index)
        if at < 0:
            return None
        found.append(at)
        index = at + 1
    return tuple(found)


def rank(
    query: str, candidates: Sequence[T], text_of: Callable[[T], str], limit: int = 200
) -> list[T]:
    """The candidates `query` matches, best first, at most `limit`."""
    scored: Iterable[tuple[int, int, T]] = (
        (score, -order, candidate)
        for order, candidate in enumerate(candidates)
        if (score := fuzzy_score(query, text_of(candidate))) is not None
    )
    return [candidate for _, _, candidate in heapq.nlargest(limit, scored, key=_BY_SCORE)]
