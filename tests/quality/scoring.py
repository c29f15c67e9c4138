"""How the offline writer is run and scored on the corpus (`corpus.py` holds the cases):
its notes on one transcript, read in the same bounded pass as a real run, and precision
and recall against the labels."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.reader import read_transcript
from memtab.writer.job.run import load_writer_events
from memtab.writer.offline.extract import TranscriptDigest
from memtab.writer.offline.findings import Findings
from memtab.writer.offline.notes import Note, plan_notes, surest_notes
from quality.corpus import WRITER_CASES, Expected, WriterCase


def unpacked(path: Path, scratch: Path) -> Path:
    """A transcript's path, a `.gz` one unpacked into `scratch` first."""
    if path.suffix == ".gz":
        target = scratch / path.name.removesuffix(".gz")
        with gzip.open(path, "rb") as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        return target
    return path


def load_events(path: Path, scratch: Path) -> list[TranscriptEvent]:
    """The events of a transcript (a `.gz` one is unpacked into `scratch` first)."""
    return read_transcript(unpacked(path, scratch)).events


def notes_written(findings: Findings) -> list[Note]:
    """What an offline run writes to an empty notes file from `findings`: the surest
    `MAX_NOTES_PER_RUN` (`writer.job.offline_provider` does the same)."""
    return surest_notes(plan_notes("", findings))[0]


def notes_for_transcript(path: Path, scratch: Path) -> list[Note]:
    """What the offline writer's run adds to an empty notes file from a transcript: the
    same bounded pass over the whole file as `writer.job.providers.read_for_run`."""
    digest = TranscriptDigest()
    load_writer_events(unpacked(path, scratch), observe=digest.add)
    return notes_written(digest.findings())


@dataclass
class Score:
    """Precision and recall over cases, and what went wrong where."""

    written: int = 0
    right: int = 0
    expected: int = 0
    found: int = 0
    wrong: list[tuple[str, str]] = field(default_factory=list)  # (case, note)
    missing: list[tuple[str, Expected]] = field(default_factory=list)

    def add(self, case: WriterCase, notes: Sequence[Note]) -> None:
        self.written += len(notes)
        for note in notes:
            if any(item.matches(note) for item in case.expected):
                self.right += 1
            else:
                self.wrong.append((case.name, note.text))
        self.expected += len(case.expected)
        for item in case.expected:
            if any(item.matches(note) for note in notes):
                self.found += 1
            else:
                self.missing.append((case.name, item))

    @property
    def precision(self) -> float:
        return self.right / self.written if self.written else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0


def score_writer(scratch: Path, cases: Sequence[WriterCase] = WRITER_CASES) -> Score:
    score = Score()
    for case in cases:
        score.add(case, notes_for_transcript(case.path, scratch))
    return score
