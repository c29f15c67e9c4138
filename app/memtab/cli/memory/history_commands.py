"""Headless history: `history`, `blame`, `restore`, `runs`, `revert-run` and `trash`, each first
recording what changed outside Memtab, so what they show is current."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

from memtab.blame.records import AdHocNoteSource, Blame, BlameLine
from memtab.blame.service import blame_file_id, blame_memory_file
from memtab.cli.common import (
    as_cli_error,
    command,
    elide,
    format_table,
    open_store,
    require_memory_path,
)
from memtab.cli.options import CliError
from memtab.components.history.deleted import (
    discovered_sources,
    every_item,
    load_trash,
    record_source_deletions,
)
from memtab.components.history.history import version_rows
from memtab.file_protocol.file_ref import SourceError, is_virtual_path, parse_file_id
from memtab.fs.records import Inlined, Record
from memtab.humanize import absolute_time, relative_time, size_text
from memtab.sources.agent_file import SourceVersions, restore_version
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.store.actors import actor_name, actor_short
from memtab.store.catch_up.external import record_external
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.history.describe import describe_run, op_diff
from memtab.store.history.prune import maybe_prune
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import RunKind, files_changed, trace_path
from memtab.store.history.versions import VersionListing
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import (
    RestoreResult,
    RevertResult,
    TrashItem,
    file_history,
    restore,
    revert_run,
)
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import EventRestore, find_event, restore_event


def _caught_up_store(
    home: Home, workspace: str | None, orphan: str | None, *, reading: bool = True
) -> MemoryStore:
    """The store of `--workspace` or `--orphan`, history caught up with what changed
    outside Memtab (`reading`: not waiting on a writer's lock for that)."""
    if orphan is not None:
        if workspace is not None:
            raise CliError("--orphan and --workspace cannot be combined")
        store: MemoryStore = OrphanProjectStore(home, orphan)
    else:
        store, _ = open_store(home, workspace)
    for warning in record_external(store, wait=not reading).warnings():
        print(f"warning: {warning}", file=sys.stderr)
    maybe_prune(store.home)
    return store


def _source_versions(home: Home, workspace: str | None, orphan: str | None) -> SourceVersions:
    if workspace is not None or orphan is not None:
        raise CliError("A file id needs no --workspace or --orphan")
    return SourceVersions(home)


class SourceRestored(Record, write_only=True):
    """`memtab restore ID --version V --json`: whether the file already held that version."""

    path: str
    version: str
    unchanged: bool


def _restore_source_file(history: SourceVersions, file_id: str, version: str) -> SourceRestored:
    with as_cli_error(SourceError):
        source = discover(SourceContext.load(history.home)).source(parse_file_id(file_id).source_id)
        changed = restore_version(history, source, file_id, version)
    return SourceRestored(path=file_id, version=version, unchanged=not changed)


# --- history --------------------------------------------------------------------------------


class VersionHistory(Record, write_only=True):
    """`memtab history PATH --json`: the file's versions, newest first (§14.2)."""

    versions: tuple[VersionListing, ...]


@command("history", writes_home=True)
def run_history(
    home: Home,
    path: str,
    *,
    workspace: str | None = None,
    orphan: str | None = None,
    json: bool = False,
) -> VersionHistory | int:
    """every recorded version of a memory file

    Args:
        path: virtual path, e.g. /memories/global/a.md, or another agent's file id
        workspace (ID): for project and workspace files
        orphan (DIR): an orphaned project memory dir (memory/project/DIR), deleted or not; its
            files are /memories/project/…
    """
    require_memory_path(home, path, workspace or orphan, "history")
    if not is_virtual_path(path):
        with as_cli_error(SourceError):
            versions = _source_versions(home, workspace, orphan).versions(path.strip())
    else:
        versions = file_history(_caught_up_store(home, workspace, orphan), parse_file_path(path))
    if json:
        return VersionHistory(versions=tuple(version.listed() for version in versions))
    if not versions:
        print(f"No history for {path}")
        return 0
    rows = [["VERSION", "WHEN", "WHO", "WHAT", "SIZE"]]
    for row in version_rows(versions):  # in the History panel's words
        who = row.who + (f" · {row.version.run_id}" if row.version.run_id else "")
        rows.append([row.version.id, row.when, who, row.change, row.size])
    print(format_table(rows))
    return 0


# --- blame ----------------------------------------------------------------------------------


@command("blame", writes_home=True)
def run_blame(
    home: Home,
    path: str,
    *,
    workspace: str | None = None,
    orphan: str | None = None,
) -> Blame:
    """who introduced each line of a memory file, when, and from what

    Args:
        path: virtual path, e.g. /memories/global/a.md, or another agent's file id
        workspace (ID): for project and workspace files
        orphan (DIR): an orphaned project memory dir (memory/project/DIR), deleted or not; its
            files are /memories/project/…
    """
    # Each line, who introduced it (docs/formats.md §20.2).
    require_memory_path(home, path, workspace or orphan, "blame")
    if not is_virtual_path(path):
        with as_cli_error(SourceError):
            return blame_file_id(_source_versions(home, workspace, orphan).home, path.strip())
    store = _caught_up_store(home, workspace, orphan)
    catch_up_runs(store.home)
    return blame_memory_file(store, path)


@run_blame.text
def _print_blame(blame: Blame) -> None:
    rows = [
        [
            line.version or "-",
            _blame_actor(line),
            absolute_time(line.at)[:16],
            f"{line.line})",
            line.text,
        ]
        for line in blame.lines
    ]
    if rows:
        print(format_table(rows, right_aligned=(3,)))
        _print_ad_hoc_notes(blame.lines)
    else:
        print(f"{blame.path} is empty", file=sys.stderr)


def _blame_actor(line: BlameLine) -> str:
    """The actor column: a xum tool call is named by its id (docs/formats.md §14.6), a
    line Codex drew from an ad-hoc note says so."""
    source = line.source
    if source is not None and source.kind == "xum-tool-call" and source.tool_call_id:
        return f"{actor_short(line.actor)} {source.tool_call_id}"
    if source is not None and source.kind == "codex-ad-hoc-note":
        return f"{actor_short(line.actor)} ← note"
    return actor_short(line.actor)  # the gutter's word, as git blame's author


def _print_ad_hoc_notes(lines: Sequence[BlameLine]) -> None:
    """Below the table: the notes each `[ad-hoc note]` line was drawn from (§20.2)."""
    drawn = [(line.line, line.source) for line in lines if isinstance(line.source, AdHocNoteSource)]
    if not drawn:
        return
    print("\nLines Codex drew from ad-hoc notes:")
    for number, source in drawn:
        named = "; ".join(
            f"{note.id} ({actor_name(note.actor)}, {absolute_time(note.at)[:16]})"
            for note in source.notes
        )
        print(f"  {number}) ← {named or 'no note there shares its words (deleted, or reworded)'}")


@command("restore", writes_home=True)
def run_restore(
    home: Home,
    path: str | None = None,
    *,
    workspace: str | None = None,
    orphan: str | None = None,
    version: str | None = None,
    event: str | None = None,
    to: str | None = None,
    force: bool = False,
    json: bool = False,
) -> SourceRestored | RestoreResult | EventRestore | int:
    """make a file hold one of its versions again (a deleted file too)

    Args:
        workspace (ID):
        orphan (DIR): an orphaned project memory dir (memory/project/DIR), deleted or not; its
            files are /memories/project/…
        version (V): a version id
        event (ID): instead of PATH and --version: put back every file one burst of changes
            deleted or rewrote (see `memtab events`)
        to (PATH): restore to another path
        force: with --to: replace the file already there (its content is kept in history)
    """
    if event is not None:
        if path is not None or version is not None or to is not None:
            raise CliError(
                "--event restores the files of one event: give no PATH, --version or --to"
            )
        return _restore_event(home, event.strip(), json=json)
    if path is None or version is None:
        raise CliError("restore takes PATH and --version V (or --event ID)")
    if force and to is None:
        raise CliError("--force is for --to: a restore in place never needs it")
    require_memory_path(home, path, workspace or orphan, "restore")
    if not is_virtual_path(path):
        if to is not None:
            raise CliError(
                "--to is for mux memory files; another agent's file is restored in place"
            )
        return _restore_source_file(
            _source_versions(home, workspace, orphan), path.strip(), version
        )
    store = _caught_up_store(home, workspace, orphan, reading=False)
    target = parse_file_path(to) if to else None
    return restore(store, parse_file_path(path), version, to=target, replace=force)


@run_restore.text
def _print_restored(result: SourceRestored | RestoreResult) -> None:
    held = result.version if isinstance(result, SourceRestored) else result.version.id
    done = f"{result.path} already holds" if result.unchanged else f"Restored {result.path} to"
    print(f"{done} version {held}")


def _restore_event(home: Home, event_id: str, *, json: bool) -> EventRestore | int:
    with as_cli_error(LookupError):
        event = find_event(home, event_id)
    result = restore_event(home, event)
    if json:
        return result
    print(f"{event.words()}: restored {len(result.restored)} of {len(event.versions)}")
    for path in result.restored:
        print(f"restored {path}")
    for left in result.left:
        print(f"left {left.path}: {left.why}", file=sys.stderr)
    return 0


# --- runs ------------------------------------------------------------------------------------


@command("runs", writes_home=True)
def run_runs(
    home: Home,
    *,
    workspace: str | None = None,
    kind: RunKind | None = None,
    failed: bool = False,
    diff: bool = False,
    json: bool = False,
) -> RunsListing | int:
    """every consolidation, writer run, sync and revert, newest first

    Args:
        workspace (ID): only this workspace's runs
        failed: only failed runs
        diff: show each applied op's diff
    """
    # lazy: the Runs dialog's listing (its diffs' readers), not `memtab --help`'s start
    from memtab.components.history.runs import RunFilter, load_run_list, run_outcome, run_title

    maybe_prune(home)
    listing = load_run_list(home, RunFilter(workspace_id=workspace, kind=kind, failed_only=failed))
    runs, reverts = listing.runs, listing.reverted
    if json:
        return RunsListing(runs=tuple(RunListing.of(run, reverts.get(run.id)) for run in runs))
    if not runs:
        print("No runs recorded")
        return 0
    for run in runs:  # titled and summed up as the Runs dialog lists it
        outcome = run_outcome(run, reverts.get(run.id), partly=run.id in listing.partly_reverted)
        where = run.workspace_id or run.project_path or "—"
        print(f"{run.id}  {absolute_time(run.at)}  {run_title(run)} · {where} · {outcome}")
        print(f"  {elide(run.summary or run.error or '', 100)}")
        if (trace := trace_path(home, run)) is not None:
            print(f"  trace: {trace}")
        revert = reverts.get(run.id)
        if revert is not None:
            print(
                f"  reverted by {revert.id} ({actor_name(revert.actor or 'user')}, "
                f"{absolute_time(revert.at)})"
            )
        for op, words in zip(run.ops, describe_run(home, run), strict=True):
            print(f"  - {words}")
            if diff and op.applied and (shown := op_diff(home, op)):
                print("    " + shown.replace("\n", "\n    "))
    return 0


class RunListing(Record, write_only=True):
    """A run as `memtab runs --json` gives it (§14.3): the log's record (its fields, the
    unknown ones kept) and what is known of it since (`revertedBy`: the revert run that
    reverted it, or null)."""

    run: Annotated[RunEntry, Inlined]
    reverted_by: str | None
    files_changed: int

    @classmethod
    def of(cls, run: RunEntry, revert: RunEntry | None) -> RunListing:
        reverted_by = revert.id if revert is not None else None
        return cls(run=run, reverted_by=reverted_by, files_changed=files_changed(run))


class RunsListing(Record, write_only=True):
    """`memtab runs --json`: the runs, newest first."""

    runs: tuple[RunListing, ...]


@command("revert-run", status=lambda result: 1 if result.refused else 0, writes_home=True)
def run_revert(home: Home, run_id: str) -> RevertResult:
    """restore every file a run changed to what it held before"""
    catch_up_runs(home)
    return revert_run(home, run_id)


@run_revert.text
def _print_revert(result: RevertResult) -> None:
    for path in result.restored:
        print(f"restored {path}")
    for path in result.already:
        print(f"already  {path}: it holds what it held before the run")
    for refusal in result.refused:
        print(f"refused  {refusal.path}: {refusal.reason}")
        if refusal.diff:
            print("  " + refusal.diff.replace("\n", "\n  "))
    if not result.restored and not result.refused and not result.already:
        print("Nothing to revert: the files already hold what they held before the run")
    if result.revert_run_id is not None:
        print(f"logged as run {result.revert_run_id} (memtab runs --kind revert)")


# --- trash -----------------------------------------------------------------------------------


class TrashListing(Record, write_only=True):
    """`memtab trash --json`: the deleted files, newest first."""

    files: tuple[TrashItem, ...]


@command("trash", writes_home=True)
def run_trash(
    home: Home, *, workspace: str | None = None, orphan: str | None = None, json: bool = False
) -> TrashListing | int:
    """deleted files history can restore

    Args:
        workspace (ID):
        orphan (DIR): an orphaned project memory dir (memory/project/DIR), deleted or not; its
            files are /memories/project/…
    """
    # What mux's scopes (or one orphaned dir) and, without --orphan, every other agent's memory
    # lost (`components.history.deleted`, §14.5).
    store = _caught_up_store(home, workspace, orphan)
    sources = () if orphan is not None else discovered_sources(store.home)
    record_source_deletions(store.home, sources)
    groups = load_trash(store, record_first=False, sources=sources, orphans=False)
    items = every_item(groups)
    if json:
        return TrashListing(files=tuple(item.trash_item() for item in items))
    if not items:
        print("No deleted files in history")
        return 0
    rows = [["PATH", "DELETED", "BY", "VERSION", "SIZE"]]
    for item in items:
        path, when = item.path + (" *" if item.pinned else ""), relative_time(item.deleted_at)
        rows.append(
            [path, when, actor_name(item.actor), item.version.id, size_text(item.size_bytes)]
        )
    print(format_table(rows))
    where = f" --workspace {workspace}" if workspace else ""
    where += f" --orphan {orphan}" if orphan else ""
    print(f"\nRestore one with: memtab restore PATH --version VERSION{where}", file=sys.stderr)
    for burst in (b for group in groups for b in group.bursts if b.left_to_restore):
        print(
            f"Restore what {burst.event.words()} with: memtab restore --event {burst.id}",
            file=sys.stderr,
        )
    return 0
