"""Undo from history: restore, the trash, reverting a run — nothing another program
wrote is overwritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply
from memtab.store.catch_up.external import record_external
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import VirtualPath, parse_file_path
from memtab.store.restore.from_history import (
    HistoryError,
    file_history,
    restore,
    revert_run,
    trash,
)
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider, reading_first

from .helpers import WS, disk, memory_call, new_home, store_for


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def physical(home: Home, path: str) -> Path:
    return store_for(home).physical(parse_file_path(path))


def test_restore_after_delete_brings_back_content_pins_and_usage(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "keep me\n")
    store.set_pinned(vpath("/memories/global/a.md"), True)
    store.delete(vpath("/memories/global/a.md"))
    (item,) = trash(store)
    assert item.path == "/memories/global/a.md" and item.pinned
    result = restore(store, vpath(item.path), item.version.id)
    assert result.path == "/memories/global/a.md"
    assert disk(store, "/memories/global/a.md") == b"keep me\n"
    assert store.is_pinned(parse_file_path("/memories/global/a.md"))
    assert trash(store) == []
    assert file_history(store, vpath("/memories/global/a.md"))[0].op == "restore"


def test_a_deleted_file_whose_path_is_taken_comes_back_beside_it(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "old\n")
    store.delete(vpath("/memories/global/a.md"))
    (item,) = trash(store)
    store.create_file(vpath("/memories/global/a.md"), "new\n")
    result = restore(store, vpath("/memories/global/a.md"), item.version.id)
    assert result.path == "/memories/global/a-restored.md"
    assert disk(store, "/memories/global/a.md") == b"new\n"
    assert disk(store, "/memories/global/a-restored.md") == b"old\n"


def test_history_follows_renames_and_restores_an_older_version(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/workspace/old.md"), "v1\n")
    store.save(
        vpath("/memories/workspace/old.md"),
        "v2\n",
        store.read(vpath("/memories/workspace/old.md")).sha256,
    )
    store.move(vpath("/memories/workspace/old.md"), vpath("/memories/workspace/new.md"))
    history = file_history(store, vpath("/memories/workspace/new.md"))
    assert [(v.path, v.op) for v in history] == [
        ("/memories/workspace/new.md", "move"),
        ("/memories/workspace/old.md", "edit"),
        ("/memories/workspace/old.md", "create"),
    ]
    restore(store, vpath("/memories/workspace/new.md"), history[-1].id)
    assert disk(store, "/memories/workspace/new.md") == b"v1\n"
    assert disk(store, "/memories/workspace/old.md") is None


def test_an_unknown_version_is_a_clear_error(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    with pytest.raises(HistoryError, match=r"No version 'nope' of /memories/global/a\.md"):
        restore(store, vpath("/memories/global/a.md"), "nope")


def test_a_file_mux_deletes_is_recoverable_if_memtab_had_seen_it(home: Home) -> None:
    store = store_for(home)
    root = store.root(parse_file_path("/memories/global/x.md").scope)  # type: ignore[arg-type]
    root.mkdir(parents=True)
    (root / "x.md").write_text("written by mux\n")
    record_external(store)  # Memtab sees it (a scan)
    (root / "x.md").unlink()  # mux deletes it
    assert record_external(store).deleted == 1
    (item,) = trash(store)
    assert item.version.actor == "external"
    restore(store, vpath(item.path), item.version.id)
    assert (root / "x.md").read_bytes() == b"written by mux\n"


def _merge_run(home: Home) -> str:
    store = store_for(home)
    store.create_file(vpath("/memories/global/testing.md"), "# Testing\n- run make test\n")
    store.create_file(vpath("/memories/global/test-tips.md"), "- use pytest --lf\n")
    replies = [
        ModelReply(
            "",
            (
                memory_call("1", command="insert", path="/memories/global/testing.md",
                            insert_line=2, insert_text="- use pytest --lf"),
                memory_call("2", command="delete", path="/memories/global/test-tips.md"),
                memory_call("3", command="create", path="/memories/workspace/new.md",
                            file_text="fresh\n"),
            ),
        ),
        ModelReply("merged"),
    ]  # fmt: skip
    ConsolidationService(
        home, provider_factory=lambda _: ScriptedProvider(reading_first(replies))
    ).run(WS)
    (run,) = RunsLog(home).runs()
    return run.id


def test_restore_after_a_consolidation_merge(home: Home) -> None:
    _merge_run(home)
    store = store_for(home)
    (item,) = trash(store)
    assert item.path == "/memories/global/test-tips.md" and item.version.actor == "consolidator"
    restore(store, vpath(item.path), item.version.id)
    assert disk(store, "/memories/global/test-tips.md") == b"- use pytest --lf\n"


def test_reverting_a_run_restores_exactly_the_state_before_it(home: Home) -> None:
    store = store_for(home)
    run_id = _merge_run(home)
    before = {
        "/memories/global/testing.md": b"# Testing\n- run make test\n",
        "/memories/global/test-tips.md": b"- use pytest --lf\n",
        "/memories/workspace/new.md": None,
    }
    result = revert_run(home, run_id)
    assert sorted(result.restored) == sorted(before)
    assert result.refused == []
    assert {path: disk(store, path) for path in before} == before
    reverted = [v for v in file_history(store, vpath("/memories/global/testing.md")) if v.revert_of]
    assert reverted and reverted[0].actor == "user" and reverted[0].op == "revert"


def test_revert_refuses_a_file_changed_after_the_run_and_gives_the_diff(home: Home) -> None:
    run_id = _merge_run(home)
    store = store_for(home)
    physical(home, "/memories/global/testing.md").write_text("edited later by hand\n")
    result = revert_run(home, run_id)
    (refusal,) = result.refused
    assert refusal.path == "/memories/global/testing.md"
    assert "changed after the run (by Another program at " in refusal.reason
    assert "-edited later by hand" in refusal.diff and "+- run make test" in refusal.diff
    assert disk(store, "/memories/global/testing.md") == b"edited later by hand\n"
    assert disk(store, "/memories/global/test-tips.md") == b"- use pytest --lf\n"
    assert "/memories/global/test-tips.md" in result.restored


def test_reverting_an_unknown_run_is_a_clear_error(home: Home) -> None:
    with pytest.raises(HistoryError, match="No run 'run-nope'"):
        revert_run(home, "run-nope")


class _Killed(BaseException):
    """The process killed in the middle of a revert."""


def test_a_revert_stopped_midway_finishes_when_run_again(
    home: Home, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    run_id = _merge_run(home)
    real = MemoryStore.restore_content
    reverted: list[str] = []

    def killed_after_one(self: MemoryStore, path: VirtualPath, *args: Any, **kwargs: Any) -> Any:
        if reverted:
            raise _Killed
        reverted.append(str(path))
        return real(self, path, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(MemoryStore, "restore_content", killed_after_one)
        with pytest.raises(_Killed):
            revert_run(home, run_id)
    assert len(reverted) == 1

    status = main(["--home", str(home.root), "revert-run", run_id, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 0, result
    assert result["refused"] == [] and result["alreadyReverted"] == reverted
    assert sorted(result["restored"] + reverted) == sorted(
        [
            "/memories/global/testing.md",
            "/memories/global/test-tips.md",
            "/memories/workspace/new.md",
        ]
    )
    assert disk(store, "/memories/global/testing.md") == b"# Testing\n- run make test\n"
    assert disk(store, "/memories/global/test-tips.md") == b"- use pytest --lf\n"
    assert disk(store, "/memories/workspace/new.md") is None
