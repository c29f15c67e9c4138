"""A run stopped midway tells the truth (issue 19): a full disk, a kill, a held lock.

Whatever stops a run, the journal and the runs log say what it applied and the message
says what was and was not done; a run killed midway is logged by the next start, its
changes the consolidator's under its id; a run that cannot take a scope fails at once,
naming who holds it, and journals nothing.

A full disk is simulated at the write layer: once it "fills", every file written (a
memory file, a history copy, the journal) and every line appended (the runs log, the
started-run file) fails with ENOSPC.
"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.consolidation.review.plan import write_plan
from memtab.consolidation.service import ConsolidationService
from memtab.demo import MAIN_ID
from memtab.fs import atomic
from memtab.fs.clock import now_ms
from memtab.fs.locking.locks import InterprocessLock, LockUnavailableError
from memtab.llm.settings import ProviderSettings
from memtab.store.history import jsonlines
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import RunsLog
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home
from support.memory_paths import vpath
from support.processes import python_child

OFFLINE = ProviderSettings("offline", "offline", "")
LF_LINE = "Use `pytest --lf` to rerun only the last failures."
TESTING = "/memories/project/testing.md"
GOTCHAS = "/memories/project/gotchas.md"


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


@pytest.fixture
def plan_file(demo: Home, tmp_path: Path) -> Path:
    path = tmp_path / "plan.json"
    write_plan(path, ConsolidationService(demo, settings=OFFLINE).plan(MAIN_ID))
    return path


def cli(home: Home, *args: str) -> list[str]:
    return ["--home", str(home.root), "consolidate", "--workspace", MAIN_ID, *args]


def memtab_runs(home: Home) -> list[RunEntry]:
    """The runs Memtab made in the test (the demo's journal brings mux's runs into the
    log, and the demo's own history has runs an hour old or more)."""
    recent = now_ms() - 30 * 60_000
    return [run for run in RunsLog(home).runs() if run.source == "memtab" and run.at > recent]


def store_of(home: Home) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(MAIN_ID))


def text_of(home: Home, path: str) -> str | None:
    data = store_of(home).read_whole(vpath(path))
    return data.decode() if data is not None else None


class FullDisk:
    """The disk holding the home fills once `memory_writes` memory files were written
    (see the module doc); temporary directories elsewhere keep their room."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, home: Home, memory_writes: int) -> None:
        self.root = str(home.root)
        self.left = memory_writes
        self.full = False
        write_temp, append = atomic.Directory.write_temp, jsonlines.JsonLinesFile.append_locked

        def limited_write_temp(
            directory: atomic.Directory, name: str, data: bytes, **kw: Any
        ) -> str:
            self._check(directory.path)
            temp = write_temp(directory, name, data, **kw)
            inside = directory.path.removeprefix(self.root)
            if inside != directory.path and inside.startswith(("/memory/", "/sessions/")):
                self.left -= 1
                self.full = self.full or self.left <= 0
            return temp

        def limited_append(file: jsonlines.JsonLinesFile[Any], records: Any, **kw: Any) -> None:
            self._check(str(file.path))
            append(file, records, **kw)

        monkeypatch.setattr(atomic.Directory, "write_temp", limited_write_temp)
        monkeypatch.setattr(jsonlines.JsonLinesFile, "append_locked", limited_append)

    def _check(self, path: str) -> None:
        if self.full and path.startswith(self.root):
            raise OSError(errno.ENOSPC, "No space left on device")


# --- a full disk -------------------------------------------------------------------------------


@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", "Could not record the history")
@pytest.mark.expect_log("memtab.store.history.started", "WARNING", "end of run")
@pytest.mark.expect_log("memtab.consolidation.engine.run_books", "WARNING", "Could not add run")
@pytest.mark.expect_log(
    "memtab.store.scopes.scope_store", "WARNING", "Could not update memory-meta"
)
def test_an_apply_on_a_disk_that_fills_says_what_was_done_and_is_logged_later(
    demo: Home,
    plan_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    journal_before = demo.journal_path.read_bytes()
    disk = FullDisk(monkeypatch, demo, memory_writes=1)  # room for the first change only
    assert main(cli(demo, "--apply-plan", str(plan_file))) == 1
    assert disk.full
    out, err = capsys.readouterr()
    assert out.splitlines()[:2] == [
        "[applied ] insert /memories/project/testing.md — Took 1 item it lacked from "
        "project/test-tips.md (59% alike), which is then deleted.",
        "[rejected] str_replace /memories/project/gotchas.md — not made: the run could not "
        "record it first (No space left on device)",
    ]
    assert err.startswith("memtab: the run stopped midway: op 2 (Removed 1 line from gotchas.md)")
    assert err.endswith(
        "; 1 change applied, 3 changes not made; mux's journal could not record it (No space "
        "left on device); Memtab's runs log could not take it either: it is logged the next "
        "time Memtab starts with room on the disk\n"
    )
    # Nothing is lost: the merge's delete never ran without its insert.
    assert LF_LINE in (text_of(demo, TESTING) or "")
    assert text_of(demo, "/memories/project/test-tips.md") is not None
    assert demo.journal_path.read_bytes() == journal_before and memtab_runs(demo) == []

    monkeypatch.undo()  # room again: the next start logs the run, its change its own
    assert main(["--home", str(demo.root), "runs", "--workspace", MAIN_ID]) == 0
    (run,) = memtab_runs(demo)
    assert run.status == "failed" and run.error is not None and "disk was full" in run.error
    assert [(op.command, op.applied) for op in run.ops] == [("insert", True)]
    assert run.summary == "Interrupted after 1 of 4 changes: added 1 line to testing.md."
    key = store_of(demo).history_key(Scope.PROJECT)
    newest = ScopeHistory(demo, key).newest_by_path()[TESTING]
    assert (newest.actor, newest.run_id) == ("consolidator", run.id)
    assert Journal(demo).load().workspaces[MAIN_ID].summary == run.summary
    assert not demo.started_runs_dir.exists() or not list(demo.started_runs_dir.iterdir())


def test_a_journal_that_cannot_be_written_is_said_and_the_runs_log_has_the_run(
    demo: Home,
    plan_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_room(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Journal, "save_run", no_room)
    assert main(cli(demo, "--apply-plan", str(plan_file))) == 1
    out, err = capsys.readouterr()
    assert [line.split()[0:2] for line in out.splitlines()[:4]] == [["[applied", "]"]] * 4
    assert err == (
        "memtab: every change listed as applied was made, but mux's journal could not record "
        "it (No space left on device); Memtab's runs log has the run\n"
    )
    (run,) = memtab_runs(demo)
    assert run.status == "failed" and run.applied_count == 4
    assert run.error == "mux's journal could not record it (No space left on device)"


def test_a_run_that_cannot_record_its_start_changes_nothing(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    started = demo.root / "memtab" / "history" / "started"  # where runs record their start
    started.parent.mkdir(parents=True, exist_ok=True)
    started.write_text("not a directory")  # nothing can be written there
    files_before = {p: p.read_bytes() for p in (demo.root / "memory").rglob("*.md")}
    journal_before = demo.journal_path.read_bytes()
    assert main(cli(demo, "--provider", "offline")) == 1
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .startswith(
            "memtab: the run did not start: Memtab could not record it first (Not a directory: "
        )
    )
    assert {p: p.read_bytes() for p in (demo.root / "memory").rglob("*.md")} == files_before
    assert demo.journal_path.read_bytes() == journal_before


# --- killed midway ---------------------------------------------------------------------------

KILLED_AT_DISPATCH = r"""
import os, sys
from pathlib import Path
from memtab.consolidation import guard
from memtab.consolidation.review.plan import read_plan
from memtab.consolidation.service import ConsolidationService
from memtab.store.home import Home

made = guard.ConsolidationGuard.execute
def execute(self, raw):
    result = made(self, raw)
    real = str(self.store.home.root) == sys.argv[1]  # not the check's scratch copy
    if real and raw.get("path") == sys.argv[3]:
        os._exit(9)  # killed right after this change
    return result
guard.ConsolidationGuard.execute = execute
ConsolidationService(Home(Path(sys.argv[1]))).apply_plan(read_plan(Path(sys.argv[2])))
"""

KILLED_BEFORE_RECORD = r"""
import os, sys
from pathlib import Path
from memtab.consolidation.review.plan import read_plan
from memtab.consolidation.service import ConsolidationService
from memtab.store.history import recorder
from memtab.store.home import Home

record = recorder.HistoryRecorder.record
def killed(self, key, changes, **kw):
    if any(change.path == sys.argv[3] for change in changes):
        os._exit(9)  # the change is on disk, its version not recorded yet
    return record(self, key, changes, **kw)
recorder.HistoryRecorder.record = killed
ConsolidationService(Home(Path(sys.argv[1]))).apply_plan(read_plan(Path(sys.argv[2])))
"""


# slow: starts other processes (an apply killed midway; ~0.5 s of CPU or more)
@pytest.mark.slow
@pytest.mark.parametrize("script", [KILLED_AT_DISPATCH, KILLED_BEFORE_RECORD])
def test_an_apply_killed_midway_is_logged_by_the_next_start(
    demo: Home, plan_file: Path, script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    killed = subprocess.run(
        [sys.executable, "-c", script, str(demo.root), str(plan_file), GOTCHAS],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert killed.returncode == 9, killed.stderr
    assert memtab_runs(demo) == []  # nothing logged it: the process died
    assert main(["--home", str(demo.root), "runs", "--workspace", MAIN_ID, "--json"]) == 0
    ran = [run for run in json.loads(capsys.readouterr().out)["runs"] if run["source"] == "memtab"]
    (run,) = [run for run in ran if run["at"] > now_ms() - 30 * 60_000]  # not the demo's own
    assert run["status"] == "failed" and "interrupted" in run["error"]
    assert [(op["command"], op["path"], op["applied"]) for op in run["ops"]] == [
        ("insert", TESTING, True),
        ("str_replace", GOTCHAS, True),
    ]
    assert run["summary"] == (
        "Interrupted after 2 of 4 changes: added 1 line to testing.md; removed 1 line from "
        "gotchas.md."
    )
    key = store_of(demo).history_key(Scope.PROJECT)
    newest = ScopeHistory(demo, key).newest_by_path()
    for path in (TESTING, GOTCHAS):  # the consolidator's, under the run's id: not external
        assert (newest[path].actor, newest[path].run_id) == ("consolidator", run["id"])
    assert Journal(demo).load().workspaces[MAIN_ID].summary == run["summary"]


# --- a scope another program keeps locked ----------------------------------------------------

SCOPE_HOLDER = r"""
import sys
from pathlib import Path
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.paths import Scope
from memtab.store.sidecars.registry import load_registry
home = Home(Path(sys.argv[1]))
store = MemoryStore(home, load_registry(home).require_workspace(sys.argv[2]))
with store.writing(Scope.PROJECT):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_run_whose_scope_another_process_holds_fails_fast_naming_it(
    demo: Home,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    scope_wait_s: float,
) -> None:
    refused: list[tuple[str, float]] = []  # (lock file, how long it was waited for)
    acquire = InterprocessLock.acquire

    def recording(lock: InterprocessLock, timeout_s: float = 30.0) -> None:
        try:
            acquire(lock, timeout_s)
        except LockUnavailableError:
            refused.append((lock.path.name, timeout_s))
            raise

    monkeypatch.setattr(InterprocessLock, "acquire", recording)
    with python_child(SCOPE_HOLDER, str(demo.root), MAIN_ID) as holder:
        journal_before = demo.journal_path.read_bytes()
        assert main(cli(demo, "--provider", "offline")) == 1
        # One wait of the scope wait for the held scope (it was 10 s per change, 20 s and more).
        assert [timeout for _name, timeout in refused] == [scope_wait_s], refused
        err = capsys.readouterr().err.splitlines()[-1]
        assert err.startswith(
            f"memtab: the project memory scope is locked by pid {holder.pid}: "
        ), err
        assert "the run did not start and nothing was changed" in err
        assert demo.journal_path.read_bytes() == journal_before and memtab_runs(demo) == []
