"""`measure.py --by-extractor` names the extractor of every note the writer writes, and tracing
changes none of them."""

from __future__ import annotations

from pathlib import Path

from .corpus import WRITER_CASES
from .provenance import UNKNOWN, traced_notes
from .scoring import notes_for_transcript


def test_every_note_is_traced_to_its_extractor_and_tracing_changes_none(tmp_path: Path) -> None:
    sources: set[str] = set()
    for case in WRITER_CASES:
        traced = traced_notes(case.path, tmp_path)
        assert [note for note, _ in traced] == notes_for_transcript(case.path, tmp_path)
        sources |= {source for _, source in traced}
    assert UNKNOWN not in sources
    assert len(sources) >= 10  # the writer's extractors, each told apart
