"""`memtab write`: run the background memory writer once for a workspace, now, as the app runs it
(the interval and scheduling state untouched)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from memtab.cli.common import Argument, as_cli_error, command, open_home, print_json
from memtab.cli.options import CliError
from memtab.fs.config.settings_file import SettingsFileError
from memtab.humanize import plural
from memtab.llm.settings import PROVIDER_NAMES, resolve_provider_settings
from memtab.llm.types import ProviderError, close_provider
from memtab.store.sidecars.registry import load_registry
from memtab.transcripts.events import TRANSCRIPT_FORMATS
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


@command(
    "write",
    Argument.workspace(required=True),
    Argument(
        "--transcript",
        metavar="FILE",
        help="transcript to read (default: the workspace's chat.jsonl)",
    ),
    Argument(
        "--format",
        choices=TRANSCRIPT_FORMATS,
        help="transcript format (default: mux for chat.jsonl, detected for --transcript)",
    ),
    Argument("--provider", choices=PROVIDER_NAMES, help="model provider"),
    Argument("--model", metavar="M", help="model name"),
    Argument("--base-url", metavar="URL", help="provider base URL"),
    Argument("--timeout", metavar="SECONDS", type=float, help="time limit of the run"),
    Argument("--memory-path", metavar="PATH", help="workspace memory file to keep"),
    Argument(
        "--dump",
        action="store_true",
        help="write a trace dump even when the run succeeds (as by default, unless "
        "writer.dump_successful_runs is off)",
    ),
    Argument(
        "--write-notes",
        action="store_true",
        help="offline writer: write its notes to the memory file instead of suggesting them",
    ),
    Argument.json("machine-readable output"),
    writes_home=True,
    help="run the background memory writer once for a workspace",
    description="Read a workspace's transcript and update its memory file now, "
    "ignoring the every-N-turns interval.",
)
def run_write(args: argparse.Namespace) -> int:
    """Run the writer once; 0 when it wrote or found nothing new, 1 when it failed."""
    home = open_home(args)
    workspace = load_registry(home).require_workspace(args.workspace)
    settings = _settings(args)
    if args.transcript:
        transcript = Path(args.transcript).expanduser()
        transcript_format = args.format
    else:
        transcript = home.transcript_path(workspace.id)
        transcript_format = args.format or "mux"
    if not transcript.is_file():
        hint = "" if args.transcript else "; pass --transcript FILE"
        raise CliError(f"No transcript at {transcript} for workspace {workspace.id}{hint}")
    with as_cli_error(ProviderError, SettingsFileError):
        provider_settings = resolve_provider_settings(args.provider, args.model, args.base_url)
        provider = create_writer_provider(provider_settings)
    if not args.json:  # which model, and which key and why (never the key itself)
        print(f"Memory writer with {provider_settings.describe()}…", file=sys.stderr)
    try:
        # A model is shown the newest events; the offline writer digests the whole file.
        events, whole = read_for_run(provider, transcript, transcript_format)
        bound = bind_to_run(provider, home, workspace, events.budget, settings, whole)
        result = run_writer(
            home,
            workspace,
            events,
            bound,
            settings=settings,
            known_secrets=known_secrets(provider_settings),
            transcript_path=transcript,
        )
    finally:
        close_provider(provider)
    suggested = bound.proposed if isinstance(bound, OfflineWriterProvider) else []
    if args.json:
        print_json(result.replaced(suggested=tuple(suggested)).to_json())
    else:
        _print_result(result, events.budget.original_count, suggested)
    return 0 if result.ok else 1


def _settings(args: argparse.Namespace) -> WriterSettings:
    stored = load_writer_settings()
    timeout = stored.timeout_s if args.timeout is None else args.timeout
    if not MIN_TIMEOUT_S <= timeout <= MAX_TIMEOUT_S:
        raise CliError(f"--timeout must be between {MIN_TIMEOUT_S:g} and {MAX_TIMEOUT_S:g} seconds")
    memory_path = args.memory_path or stored.memory_path
    problem = memory_path_problem(memory_path)
    if problem:
        raise CliError(problem)
    # The stored settings with the command line's overrides: every other setting as stored.
    return stored.replaced(
        timeout_s=timeout,
        memory_path=memory_path,
        dump_successful_runs=stored.dump_successful_runs or args.dump,
        offline_notes=OfflineNotes.WRITE if args.write_notes else stored.offline_notes,
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
    if result.trace_path is not None:
        print(f"Trace: {result.trace_path}", file=sys.stderr if not result.ok else sys.stdout)
