"""Claude Code's `@`-imports as links (no Qt): in which files, where in a line, how the
preview links them, which file one names (docs/formats.md §17.6)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.loads.loads import (
    import_at,
    reads_imports,
    with_import_links,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.claude.instructions import import_target


def test_the_files_claude_code_follows_imports_in() -> None:
    assert reads_imports(MemoryFileRef("claude-code:user", "CLAUDE.md"))
    assert reads_imports(MemoryFileRef("claude-code:project-acme", ".claude/rules/api.md"))
    assert reads_imports(MemoryFileRef("claude-code:project-acme", "CLAUDE.local.md"))
    assert not reads_imports(MemoryFileRef("claude-code:memory-x", "memory/MEMORY.md"))
    assert not reads_imports(MemoryFileRef("codex:memories", "AGENTS.md"))
    assert not reads_imports(None)


def test_where_an_import_is_in_a_line() -> None:
    line = "See @docs/style.md, not `@code`."
    assert import_at(line, 4) == import_at(line, 10) == "docs/style.md,"
    assert import_at(line, 1) is None
    assert import_at(line, line.index("@code") + 1) is None  # in a code span


def test_the_preview_links_imports_of_the_prose_only() -> None:
    text = "# T\n\nSee @docs/style.md and `@no`.\n\n```\n@also-not\n```\n"
    assert with_import_links(text) == (
        "# T\n\nSee [@docs/style.md](<@docs/style.md>) and `@no`.\n\n```\n@also-not\n```\n"
    )


def test_which_file_an_import_names(tmp_path: Path) -> None:
    acme = tmp_path / "acme"  # the folder of its CLAUDE.md
    home = tmp_path / "home"
    assert import_target("docs/style.md", acme, home) == tmp_path / "acme" / "docs" / "style.md"
    assert import_target("~/notes.md", acme, home) == home / "notes.md"
    assert import_target("logo.png", acme, home) is None  # not a text file
