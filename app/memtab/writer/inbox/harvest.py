"""mux's harvest inbox: the memory candidates mux draws from a transcript at compaction
(docs/formats.md §10.5)."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Collection
from dataclasses import dataclass
from itertools import pairwise

from memtab.store.errors import NotFoundError
from memtab.store.files import content_sha256
from memtab.store.home import HARVEST_DIR_NAME
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)

HARVEST_DIR = f"/memories/workspace/{HARVEST_DIR_NAME}"
# mux's candidate categories (MemoryCandidateSchema) and its limit on a candidate's text.
CATEGORIES = ("preference", "project", "environment", "workflow", "other")
MAX_TEXT_CHARS = 1000
_HEADING = re.compile(r"^## (" + "|".join(CATEGORIES) + r")\s*$")
_EVIDENCE = "Evidence: "
_CONFIDENCE = "Confidence: "
_RATIONALE = "Rationale: "
_BOUNDARY = re.compile(r"^Source boundary: (.+)", re.MULTILINE)  # its trailing blanks: code
_EPOCH = re.compile(r"^# Harvest inbox: compaction (\S+)\s*$", re.MULTILINE)


class HarvestError(Exception):
    """A decision the inbox refuses (the candidate is gone, the file changed…)."""


@dataclass(frozen=True)
class Candidate:
    """One candidate of a harvest file; its `id` is stable (file, category, text, evidence)."""

    id: str
    category: str
    text: str
    evidence: tuple[str, ...]
    confidence: float | None
    rationale: str
    path: str  # the harvest file's virtual path


@dataclass(frozen=True)
class _Block:
    """Lines of the file: the header, a candidate, or a block that reads as neither."""

    lines: tuple[str, ...]
    candidate: Candidate | None = None


@dataclass(frozen=True)
class HarvestFile:
    """A parsed harvest file: its candidates, and the lines they came from."""

    path: str
    boundary: str | None  # mux's summary message id ("Source boundary:")
    epoch: str | None  # the compaction epoch from the title
    blocks: tuple[_Block, ...]
    sha256: str

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return tuple(block.candidate for block in self.blocks if block.candidate is not None)


def candidate_id(path: str, category: str, text: str, evidence: Collection[str]) -> str:
    """`h` and 10 hex digits, as mux's duplicate key sees a candidate (text with its
    whitespace collapsed and case folded, evidence in any order), within one file."""
    key = "\0".join((path, category, " ".join(text.split()).casefold(), *sorted(evidence)))
    return "h" + hashlib.blake2b(key.encode(), digest_size=5).hexdigest()


def parse_harvest(path: str, content: str) -> HarvestFile:
    """Read a harvest file (never raises: what is not a candidate is kept as a block)."""
    lines = content.split("\n")
    starts = [0]
    complete = True  # the block before a heading is done (the header, or it had its fields)
    for index, line in enumerate(lines):
        if _HEADING.match(line) and complete:
            starts.append(index)
            complete = False
        elif line.startswith(_RATIONALE):
            complete = True
    bounds = [*starts, len(lines)]
    blocks = [_Block(tuple(lines[: bounds[1]]))]
    for start, end in pairwise(bounds[1:]):
        chunk = tuple(lines[start:end])
        blocks.append(_Block(chunk, _candidate(path, chunk)))
    boundary = _BOUNDARY.search("\n".join(blocks[0].lines))
    epoch = _EPOCH.search("\n".join(blocks[0].lines))
    return HarvestFile(
        path,
        (boundary.group(1).rstrip() or boundary.group(1)[0]) if boundary else None,
        epoch.group(1) if epoch else None,
        tuple(blocks),
        content_sha256(content),
    )


def _candidate(path: str, lines: tuple[str, ...]) -> Candidate | None:
    """A block `## category`, text, `Evidence:`, `Confidence:`, `Rationale:` (the
    rationale may run on over several lines); None when it is not that."""
    heading = _HEADING.match(lines[0])
    assert heading is not None
    fields = next(
        (
            index
            for index in range(len(lines) - 3, 0, -1)
            if lines[index].startswith(_EVIDENCE)
            and lines[index + 1].startswith(_CONFIDENCE)
            and lines[index + 2].startswith(_RATIONALE)
        ),
        None,
    )
    if fields is None:
        return None
    text = "\n".join(lines[1:fields]).strip()
    evidence = tuple(
        part.strip() for part in lines[fields][len(_EVIDENCE) :].split(",") if part.strip()
    )
    rationale = "\n".join((lines[fields + 2][len(_RATIONALE) :], *lines[fields + 3 :])).strip()
    if not text or not evidence:
        return None
    category = heading.group(1)
    return Candidate(
        id=candidate_id(path, category, text, evidence),
        category=category,
        text=text,
        evidence=evidence,
        confidence=_confidence(lines[fields + 1][len(_CONFIDENCE) :]),
        rationale=rationale,
        path=path,
    )


def _confidence(raw: str) -> float | None:
    try:
        value = float(raw.strip())
    except ValueError:
        return None
    return value if 0.0 <= value <= 1.0 else None


def without_candidates(harvest: HarvestFile, ids: Collection[str]) -> str | None:
    """The file's text with these candidates removed; None when nothing would be left to
    decide (then the file goes, as mux deletes an inbox without candidates)."""
    kept = [
        block
        for block in harvest.blocks[1:]
        if block.candidate is None or block.candidate.id not in ids
    ]
    if not kept:
        return None
    lines = [line for block in (harvest.blocks[0], *kept) for line in block.lines]
    return "\n".join(lines).rstrip() + "\n"  # mux's files end in one newline


class HarvestInbox:
    """The harvest files of one workspace, read and decided through `store` (whose
    actor and run id are what history records for every change)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def files(self) -> list[HarvestFile]:
        """Every harvest file of the workspace, by name (a file that vanished or cannot be
        read is left out, and logged)."""
        found: list[HarvestFile] = []
        for name, is_dir in sorted(self.store.entries(parse_file_path(HARVEST_DIR))):
            if is_dir or not name.endswith(".md"):
                continue
            path = f"{HARVEST_DIR}/{name}"
            try:
                read = self.store.read(parse_file_path(path))
            except NotFoundError:
                continue
            except (OSError, PathError) as error:
                logger.info("Harvest inbox: cannot read %s: %s", path, error)
                continue
            found.append(parse_harvest(path, read.content))
        return found

    def candidates(self) -> list[Candidate]:
        return [candidate for harvest in self.files() for candidate in harvest.candidates]

    def remove(self, path: str, ids: Collection[str]) -> list[Candidate]:
        """Take these candidates out of their file (deleting it with its last one), under
        the scope lock, re-reading first. HarvestError when one is no longer there."""
        removed: list[Candidate] = []

        def change(text: str) -> str:
            harvest = parse_harvest(path, text)
            removed[:] = _present(harvest, ids)
            left = without_candidates(harvest, ids)
            if left is None:  # it changed since the check below: decide on what is there
                raise HarvestError(f"{path} changed while deciding; reload the inbox")
            return left

        try:
            current = self.store.read(parse_file_path(path))
        except NotFoundError:
            raise HarvestError(f"{path} is gone (mux or another Memtab removed it)") from None
        harvest = parse_harvest(path, current.content)
        if without_candidates(harvest, ids) is None:
            removed = _present(harvest, ids)  # the last candidates: the file goes
            self._delete_if(path, current.sha256)
            return removed
        self.store.edit_text(parse_file_path(path), change)
        return removed

    def _delete_if(self, path: str, sha256: str) -> None:
        """Delete the file if it still holds what was decided on. mux takes no lock of
        Memtab's, so a harvest it writes in the instant between this check and the delete
        is not lost either way: a delete keeps what it removes in history (Trash)."""
        try:
            now = self.store.read(parse_file_path(path))
        except NotFoundError:
            return
        if now.sha256 != sha256:
            raise HarvestError(f"{path} changed while deciding; reload the inbox")
        self.store.delete(parse_file_path(path))


def _present(harvest: HarvestFile, ids: Collection[str]) -> list[Candidate]:
    """The candidates with these ids, in the order given (HarvestError when one is gone)."""
    present = {c.id: c for c in harvest.candidates}
    missing = [i for i in ids if i not in present]
    if missing:
        raise HarvestError(
            f"{harvest.path} no longer holds candidate {', '.join(missing)} "
            "(mux or another Memtab changed it); reload the inbox"
        )
    return [present[i] for i in dict.fromkeys(ids)]
