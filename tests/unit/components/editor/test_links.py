"""Where a link in a memory file's preview leads."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.editor.panel import LinkTarget, follow_link, resolve_link
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import parse_file_path

INDEX = MemoryFileRef.of_mux(parse_file_path("/memories/global/tools/MEMORY.md"))
CLAUDE = MemoryFileRef("claude-code:memory-x", "memory/MEMORY.md")


def mux(path: str) -> LinkTarget:
    return LinkTarget(ref=MemoryFileRef.of_mux(parse_file_path(path)))


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("git.md", mux("/memories/global/tools/git.md")),
        ("./sub/x.md#usage", mux("/memories/global/tools/sub/x.md")),
        ("../prefs.md", mux("/memories/global/prefs.md")),
        ("/memories/project/notes.md", mux("/memories/project/notes.md")),
        ("topic%20one.md", mux("/memories/global/tools/topic one.md")),
        ("#usage", LinkTarget(anchor="usage")),
        ("https://example.com/x", LinkTarget(web="https://example.com/x")),
    ],
)
def test_mux_links(href: str, expected: LinkTarget) -> None:
    assert resolve_link(INDEX, href) == expected


@pytest.mark.parametrize(
    "href",
    ["../../project/x.md", "file:///etc/passwd", "javascript:alert(1)", "{{path}}", "/etc/x.md"],
)
def test_links_memtab_does_not_follow_say_why(href: str) -> None:
    target = resolve_link(INDEX, href)
    assert target.ref is None and target.anchor is None and target.web is None
    assert href in target.why


def test_an_agents_index_links_its_topics() -> None:
    assert resolve_link(CLAUDE, "user_role.md") == LinkTarget(
        ref=MemoryFileRef(CLAUDE.source_id, "memory/user_role.md")
    )
    assert resolve_link(CLAUDE, "../../x.md").ref is None
    assert resolve_link(CLAUDE, "/abs/x.md").ref is None


def test_a_file_shown_only_to_be_read_follows_no_file_links() -> None:
    assert resolve_link(None, "x.md").ref is None
    assert resolve_link(None, "#top") == LinkTarget(anchor="top")


def test_an_import_in_claude_codes_instruction_file_leads_to_the_file_on_disk() -> None:
    claude = MemoryFileRef("claude-code:instructions-app", "CLAUDE.md")
    real, home = Path("/work/app/CLAUDE.md"), Path("/home/me")
    assert follow_link(claude, "@docs/style.md", real, home) == LinkTarget(
        file=Path("/work/app/docs/style.md")
    )
    assert follow_link(claude, "@~/notes.md", real, home).file == Path("/home/me/notes.md")
    assert follow_link(claude, "@picture.png", real, home).why == (
        "Claude Code imports no file by @picture.png"
    )
    assert follow_link(claude, "@docs/style.md", None, home).file is None  # not on disk
    assert follow_link(claude, "#usage", real, home) == LinkTarget(anchor="usage")
    # Where Claude Code reads no imports, an @ is a link like any other.
    memory = MemoryFileRef("claude-code:memory-app", "MEMORY.md")
    assert follow_link(memory, "@docs/style.md", real, home) == resolve_link(
        memory, "@docs/style.md"
    )
