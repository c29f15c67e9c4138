"""While history cannot be written (a full disk), the recorder says it is not recording, why
and since when (`memtab/history/recording.json`, docs/formats.md §14.5): `memtab doctor`
reports it, and the first pass that writes again clears it. It said nothing before; the
changes were left for a later pass, which might come ten minutes on (issue 49)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from memtab import humanize
from memtab.components.history.history import record_external_changes, recording_notice
from memtab.diagnostics.home import check_history
from memtab.fs.atomic import Directory
from memtab.store.catch_up.recording import STATE_BYTES, note_recording, recording_state
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.restore.from_history import file_history
from support.memory_paths import vpath

from .helpers import change_in_another_process, machine_with_notes, running_recorder, wait_for

FULL = "the disk holding {} is full"


class FullHistoryDisk:
    """Every file written under the history directory finds the disk full while `full`."""

    def __init__(self, home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        history = str(home.history_dir)
        write_temp = Directory.write_temp

        def full_or_written(directory: Directory, name: str, data: bytes, **kw: Any) -> str:
            if self.full and directory.display(name).startswith(history):
                raise OSError(errno.ENOSPC, "No space left on device", directory.display(name))
            return write_temp(directory, name, data, **kw)

        monkeypatch.setattr(Directory, "write_temp", full_or_written)


def history_findings(home: Home) -> list[tuple[str, str]]:
    _, found = check_history(home)
    return [(finding.level.value, finding.message) for finding in found.items]


@pytest.mark.expect_log("memtab.store.catch_up.external", "WARNING", r"cannot record external")
def test_the_recorder_says_history_is_not_recorded_on_a_full_disk_and_when_it_is_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    home = machine.home
    disk = FullHistoryDisk(home, monkeypatch)
    note = store.root(Scope.GLOBAL) / "note0.md"
    with running_recorder(home, retry_s=0.2) as recorder:
        assert getattr(recording_state(home), "recording", False)  # the first pass wrote it
        disk.full = True
        change_in_another_process(rewrite={note: "rewritten while the disk was full\n"})
        wait_for(
            lambda: not getattr(recording_state(home), "recording", True),
            "the recorder says history is not recorded",
        )
        state = recording_state(home)
        assert state is not None
        assert state.reason == FULL.format(home.history_dir)
        assert state.by == f"memtab watch (pid {os.getpid()})"
        assert home.recording_path.stat().st_size == STATE_BYTES  # written over in place
        since = humanize.absolute_time(state.since_ms)[:16]
        assert (
            "broken",
            f"History is not being recorded: {state.reason} (since {since}, found by "
            f"{state.by}); what other programs change is recorded once history can be written "
            "again",
        ) in history_findings(home)
        # The state is written within the pass; the pass is counted once it ends.
        wait_for(lambda: recorder.passes >= 1, "the pass that found the disk full ends")
        disk.full = False  # room again: the next try records what was left
        wait_for(
            lambda: getattr(recording_state(home), "recording", False),
            "the recorder says history is recorded again",
        )
        assert file_history(store, vpath("/memories/global/note0.md"))[0].op == "edit"
    assert not [message for _, message in history_findings(home) if "not being" in message]


@pytest.mark.expect_log("memtab.store.catch_up.external", "WARNING", r"cannot record external")
def test_the_windows_own_pass_says_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    machine, store = machine_with_notes(tmp_path, monkeypatch)
    home = machine.home
    disk = FullHistoryDisk(home, monkeypatch)
    record_external_changes(store)  # the window's pass after a scan: all recorded
    assert recording_notice(recording_state(home)) is None
    disk.full = True
    (store.root(Scope.PROJECT) / "note1.md").write_text("changed\n", "utf-8")
    report = record_external_changes(store)
    assert report.unrecorded == FULL.format(home.history_dir)
    word, meaning = recording_notice(recording_state(home)) or ("", "")
    assert word == "History not recorded"
    assert meaning.startswith(f"History is not being recorded: {report.unrecorded} (since ")
    assert "found by the window (pid " in meaning
    disk.full = False
    record_external_changes(store)
    assert recording_notice(recording_state(home)) is None


def test_a_state_is_kept_until_it_changes_and_since_with_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.history_dir.mkdir(parents=True)
    assert recording_state(home) is None
    note_recording(home, None, by="a")
    written = home.recording_path.stat().st_mtime_ns
    note_recording(home, None, by="b")  # the same news: nothing written
    assert home.recording_path.stat().st_mtime_ns == written
    first = note_recording(home, "full", by="a", clock=lambda: 1_000)
    later = note_recording(home, "still full", by="a", clock=lambda: 2_000)
    assert first is not None and later is not None
    assert (first.since_ms, later.since_ms, later.reason) == (1_000, 1_000, "still full")
    long = note_recording(home, "é" * 2000, by="a")
    assert long is not None and long.reason is not None and long.reason.endswith("…")
    assert len(home.recording_path.read_bytes()) == STATE_BYTES
    assert json.loads(home.recording_path.read_bytes())["reason"] == long.reason
