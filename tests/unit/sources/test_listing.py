"""Listing a source: which files belong to it, what each one is, and who may write it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.file_protocol.file_ref import SourceError
from memtab.sources.claude.index import INDEX_MAX_LINES, INDEX_MAX_UNITS
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import SESSION_MEMORY_IS_CLAUDES, WRITTEN_BY_LOKI
from memtab.sources.listing import (
    MAX_FILES_PER_SOURCE,
    list_source,
    source_file,
)
from memtab.sources.model import FileKind, Source, SourceFile, SourceListing
from support.agent_machine import Machine


def listing_of(machine: Machine, prefix: str) -> SourceListing:
    source = next(s for s in discover(machine.context()).sources if s.id.startswith(prefix))
    return list_source(source)


def files_of(machine: Machine, prefix: str) -> dict[str, SourceFile]:
    return {f.relative: f for f in listing_of(machine, prefix).files}


def test_claude_auto_memory_topics_show_their_type_and_description(machine: Machine) -> None:
    files = files_of(machine, "claude-code:memory-")
    topic = files["memory/feedback_vercel-env-newline.md"]
    assert topic.kind is FileKind.AUTO_MEMORY_TOPIC and topic.writable
    assert topic.topic_type == "feedback"
    assert topic.topic_name == "Vercel env add 개행문자 버그"
    assert topic.description.startswith("vercel env add 시 heredoc")
    # A real topic file without frontmatter: its first heading describes it.
    plain = files["memory/notiontalk-landing-strategy.md"]
    assert plain.topic_type is None and plain.description.startswith("Notiontalk.com")


def test_session_summaries_are_read_only_and_say_whose_they_are(machine: Machine) -> None:
    files = files_of(machine, "claude-code:memory-")
    summaries = [f for f in files.values() if f.kind is FileKind.SESSION_SUMMARY]
    assert len(summaries) == 1
    assert summaries[0].read_only_reason == SESSION_MEMORY_IS_CLAUDES
    # Claude Code 2.1.332's bundle holds no `session-memory` string: it neither writes nor
    # reads one, so the row says it is from an older Claude Code.
    assert SESSION_MEMORY_IS_CLAUDES.startswith("session memory from an older Claude Code")


def test_a_session_summary_is_described_by_the_title_it_holds(machine: Machine) -> None:
    """Claude Code's template heads every summary `# Session Title`: the title is below."""
    summary = next(
        f
        for f in files_of(machine, "claude-code:memory-").values()
        if f.kind is FileKind.SESSION_SUMMARY
    )
    Path(summary.physical).write_text(
        "# Session Title\n"
        "_A short and distinctive 5-10 word descriptive title for the session. Super info "
        "dense, no filler_\n\n"
        "Token refresh race in the auth client\n\n"
        "# Current State\n_What is actively being worked on right now?_\n\nTwo tabs.\n",
        encoding="utf-8",
    )
    again = next(
        f
        for f in files_of(machine, "claude-code:memory-").values()
        if f.kind is FileKind.SESSION_SUMMARY
    )
    assert again.description == "Token refresh race in the auth client"


def test_codex_rollout_summaries_are_read_only_what_it_keeps_is_not(machine: Machine) -> None:
    files = files_of(machine, "codex:memories")
    for name in ("MEMORY.md", "memory_summary.md"):  # its consolidation keeps hand edits
        assert files[name].kind is FileKind.GENERATED and files[name].writable
    rollouts = [f for f in files.values() if f.relative.startswith("rollout_summaries/")]
    assert len(rollouts) == 2 and all(f.kind is FileKind.GENERATED for f in rollouts)
    assert not any(f.writable for f in rollouts)
    assert files["skills/restore-session/SKILL.md"].writable


def test_codex_legacy_buckets_extensions_and_other_files(machine: Machine) -> None:
    memories = machine.codex / "memories"
    bucket = memories / "0123456789abcdef" / "memory"
    (bucket / "raw_memories").mkdir(parents=True)
    (bucket / "raw_memories" / "thread-1.md").write_text("raw\n")
    (bucket / "consolidated.md").write_text("# consolidated\n")
    (memories / "extensions" / "telepathy").mkdir(parents=True)
    (memories / "extensions" / "telepathy" / "instructions.md").write_text("# How\n")
    (memories / "notes.md").write_text("# my notes\n")
    (memories / ".git").mkdir()
    (memories / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    files = files_of(machine, "codex:memories")
    assert files["0123456789abcdef/memory/raw_memories/thread-1.md"].kind is FileKind.GENERATED
    assert not files["0123456789abcdef/memory/consolidated.md"].writable
    assert files["extensions/telepathy/instructions.md"].kind is FileKind.EXTENSION
    assert not files["extensions/telepathy/instructions.md"].writable  # Codex's
    assert files["notes.md"].writable and files["notes.md"].kind is FileKind.NOTE
    assert not any(relative.startswith(".git") for relative in files)


def test_loki_files_are_rendered_and_read_only(machine: Machine) -> None:
    files = files_of(machine, "loki:")
    assert len(files) == 7
    assert all(f.read_only_reason == WRITTEN_BY_LOKI for f in files.values())
    assert files["semantic/patterns.json"].kind is FileKind.RENDERED
    assert files["ledgers/LEDGER-20260101T120000Z.md"].kind is FileKind.NOTE
    episode = files["episodic/2026-03-21/task-ep-2026-03-21-2fef694f.json"]
    assert episode.description == "Episode ep-2026-03-21-2fef694f of 2026-03-21"


def test_the_real_memory_index_is_over_claude_codes_load_limit(machine: Machine) -> None:
    index = files_of(machine, "claude-code:memory-")["memory/MEMORY.md"]
    assert index.kind is FileKind.AUTO_MEMORY_INDEX and index.writable
    assert index.warning is not None
    assert "249 lines" in index.warning and "from line 201 on" in index.warning


@pytest.mark.parametrize(
    ("text", "warned"),
    [
        ("- line\n" * INDEX_MAX_LINES, False),
        ("- line\n" * (INDEX_MAX_LINES + 1), True),
        ("- line\n" * INDEX_MAX_LINES + "- no newline at the end", True),
        ("x" * INDEX_MAX_UNITS, False),
        ("x" * (INDEX_MAX_UNITS + 1), True),
    ],
)
def test_memory_index_limit_is_200_lines_or_25000_bytes(
    machine: Machine, text: str, warned: bool
) -> None:
    (machine.claude_memory / "MEMORY.md").write_text(text, encoding="utf-8")
    index = files_of(machine, "claude-code:memory-")["memory/MEMORY.md"]
    assert (index.warning is not None) is warned


def test_only_the_layouts_files_are_listed(machine: Machine) -> None:
    (machine.claude / ".credentials.json").write_text('{"token": "secret"}')
    (machine.claude / "settings.json").write_text("{}")
    (machine.claude / "rules" / "notes.txt").write_text("not a rule")
    files = files_of(machine, "claude-code:user")
    assert set(files) == {"CLAUDE.md", "rules/testing.md"}
    source = next(s for s in discover(machine.context()).sources if s.id == "claude-code:user")
    assert source_file(source, ".credentials.json") is None
    assert source_file(source, "settings.json") is None
    assert source_file(source, "../.codex/AGENTS.md") is None


def test_a_linked_claude_md_in_the_users_config_is_shown_read_only(
    machine: Machine, tmp_path: Path
) -> None:
    dotfiles = tmp_path / "dotfiles" / "CLAUDE.md"
    dotfiles.parent.mkdir()
    dotfiles.write_text("---\ndescription: From my dotfiles\n---\n# Mine\n")
    (machine.claude / "CLAUDE.md").unlink()
    (machine.claude / "CLAUDE.md").symlink_to(dotfiles)
    file = files_of(machine, "claude-code:user")["CLAUDE.md"]
    assert file.linked and not file.writable
    assert file.description == "From my dotfiles"
    assert str(dotfiles) in (file.read_only_reason or "")
    source = next(s for s in discover(machine.context()).sources if s.id == "claude-code:user")
    assert read_source_file(source, file).text == dotfiles.read_text()


def test_a_hard_linked_file_is_listed_but_never_read(machine: Machine, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("---\ndescription: not for you\n---\n")
    os.link(secret, machine.claude_memory / "innocent.md")
    file = files_of(machine, "claude-code:memory-")["memory/innocent.md"]
    assert file.description == "" and not file.writable
    assert "hard links" in (file.read_only_reason or "")
    source = next(
        s for s in discover(machine.context()).sources if s.id.startswith("claude-code:memory-")
    )
    with pytest.raises(SourceError, match="hard links"):
        read_source_file(source, file)


def test_links_inside_projects_and_walked_trees_are_not_followed(
    machine: Machine, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# secret\n")
    (machine.project / "CLAUDE.local.md").symlink_to(secret)
    (machine.project / ".claude" / "rules" / "linked.md").symlink_to(secret)
    (machine.claude_memory / "linked.md").symlink_to(secret)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "deep.md").write_text("# deep\n")
    (machine.claude_memory / "linked-dir").symlink_to(outside)
    project = files_of(machine, "claude-code:project-")
    assert "CLAUDE.local.md" not in project and ".claude/rules/linked.md" not in project
    memory = files_of(machine, "claude-code:memory-")
    assert "memory/linked.md" not in memory and "memory/linked-dir/deep.md" not in memory


def test_binary_and_over_cap_files_are_listed_but_not_writable(machine: Machine) -> None:
    (machine.claude_memory / "blob.md").write_bytes(b"---\x00binary")
    (machine.claude_memory / "huge.md").write_text("x" * 102_401)
    files = files_of(machine, "claude-code:memory-")
    assert "NUL" in (files["memory/blob.md"].read_only_reason or "")
    assert "cap" in (files["memory/huge.md"].read_only_reason or "")


def test_a_huge_source_is_cut_at_1000_files(machine: Machine) -> None:
    episodic = machine.project / ".loki" / "memory" / "episodic" / "2026-04-01"
    episodic.mkdir(parents=True)
    for index in range(MAX_FILES_PER_SOURCE + 5):
        (episodic / f"task-{index:05d}.json").write_text("{}")
    listing = listing_of(machine, "loki:")
    assert listing.truncated and len(listing.files) == MAX_FILES_PER_SOURCE
    assert listing.error and str(MAX_FILES_PER_SOURCE) in listing.error


def test_an_unreadable_or_vanished_root_lists_empty(machine: Machine, tmp_path: Path) -> None:
    source = Source(
        id="loki:gone",
        agent="loki",
        layout=next(s for s in discover(machine.context()).sources if s.agent == "loki").layout,
        root=tmp_path / "gone",
        label="gone",
    )
    assert list_source(source).files == ()
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        assert list_source(Source("loki:x", "loki", source.layout, locked, "x")).files == ()
