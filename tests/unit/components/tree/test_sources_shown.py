"""What the window does with each scan of other agents' memory, once, without Qt
(`components.tree.sources_scan.SourcesShown`)."""

from __future__ import annotations

from memtab.components.tree.nodes import NodeKind, SectionId, TreeNode
from memtab.components.tree.sources_scan import (
    EXPAND_SOURCES_MAX_FILES,
    SourceChanges,
    SourcesScan,
    SourcesShown,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.model import Discovery

CHANGED = MemoryFileRef("claude-code:memory-x", "memory/a.md")
GONE = MemoryFileRef("claude-code:memory-x", "memory/b.md")


def sources(**fields: object) -> SourcesScan:
    return SourcesScan(Discovery(), (), **fields)  # type: ignore[arg-type]


def test_each_scan_is_followed_once_and_only_news_is_passed_on() -> None:
    shown = SourcesShown()
    assert shown.scanned(None) is None
    first = sources(
        problems=("bad setting",),
        changes=SourceChanges(frozenset({CHANGED}), frozenset({GONE})),
        watch=(("/x", True),),
    )
    news = shown.scanned(first)
    assert news is not None and news.follow == {CHANGED, GONE}
    assert news.watch == (("/x", True),) and news.say == "bad setting"
    assert shown.scanned(first) is None  # the same scan: nothing new
    again = shown.scanned(sources(problems=("bad setting",), watch=(("/x", True),)))
    assert again is not None and again.watch is None and again.say is None  # said already
    cleared = shown.scanned(sources())
    assert cleared is not None and cleared.watch == () and cleared.say is None
    assert shown.targets == ()


def section(key: str, *children: TreeNode) -> TreeNode:
    node = TreeNode(key, NodeKind.SECTION, key, section=SectionId.SOURCES)
    node.adopt(list(children))
    return node


def test_a_new_section_opens_once_with_its_folders_while_the_sources_are_few() -> None:
    shown = SourcesShown()
    shown.scanned(sources())
    folder = TreeNode("src", NodeKind.SOURCE, "memory")
    folder.adopt([TreeNode("f", NodeKind.FILE, "a.md")])
    claude = section("claude", folder)
    mux = TreeNode("global", NodeKind.SECTION, "Global", section=SectionId.GLOBAL)
    mux.adopt([TreeNode("g", NodeKind.FILE, "g.md")])
    assert shown.to_expand([mux, claude]) == [claude, folder]
    assert shown.to_expand([mux, claude]) == []  # seen: the user's collapse stays
    codex = section("codex", TreeNode("src2", NodeKind.SOURCE, "skills"))
    assert shown.to_expand([codex]) == [codex]  # its empty folder has nothing to open


class ManyFiles(SourcesScan):
    @property
    def file_count(self) -> int:
        return EXPAND_SOURCES_MAX_FILES + 1


def test_past_a_few_files_a_new_section_opens_alone() -> None:
    shown = SourcesShown()
    shown.scanned(ManyFiles(Discovery(), ()))
    folder = TreeNode("src", NodeKind.SOURCE, "memory")
    folder.adopt([TreeNode("f", NodeKind.FILE, "a.md")])
    claude = section("claude", folder)
    assert shown.to_expand([claude]) == [claude]
