"""`memtab suggestions`: the memories the offline writer suggested, to accept or dismiss.

    memtab suggestions [--workspace ID] [--json]             list what waits for review
    memtab suggestions accept ID… [--workspace ID] [--text TEXT] [--json]
    memtab suggestions dismiss ID… [--workspace ID] [--json]

Without `--workspace`, listing covers every workspace with suggestions, and accept /
dismiss find each id in whichever workspace holds it (ids are short content hashes; one
found in two workspaces must be given with `--workspace`). `--text` edits the one
suggestion being accepted. Accepted lines go to the workspace's notes file.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from memtab.cli.common import CliError, add_home_option, format_table, open_home, print_json
from memtab.store.home import Home, HomeError
from memtab.store.memory import MemoryStoreError
from memtab.store.registry import load_registry
from memtab.writer.records import Suggestion
from memtab.writer.suggestions import (
    SuggestionError,
    SuggestionQueue,
    queued_workspaces,
    sections_order,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `memtab suggestions` (list, accept, dismiss) to the `memtab` parser."""
    parser = commands.add_parser(
        "suggestions",
        help="review the memories the offline writer suggested",
        description="List the suggested memories waiting for review; accept (optionally "
        "with edited text) or dismiss them. Accepted lines go to the workspace's notes file.",
    )
    add_home_option(parser)
    parser.add_argument("--workspace", metavar="ID", help="only this workspace")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run_list)
    actions = parser.add_subparsers(dest="suggestion_action", metavar="ACTION")
    accept = actions.add_parser("accept", help="write suggestions into the notes file")
    accept.add_argument("ids", metavar="ID", nargs="+")
    accept.add_argument("--text", help="the edited text to accept (one ID only)")
    dismiss = actions.add_parser("dismiss", help="drop suggestions (never proposed again)")
    dismiss.add_argument("ids", metavar="ID", nargs="+")
    for sub in (accept, dismiss):
        add_home_option(sub)
        sub.add_argument("--workspace", metavar="ID", default=argparse.SUPPRESS)
        sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    accept.set_defaults(handler=run_accept)
    dismiss.set_defaults(handler=run_dismiss)


def _workspace_ids(home: Home, workspace: str | None) -> list[str]:
    if workspace is not None:
        load_registry(home).require_workspace(workspace)
        return [workspace]
    return queued_workspaces(home)


def _entry(workspace_id: str, suggestion: Suggestion) -> dict[str, object]:
    return {"workspaceId": workspace_id, **suggestion.to_json()}


def run_list(args: argparse.Namespace) -> int:
    """Print the pending suggestions (of one workspace, or of all)."""
    home = open_home(args)
    found = [
        (workspace_id, suggestion)
        for workspace_id in _workspace_ids(home, args.workspace)
        for suggestion in sections_order(SuggestionQueue(home, workspace_id).pending())
    ]
    if args.json:
        print_json({"suggestions": [_entry(w, s) for w, s in found]})
        return 0
    if not found:
        print("No suggested memories waiting for review.")
        return 0
    rows = [("ID", "WORKSPACE", "SECTION", "TEXT")]
    rows += [(s.id, w, s.section, s.text) for w, s in found]
    print(format_table(rows))
    print("\nmemtab suggestions accept ID… [--text TEXT]  ·  memtab suggestions dismiss ID…")
    return 0


def _by_workspace(home: Home, ids: Sequence[str], workspace: str | None) -> dict[str, list[str]]:
    """Which workspace holds each id (CliError for an unknown or ambiguous id)."""
    if workspace is not None:
        load_registry(home).require_workspace(workspace)
        return {workspace: list(ids)}
    holders: dict[str, list[str]] = {}
    for workspace_id in queued_workspaces(home):
        for suggestion in SuggestionQueue(home, workspace_id).pending():
            holders.setdefault(suggestion.id, []).append(workspace_id)
    grouped: dict[str, list[str]] = {}
    for suggestion_id in ids:
        found = holders.get(suggestion_id, [])
        if not found:
            raise CliError(f"No pending suggestion with id {suggestion_id}")
        if len(found) > 1:
            raise CliError(
                f"Suggestion {suggestion_id} is pending in several workspaces "
                f"({', '.join(found)}); give --workspace"
            )
        grouped.setdefault(found[0], []).append(suggestion_id)
    return grouped


def run_accept(args: argparse.Namespace) -> int:
    """Write the suggestions into their notes file and mark them accepted."""
    home = open_home(args)
    if args.text is not None and len(args.ids) != 1:
        raise CliError("--text edits one suggestion: give exactly one ID")
    registry = load_registry(home)
    accepted: list[tuple[str, Suggestion]] = []
    for workspace_id, ids in _by_workspace(
        home, args.ids, getattr(args, "workspace", None)
    ).items():
        try:
            workspace = registry.require_workspace(workspace_id)
            result = SuggestionQueue(home, workspace_id).accept(
                ids, workspace=workspace, text=args.text
            )
        except (SuggestionError, HomeError, MemoryStoreError, TimeoutError) as error:
            raise CliError(str(error)) from None
        accepted += [(workspace_id, s) for s in result.suggestions]
    _report(args, "accepted", accepted)
    return 0


def run_dismiss(args: argparse.Namespace) -> int:
    """Mark the suggestions dismissed: they are not proposed again."""
    home = open_home(args)
    dismissed: list[tuple[str, Suggestion]] = []
    for workspace_id, ids in _by_workspace(
        home, args.ids, getattr(args, "workspace", None)
    ).items():
        try:
            done = SuggestionQueue(home, workspace_id).dismiss(ids)
        except (SuggestionError, TimeoutError) as error:
            raise CliError(str(error)) from None
        dismissed += [(workspace_id, s) for s in done]
    _report(args, "dismissed", dismissed)
    return 0


def _report(args: argparse.Namespace, what: str, done: list[tuple[str, Suggestion]]) -> None:
    if getattr(args, "json", False):
        print_json({what: [_entry(w, s) for w, s in done]})
        return
    for workspace_id, suggestion in done:
        where = f" → {suggestion.memory_path}" if what == "accepted" else ""
        print(f"{what} {suggestion.id} ({workspace_id}){where}: {suggestion.text}")
