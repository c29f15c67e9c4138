"""Which dump the Traces tab reads and shows, without Qt: the selection reads a dump once,
a dump asked for before it was listed is selected after the scan, the selection kept or
said lost, the newest to start, a listed row adopted or read again, and what rescans."""

from __future__ import annotations

from pathlib import Path

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.traces import (
    DUMP_GONE,
    AfterScan,
    TraceOpening,
    rescans,
)
from memtab.store.home import PathKind, PathPlace
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary

A, B = Path("/home/debug_obj/ws/a.json"), Path("/home/debug_obj/ws/b.json")


def summary(path: Path, *, size: int = 100, modified: int | None = 5) -> TraceSummary:
    return TraceSummary(
        path=path,
        workspace_id="ws",
        workspace_name=None,
        run_started_at=None,
        trigger_message_id=None,
        model_string=None,
        outcome=Outcome.FAILED,
        error="",
        problem=None,
        size_bytes=size,
        modified_at_ms=modified,
    )


def test_the_selection_reads_a_dump_unless_shown_or_being_read() -> None:
    opening = TraceOpening()
    assert opening.selected(A)
    opening.read(A)
    assert not opening.selected(Path("/home/debug_obj/ws/../ws/a.json"))  # the same dump
    assert opening.selected(B)
    assert opening.landed(summary(A), summary(A, modified=None)) == summary(A)
    assert opening.reading is None
    assert not opening.selected(A) and opening.selected(B)


def test_a_dump_not_listed_is_shown_as_read() -> None:
    opening = TraceOpening()
    opening.read(B)
    read = summary(B, modified=None)
    assert opening.landed(None, read) is read


def test_a_dump_asked_for_is_selected_after_the_next_scan_only() -> None:
    opening = TraceOpening()
    opening.ask(B)
    assert opening.after_scan(A, rows=2) == (AfterScan.ASKED, B)
    assert opening.after_scan(A, rows=2) == (AfterScan.KEPT, A)


def test_the_newest_is_selected_to_start_when_nothing_is_shown_or_read() -> None:
    opening = TraceOpening()
    assert opening.after_scan(None, rows=0) == (AfterScan.NOTHING, None)
    assert opening.after_scan(None, rows=3) == (AfterScan.NEWEST, None)
    opening.read(A)
    assert opening.after_scan(None, rows=3) == (AfterScan.NOTHING, None)


def test_a_dump_no_longer_listed_is_said_pruned() -> None:
    opening = TraceOpening()
    opening.landed(summary(A), summary(A))
    assert opening.lost() == DUMP_GONE
    assert opening.shown is None


def test_a_listed_row_is_adopted_or_read_again_when_it_changed_on_disk() -> None:
    opening = TraceOpening()
    opening.landed(None, summary(A, modified=None))  # read before the scan listed it
    assert not opening.listed(summary(A))
    assert opening.shown == summary(A)  # adopted
    assert not opening.listed(summary(A))
    assert opening.listed(summary(A, size=120, modified=9))
    assert not opening.listed(summary(B))


def test_a_dump_or_the_registry_rescans() -> None:
    def batch(kind: PathKind) -> ChangeBatch:
        return ChangeBatch(("/p",), (PathPlace(kind),))

    assert rescans(batch(PathKind.WRITER_TRACES)) and rescans(batch(PathKind.CONFIG))
    assert not rescans(batch(PathKind.GLOBAL_SCOPE))
