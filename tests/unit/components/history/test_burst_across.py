"""One `rm` across agents is one burst (issue 74): deleting two of Claude Code's files and
two of Codex's at once was a burst in each agent's group (or, one file each, two singles);
it is now one burst of both history indexes, listed once under "Across several memories",
named by what it took where, news once, and put back whole as one undo step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memtab.components.files.undo import UndoStack, restore_event, undo_step
from memtab.components.history.burst_news import BurstNews
from memtab.components.history.deleted import (
    ACROSS,
    every_item,
    load_trash,
    news_read,
)
from memtab.components.history.trash_view import (
    NOTHING,
    NOTHING_BUT_ACROSS,
    TrashPresenter,
    file_row,
    still_gone,
)
from memtab.store.catch_up.external import record_external
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.watch.events import change_events
from memtab.watch.guard import flag
from memtab.watch.sources import record_sources
from support.agent_machine import Machine, build_machine
from support.memory_paths import vpath

CLAUDE = ("memory/feedback_vercel-env-newline.md", "memory/project_config-sync.md")
CODEX = ("MEMORY.md", "memory_summary.md")  # in Codex's memories folder


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """A machine whose Claude Code and Codex memories are in history (the recorder's
    first look)."""
    built = build_machine(tmp_path)
    monkeypatch.setenv("HOME", str(built.user))
    record_sources(built.home)
    return built


def rm_across(machine: Machine) -> list[Path]:
    """`rm` of two of Claude Code's files and two of Codex's, recorded as the recorder
    records a pass (every source, one after the other)."""
    removed = [machine.claude_memory.parent / name for name in CLAUDE]
    removed += [machine.codex / "memories" / name for name in CODEX]
    for path in removed:
        path.unlink()
    record_sources(machine.home)
    return removed


def store_of(machine: Machine) -> MemoryStore:
    return MemoryStore(machine.home, load_registry(machine.home).workspaces[0])


def test_one_rm_across_two_agents_is_one_burst_named_by_what_it_took_where(
    machine: Machine,
) -> None:
    rm_across(machine)
    groups = load_trash(store_of(machine), record_first=False)
    across = groups[0]
    assert across.label == ACROSS and across.across and across.items == ()
    (burst,) = across.bursts
    assert re.fullmatch(
        r"Another program removed 4 files at \d\d:\d\d: 2 of Claude Code's, 2 of Codex's",
        burst.words,
    )
    assert [(file.place, file.name) for file in burst.files] == [
        ("Claude Code", CLAUDE[0]),
        ("Claude Code", CLAUDE[1]),
        ("Codex", CODEX[0]),
        ("Codex", CODEX[1]),
    ]
    assert file_row(burst.files[0]).cells[0] == f"Claude Code · {CLAUDE[0]}"
    assert across.deleted_count == 4 and burst.left_to_restore == 4
    for group in groups[1:]:  # not listed again, in a burst or on their own
        assert group.bursts == () and group.items == (), group.label
    assert {(item.agent, item.burst_id) for item in every_item(groups)} == {
        ("claude-code", burst.id),
        ("codex", burst.id),
    }
    (event,) = [e for e in change_events(machine.home, min_files=2)]
    assert event.id == burst.id and len(event.indexes) == 2  # `memtab restore --event` finds it

    read = news_read(store_of(machine))
    assert [news.id for news in read.bursts] == [burst.id]
    notice = BurstNews()
    assert notice.take(read.bursts, read.mass) and notice.notice is not None
    assert notice.notice.text == burst.event.words()  # one notice, not one per agent


def test_a_filter_shows_the_burst_where_it_took_files(machine: Machine) -> None:
    store = store_of(machine)
    note = vpath("/memories/global/deploy.md")
    store.create_file(note, "# Deploy\n\n- make release\n")
    store.physical(note).unlink()  # the same `rm` takes a global note too
    rm_across(machine)
    record_external(store)  # as the window records mux's scopes
    state = TrashPresenter()
    state.take(load_trash(store, record_first=False))
    (burst,) = state.bursts
    assert burst.words.endswith(": 1 in Global, 2 of Claude Code's, 2 of Codex's")
    for agent in ("claude-code", "codex"):
        (shown,) = state.shown(agent)  # the agent's own group lists nothing
        assert shown.across and shown.bursts == (burst,)
    assert state.newest("codex") == ("burst", burst.id)
    across, global_group = state.shown("global")
    assert across.bursts == (burst,) and global_group.label == "Global"
    assert state.empty_words(global_group) == NOTHING_BUT_ACROSS  # not "Nothing was deleted"
    (project,) = state.shown("project")
    assert state.empty_words(project) == NOTHING
    assert state.elsewhere("project") == (
        "Nothing was deleted in Project; 5 files were elsewhere — Everything shows them."
    )


def test_restore_all_puts_back_every_agents_files_as_one_undo_step(machine: Machine) -> None:
    removed = rm_across(machine)
    (burst,) = load_trash(store_of(machine), record_first=False)[0].bursts
    stack = UndoStack()
    restored, said = restore_event(stack, machine.home, burst.event, still_gone(burst))
    assert len(restored.restored) == 4 and restored.left == (), restored
    assert said.ok and said.message.startswith("Restored 4 files of Another program removed")
    assert all(path.exists() for path in removed)
    assert len(stack) == 1  # one step
    (after,) = load_trash(store_of(machine), record_first=False)[0].bursts
    assert after.words.endswith("— restored") and after.left_to_restore == 0

    undone = undo_step(machine.home, stack.pop())  # type: ignore[arg-type]
    assert undone.ok, undone.message
    assert not any(path.exists() for path in removed)  # the restore taken back whole


def test_a_mass_change_is_told_of_what_every_index_of_the_burst_held(machine: Machine) -> None:
    """Emptying both memories at once: 11 files, none of the parts 10 — a mass change only
    as one burst, counted against what both indexes held."""
    memories = (machine.claude_memory, machine.codex / "memories")
    removed = sorted(path for root in memories for path in root.rglob("*") if path.is_file())
    for path in removed:
        path.unlink()
    record_sources(machine.home)
    (change,) = flag(machine.home, change_events(machine.home, min_files=2))
    assert change.changed == len(removed) == 11
    claude_index, codex_index = 7, 5  # auto memory's topics and its session summary
    assert change.files_before == claude_index + codex_index
    assert re.fullmatch(
        r"Another program removed 11 of 12 files at \d\d:\d\d: "
        r"6 of Claude Code's, 5 of Codex's",
        change.words(),
    )
