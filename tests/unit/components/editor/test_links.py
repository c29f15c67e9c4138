"""Where a link in a memory file's preview leads."""

from __future__ import annotations

import pytest

from memtab.components.editor.links import LinkTarget, resolve_link
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
