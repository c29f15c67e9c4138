"""Lines of two memories a session sees together that state different values for one
thing (docs/formats.md §19.6).

Each memory's claims (`claims.claims_of`: a port, a version, a setting, a command, a
path, a tool to use, always or never) are compared with every other memory's claims of
the same kind about the same thing, where one workspace's sessions see both memories
(`check.documents.seen_together`: global memory with everything, a project's with its
workspaces'). Two claims in one memory are never compared (one file telling how a value
changed is telling a story), nor records of what happened (session summaries, episodes).
Each pair says which line is newer: when each was written, by blame (history: the
version that brought the line in), else when its file last changed.

`ContradictionsEngine` keeps each file's claims (`trust.per_file`, in Memtab's cache dir
too): a second run, in this process or the next, reads every file again but reads claims
only out of those whose text changed.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from memtab.blame.service import blame_file
from memtab.check.documents import Document, seen_together
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFileError
from memtab.markdown import text_lines
from memtab.store.errors import MemoryStoreError
from memtab.store.home import Home
from memtab.store.paths import PathError
from memtab.trust.contradictions.claims import Claim, claims_of, contradict, group_keys
from memtab.trust.contradictions.records import (
    ClaimedLine,
    Contradiction,
    ContradictionsReport,
)
from memtab.trust.kept_texts import KeptTexts
from memtab.trust.memories import place_of, read_memories
from memtab.trust.per_file import KeptOnDisk, PerFile, collection_paused

LineTime = Callable[[Document, int], int]
"""When a line of a memory was written (ms since the epoch)."""
MAX_PAIRS_A_LINE = 25
"""At most this many pairs are told of one line (the first, by path): a line that
disagrees with more memories than that is shown with these."""


class ContradictionsEngine:
    """Finds the contradictions of a home's memory (see the module doc)."""

    def __init__(
        self,
        home: Home,
        *,
        env: Mapping[str, str] | None = None,
        sources: bool = True,
        line_time: LineTime | None = None,
    ) -> None:
        self.home = home
        self._env = env
        self._sources = sources
        self._texts = KeptTexts(home)
        self._claims = PerFile(
            KeptOnDisk.of_home(home, "contradictions", pack=packed_claims, unpack=unpacked_claims)
        )
        self._line_time = line_time or BlamedTimes(home)

    @collection_paused()
    def find(self, workspace_id: str | None = None) -> ContradictionsReport:
        """Every contradiction of the home's memory (or of what `workspace_id`'s sessions
        see). HomeError for an unusable registry or an unknown workspace."""
        collected = read_memories(
            self.home, workspace_id, sources=self._sources, env=self._env, texts=self._texts
        )
        everything = workspace_id is None and self._sources
        return ContradictionsReport(
            contradictions=tuple(self.pairs_of(collected.documents, everything=everything)),
            files_read=len(collected.documents),
            problems=collected.problems,
        )

    def pairs_of(
        self, documents: Sequence[Document], *, everything: bool = True
    ) -> list[Contradiction]:
        """The contradictions among `documents` (see the module doc); `everything`: they
        are every memory the engine reads (what it keeps of others is forgotten)."""
        compared = sorted((d for d in documents if not d.record), key=lambda d: (d.path, d.key))
        claims = self._claims.of_all(compared, _claims_of, everything=everything)
        by_thing: dict[tuple[str, str], list[tuple[Document, Claim]]] = defaultdict(list)
        for document, found in zip(compared, claims, strict=True):
            for claim in found:
                for key in group_keys(claim):
                    by_thing[(claim.kind, key)].append((document, claim))
        found_pairs: list[Contradiction] = []
        lines_of: dict[str, list[str]] = {}  # a file's lines, split once a run
        for said in by_thing.values():
            if len({claim.value for _, claim in said}) < 2:
                continue  # every memory says the same
            told: dict[tuple[str, int], int] = defaultdict(int)
            seen: set[tuple[str, int, str, int]] = set()
            # Every pair in order (`combinations`), the cheap tests first: one value twice
            # is no contradiction, and a line told `MAX_PAIRS_A_LINE` times is told no more
            # (copies of one memory repeat a claim hundreds of times: millions of pairs).
            for index, (one_doc, one) in enumerate(said):
                line = (one_doc.key, one.line)
                for other_doc, other in itertools.islice(said, index + 1, None):
                    if told[line] >= MAX_PAIRS_A_LINE:
                        break  # every later pair of this line is one too many
                    if one.value == other.value or one_doc.key == other_doc.key:
                        continue
                    other_line = (other_doc.key, other.line)
                    if told[other_line] >= MAX_PAIRS_A_LINE or not contradict(one, other):
                        continue
                    if not seen_together(one_doc, other_doc):
                        continue
                    slot = (*line, *other_line)
                    if slot in seen:
                        continue
                    seen.add(slot)
                    told[line] += 1
                    told[other_line] += 1
                    found_pairs.append(self._pair(one_doc, one, other_doc, other, lines_of))
        return sorted(found_pairs, key=lambda c: (c.first.place.path, c.first.place.line or 0))

    def _pair(
        self,
        one_doc: Document,
        one: Claim,
        other_doc: Document,
        other: Claim,
        lines_of: dict[str, list[str]],
    ) -> Contradiction:
        first = _side(one_doc, one, self._line_time(one_doc, one.line), lines_of)
        second = _side(other_doc, other, self._line_time(other_doc, other.line), lines_of)
        newer: Literal["first", "second"] | None = None
        if first.written_at != second.written_at:
            newer = "first" if first.written_at > second.written_at else "second"
        return Contradiction(
            kind=one.kind,  # type: ignore[arg-type]
            about=one.shown,
            first=first,
            second=second,
            newer=newer,
            why=_why(first, second, newer),
        )


def _claims_of(document: Document) -> tuple[Claim, ...]:
    return claims_of(document.text)


def packed_claims(claims: tuple[Claim, ...]) -> object:
    """A memory's claims as the engine's cache keeps them (`per_file.KeptOnDisk`)."""
    return tuple(map(tuple, claims))


def unpacked_claims(held: Any) -> tuple[Claim, ...]:
    """`packed_claims`' inverse (TypeError or ValueError for what it never made)."""
    if type(held) is not tuple:
        raise TypeError("not a memory's claims")
    return tuple(map(Claim._make, held))


def _side(
    document: Document, claim: Claim, written_at: int, lines_of: dict[str, list[str]]
) -> ClaimedLine:
    lines = lines_of.get(document.key)
    if lines is None:
        lines = lines_of[document.key] = text_lines(document.text)
    text = lines[claim.line - 1] if 0 < claim.line <= len(lines) else ""
    value = claim.value.removeprefix("not:")
    shown = f"not {value}" if claim.value.startswith("not:") else value
    return ClaimedLine(
        place=place_of(document, claim.line, text), value=shown, written_at=written_at
    )


def _why(first: ClaimedLine, second: ClaimedLine, newer: str | None) -> str:
    said = f"One says {first.value}, the other {second.value}"
    if newer is None:
        return f"{said}: at most one is still true, and history cannot tell which is newer."
    newest = first if newer == "first" else second
    return f"{said}: at most one is still true; the line saying {newest.value} is newer."


class BlamedTimes:
    """When a line was written, by blame (the version of history that brought it in),
    else when its file last changed; each file blamed once per engine run's file text."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._blamed: dict[tuple[str, bytes], dict[int, int]] = {}

    def __call__(self, document: Document, line: int) -> int:
        slot = (document.key, document.packed)
        times = self._blamed.get(slot)
        if times is None:
            times = self._blamed[slot] = self._blame(document)
        return times.get(line, document.modified_ms)

    def _blame(self, document: Document) -> dict[int, int]:
        if document.origin is None:
            return {}
        try:
            blamed = blame_file(document.origin.opened(document, self.home))
        except (MemoryFileError, MemoryStoreError, SourceError, PathError, OSError, TypeError):
            return {}
        return {line.line: line.at for line in blamed.lines}
