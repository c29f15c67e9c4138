"""Headless commands over every agent's memory: sources, list --source, show, copy, source-log,
codex-note. Other agents' files are named by file id, mux's by virtual path."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

from memtab.cli.common import (
    as_cli_error,
    command,
    elide,
    format_table,
    open_store,
    print_json,
    record_of,
    require_memory_path,
)
from memtab.cli.options import CliError
from memtab.file_protocol.file_ref import (
    AGENT_TITLES,
    MUX_SOURCE_ID,
    OTHER_AGENTS,
    Agent,
    MemoryFileRef,
    OtherAgent,
    SourceError,
    is_virtual_path,
    parse_file_id,
    parse_file_ref,
)
from memtab.file_protocol.memory_file import Commit, MemoryFile, MemoryFileError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.records import Inlined, Key, OmitEmpty, Record
from memtab.humanize import absolute_time, relative_time, size_text
from memtab.sources.agent_file import SourceVersions
from memtab.sources.codex.extensions import ExtensionRow, extension_row
from memtab.sources.codex.imports import link_imports
from memtab.sources.config import AgentSettings, SourceContext, save_agent_settings
from memtab.sources.content import read_source_file
from memtab.sources.copy import CopyOrigin, add_codex_note, codex_memories, copy_note
from memtab.sources.discovery import discover, scan
from memtab.sources.history import source_history
from memtab.sources.listing import SourceFileRow, find_file, list_source, source_file_row
from memtab.sources.model import LookedFor, Source, SourceFile, SourceListing
from memtab.sources.open_file import open_memory_file
from memtab.store.files import count_files
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

_one_line_errors = as_cli_error(SourceError, MemoryFileError, SettingsFileError)


def _context(home: Home) -> SourceContext:
    context = SourceContext.load(home)
    for problem in context.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return context


# --- sources ------------------------------------------------------------------------------


@command("sources", writes_home=False)
@_one_line_errors
def run_sources(
    home: Home,
    *,
    json: bool = False,
    enable: tuple[OtherAgent, ...] = (),
    disable: tuple[OtherAgent, ...] = (),
    path: tuple[str, ...] = (),
    default_path: tuple[OtherAgent, ...] = (),
) -> SourceListingOutput | int:
    """the agents' memory Memtab found (Claude Code, Codex, loki-mode, mux)

    Args:
        json: machine-readable output
        enable (AGENT):
        disable (AGENT):
        path (AGENT=DIR): look for AGENT's memory in DIR
        default_path (AGENT): forget a --path (back to the agent's variable or default)
    """
    _apply_settings(home, enable, disable, path, default_path)
    discovery, listings = scan(_context(home))
    rows = [_mux_row(home), *(_source_row(listing) for listing in listings)]
    if json:
        return SourceListingOutput(sources=tuple(rows), looked_for=discovery.looked_for)
    table = [["AGENT", "ID", "FILES", "", "WHERE"]]
    for row in rows:
        ro = "" if row.writable else "read-only"
        table.append(
            [AGENT_TITLES[row.agent], row.id, str(row.file_count), ro, row.project or row.root]
        )
    print(format_table(table, right_aligned=(2,)))
    for agent in OTHER_AGENTS:
        looked = [item for item in discovery.looked_for if item.agent == agent]
        title = AGENT_TITLES[agent]
        if looked and not any(item.found for item in looked):
            paths = ", ".join(item.path for item in looked if item.path)
            why = "; ".join(item.note for item in looked if item.note)
            where = (f" in {paths}" if paths else "") + (f"; {why}" if why else "")
            print(f"({title}: not found{where})", file=sys.stderr)
        for item in looked:
            if item.found and item.note:
                print(f"({title}: {item.path} {item.note})", file=sys.stderr)
    return 0


def _apply_settings(
    home: Home,
    enable: tuple[OtherAgent, ...],
    disable: tuple[OtherAgent, ...],
    paths: tuple[str, ...],
    default_path: tuple[OtherAgent, ...],
) -> None:
    """--enable/--disable/--path/--default-path, stored in settings.json."""
    changes: dict[Agent, AgentSettings] = {}
    context = SourceContext.load(home)

    def current(agent: Agent) -> AgentSettings:
        return changes.get(agent, context.settings.agent(agent))

    agent: Agent
    for agent in enable:
        changes[agent] = AgentSettings(enabled=True, path=current(agent).path)
    for agent in disable:
        changes[agent] = AgentSettings(enabled=False, path=current(agent).path)
    for agent in default_path:
        changes[agent] = AgentSettings(enabled=current(agent).enabled, path=None)
    for assignment in paths:
        agent_name, separator, directory = assignment.partition("=")
        if not separator or agent_name not in OTHER_AGENTS or not directory.strip():
            raise CliError(f"--path takes AGENT=DIR with AGENT one of {', '.join(OTHER_AGENTS)}")
        agent = next(a for a in OTHER_AGENTS if a == agent_name)
        absolute = os.path.abspath(os.path.expanduser(directory.strip()))
        changes[agent] = AgentSettings(enabled=current(agent).enabled, path=absolute)
    for agent, settings in changes.items():
        path = save_agent_settings(agent, settings)
        state = "on" if settings.enabled else "off"
        where = f", looked for in {settings.path}" if settings.path else ""
        print(f"{AGENT_TITLES[agent]}: {state}{where} (saved in {path})", file=sys.stderr)
    if context.isolated and changes:
        print("(this home sets its own sources: the change is for other homes)", file=sys.stderr)


class SourceRow(Record, write_only=True):
    """A source as `memtab sources --json` lists it (§17); mux's memory is the first."""

    id: str
    agent: Agent
    root: str
    project: str | None
    writable: bool
    file_count: int
    label: str
    read_only_reason: str | None = None
    has_history: bool = False
    note: str | None = None
    error: str | None = None
    last_consolidated_at: int | None = None
    """Claude Code's auto-dream, ms (mux's consolidation: `memtab status`)."""
    shared: str | None = None
    """`account` (synced to the user's account), `team` (shared with the repository's
    collaborators), or null: memory kept on this machine."""


def _mux_row(home: Home) -> SourceRow:
    count = count_files(home.global_root) + count_files(home.projects_root)
    try:
        for workspace in sorted(home.sessions_dir.iterdir()):
            count += count_files(workspace / "memory")
    except OSError:
        pass
    return SourceRow(
        id=MUX_SOURCE_ID,
        agent="mux",
        root=str(home.root),
        project=None,
        writable=True,
        file_count=count,
        label="mux memory (global, project and workspace scopes)",
    )


def _source_row(listing: SourceListing) -> SourceRow:
    source = listing.source
    return record_of(
        SourceRow,
        source,
        root=str(source.root),
        file_count=listing.file_count,
        error=listing.error,
        last_consolidated_at=listing.last_consolidated_ms,
    )


class SourceListingOutput(Record, write_only=True):
    """`memtab sources --json`: the sources, mux's first, and where each was looked for (§17)."""

    sources: tuple[SourceRow, ...]
    looked_for: tuple[LookedFor, ...]


class SourceFiles(Record, write_only=True):
    """`memtab list --source ID --json`: the files and Codex's extensions (formats §17.3)."""

    files: tuple[SourceFileRow, ...]
    extensions: Annotated[tuple[ExtensionRow, ...], OmitEmpty] = ()


# --- list --source ------------------------------------------------------------------------


@_one_line_errors
def run_source_list(home: Home, source_id: str, *, json: bool) -> int:
    """`memtab list --source ID` for a source other than mux: its warnings after its words."""
    discovery = discover(_context(home))
    listing = list_source(discovery.source(source_id))
    if json:
        extensions = tuple(extension_row(listing.source, e) for e in listing.extensions)
        # The other side of a Codex source's copies of Claude Code memory, or of a Claude Code
        # source's originals (docs/formats.md §17.3).
        partner = {"codex": "claude-code", "claude-code": "codex"}.get(listing.source.agent)
        partners = [list_source(s) for s in discovery.sources if s.agent == partner]
        links = link_imports([listing, *partners])
        rows = tuple(source_file_row(file, links) for file in listing.files)
        print_json(SourceFiles(files=rows, extensions=extensions).to_json())
    elif not listing.files:
        print(f"No files in {listing.source.id} ({listing.source.root})")
    else:
        table = [["", "PATH", "SIZE", "MODIFIED", "KIND", "DESCRIPTION"]]
        for file in listing.files:
            kind = file.kind.value + (f" ({file.topic_type})" if file.topic_type else "")
            when = [size_text(file.size_bytes), relative_time(file.modified_at_ms), kind]
            table.append(
                ["" if file.writable else "ro", file.id, *when, elide(file.description, 60)]
            )
        print(format_table(table, right_aligned=(2,)))
        if any(not f.writable for f in listing.files):
            print("\nro: read-only in Memtab (`memtab show ID --json` says why)")
        if listing.extensions:  # what each holds and what its manifest lists
            print("\nExtensions (Codex's, read-only but for the ad-hoc notes):")
        for extension in listing.extensions:
            print(f"  {listing.source.file_id(extension.folder)} — {extension.summary()}")
            for line in extension.details():
                print(f"    {line}")
    for file in listing.files:
        if file.warning:
            print(f"warning: {file.id}: {file.warning}", file=sys.stderr)
    if listing.error:
        print(f"warning: {listing.error}", file=sys.stderr)
    return 0


# --- show ---------------------------------------------------------------------------------


def _open_file(home: Home, workspace: str | None, raw: str) -> MemoryFile:
    """The memory file an argument names, by virtual path (in `workspace`'s scopes) or
    file id (`parse_file_ref`, the one parser); CliError when there is none."""
    ref = parse_file_ref(raw)
    store = open_store(home, workspace)[0] if is_virtual_path(raw) else None

    def find(wanted: MemoryFileRef) -> tuple[Source, SourceFile]:
        return find_file(discover(_context(home)), wanted.key)

    file = open_memory_file(ref, home, store=store, find_agent_file=find)
    if file is None:
        raise CliError(f"No memory file {raw.strip()!r}")
    return file


class MemoryText(Record, write_only=True):
    """`memtab show /memories/… --json`: a mux memory file's text and the sha guarding a save."""

    path: str
    content: str
    sha256: str


class SourceText(Record, write_only=True):
    """`memtab show ID --json`: another agent's file, its text as shown, the sha guarding a save."""

    row: Annotated[SourceFileRow, Inlined]
    content: str
    sha256: str
    rendered: bool
    over_cap: bool
    note: str | None


@command("show", writes_home=False)
@_one_line_errors
def run_show(
    home: Home, file_id: str, *, workspace: str | None = None, json: bool = False
) -> MemoryText | SourceText | int:
    """print one file (a file id or a virtual path)

    Args:
        workspace (ID): for project and workspace paths
    """
    if is_virtual_path(file_id):
        require_memory_path(home, file_id, workspace, "show")  # says what to type
        store, _ = open_store(home, workspace)
        content = store.read(parse_file_path(file_id))
        if json:
            return MemoryText(path=file_id, content=content.content, sha256=content.sha256)
        sys.stdout.write(content.content)
        return 0
    source, file = find_file(discover(_context(home)), file_id)
    shown = read_source_file(source, file)
    if json:
        return record_of(SourceText, shown, row=source_file_row(file), content=shown.text)
    sys.stdout.write(shown.text)
    if shown.text and not shown.text.endswith("\n"):
        sys.stdout.write("\n")
    for line in (file.warning, shown.note):
        if line:
            print(f"({line})", file=sys.stderr)
    return 0


# --- copy ---------------------------------------------------------------------------------


class Copied(Record, write_only=True):
    """`memtab copy --json`: the file copied, where to, and the sha of what was written."""

    origin: Annotated[str, Key("from")]
    target: Annotated[str, Key("to")]
    sha256: str


@command("copy", writes_home=True)
@_one_line_errors
def run_copy(
    home: Home,
    file: str,
    *,
    to: str,
    workspace: str | None = None,
    type_: str | None = None,
) -> Copied:
    """copy a memory into another agent's scope

    Args:
        file (FROM): a file id or a virtual path
        to (TARGET): a virtual path (/memories/global/x.md) or a file id of another source
        workspace (ID): for project and workspace paths
        type_ (TYPE): Claude Code memory type of a new topic file: user, feedback, project,
            reference
    """
    origin = CopyOrigin.of(_open_file(home, workspace, file))
    target = to.strip()
    if is_virtual_path(target):
        store = open_store(home, workspace)[0]
        result = copy_note(origin, target, store=store, topic_type=type_)
    else:
        target_id = parse_file_id(target)
        result = copy_note(
            origin,
            target_id.path,
            source=discover(_context(home)).source(target_id.source_id),
            topic_type=type_,
            history=SourceVersions(home),
        )
    return Copied(origin=result.origin, target=result.target, sha256=result.sha256)


@run_copy.text
def _print_copied(result: Copied) -> None:
    print(f"Copied {result.origin} to {result.target}")


# --- source-log ---------------------------------------------------------------------------


class CommitRow(Record, write_only=True):
    """One commit of an agent's own git log, as `memtab source-log --json` lists it."""

    sha: str
    committed_at: int
    subject: str
    files: tuple[str, ...]

    @classmethod
    def of(cls, commit: Commit) -> CommitRow:
        return record_of(cls, commit, committed_at=commit.committed_at_ms)


class SourceLog(Record, write_only=True):
    """`memtab source-log --json`: the source's commits, newest first, or why none (`note`)."""

    source: str
    note: str | None
    commits: tuple[CommitRow, ...]


@command("source-log", writes_home=False)
@_one_line_errors
def run_source_log(
    home: Home, source_id: str, path: str | None = None, *, limit: int = 50, json: bool = False
) -> SourceLog | int:
    """a source's history (Codex's memories git log)

    Args:
        path: only commits touching this file
    """
    source = discover(_context(home)).source(source_id)
    history = source_history(source, path, limit=limit)
    if json:
        commits = tuple(map(CommitRow.of, history.commits))
        return SourceLog(source=source.id, note=history.note, commits=commits)
    if history.note:
        print(history.note)
        return 0
    rows = [
        [c.sha[:10], absolute_time(c.committed_at_ms), f"{len(c.files)} file(s)", c.subject]
        for c in history.commits
    ]
    print(format_table(rows) if rows else f"No commits in {source.root}")
    return 0


# --- codex-note ---------------------------------------------------------------------------


class NoteAdded(Record, write_only=True):
    """`memtab codex-note --json`: the note's file id and where it was written."""

    id: str
    path: Path


@command("codex-note", writes_home=True)
@_one_line_errors
def run_codex_note(home: Home, text: str) -> NoteAdded:
    """add a note to Codex's memory (its extensions/ad_hoc/notes/)

    The way Codex asks to be told what to remember is a note, which its next consolidation folds
    in, marking what it took [ad-hoc note]. This writes one.

    Args:
        text: the note ('-': read it from stdin)
    """
    source = codex_memories(discover(_context(home)))
    if source is None:
        raise CliError("Codex's memories folder was not found (see `memtab sources`)")
    file = add_codex_note(home, source, sys.stdin.read() if text == "-" else text)
    return NoteAdded(id=file.id, path=file.physical)


@run_codex_note.text
def _print_added(added: NoteAdded) -> None:
    print(f"Added {added.id}")
