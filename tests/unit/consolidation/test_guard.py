"""The guard: scope whitelist, pins, the atomic budget, dry runs, and the journal of attempts."""

from __future__ import annotations

import threading

import pytest

from memtab.consolidation.guard import (
    DRY_RUN_NOTE,
    PROJECT_SCOPE_REJECTION,
    ConsolidationGuard,
    MutationBudget,
    budget_exhausted_note,
)
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import global_key
from support.memory_paths import vpath

from .helpers import MULTI, exists, put, read, store_for

BUDGET_NOTE = "Mutation budget exhausted (8 per run); stop and summarize."


def create(path: str, text: str = "x\n") -> dict[str, object]:
    return {"command": "create", "path": path, "file_text": text}


def test_the_budget_message_is_the_spec_wording() -> None:
    assert budget_exhausted_note() == BUDGET_NOTE


def test_reads_pass_through_count_as_usage_and_are_not_journaled(store: MemoryStore) -> None:
    put(store, "/memories/global/a.md", "hello\n")
    guard = ConsolidationGuard(store)
    result = guard.execute({"command": "view", "path": "/memories/global/a.md"})
    assert result.success and result.output == "1\thello"
    assert guard.ops == ()
    assert store.meta_entries()[global_key("a.md")].access_count == 2  # create + view


def test_an_unknown_command_is_an_error_and_not_a_mutation(store: MemoryStore) -> None:
    guard = ConsolidationGuard(store)
    result = guard.execute({"command": "format_disk"})
    assert not result.success and "Unknown command" in result.error
    assert guard.ops == ()


def test_project_scope_is_rejected_without_identity_and_costs_nothing(home: Home) -> None:
    store = store_for(home, MULTI)
    guard = ConsolidationGuard(store, budget=MutationBudget(1))
    rejected = guard.execute(create("/memories/project/a.md"))
    assert not rejected.success and rejected.error == PROJECT_SCOPE_REJECTION
    # A rename whose destination is in the project scope is rejected as well.
    put(store, "/memories/workspace/w.md", "w\n")
    moved = guard.execute(
        {
            "command": "rename",
            "old_path": "/memories/workspace/w.md",
            "new_path": "/memories/project/w.md",
        }
    )
    assert moved.error == PROJECT_SCOPE_REJECTION
    assert guard.budget.used == 0
    assert guard.execute(create("/memories/workspace/b.md")).success  # budget still there
    assert [(op.command, op.applied, op.note) for op in guard.ops] == [
        ("create", False, PROJECT_SCOPE_REJECTION),
        ("rename", False, PROJECT_SCOPE_REJECTION),
        ("create", True, None),
    ]
    assert guard.ops[1].new_path == "/memories/project/w.md"


def test_pinned_files_may_be_edited_but_not_deleted_or_renamed(store: MemoryStore) -> None:
    put(store, "/memories/project/keep.md", "one\n", pinned=True)
    guard = ConsolidationGuard(store)
    delete = guard.execute({"command": "delete", "path": "/memories/project/keep.md"})
    rename = guard.execute(
        {
            "command": "rename",
            "old_path": "/memories/project/keep.md",
            "new_path": "/memories/project/other.md",
        }
    )
    edit = guard.execute(
        {
            "command": "str_replace",
            "path": "/memories/project/keep.md",
            "old_str": "one",
            "new_str": "two",
        }
    )
    assert not delete.success and "is pinned" in delete.error
    assert not rename.success and "is pinned" in rename.error
    assert edit.success
    assert read(store, "/memories/project/keep.md") == "two\n"
    assert [op.applied for op in guard.ops] == [False, False, True]
    assert guard.budget.used == 1  # the two rejections consumed nothing


def test_a_directory_holding_a_pinned_file_is_protected(store: MemoryStore) -> None:
    put(store, "/memories/global/tools/git.md", "git\n", pinned=True)
    put(store, "/memories/global/tools/vim.md", "vim\n")
    guard = ConsolidationGuard(store)
    delete = guard.execute({"command": "delete", "path": "/memories/global/tools"})
    rename = guard.execute(
        {"command": "rename", "path": "/memories/global/tools", "new_path": "/memories/global/t"}
    )
    assert "contains pinned files (git.md)" in delete.error
    assert "contains pinned files (git.md)" in rename.error
    assert exists(store, "/memories/global/tools/git.md")
    # The unpinned sibling may go.
    assert guard.execute({"command": "delete", "path": "/memories/global/tools/vim.md"}).success


def test_budget_of_eight_then_every_call_is_journaled_as_exhausted(store: MemoryStore) -> None:
    guard = ConsolidationGuard(store)
    results = [guard.execute(create(f"/memories/workspace/n{i}.md")) for i in range(10)]
    assert [r.success for r in results] == [True] * 8 + [False] * 2
    assert results[9].error == BUDGET_NOTE
    assert [op.note for op in guard.ops[8:]] == [BUDGET_NOTE, BUDGET_NOTE]
    assert not exists(store, "/memories/workspace/n8.md")


def test_parallel_calls_never_over_commit(store: MemoryStore) -> None:
    guard = ConsolidationGuard(store, budget=MutationBudget(3))
    barrier = threading.Barrier(12)

    def attempt(index: int) -> None:
        barrier.wait()
        guard.execute(create(f"/memories/global/p{index}.md"))

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [op for op in guard.ops if op.applied]
    assert len(applied) == 3
    assert len(guard.ops) == 12
    assert sum(1 for i in range(12) if exists(store, f"/memories/global/p{i}.md")) == 3


def test_a_failed_dispatch_refunds_its_reservation(store: MemoryStore) -> None:
    guard = ConsolidationGuard(store, budget=MutationBudget(1))
    failed = guard.execute(
        {
            "command": "str_replace",
            "path": "/memories/global/nope.md",
            "old_str": "a",
            "new_str": "b",
        }
    )
    assert not failed.success
    assert guard.ops[0].applied is False and "No memory file" in (guard.ops[0].note or "")
    assert guard.budget.used == 0
    assert guard.execute(create("/memories/global/yes.md")).success


def test_invalid_paths_are_journaled_rejections(store: MemoryStore) -> None:
    guard = ConsolidationGuard(store)
    result = guard.execute(create("/memories/global/../escape.md"))
    assert not result.success and "'..' is not allowed" in result.error
    assert guard.ops[0].applied is False and guard.ops[0].path == "/memories/global/../escape.md"
    missing = guard.execute({"command": "delete"})
    assert "`path` is required" in missing.error
    assert guard.budget.used == 0


def test_dry_run_journals_consumes_budget_and_leaves_disk_alone(store: MemoryStore) -> None:
    put(store, "/memories/global/a.md", "alpha\n")
    guard = ConsolidationGuard(store, budget=MutationBudget(2), dry_run=True)
    delete = guard.execute({"command": "delete", "path": "/memories/global/a.md"})
    created = guard.execute(create("/memories/global/b.md"))
    over = guard.execute(create("/memories/global/c.md"))
    assert delete.success and "Dry run" in delete.output
    assert created.success
    assert over.error == budget_exhausted_note(2)
    assert [(op.applied, op.note) for op in guard.ops] == [
        (False, DRY_RUN_NOTE),
        (False, DRY_RUN_NOTE),
        (False, budget_exhausted_note(2)),
    ]
    assert exists(store, "/memories/global/a.md") and not exists(store, "/memories/global/b.md")


@pytest.mark.parametrize(
    "call",
    [
        {"command": "delete", "path": "/memories/global/al/preferences.md"},
        {
            "command": "rename",
            "old_path": "/memories/global/al/preferences.md",
            "new_path": "/memories/global/moved.md",
        },
        {"command": "delete", "path": "/memories/global/al"},
    ],
    ids=["delete", "rename", "delete-link"],
)
def test_a_planted_link_cannot_dodge_a_pin(store: MemoryStore, call: dict[str, object]) -> None:
    put(store, "/memories/global/preferences.md", "keep me\n")
    store.set_pinned(vpath("/memories/global/preferences.md"), True)
    (store.root(Scope.GLOBAL) / "al").symlink_to(".")
    guard = ConsolidationGuard(store)
    result = guard.execute(call)
    assert not result.success
    assert read(store, "/memories/global/preferences.md") == "keep me\n"
    assert guard.budget.used == 0


def test_pins_hold_for_the_file_a_linked_scope_root_resolves_to(store: MemoryStore) -> None:
    # A scope root is trusted even when it is a link; the rules follow it to the file.
    put(store, "/memories/global/preferences.md", "keep me\n")
    store.set_pinned(vpath("/memories/global/preferences.md"), True)
    workspace_root = store.root(Scope.WORKSPACE)
    workspace_root.parent.mkdir(parents=True, exist_ok=True)
    workspace_root.symlink_to(store.root(Scope.GLOBAL))
    guard = ConsolidationGuard(store)
    result = guard.execute({"command": "delete", "path": "/memories/workspace/preferences.md"})
    assert not result.success and "pinned" in result.error
    assert read(store, "/memories/global/preferences.md") == "keep me\n"
