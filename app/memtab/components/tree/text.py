"""What the Memory tab's tree says about a row besides its name: tooltips and the text a screen
reader reads after the name (Qt-free; `gui/tree/model` asks for them by role)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from memtab import humanize
from memtab.components import glossary
from memtab.components.tree.marks import RowMark
from memtab.components.tree.nodes import NodeKind, SectionId, TreeNode
from memtab.file_protocol.file_ref import agent_title
from memtab.store.xum_notes import xum_note_sentence

PIN_NOTE = glossary.PINS_WITH_MUX
"""What a pinned file's tooltip says about mux until the tab knows whether it runs."""


class BadgeSentence(Protocol):
    """A row's "agent edited" badge, as its tooltip says it (`activity.badges.Badge`)."""

    def sentence(self, now: int | None = None) -> str: ...


def file_tooltip(
    node: TreeNode,
    badge: BadgeSentence | None,
    pin_note: str = PIN_NOTE,
    marks: Sequence[RowMark] = (),
) -> str:
    """The tooltip of a file row: path, description, size, times, usage and state."""
    lines = [str(node.path) if node.path is not None else (node.physical or node.name)]
    if node.description:
        lines.append(node.description)
    purpose = xum_note_sentence(node.path) if node.path is not None else None
    if purpose:
        lines.append(purpose)
    if node.agent is not None:
        what = f" · {node.tag}" if node.tag else ""
        lines.append(f"{agent_title(node.agent)} memory{what}")
    elif node.tag:  # a file-sync tool's conflict copy (the only tag of Memtab's own rows)
        lines.append(
            f"{node.tag[:1].upper()}{node.tag[1:]}: agents and consolidation do not see it "
            "until you decide (File → Resolve conflicts…)"
        )
    modified = node.modified_at_ms
    lines.append(
        f"{humanize.size_text(node.size_bytes)} · modified {humanize.relative_time(modified)} "
        f"({humanize.absolute_time(modified)})"
    )
    usage = humanize.usage_text(node.access_count, node.last_accessed_at)
    if usage:
        lines += [usage, glossary.USAGE]
    if node.pinned:
        lines.append(f"Pinned. {pin_note}")
    if badge is not None:
        lines.append(badge.sentence())
    if node.not_editable_reason:
        lines.append(f"Read-only: {node.not_editable_reason}")
    if node.warning:
        lines.append(node.warning)
    if node.linked is not None:  # Codex's import of a Claude Code file, or its original
        lines.append(f"Linked to {node.linked.key}: right-click to open it")
    lines += [mark.detail for mark in marks]
    if node.orphan_dir is not None:
        lines.append(glossary.ORPHANED_PROJECT_MEMORY)
    return "\n".join(lines)


def describe_for_accessibility(
    node: TreeNode, badge: BadgeSentence | None, marks: Sequence[RowMark] = ()
) -> str:
    """What a screen reader says after a row's name."""
    if node.kind is NodeKind.SECTION:
        parts = [humanize.plural(node.file_count, "file")]
        if node.total_count is not None:
            parts = [f"{node.file_count} of {humanize.plural(node.total_count, 'file')} match"]
        if node.subtitle:
            parts.insert(0, node.subtitle)
        return ", ".join(parts)
    if node.kind in (NodeKind.DIRECTORY, NodeKind.ORPHAN_DIR):
        return f"folder, {humanize.plural(node.file_count, 'file')}"
    if node.kind is NodeKind.SOURCE:
        return f"{agent_title(node.agent)} memory, {humanize.plural(node.file_count, 'file')}"
    if node.kind is NodeKind.FILE:
        edited = f"agent edited: {badge.sentence()}" if badge is not None else ""
        before = ["pinned" if node.pinned else "", edited, node.tag, node.warning or ""]
        hits = humanize.plural(node.content_hits, "matching line") if node.content_hits else ""
        usage = humanize.usage_text(node.access_count, node.last_accessed_at)
        after = [node.description, usage, hits]
        return ", ".join(
            [*filter(None, before), *(mark.text for mark in marks), *filter(None, after)]
        )
    if node.kind is NodeKind.MATCH and node.line_match is not None:
        return f"matching line {node.line_match.line + 1}"
    return ""


def row_tooltip(
    node: TreeNode,
    badge: BadgeSentence | None,
    pin_note: str = PIN_NOTE,
    marks: Sequence[RowMark] = (),
) -> str | None:
    """The tooltip of any row: a file's details, a folder's or section's counts."""
    if node.kind is NodeKind.FILE:
        return file_tooltip(node, badge, pin_note, marks)
    if node.kind is NodeKind.SECTION and node.section is SectionId.ORPHANS:
        return glossary.ORPHANED_PROJECT_MEMORY
    if node.kind is NodeKind.SOURCE or (
        node.kind is NodeKind.SECTION and node.section is SectionId.SOURCES
    ):
        # lazy: ~45 ms (what sources are) the first paint saves; loaded with the first source
        from memtab.components.tree.sources import source_tooltip

        return source_tooltip(node)
    read_only = f"\nRead-only: {node.not_editable_reason}" if node.not_editable_reason else ""
    if node.kind is NodeKind.SECTION:
        where = f" · {node.subtitle}" if node.subtitle else ""
        files = humanize.plural(node.file_count, "file")
        purpose = xum_note_sentence(node.path) if node.path is not None else None
        about = f"\n{purpose}" if purpose else ""
        return f"{node.name} memory{where} — {files}{about}{read_only}"
    if node.kind in (NodeKind.DIRECTORY, NodeKind.ORPHAN_DIR):
        where = str(node.path) if node.path is not None else (node.physical or node.name)
        text = f"{where} — {humanize.plural(node.file_count, 'file')}{read_only}"
        if node.description:  # a Codex memory extension: what it holds
            text = f"{text}\n{node.description}"
        purpose = xum_note_sentence(node.path) if node.path is not None else None
        if purpose:
            text = f"{text}\n{purpose}"
        orphaned = node.orphan_dir is not None
        return f"{text}\n{glossary.ORPHANED_PROJECT_MEMORY}" if orphaned else text
    if node.kind is NodeKind.MESSAGE:
        return node.subtitle or node.name  # a warning's detail, else its text
    if node.kind is NodeKind.MATCH and node.line_match is not None:
        return f"Line {node.line_match.line + 1}: {node.name}"
    return None
