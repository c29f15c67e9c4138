"""Recently deleted lists what another program removed from every agent's memory —
grouped by agent and by burst, each file with its size, who removed it and what it held —
restorable one by one (never over what is there again) or all at once; a restored burst
is marked so; a burst is news once (the CLI's side: tests/unit/watch/test_trash_command.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.components.files import undo
from memtab.components.files.undo import UndoStack, undo_step
from memtab.components.history.burst_news import BurstNews
from memtab.components.history.deleted import (
    agent_file,
    deleted_text,
    load_trash,
    news_read,
)
from memtab.fs.clock import now_ms
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.model import Source
from memtab.store.history.versions import Version
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.watch.events import ChangeEvent, change_events, restore_event
from memtab.watch.sources import record_source
from support.agent_machine import Machine, build_machine

TOPICS = 20


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """A machine whose Claude Code auto memory holds `TOPICS` topics, all in history."""
    built = build_machine(tmp_path)
    monkeypatch.setenv("HOME", str(built.user))
    for index in range(TOPICS):
        topic = built.claude_memory / f"topic_{index:02d}.md"
        topic.write_text(f"# Topic {index}\n\nWhat was learnt, {index}.\n", "utf-8")
    record_source(built.home, auto_memory(built))  # the recorder's first look
    return built


def auto_memory(machine: Machine) -> Source:
    return next(
        source
        for source in discover(SourceContext.load(machine.home)).sources
        if source.root == machine.claude_memory.parent
    )


def store_of(machine: Machine) -> MemoryStore:
    return MemoryStore(machine.home, load_registry(machine.home).workspaces[0])


def claude_prunes(machine: Machine, *, rewrite: bool = False) -> list[Path]:
    """Claude Code's consolidation removes every topic (rewrites MEMORY.md: `rewrite`),
    recorded as the recorder records it."""
    memory = machine.claude_memory
    (memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
    topics = sorted(memory.glob("topic_*.md"))
    for topic in topics:
        topic.unlink()
    if rewrite:
        (memory / "MEMORY.md").write_text("# Memory\n\n- pruned\n", "utf-8")
    record_source(machine.home, auto_memory(machine))
    return topics


def test_another_agents_burst_is_listed_by_agent_and_burst_with_size_who_and_content(
    machine: Machine,
) -> None:
    topics = claude_prunes(machine)
    groups = load_trash(store_of(machine), record_first=False)
    assert [group.label for group in groups] == ["Global", "Project", "Workspace", "Claude Code"]
    claude = groups[-1]
    assert claude.filter_key == "claude-code" and claude.items == ()
    (burst,) = claude.bursts
    assert burst.words.startswith(f"Claude Code removed {TOPICS} files at ")
    assert burst.place == "auto memory of acme-api" and burst.left_to_restore == TOPICS
    first = burst.files[0]
    assert first.name == "memory/topic_00.md" and first.actor == "claude-code"
    assert first.size_bytes == len(b"# Topic 0\n\nWhat was learnt, 0.\n")
    assert deleted_text(machine.home, first) == "# Topic 0\n\nWhat was learnt, 0.\n"
    assert first.restorable and first.physical == str(topics[0])
    assert claude.deleted_count == TOPICS


def test_a_restored_burst_is_marked_so_in_the_list(machine: Machine) -> None:
    claude_prunes(machine)
    home = machine.home
    (event,) = change_events(home)
    one = restore_event(home, event, only={event.versions[0].path})
    assert one.restored == (event.versions[0].path,) and one.left == ()
    (burst,) = load_trash(store_of(machine), record_first=False)[-1].bursts
    assert burst.words.endswith(f"— 1 of {TOPICS} restored")
    assert burst.left_to_restore == TOPICS - 1
    assert burst.files[0].restored_by is not None and not burst.files[0].restorable
    assert burst.files[0].state_words().startswith("restored just now by You")

    assert len(restore_event(home, event).restored) == TOPICS - 1  # Restore all: the rest
    (group,) = [g for g in load_trash(store_of(machine), record_first=False) if g.agent != "mux"]
    (burst,) = group.bursts  # still listed, marked restored
    assert burst.words.endswith("— restored") and burst.left_to_restore == 0
    assert group.deleted_count == 0
    assert news_read(store_of(machine)).bursts == []  # nothing left to review


def test_a_rewritten_file_of_a_burst_is_listed_with_what_it_held_before(
    machine: Machine,
) -> None:
    index = machine.claude_memory / "MEMORY.md"
    before = index.read_text("utf-8")
    claude_prunes(machine, rewrite=True)
    (burst,) = load_trash(store_of(machine), record_first=False)[-1].bursts
    rewritten = burst.files[-1]
    assert rewritten.rewritten and rewritten.name == "memory/MEMORY.md"
    assert deleted_text(machine.home, rewritten) == before
    result = restore_event(machine.home, burst.event, only={rewritten.path})
    assert result.restored == (rewritten.path,)
    assert index.read_text("utf-8") == before
    assert not (machine.claude_memory / "topic_00.md").exists()  # only that one


def test_one_deleted_agent_file_comes_back_only_while_nothing_is_there(
    machine: Machine,
) -> None:
    topics = claude_prunes(machine)
    (burst,) = load_trash(store_of(machine), record_first=False)[-1].bursts
    first, second = burst.files[:2]
    topics[1].write_text("Claude Code wrote it again\n", "utf-8")
    stack = UndoStack()
    refused = undo.restore_deleted(stack, agent_file(machine.home, second), second.version.id)
    assert not refused.ok and "is there again" in (refused.error or "")
    assert topics[1].read_text("utf-8") == "Claude Code wrote it again\n"

    restored = undo.restore_deleted(stack, agent_file(machine.home, first), first.version.id)
    assert restored.ok, restored.error
    assert topics[0].read_text("utf-8") == "# Topic 0\n\nWhat was learnt, 0.\n"
    step = stack.pop()
    assert step is not None and undo_step(machine.home, step).ok  # Edit → Undo: gone again
    assert not topics[0].exists()


def test_a_burst_is_news_once_the_newest_first_and_then_no_more(machine: Machine) -> None:
    claude_prunes(machine)
    (burst,) = news_read(store_of(machine), now=now_ms()).bursts
    news = BurstNews()
    assert news.take([burst])
    assert news.notice is not None and news.notice.burst_id == burst.id
    assert news.notice.text.startswith(f"Claude Code removed {TOPICS} files at ")
    assert not news.take([burst])  # once
    later = BurstNews(news.seen)  # the next window, from the UI state
    assert not later.take([burst]) and later.notice is None
    news.dismissed()
    assert news.notice is None


def _burst(first_id: str, actor: str, files: int) -> ChangeEvent:
    versions = tuple(
        Version(
            id=f"{first_id}{index}",
            at=1_700_000_000_000 + int(first_id, 16),
            path=f"/memories/global/n{index}.md",
            actor=actor,
            op="delete",
            sha256="0" * 64,
            size_bytes=1,
            deleted=True,
        )
        for index in range(files)
    )
    return ChangeEvent("global", actor, versions)


def test_the_notice_names_the_newest_burst_and_how_many_more_came_until_dismissed() -> None:
    news = BurstNews(seen=["0a"])
    older, newer = _burst("0b", "external", 3), _burst("0c", "codex", 2)
    assert news.take([older])
    assert news.notice is not None and news.notice.text.startswith("Another program removed 3")
    assert news.take([newer, older])
    assert news.notice is not None and news.notice.burst_id == newer.id
    assert news.notice.text.startswith("Codex removed 2 files at ")
    assert news.notice.text.endswith(" (and 1 more burst)")
    assert news.seen == ["0a", older.id, newer.id]  # ids sort as their times: oldest first
    assert news.take([older]) and news.notice is not None  # the newer one put back
    assert news.notice.burst_id == older.id and not news.notice.text.endswith("burst)")
    assert news.take([]) and news.notice is None  # all put back: the notice goes
    assert not news.take([newer, older]) and news.notice is None  # seen: not again
