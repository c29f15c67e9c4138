"""Blame of mux memory files made through the store: who introduced each line, through
renames, restores, reverts and changes of other programs, mux's runs among them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memtab.blame import service
from memtab.blame.records import Blame
from memtab.blame.service import blame_memory_file
from memtab.fs.clock import now_ms
from memtab.store.catch_up.external import record_external
from memtab.store.errors import NotFoundError
from memtab.store.history.records import FileVersions, RunEntry, RunOp
from memtab.store.history.runs import log_run, new_run_id
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import restore, revert_run, trash
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath

from .helpers import PROJECT, WS, new_home, store_for

NOTES = "/memories/workspace/notes.md"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def who(blame: Blame) -> list[tuple[str, str]]:
    return [(line.text, line.actor) for line in blame.lines]


def physical(store: MemoryStore, path: str) -> Path:
    return store.physical(parse_file_path(path))


def append(store: MemoryStore, path: str, text: str) -> None:
    store.edit_text(vpath(path), lambda current: current + text)


def test_each_actor_is_named_with_its_version_time_and_run(home: Home) -> None:
    physical(store_for(home), NOTES).parent.mkdir(parents=True)
    physical(store_for(home), NOTES).write_text("# Notes\n\n- seen first\n")
    record_external(store_for(home))
    append(store_for(home), NOTES, "- mine\n")
    append(store_for(home, actor="writer", run_id="run-w"), NOTES, "- the writer's\n")
    append(store_for(home, actor="agent-tool"), NOTES, "- an agent's, through memtab tool\n")
    with physical(store_for(home), NOTES).open("a") as handle:
        handle.write("- an editor's\n")
    record_external(store_for(home))
    blame = blame_memory_file(store_for(home), NOTES)
    assert who(blame) == [
        ("# Notes", "before-memtab"),
        ("", "before-memtab"),
        ("- seen first", "before-memtab"),
        ("- mine", "user"),
        ("- the writer's", "writer"),
        ("- an agent's, through memtab tool", "agent-tool"),
        ("- an editor's", "external"),
    ]
    writer_line = blame.lines[4]
    assert writer_line.run_id == "run-w" and writer_line.version is not None
    times = [line.at for line in blame.lines]
    assert times[0] == times[2] < times[3] <= times[4] <= times[5] <= times[6]
    assert [line.line for line in blame.lines] == list(range(1, 8))


def test_a_renamed_file_keeps_its_lines_origins_across_scopes(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/workspace/a.md"), "- one\n")
    append(store_for(home, actor="writer", run_id="run-w"), "/memories/workspace/a.md", "- two\n")
    store.move(vpath("/memories/workspace/a.md"), vpath("/memories/workspace/b.md"))
    store.move(vpath("/memories/workspace/b.md"), vpath("/memories/project/c.md"))
    append(store, "/memories/project/c.md", "- three\n")
    blame = blame_memory_file(store_for(home), "/memories/project/c.md")
    assert who(blame) == [("- one", "user"), ("- two", "writer"), ("- three", "user")]
    assert blame.lines[1].run_id == "run-w"


def test_a_restore_attributes_lines_back_to_the_version_restored(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- kept\n")
    append(store_for(home, actor="writer", run_id="run-w"), NOTES, "- written\n")
    kept = blame_memory_file(store, NOTES)
    store.delete(vpath(NOTES))
    (item,) = trash(store)
    restore(store, vpath(NOTES), item.version.id)
    back = blame_memory_file(store_for(home), NOTES)
    assert who(back) == who(kept)
    assert [line.version for line in back.lines] == [line.version for line in kept.lines]


def test_a_reverted_run_gives_the_lines_back_to_who_wrote_them(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n- b\n")
    run_id = new_run_id(now_ms())
    consolidator = store_for(home, actor="consolidator", run_id=run_id)
    with consolidator.collecting_changes() as changes:
        consolidator.edit_text(vpath(NOTES), lambda text: "- merged\n")
    log_run(
        home,
        RunEntry(
            id=run_id,
            at=now_ms(),
            kind="consolidation",
            trigger="manual",
            workspace_id=WS,
            summary="merged",
            ops=(
                RunOp(
                    command="str_replace",
                    path=NOTES,
                    applied=True,
                    note="a and b say one thing",
                    files=tuple(FileVersions.from_change(c) for c in changes),
                ),
            ),
        ),
    )
    merged = blame_memory_file(store_for(home), NOTES)
    (line,) = merged.lines
    assert line.actor == "consolidator" and line.run_id == run_id
    assert line.source is not None and line.source.to_json() == {
        "kind": "consolidation",
        "runId": run_id,
        "by": "memtab",
        "op": "str_replace",
        "opIndex": 0,
        "path": NOTES,
        "reason": "a and b say one thing",
    }
    revert_run(home, run_id)
    reverted = blame_memory_file(store_for(home), NOTES)
    assert who(reverted) == [("- a", "user"), ("- b", "user")]


def test_a_change_history_has_not_recorded_is_external_at_the_files_time(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n")
    with physical(store, NOTES).open("a") as handle:
        handle.write("- not synced yet\n")
    os.utime(physical(store, NOTES), (1_700_000_000, 1_700_000_000))
    blame = blame_memory_file(store, NOTES)
    assert who(blame) == [("- a", "user"), ("- not synced yet", "external")]
    assert blame.lines[1].at == 1_700_000_000_000 and blame.lines[1].version is None


DAY_MS = 24 * 60 * 60 * 1000


def test_what_memtab_first_saw_is_dated_by_the_files_mtime_not_by_when_it_was_seen(
    home: Home,
) -> None:
    store = store_for(home)
    old, new = "/memories/global/old.md", "/memories/global/new.md"
    physical(store, old).parent.mkdir(parents=True)
    physical(store, old).write_text("# Ports\n\n- The API runs on port 8000.\n")
    physical(store, new).write_text("# Service\n\n- The API listens on port 8080.\n")
    today = now_ms() // 1000 * 1000  # whole seconds: what utime sets exactly
    old_at, new_at = today - 30 * DAY_MS, today - DAY_MS
    set_mtime(physical(store, old), old_at)
    set_mtime(physical(store, new), new_at)
    record_external(store)  # as the window does when it opens the home: both seen now
    for path, written in ((old, old_at), (new, new_at)):
        blame = blame_memory_file(store, path)
        assert {(line.actor, line.at) for line in blame.lines} == {("before-memtab", written)}
    # A line added since is dated when Memtab recorded it, after both.
    append(store, old, "- Staging runs on port 8001.\n")
    added = blame_memory_file(store, old).lines[-1]
    assert added.actor == "user" and added.at > new_at


def test_a_file_memtab_first_sees_as_it_changes_it_keeps_its_mtime_for_its_old_lines(
    home: Home,
) -> None:
    store = store_for(home)
    physical(store, NOTES).parent.mkdir(parents=True)
    physical(store, NOTES).write_text("- from before\n")
    written = (now_ms() // 1000 - 7 * 24 * 60 * 60) * 1000
    set_mtime(physical(store, NOTES), written)
    append(store, NOTES, "- mine\n")  # no pass has recorded it: the write-ahead sees it first
    seen, mine = blame_memory_file(store, NOTES).lines
    assert (seen.actor, seen.at) == ("before-memtab", written)
    assert mine.actor == "user" and mine.at > written


def test_a_first_sight_recorded_without_the_files_stat_keeps_its_own_time(home: Home) -> None:
    store = store_for(home)
    physical(store, NOTES).parent.mkdir(parents=True)
    physical(store, NOTES).write_text("- a\n")
    set_mtime(physical(store, NOTES), now_ms() - 30 * DAY_MS)
    record_external(store)
    index = home.history_index_dir / f"{store.history_key(parse_file_path(NOTES).scope)}.jsonl"
    lines = [json.loads(line) for line in index.read_text().splitlines()]
    assert [line.pop("stat") for line in lines] != []  # as versions recorded before stats
    index.write_text("".join(json.dumps(line) + "\n" for line in lines))
    [line] = blame_memory_file(store_for(home), NOTES).lines
    assert line.at == lines[0]["at"]


def test_no_such_file_is_refused(home: Home) -> None:
    with pytest.raises(NotFoundError, match=r"^No memory file at /memories/global/none\.md$"):
        blame_memory_file(store_for(home), "/memories/global/none.md")


def test_blaming_again_reuses_the_walk_until_a_new_version(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n")
    walks: list[int] = []
    real = service.owners_of

    def counting(*args: object, **kwargs: object) -> object:
        walks.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "owners_of", counting)
    first = blame_memory_file(store, NOTES)
    assert blame_memory_file(store, NOTES) == first and len(walks) == 1
    append(store, NOTES, "- b\n")
    assert len(blame_memory_file(store, NOTES).lines) == 2 and len(walks) == 2


# --- mux's consolidation runs ------------------------------------------------------------


def mux_run(at: int, *ops: RunOp, workspace_id: str | None = WS) -> RunEntry:
    return RunEntry(
        id=f"mux-{at:016x}",
        at=at,
        kind="consolidation",
        trigger="idle",
        workspace_id=workspace_id,
        project_path=PROJECT,
        summary="mux's run",
        ops=ops,
        source="mux",
    )


def set_mtime(path: Path, at_ms: int) -> None:
    os.utime(path, (at_ms / 1000, at_ms / 1000))


def test_a_change_that_matches_a_mux_run_is_mux_consolidation(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n- b\n")
    time.sleep(0.01)
    run_at = now_ms()
    log_run(
        home, mux_run(run_at, RunOp(command="str_replace", path=NOTES, applied=True, note="b is a"))
    )
    physical(store, NOTES).write_text("- a\n- a and b\n")
    set_mtime(physical(store, NOTES), run_at - 1000)
    time.sleep(0.01)
    record_external(store)
    blame = blame_memory_file(store, NOTES)
    assert who(blame) == [("- a", "user"), ("- a and b", "mux")]
    line = blame.lines[1]
    assert line.run_id == f"mux-{run_at:016x}" and line.at == run_at
    assert line.source is not None and line.source.to_json() == {
        "kind": "consolidation",
        "runId": f"mux-{run_at:016x}",
        "by": "mux",
        "op": "str_replace",
        "opIndex": 0,
        "path": NOTES,
        "reason": "b is a",
    }


def test_a_change_made_after_the_mux_run_ended_is_not_the_runs(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n")
    time.sleep(0.01)
    run_at = now_ms()
    log_run(home, mux_run(run_at, RunOp(command="str_replace", path=NOTES, applied=True)))
    physical(store, NOTES).write_text("- a\n- later\n")
    set_mtime(physical(store, NOTES), run_at + 60_000)  # edited a minute after the run
    record_external(store)
    assert who(blame_memory_file(store, NOTES))[1] == ("- later", "external")


def test_another_workspaces_mux_run_is_not_this_files(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n")
    time.sleep(0.01)
    run_at = now_ms()
    log_run(
        home,
        mux_run(
            run_at, RunOp(command="insert", path=NOTES, applied=True), workspace_id="b2b2b2b2b2"
        ),
    )
    physical(store, NOTES).write_text("- a\n- b\n")
    set_mtime(physical(store, NOTES), run_at)
    record_external(store)
    assert who(blame_memory_file(store, NOTES))[1] == ("- b", "external")


def test_a_file_mux_created_is_mux_s_when_memtab_first_sees_it_untouched(home: Home) -> None:
    store = store_for(home)
    run_at = now_ms() - 60_000
    created = "/memories/project/styling.md"
    log_run(home, mux_run(run_at, RunOp(command="create", path=created, applied=True)))
    physical(store, created).parent.mkdir(parents=True)
    physical(store, created).write_text("# Styling\n- tokens\n")
    set_mtime(physical(store, created), run_at - 2000)
    edited = "/memories/project/other.md"
    log_run(home, mux_run(run_at + 1, RunOp(command="str_replace", path=edited, applied=True)))
    physical(store, edited).write_text("- x\n")
    set_mtime(physical(store, edited), run_at - 2000)
    record_external(store)
    assert {actor for _, actor in who(blame_memory_file(store, created))} == {"mux"}
    # A run that only edited a file says nothing of which lines were there before.
    assert who(blame_memory_file(store, edited)) == [("- x", "before-memtab")]


def test_the_json_holds_exactly_the_contracts_fields(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath(NOTES), "- a\n")
    document = blame_memory_file(store, NOTES).to_json()
    assert set(document) == {"path", "lines"}
    (line,) = document["lines"]
    assert set(line) == {"line", "text", "actor", "actorName", "at", "version"}
    assert line["line"] == 1 and line["text"] == "- a" and line["actor"] == "user"
    assert line["actorName"] == "You"
