"""Other agents' memory in the Memory tab's tree: sections below mux's three scopes."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import PurePosixPath

from memtab import humanize
from memtab.components import glossary
from memtab.components.tree.nodes import (
    FileMatch,
    MessageKind,
    NodeKind,
    SectionId,
    TreeNode,
    finish_counts,
    match_node,
    ref_key,
)
from memtab.components.tree.sources_scan import SourcesScan
from memtab.file_protocol.file_ref import (
    AGENT_TITLES,
    OTHER_AGENTS,
    MemoryFileRef,
    agent_title,
    parse_file_id,
)
from memtab.humanize import display_path
from memtab.sources.codex.imports import IMPORTED_TAG, ImportLinks
from memtab.sources.layouts import codex_extension_reason
from memtab.sources.model import (
    AD_HOC_EXTENSION,
    FileKind,
    Layout,
    Source,
    SourceFile,
    SourceListing,
)

_WHAT: dict[Layout, str] = {
    Layout.CLAUDE_USER: "CLAUDE.md and rules",
    Layout.CLAUDE_PROJECT: "CLAUDE.md and rules",
    Layout.CLAUDE_MEMORY: "auto memory",
    Layout.CLAUDE_AUTO_MEMORY: "auto memory",
    Layout.CLAUDE_AGENT_MEMORY: "subagent memory",
    Layout.CLAUDE_TEAM_MEMORY: "team memory",
    Layout.CLAUDE_ACCOUNT_MEMORY: "account memory",
    Layout.CODEX_USER: "AGENTS.md",
    Layout.CODEX_PROJECT: "AGENTS.md",
    Layout.CODEX_MEMORIES: "memories",
    Layout.CODEX_EXTENSIONS: "memory extensions",
    Layout.LOKI: "memory",
    Layout.GEMINI_USER: "global GEMINI.md",
    Layout.GEMINI_PROJECT: "project GEMINI.md",
    Layout.GEMINI_MEMORY: "private project memory",
}
_TAGS: dict[FileKind, str] = {
    FileKind.RULE: "rule",
    FileKind.AUTO_MEMORY_INDEX: "index",
    FileKind.AUTO_MEMORY_TOPIC: "topic",
    FileKind.SESSION_SUMMARY: "older session summary",
    FileKind.GENERATED: "generated",
    FileKind.SKILL: "skill",
    FileKind.EXTENSION: "extension",
    FileKind.RENDERED: "rendered",
    FileKind.MEMORY_INDEX: "index",
}


def project_group_key(project: str) -> str:
    return f"sources:project:{project}"


def agent_group_key(agent: str) -> str:
    return f"sources:agent:{agent}"


# Claude Code's subagents keep their own memory, shown in a section of its own.
SUBAGENTS_GROUP_KEY = f"{agent_group_key('claude-code')}:subagents"
SUBAGENTS_TITLE = "Claude Code subagents"


def _group_key(source: Source) -> str:
    if source.project:
        return project_group_key(source.project)
    if source.layout is Layout.CLAUDE_AGENT_MEMORY:
        return SUBAGENTS_GROUP_KEY
    return agent_group_key(source.agent)


def consolidated_text(listing: SourceListing, now: int | None = None) -> str:
    """ "Last consolidated 3 h ago" for Claude Code's auto memory ("" when it never was)."""
    if listing.last_consolidated_ms is None:
        return ""
    return f"Last consolidated {humanize.relative_time(listing.last_consolidated_ms, now)}"


def source_key(source_id: str) -> str:
    return f"source:{source_id}"


def source_title(source: Source, *, with_agent: bool) -> str:
    """What a source's row says: what it holds, after its agent's name inside a project's
    section; a Claude Code directory no project was found for is named by its directory."""
    what = _WHAT[source.layout]
    if source.layout is Layout.CLAUDE_MEMORY and source.project is None:
        what = f"{what} · {source.root.name}"
    return f"{AGENT_TITLES[source.agent]} · {what}" if with_agent else what


def source_tooltip(node: TreeNode) -> str:
    """The tooltip of another agent's section or source row: where it really is."""
    count = humanize.plural(node.file_count, "file")
    if node.kind is NodeKind.SECTION:
        where = node.physical or agent_title(node.agent)
        kind = "Project" if node.physical else "Agent"
        return f"{kind}: {where} — {count}\n{glossary.OTHER_AGENTS}"
    lines = [f"{node.name}: {node.physical} — {count}"]
    if node.description:
        lines.append(node.description)
    if node.not_editable_reason:
        lines.append(f"Read-only: {node.not_editable_reason}")
    return "\n".join(lines)


def file_tag(file: SourceFile) -> str:
    """What a file is to its agent, as the row's small label (a topic's type, if any)."""
    if file.kind is FileKind.AUTO_MEMORY_TOPIC and file.topic_type:
        return file.topic_type
    return _TAGS.get(file.kind, "")


class _SourceRows:
    """Builds the rows of one source's listing under its own row."""

    def __init__(
        self, listing: SourceListing, *, with_agent: bool, links: ImportLinks | None = None
    ) -> None:
        source = listing.source
        self.source = source
        self.listing = listing
        self.links = links
        self.node = TreeNode(
            source_key(source.id),
            NodeKind.SOURCE,
            source_title(source, with_agent=with_agent),
            SectionId.SOURCES,
            physical=str(source.root),
            subtitle=consolidated_text(listing).lower(),
            description=" · ".join(t for t in (consolidated_text(listing), source.note) if t),
            not_editable_reason=source.read_only_reason,
            read_only=True,
            agent=source.agent,
            ref=MemoryFileRef(source.id, ""),
        )
        self.directories: dict[str, TreeNode] = {"": self.node}

    def directory(self, relative: str) -> TreeNode:
        node = self.directories.get(relative)
        if node is not None:
            return node
        parent, _, name = relative.rpartition("/")
        ref = MemoryFileRef(self.source.id, relative)
        node = TreeNode(
            ref_key(ref, folder=True),
            NodeKind.DIRECTORY,
            name,
            SectionId.SOURCES,
            physical=os.path.join(self.source.root, *relative.split("/")),
            read_only=True,
            agent=self.source.agent,
            ref=ref,
        )
        self.directory(parent).children.append(node)
        self.directories[relative] = node
        return node

    def add_files(self, matches: Mapping[str, FileMatch] | None) -> None:
        for file in self.listing.files:
            key = ref_key(file.ref)
            match = matches.get(key) if matches is not None else None
            if matches is not None and match is None:
                continue
            parent = self.directory(str(PurePosixPath(file.relative).parent).strip("."))
            parent.children.append(self.file_row(file, key, match))
        self.describe_extensions()
        if self.listing.error and matches is None:
            self.node.children.append(
                TreeNode(
                    f"source-message:{self.source.id}",
                    NodeKind.MESSAGE,
                    self.listing.error,
                    SectionId.SOURCES,
                    message_kind=MessageKind.ERROR,
                )
            )

    def describe_extensions(self) -> None:
        """A Codex extension's folder says what it holds and what its manifest lists."""
        for extension in self.listing.extensions:
            node = self.directories.get(extension.folder)
            if node is None:
                continue
            node.subtitle = f"extension · {extension.summary()}"
            node.description = "\n".join(extension.details())
            if extension.name != AD_HOC_EXTENSION:  # the ad-hoc notes are the user's
                node.not_editable_reason = codex_extension_reason(extension.name)

    def file_row(self, file: SourceFile, key: str, match: FileMatch | None) -> TreeNode:
        node = TreeNode(
            key,
            NodeKind.FILE,
            file.name,
            SectionId.SOURCES,
            physical=str(file.physical),
            description=file.description,
            size_bytes=file.size_bytes,
            modified_at_ms=file.modified_at_ms,
            not_editable_reason=file.read_only_reason,
            content_hits=match.content_hits if match else 0,
            read_only=True,
            agent=self.source.agent,
            ref=file.ref,
            tag=file_tag(file),
            warning=file.warning,
            warning_label=file.warning_label,
        )
        if self.links is not None:
            _link(node, file, self.links)
        if match is not None and match.lines:
            node.adopt([match_node(node, line) for line in match.lines])
        return node


def _link(node: TreeNode, file: SourceFile, links: ImportLinks) -> None:
    """A file Codex imported says so and opens its original; an original opens its import."""
    label = links.labels.get(file.id)
    if label is not None:
        node.tag = IMPORTED_TAG
        original = links.original_of.get(file.id)
        copy = f": a copy of {original}" if original else " (its original is not listed here)"
        node.description = f"{label[0].upper()}{label[1:]}{copy}"
        node.linked = parse_file_id(original) if original else None
        return
    copies = links.imports_of.get(file.id)
    if copies:  # its tooltip names the copy (`text.file_tooltip`); the row stays as it was
        node.linked = parse_file_id(copies[0])


def _group_order(
    key: str, listings: list[SourceListing], current_project: str | None
) -> tuple[int, str, str]:
    project = listings[0].source.project
    if project is not None:
        rank = 0 if project == current_project else 1
        return (rank, os.path.basename(project).casefold(), project)
    agent_rank = f"{OTHER_AGENTS.index(listings[0].source.agent):02d}"
    return (2, agent_rank, key)  # a subagents section after its agent's


def _shown_once(matches: Mapping[str, FileMatch], links: ImportLinks) -> Mapping[str, FileMatch]:
    """`matches` (by tree key) without the copies whose original matched too
    (`ImportLinks.shown_once`)."""
    linked = {ref_key(parse_file_id(i)): i for pair in links.original_of.items() for i in pair}
    found = [file_id for key, file_id in linked.items() if key in matches]
    folded = {ref_key(parse_file_id(copy)) for copy in links.shown_once(found)}
    return {k: m for k, m in matches.items() if k not in folded} if folded else matches


def build_source_sections(
    sources: SourcesScan,
    matches: Mapping[str, FileMatch] | None = None,
    current_project: str | None = None,
) -> list[TreeNode]:
    """The sections of other agents' memory; with `matches`,
    only the matching files and what holds them — Codex's copy of a Claude Code memory
    file found with its original shown once, as its original."""
    links = sources.imports
    if matches is not None:
        matches = _shown_once(matches, links)
    groups: dict[str, list[SourceListing]] = {}
    for listing in sources.listings:
        groups.setdefault(_group_key(listing.source), []).append(listing)
    sections = []
    for key, listings in sorted(
        groups.items(), key=lambda item: _group_order(item[0], item[1], current_project)
    ):
        project, agent = listings[0].source.project, listings[0].source.agent
        title = SUBAGENTS_TITLE if key == SUBAGENTS_GROUP_KEY else AGENT_TITLES[agent]
        section = TreeNode(
            key,
            NodeKind.SECTION,
            (os.path.basename(project.rstrip("/")) or project) if project else title,
            SectionId.SOURCES,
            physical=project,
            subtitle=display_path(project) if project else "",
            read_only=True,
            agent=None if project else agent,
        )
        for listing in listings:
            rows = _SourceRows(listing, with_agent=project is not None, links=links)
            rows.add_files(matches)
            if matches is None or rows.node.children:
                section.children.append(rows.node)
        if not section.children:
            continue
        finish_counts(section)
        if matches is not None:
            section.total_count = sum(listing.file_count for listing in listings)
        sections.append(section)
    return sections
