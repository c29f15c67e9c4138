"""Listing the dumps of a home: across workspaces, newest first, tolerant of strange files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.demo import DARK_MODE_ID, MAIN_ID, MULTI_ID
from memtab.store.home import Home
from memtab.traces import catalog
from memtab.traces.catalog import TraceCatalog, list_traces, trace_workspace_ids
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary
from support.demo_homes import copied_demo_home
from support.trace_dumps import (
    DEMO_STARTED,
    ODD_TYPES_STARTED,
    OLD_FORMAT_STARTED,
    fixture_dump,
    install_dump,
)


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """The demo home (its own dumps, 54 and 66 min old) plus three fixture dumps."""
    demo = copied_demo_home(tmp_path / "home")
    install_dump(demo, DARK_MODE_ID, fixture_dump("old-format"), f"{OLD_FORMAT_STARTED}_m.json")
    install_dump(demo, MULTI_ID, fixture_dump("odd-types"), f"{ODD_TYPES_STARTED}_1234567.json")
    install_dump(demo, MAIN_ID, fixture_dump("demo"), f"{DEMO_STARTED}_assistant-0001.json")
    return demo


def test_dumps_of_every_workspace_newest_first(home: Home) -> None:
    summaries = list_traces(home)
    assert [s.workspace_id for s in summaries] == [
        MAIN_ID,
        MAIN_ID,
        MULTI_ID,
        MAIN_ID,
        DARK_MODE_ID,
    ]
    times = [s.run_started_at or 0 for s in summaries]
    assert times == sorted(times, reverse=True)
    assert summaries[2].run_started_at == ODD_TYPES_STARTED
    assert [s.outcome for s in summaries] == [
        Outcome.TIMED_OUT,
        Outcome.WROTE_MEMORY,
        Outcome.PROVIDER_ERROR,
        Outcome.TIMED_OUT,
        Outcome.POLICY_NOT_SATISFIED,
    ]


def test_workspace_names_come_from_the_registry(home: Home) -> None:
    names = {s.workspace_id: s.workspace_name for s in list_traces(home)}
    assert names == {
        MAIN_ID: "Fix the token refresh race",
        MULTI_ID: "Sync the API client",
        DARK_MODE_ID: "Dark mode",
    }


def test_a_deleted_workspace_keeps_its_dumps_with_the_dumps_own_name(home: Home) -> None:
    install_dump(home, "deadbeef00", fixture_dump("old-format"), "1700000000000_x.json")
    (gone,) = [s for s in list_traces(home) if s.workspace_id == "deadbeef00"]
    assert gone.workspace_name == "dark-mode"  # the dump's workspaceName
    assert gone.display_workspace == "dark-mode"


def test_filter_by_workspace(home: Home) -> None:
    assert [s.workspace_id for s in list_traces(home, MAIN_ID)] == [MAIN_ID] * 3
    assert list_traces(home, "nonexistent") == []


def test_other_files_are_ignored(home: Home) -> None:
    folder = home.trace_dir(MAIN_ID)
    (folder / "notes.txt").write_text("not a dump")
    (folder / ".hidden.json").write_text("{}")
    (folder / ".1_x.json.tmp").write_text("{")
    (folder / "subdir.json").mkdir()
    (home.debug_dir / MAIN_ID / "other_tool").mkdir()
    (home.debug_dir / MAIN_ID / "other_tool" / "1_x.json").write_text("{}")
    (home.debug_dir / "stray.json").write_text("{}")
    assert len(list_traces(home)) == 5


def test_unreadable_and_garbage_files_are_entries_with_an_error(home: Home) -> None:
    folder = home.trace_dir(MAIN_ID)
    os.symlink(folder / "missing-target.json", folder / "1800000000000_dangling.json")
    (folder / "1800000000001_garbage.json").write_bytes(b"\x00\xffnot json at all")
    summaries = {s.path.name: s for s in list_traces(home)}
    dangling = summaries["1800000000000_dangling.json"]
    assert dangling.outcome is Outcome.UNREADABLE
    assert dangling.problem is not None and dangling.problem.startswith("Cannot read the file")
    assert dangling.run_started_at == 1800000000000  # from the file name
    assert dangling.trigger_message_id == "dangling"
    garbage = summaries["1800000000001_garbage.json"]
    assert garbage.outcome is Outcome.UNREADABLE
    assert garbage.problem is not None and garbage.problem.startswith("The file is corrupt")
    assert garbage.error.startswith("The file is corrupt")


def test_truncated_file_is_listed_with_its_problem(home: Home) -> None:
    install_dump(home, MAIN_ID, fixture_dump("truncated"), "1767261700000_assistant-0002.json")
    (summary,) = [s for s in list_traces(home) if s.path.name.startswith("1767261700000")]
    assert summary.outcome is Outcome.TIMED_OUT
    assert summary.problem is not None and summary.problem.startswith("The file is truncated")
    assert summary.to_json()["problem"] == summary.problem


def test_no_debug_dir_means_no_dumps(tmp_path: Path) -> None:
    empty = Home(tmp_path / "empty")
    assert list_traces(empty) == []
    assert trace_workspace_ids(empty) == []


def test_catalog_rereads_only_changed_files_and_forgets_deleted_ones(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    traces = TraceCatalog(home)
    first = traces.scan()
    read: list[str] = []
    real = catalog.summarize_trace

    def counting(path: Path, workspace_id: str | None = None) -> TraceSummary:
        read.append(path.name)
        return real(path, workspace_id)

    monkeypatch.setattr(catalog, "summarize_trace", counting)
    assert traces.scan() == first
    assert read == []

    changed = first[-1].path  # the old-format dump
    changed.write_text(fixture_dump("demo").read_text(encoding="utf-8"), encoding="utf-8")
    os.utime(changed, ns=(1, 1))
    rescanned = traces.scan()
    assert read == [changed.name]
    assert next(s for s in rescanned if s.path == changed).outcome is Outcome.TIMED_OUT

    first[0].path.unlink()
    assert len(traces.scan()) == len(first) - 1


def test_dump_folders_an_older_memtab_left_open_are_closed_as_they_are_listed(
    home: Home,
) -> None:
    """An older Memtab wrote its dumps (transcripts' and memory's words) 0644 in 0755
    folders: listing them makes each folder private, so no other user reads them
    (docs/formats.md §16.2; issue 70 point 1)."""
    folders = [home.trace_dir(owner) for owner in trace_workspace_ids(home)]
    for folder in folders:
        folder.chmod(0o755)
    assert list_traces(home)
    assert {oct(os.stat(folder).st_mode & 0o777) for folder in folders} == {"0o700"}
