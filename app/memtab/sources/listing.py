"""Listing a source: the files its layout names, each with its kind, description and rights, by
the store's listing rules (docs/formats.md §4.2)."""

from __future__ import annotations

import logging
import os
import re
import stat
from dataclasses import replace
from pathlib import Path
from typing import Annotated

from memtab.file_protocol.file_ref import SourceError, parse_file_id
from memtab.fs.readable import HardLinkedFileError, read_readable_path
from memtab.fs.records import OmitEmpty, OmitNone
from memtab.sources.claude.index import index_cut, index_warning
from memtab.sources.claude.memory_dir import shared_skill_warning
from memtab.sources.claude.recall import NO_DESCRIPTION_LABEL, recall_warning
from memtab.sources.claude.settings import last_consolidated_ms
from memtab.sources.codex.extensions import read_extensions
from memtab.sources.codex.imports import ImportLinks
from memtab.sources.content import read_raw_source_text
from memtab.sources.gemini.context_files import NOT_IN_INDEX, NOT_IN_INDEX_LABEL, named_in_index
from memtab.sources.layouts import (
    FOLLOWS_LINKED_FILES,
    PLANS,
    Rule,
    auto_memory_dir,
    classify_file,
)
from memtab.sources.model import (
    Discovery,
    FileKind,
    Layout,
    ReadOnlyError,
    Source,
    SourceFile,
    SourceListing,
    is_folder,
)
from memtab.store.files import MAX_FILE_BYTES, MAX_FILES_PER_SCOPE
from memtab.store.paths import MAX_PATH_DEPTH, too_deep_words
from memtab.store.scope_walk import holds_entries
from memtab.store.scopes.file_rows import FileRow
from memtab.store.text.frontmatter import (
    DESCRIPTION_PREFIX_BYTES,
    description_from_prefix,
    frontmatter_strings,
    title_of,
)

logger = logging.getLogger(__name__)

MAX_FILES_PER_SOURCE = MAX_FILES_PER_SCOPE


def list_source(
    source: Source, *, limit: int | None = MAX_FILES_PER_SOURCE, described: bool = True
) -> SourceListing:
    """Every file of `source` by its layout, sorted: the first `limit` (None: all), each
    `described` from its first 4 KiB, else kind, size and rights alone."""
    plan = PLANS[source.layout]
    found: dict[str, SourceFile] = {}
    error: str | None = None
    try:
        os.stat(source.root)
    except FileNotFoundError:
        return SourceListing(source)
    except OSError as failure:
        return SourceListing(source, error=f"Cannot read {source.root}: {failure.strerror}")
    for relative in (*plan.files, *source.context_names):
        _add(found, source, tuple(relative.split("/")), described)
    too_deep: list[str] = []
    for relative in plan.directories:
        walked = _walk(source.root / relative if relative else source.root, too_deep, limit)
        if walked is None:
            continue
        prefix = tuple(relative.split("/")) if relative else ()
        for segments in walked:
            _add(found, source, prefix + segments, described)
            if limit is not None and len(found) > limit:
                break
    if plan.session_summaries:
        for session in _subdirectories(source.root):
            _add(found, source, (session, "session-memory", "summary.md"), described)
    files = sorted(found.values(), key=lambda f: f.relative)
    truncated = limit is not None and len(files) > limit
    if truncated:
        error = f"Only the first {limit} files of {source.root} are shown"
        files = files[:limit]
    elif too_deep:
        error = f"Not listed: {too_deep_words(min(too_deep))}"
        if (source.root, min(too_deep)) not in _LOGGED_TOO_DEEP:
            _LOGGED_TOO_DEEP.add((source.root, min(too_deep)))
            logger.warning("%s: %s", source.id, error)
    if source.layout is Layout.GEMINI_MEMORY:
        files = _with_index_warnings(source, files)
    memory_dir = auto_memory_dir(source)
    consolidated = last_consolidated_ms(memory_dir) if memory_dir is not None else None
    extensions = read_extensions(source, files, read_raw_source_text)
    return SourceListing(source, tuple(files), error, truncated, consolidated, extensions)


def _with_index_warnings(source: Source, files: list[SourceFile]) -> list[SourceFile]:
    """Gemini CLI's private memory: each note its `MEMORY.md` never names says it is never found."""
    index = next((f for f in files if f.kind is FileKind.MEMORY_INDEX), None)
    if index is None:
        return files
    try:
        data = read_readable_path(index.physical, limit=MAX_FILE_BYTES)
    except OSError:
        return files
    text = data.decode("utf-8", errors="replace")
    return [
        replace(file, warning=NOT_IN_INDEX, warning_label=NOT_IN_INDEX_LABEL)
        if file.kind is FileKind.NOTE
        and "/" not in file.relative
        and file.warning is None
        and not named_in_index(text, file.name)
        else file
        for file in files
    ]


def source_file(source: Source, relative: str) -> SourceFile | None:
    """The file at `relative` as listing would show it, or None when not one of the source's."""
    segments = tuple(relative.split("/"))
    found: dict[str, SourceFile] = {}
    _add(found, source, segments)
    return found.get(relative)


# Characters no file name Memtab creates in another agent's memory may hold.
_UNSAFE_SEGMENT = re.compile(r'[\x00-\x1f\x7f\\<>":|?*~]')


def target_file(source: Source, relative: str) -> SourceFile:
    """A new file at `relative` in `source`, if its layout lets Memtab write one (SourceError,
    ReadOnlyError)."""
    segments = tuple(relative.strip().strip("/").split("/"))
    bad = next(
        (
            s
            for s in segments
            if not s or s in (".", "..") or _UNSAFE_SEGMENT.search(s) or "%2" in s.lower()
        ),
        None,
    )
    if bad is not None:
        raise SourceError(f"Invalid path {relative!r} in {source.id}: bad segment {bad!r}")
    if any(s.startswith(".") and s != ".claude" for s in segments):
        raise SourceError(f"Invalid path {relative!r} in {source.id}: hidden names are not used")
    rule = classify_file(source, segments)
    if rule is None:
        raise SourceError(
            f"{source.id} has no place for {relative!r} (see `memtab list --source {source.id}`)"
        )
    reason = (
        rule.read_only_reason or source.folder_read_only_reason(segments) or source.read_only_reason
    )
    if reason is not None:
        raise ReadOnlyError(f"Cannot write {source.file_id(relative)}: {reason}")
    return SourceFile(
        source_id=source.id,
        relative="/".join(segments),
        physical=source.root.joinpath(*segments),
        kind=rule.kind,
        description="",
        size_bytes=0,
        modified_at_ms=0,
    )


def find_file(discovery: Discovery, raw_id: str) -> tuple[Source, SourceFile]:
    """The source and file a file id names; SourceError (one line) when there is none."""
    file_id = parse_file_id(raw_id)
    source = discovery.source(file_id.source_id)
    found = source_file(source, file_id.path)
    if found is None:
        raise SourceError(
            f"No file {file_id.path!r} in {source.id} (see `memtab list --source {source.id}`)"
        )
    return source, found


def _add(
    found: dict[str, SourceFile],
    source: Source,
    segments: tuple[str, ...],
    described: bool = True,
) -> None:
    rule = classify_file(source, segments)
    if rule is None or any(s.startswith(".") and s != ".claude" for s in segments):
        return
    # Strings, not Paths, until a file is found: listing speed is path handling.
    entry = _file_entry(source, segments, os.path.join(source.root, *segments), rule, described)
    if entry is not None:
        found[entry.relative] = entry


def _file_entry(
    source: Source, segments: tuple[str, ...], physical: str, rule: Rule, described: bool = True
) -> SourceFile | None:
    try:
        info = os.lstat(physical)
        reason = rule.read_only_reason
        linked = stat.S_ISLNK(info.st_mode)
        if linked:
            if source.layout not in FOLLOWS_LINKED_FILES or len(segments) != 1:
                return None
            info = os.stat(physical)
            reason = reason or f"a link to {os.path.realpath(physical)}: edit the file it names"
        if not stat.S_ISREG(info.st_mode):
            return None
        # As in the store: another hard link may be a file from anywhere; it is not read.
        hard_linked = False
        try:
            if info.st_nlink > 1 and not linked:
                raise HardLinkedFileError(physical)
            prefix = ""
            if described:
                prefix = _prefix(physical, segments[-1], rule.kind, info.st_size, follow=linked)
        except HardLinkedFileError:
            hard_linked = True
            reason = reason or "it has other hard links (one may be anywhere): not read"
            prefix = ""
    except OSError:
        return None  # vanished, unreadable, or a dangling link
    relative = "/".join(segments)
    fields = frontmatter_strings(prefix) if rule.kind is FileKind.AUTO_MEMORY_TOPIC else {}
    if "\x00" in prefix:
        reason = reason or "not a text file (it contains NUL bytes)"
    elif info.st_size > MAX_FILE_BYTES:
        reason = reason or f"larger than the {MAX_FILE_BYTES}-byte cap"
    # After the file's own (search reads by it): its folder's, then its source's.
    reason = reason or source.folder_read_only_reason(segments) or source.read_only_reason
    warning: str | None
    label = NO_DESCRIPTION_LABEL
    if not described:
        warning = None
    elif rule.kind is FileKind.AUTO_MEMORY_INDEX:
        label, warning = "over limit", _index_warning(physical)
    elif rule.kind is FileKind.SKILL and source.layout is Layout.CLAUDE_TEAM_MEMORY:
        label, warning = shared_skill_warning(prefix, info.st_size) or ("", None)
    else:
        warning = None if hard_linked else recall_warning(source.layout, segments, prefix)
    return SourceFile(
        source_id=source.id,
        relative=relative,
        physical=Path(physical),
        kind=rule.kind,
        description=_description(source.layout, segments, prefix),
        size_bytes=info.st_size,
        modified_at_ms=info.st_mtime_ns // 1_000_000,
        read_only_reason=reason,
        topic_type=fields.get("type"),
        topic_name=fields.get("name"),
        warning=warning,
        warning_label=label if warning else None,
        linked=linked,
    )


def _prefix(physical: str, name: str, kind: FileKind, size: int, *, follow: bool) -> str:
    """The text a description needs: 4 KiB of Markdown, nothing of rendered JSON."""
    if kind is FileKind.RENDERED or not name.endswith(".md") or size == 0:
        return ""
    data = read_readable_path(physical, limit=DESCRIPTION_PREFIX_BYTES, follow_link=follow)
    return data.decode("utf-8", "replace")


def _description(layout: Layout, segments: tuple[str, ...], prefix: str) -> str:
    if layout is Layout.LOKI:
        return loki_description(segments)
    if not prefix:
        return ""
    # The store's reader for `description:`, then the first heading.
    return description_from_prefix(prefix.encode("utf-8")) or title_of(prefix)


def loki_description(segments: tuple[str, ...]) -> str:
    """What a loki-mode memory file holds, from where it is (no read needed)."""
    name = segments[-1]
    stem = name.rsplit(".", 1)[0]
    area = segments[0] if len(segments) > 1 else ""
    if area == "episodic":
        day = f" of {segments[1]}" if len(segments) > 2 else ""
        return f"Episode {stem.removeprefix('task-')}{day}"
    if area == "semantic":
        return {
            "patterns": "Semantic patterns (correct vs incorrect approach)",
            "anti-patterns": "Anti-patterns: what not to do",
            "facts": "Domain facts",
            "links": "Links between memories",
        }.get(stem, f"Semantic memory: {stem}")
    if area == "handoffs":
        return f"Handoff {stem}"
    if area == "ledgers":
        return f"Ledger {stem.removeprefix('LEDGER-')}"
    if area == "skills":
        return f"Skill: {stem}"
    if area == "learnings":
        return f"Learnings {stem}"
    if name == "failures.jsonl":
        return "Failures per task (attempts, errors, approaches)"
    if name == "index.json":
        return "Memory index"
    return ""


def _index_warning(physical: str) -> str | None:
    """Say when Claude Code will not read all of MEMORY.md (`claude_index`)."""
    try:
        data = read_readable_path(physical, limit=MAX_FILE_BYTES, follow_link=True)
    except OSError:
        return None
    return index_warning(index_cut(data.decode("utf-8", errors="replace")))


_LOGGED_TOO_DEEP: set[tuple[Path, str]] = set()


def _walk(
    root: Path, too_deep: list[str], limit: int | None = MAX_FILES_PER_SOURCE
) -> list[tuple[str, ...]] | None:
    """Relative segments of every regular file below `root` (no dotfiles or links), at most
    `MAX_PATH_DEPTH` deep; a deeper folder holding anything goes to `too_deep`."""
    results: list[tuple[str, ...]] = []
    pending: list[tuple[str, tuple[str, ...]]] = [(str(root), ())]
    while pending and (limit is None or len(results) <= limit):
        directory, segments = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except OSError:
            if not segments:
                return None
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if len(segments) + 1 < MAX_PATH_DEPTH:
                        pending.append((entry.path, (*segments, entry.name)))
                    elif holds_entries(entry.path):
                        too_deep.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    results.append((*segments, entry.name))
            except OSError:
                continue
    results.sort()
    return results


def _subdirectories(root: Path) -> list[str]:
    try:
        with os.scandir(root) as iterator:
            return sorted(
                e.name
                for e in iterator
                if not e.name.startswith(".") and e.name != "memory" and is_folder(e)
            )
    except OSError:
        return []


class SourceFileRow(FileRow, write_only=True):
    """Another agent's file as `memtab list --source ID --json` and the MCP `list` show it
    (docs/formats.md §17): a mux file's fields, then its own, Codex's imports linked both ways
    (§17.3)."""

    kind: FileKind
    writable: bool
    read_only_reason: str | None
    type: str | None
    warning: str | None
    physical_path: Path
    imported_from: Annotated[str | None, OmitNone] = None
    imported_as: Annotated[tuple[str, ...], OmitEmpty] = ()
    imported: Annotated[str | None, OmitNone] = None


def source_file_row(file: SourceFile, links: ImportLinks | None = None) -> SourceFileRow:
    """`file`'s row; `links`: Codex's imports among the listings it was listed with."""
    return SourceFileRow(
        path=file.id,
        scope=file.source_id,
        description=file.description,
        size_bytes=file.size_bytes,
        modified_at=file.modified_at_ms,
        not_editable=file.read_only_reason,
        kind=file.kind,
        writable=file.writable,
        read_only_reason=file.read_only_reason,
        type=file.topic_type,
        warning=file.warning,
        physical_path=file.physical,
        imported_from=links.original_of.get(file.id) if links is not None else None,
        imported_as=links.imports_of.get(file.id, ()) if links is not None else (),
        imported=links.labels.get(file.id) if links is not None else None,
    )
