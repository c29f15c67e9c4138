"""The runs log read without building runs: the start's catch-up of mux's journal and the
day's prune build `RunEntry` records (and load pydantic) only when a run is to be added
or dropped, and then do what they did."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.fs.atomic import atomic_write_bytes, atomic_write_json
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.prune import HistoryLimits, prune
from memtab.store.history.runs import LoggedLine, RunsLog, journal_fingerprint
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal

from .helpers import WS, new_home

DAY = 24 * 60 * 60 * 1000
NOW = 1_900_000_000_000


def write_log(home: Home, lines: list[object]) -> bytes:
    """The log replaced by `lines`, as a prune replaces it (atomically)."""
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    atomic_write_bytes(home.runs_log_path, data)
    return data


def run(run_id: str, at: object, **fields: object) -> dict[str, object]:
    return {"id": run_id, "at": at, "kind": "writer", **fields}


def test_each_line_is_read_as_its_time_and_fingerprint(tmp_path: Path) -> None:
    home = new_home(tmp_path / "home")
    write_log(
        home,
        [
            run("a", NOW, journalFingerprint="f1"),
            run("b", True),  # a bool is no time
            {"at": 5.0, "journal_fingerprint": "f2"},  # nor a float; the snake name reads
        ],
    )
    assert RunsLog(home).logged() == [
        LoggedLine(NOW, "f1"),
        LoggedLine(0, ""),
        LoggedLine(0, "f2"),
    ]


def test_the_prune_drops_old_runs_and_rewrites_nothing_when_none_is_old(tmp_path: Path) -> None:
    home = new_home(tmp_path / "home")
    young = [run("young", NOW - DAY), run("also young", NOW)]
    before = write_log(home, young)
    limits = HistoryLimits(max_age_days=30)
    assert prune(home, limits, now_ms=NOW).runs_removed == 0
    assert home.runs_log_path.read_bytes() == before
    write_log(home, [run("old", NOW - 40 * DAY), *young])
    assert prune(home, limits, now_ms=NOW).runs_removed == 1
    assert [r.id for r in RunsLog(home).runs()] == ["also young", "young"]


def test_a_logged_journal_record_is_not_added_again(tmp_path: Path) -> None:
    home = new_home(tmp_path / "home")
    record = {"lastRunAt": NOW, "trigger": "compaction", "summary": "mux merged", "ops": []}
    atomic_write_json(home.journal_path, {"workspaces": {WS: record}, "projects": {"/p": record}})
    (added,) = catch_up_runs(home)
    assert (added.workspace_id, added.project_path, added.summary) == (WS, "/p", "mux merged")
    logged = home.runs_log_path.read_bytes()
    assert catch_up_runs(home) == [] and home.runs_log_path.read_bytes() == logged
    (entry,) = Journal(home).load().workspaces.values()
    assert RunsLog(home).logged() == [LoggedLine(NOW, journal_fingerprint(entry))]


def test_a_journal_run_older_than_history_keeps_is_not_added_back_after_the_prune(
    tmp_path: Path,
) -> None:
    home = new_home(tmp_path / "home")
    old = {"lastRunAt": NOW - 200 * DAY, "trigger": "idle", "summary": "old", "ops": []}
    young = {"lastRunAt": NOW - DAY, "trigger": "idle", "summary": "young", "ops": []}
    atomic_write_json(home.journal_path, {"workspaces": {WS: young}, "projects": {"/p": old}})
    (added,) = catch_up_runs(home, now_ms=NOW)  # the default keeps 180 days
    assert added.summary == "young"
    prune(home, HistoryLimits(), now_ms=NOW)
    logged = home.runs_log_path.read_bytes()
    # The next start (another day): nothing to add, nothing rewritten.
    assert catch_up_runs(home, now_ms=NOW + DAY) == []
    assert home.runs_log_path.read_bytes() == logged


def test_the_contents_recent_runs_wrote_name_the_kind_of_run(tmp_path: Path) -> None:
    home = new_home(tmp_path / "home")

    def op(sha: str, *, applied: bool = True, deleted: bool = False) -> dict[str, object]:
        version = {"path": "/memories/global/a.md", "afterVersion": "v", "afterSha256": sha}
        return {
            "command": "edit",
            "path": "/memories/global/a.md",
            "applied": applied,
            "versions": [{**version, "deleted": True} if deleted else version],
        }

    write_log(
        home,
        [
            run("old", NOW - DAY, kind="sync", ops=[op("s-old")]),
            run("w", NOW, ops=[op("s-writer"), op("s-refused", applied=False)]),
            run("s", NOW + 1, kind="sync", ops=[op("s-sync"), op("s-gone", deleted=True)]),
        ],
    )
    written = RunsLog(home).contents_written_since(NOW)
    assert written == {"s-writer": "writer", "s-sync": "sync"}
