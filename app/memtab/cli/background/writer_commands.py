"""`memtab write`: run the background memory writer once for a workspace, now, as the app runs it
(the interval and scheduling state untouched)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from memtab.cli.common import as_cli_error, command, print_json
from memtab.cli.options import CliError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.humanize import plural
from memtab.llm.settings import ProviderName, resolve_provider_settings
from memtab.llm.types import ProviderError, close_provider
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from memtab.transcripts.events import TranscriptFormat
from memtab.writer.config import (
    MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
    OfflineNotes,
    WriterSettings,
    load_writer_settings,
    memory_path_problem,
)
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import (
    bind_to_run,
    create_writer_provider,
    known_secrets,
    read_for_run,
)
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.run import run_writer
from memtab.writer.records import Suggestion


@command("write", writes_home=True)
def run_write(
    home: Home,
    *,
    workspace: str,
    transcript: str | None = None,
    format_: TranscriptFormat | None = None,
    provider: ProviderName | None = None,
    model: str | None = None,
    base_url: str | None = None,
    timeout: float | None = None,
    memory_path: str | None = None,
    dump: bool = False,
    write_notes: bool = False,
    json: bool = False,
) -> int:
    """run the background memory writer once for a workspace

    Read a workspace's transcript and update its memory file now, ignoring the every-N-turns
    interval.

    Args:
        workspace (ID):
        transcript (FILE): transcript to read (default: the workspace's chat.jsonl)
        format_: transcript format (default: mux for chat.jsonl, detected for --transcript)
        provider: model provider
        model (M): model name
        base_url (URL): provider base URL
        timeout (SECONDS): time limit of the run
        memory_path (PATH): workspace memory file to keep
        dump: write a trace dump even when the run succeeds (as by default, unless
            writer.dump_successful_runs is off)
        write_notes: offline writer: write its notes to the memory file instead of suggesting them
        json: machine-readable output
    """
    # 0 when it wrote or found nothing new, 1 when it failed.
    found = load_registry(home).require_workspace(workspace)
    settings = _settings(timeout, memory_path, dump=dump, write_notes=write_notes)
    if transcript:
        read, transcript_format = Path(transcript).expanduser(), format_
    else:
        read, transcript_format = home.transcript_path(found.id), format_ or "mux"
    if not read.is_file():
        hint = "" if transcript else "; pass --transcript FILE"
        raise CliError(f"No transcript at {read} for workspace {found.id}{hint}")
    with as_cli_error(ProviderError, SettingsFileError):
        provider_settings = resolve_provider_settings(provider, model, base_url)
        writer = create_writer_provider(provider_settings)
    if not json:  # which model, and which key and why (never the key itself)
        print(f"Memory writer with {provider_settings.describe()}…", file=sys.stderr)
    try:
        # A model is shown the newest events; the offline writer digests the whole file.
        events, whole = read_for_run(writer, read, transcript_format)
        bound = bind_to_run(writer, home, found, events.budget, settings, whole)
        result = run_writer(
            home,
            found,
            events,
            bound,
            settings=settings,
            known_secrets=known_secrets(provider_settings),
            transcript_path=read,
            whole=whole,
        )
    finally:
        close_provider(writer)
    suggested = bound.proposed if isinstance(bound, OfflineWriterProvider) else []
    if json:
        print_json(result.replaced(suggested=tuple(suggested)).to_json())
    else:
        _print_result(result, events.budget.original_count, suggested)
    return 0 if result.ok else 1


def _settings(
    timeout: float | None, memory_path: str | None, *, dump: bool, write_notes: bool
) -> WriterSettings:
    stored = load_writer_settings()
    timeout = stored.timeout_s if timeout is None else timeout
    if timeout is not None and not MIN_TIMEOUT_S <= timeout <= MAX_TIMEOUT_S:
        raise CliError(f"--timeout must be between {MIN_TIMEOUT_S:g} and {MAX_TIMEOUT_S:g} seconds")
    memory_path = memory_path or stored.memory_path
    problem = memory_path_problem(memory_path)
    if problem:
        raise CliError(problem)
    # The stored settings with the command line's overrides: every other setting as stored.
    return stored.replaced(
        timeout_s=timeout,
        memory_path=memory_path,
        dump_successful_runs=stored.dump_successful_runs or dump,
        offline_notes=OfflineNotes.WRITE if write_notes else stored.offline_notes,
    )


def _print_result(
    result: WriterRunResult, event_count: int, suggested: Sequence[Suggestion]
) -> None:
    where = f"workspace {result.workspace_name} ({result.model_string}, {result.duration_ms} ms)"
    if suggested:
        print(f"Suggested {plural(len(suggested), 'memory', 'memories')} for review — {where}")
        for suggestion in suggested:
            print(f"  {suggestion.id}  [{suggestion.section}] {suggestion.text}")
        print(f"Accept or reject them: memtab inbox --workspace {result.workspace_id}")
    elif result.outcome == "wrote":
        print(f"{result.summary()} — {where}")
        for line in result.diff_lines():
            if line.startswith("@@"):
                continue
            print(f"  {line}")
    elif result.outcome == "no_new_memories":
        if event_count == 0:
            print(f"Nothing in the transcript to read (no new messages) — {where}")
        else:
            read = plural(event_count, "transcript event")
            print(f"No new memories in the last {read} — {where}")
    else:
        print(f"memtab: memory writer failed for {where}: {result.error}", file=sys.stderr)
    if result.plan and result.ok:  # what a model on this machine had the time to judge
        print(f"In its time: {result.plan}")
    if result.trace_path is not None:
        print(f"Trace: {result.trace_path}", file=sys.stderr if not result.ok else sys.stdout)
