"""`memtab inbox`: every memory an agent proposed (mux's harvest, Memtab's writer, agents' changes
through `memtab mcp --writes inbox`), to accept or reject (docs/formats.md §10.5, §22.5);
`memtab suggestions` is its old name."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.cli.common import as_cli_error, command, format_table
from memtab.cli.options import CliError
from memtab.fs.records import Record
from memtab.fs.terminal_text import printable
from memtab.store.actors import actor_name
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.proposals.queue import proposing_workspaces
from memtab.store.scopes.memory import MemoryStoreError
from memtab.store.sidecars.registry import Registry, Workspace, load_registry
from memtab.writer.inbox.gemini import GeminiInbox, gemini_workspaces
from memtab.writer.inbox.harvest import HARVEST_DIR
from memtab.writer.inbox.inbox import Inbox, InboxError, InboxItem
from memtab.writer.inbox.suggestions import queued_workspaces

_ERRORS = (InboxError, HomeError, MemoryStoreError, PathError, TimeoutError)


def _workspaces(home: Home, workspace_id: str | None) -> list[Workspace | None]:
    """The workspace asked for, or every one with something in its inbox and the global
    Inbox (None)."""
    with as_cli_error(*_ERRORS):
        registry = load_registry(home)
        if workspace_id is not None:
            return [registry.require_workspace(workspace_id)]
    return [*_with_inbox(home, registry), None]


def _with_inbox(home: Home, registry: Registry) -> list[Workspace]:
    gemini = gemini_workspaces(GeminiInbox(home), registry)
    queued = set(queued_workspaces(home)) | set(proposing_workspaces(home)) | gemini
    harvest_dir = HARVEST_DIR.removeprefix("/memories/workspace/")
    return [
        workspace
        for workspace in registry.workspaces
        if workspace.id in queued or (home.workspace_root(workspace.id) / harvest_dir).is_dir()
    ]


def _items(
    home: Home, workspaces: Sequence[Workspace | None], *, evidence: bool
) -> list[InboxItem]:
    """Each inbox's items; a global proposal once, from the global Inbox when it is listed."""
    with_global = None not in workspaces
    gemini = GeminiInbox(home)  # Gemini CLI's sources, found once for every inbox
    with as_cli_error(*_ERRORS):
        return [
            item
            for workspace in workspaces
            for item in Inbox(home, workspace, gemini=gemini).items(
                with_evidence=evidence, with_global=with_global
            )
        ]


@command("inbox", writes_home=True, renamed_from="suggestions", actions="inbox_action")
def run_list(home: Home, *, workspace: str | None = None, json: bool = False) -> InboxListing:
    """review the memories agents proposed (mux's harvest, Memtab's writer)

    List the memories waiting for review — mux's harvest candidates with their evidence,
    confidence and rationale, and the offline writer's suggestions; accept (optionally with
    edited text) or reject them.

    Args:
        workspace (ID): only this workspace
        json: machine-readable output
    """
    return InboxListing(items=tuple(_items(home, _workspaces(home, workspace), evidence=json)))


@run_list.text
def _print_list(listing: InboxListing) -> None:
    items = listing.items
    if not items:
        print("Nothing in the inbox.")
        return
    rows = [("ID", "WORKSPACE", "FROM", "CONFIDENCE", "INTO", "TEXT")]
    for item in items:
        agent = actor_name(item.source, how=False)  # as History names it: "Codex"
        origin = _ORIGINS.get(item.kind) or _one_line(f"{agent} {item.rationale}")
        confidence = "" if item.confidence is None else f"{item.confidence:.2f}"
        workspace = item.workspace_id or "(global)"
        into = item.memory_path.removeprefix("/memories/")
        rows.append((item.id, workspace, origin, confidence, into, _one_line(_said(item))))
    print(format_table(rows))
    print("\nmemtab inbox accept ID… [--text TEXT] [--to PATH]  ·  memtab inbox reject ID…")


_ORIGINS = {"harvest": "mux harvest", "suggestion": "memtab writer", "gemini": "Gemini CLI"}


def _said(item: InboxItem) -> str:
    """An item in a line's words: a Gemini patch by what it changes (and why it cannot be
    applied), every other by its text."""
    if item.kind != "gemini":
        return item.text
    return f"{item.rationale} — invalid: {item.problem}" if item.problem else item.rationale or ""


def _one_line(text: str) -> str:
    """Text an agent or a transcript gave, on one line and inert (no escape sequence
    reaches the terminal)."""
    return printable(" ".join(text.split()))


def _by_workspace(
    home: Home, workspace: str | None, ids: tuple[str, ...]
) -> list[tuple[Inbox, list[str]]]:
    """The inbox holding each id (CliError for an unknown or ambiguous id)."""
    workspaces = _workspaces(home, workspace)
    by_id = {w.id if w is not None else None: w for w in workspaces}
    holders: dict[str, list[Workspace | None]] = {}
    for item in _items(home, workspaces, evidence=False):
        # A global proposal listed under a workspace is decided through that one's Inbox.
        holders.setdefault(item.id, []).append(by_id.get(item.workspace_id, workspaces[0]))
    grouped: dict[str | None, tuple[Workspace | None, list[str]]] = {}
    for item_id in ids:
        found = holders.get(item_id, [])
        if not found:
            raise CliError(f"Nothing in the inbox with id {item_id}")
        if len(found) > 1:
            names = ", ".join(w.id if w else "global" for w in found)
            raise CliError(
                f"{item_id} is in several workspaces' inboxes ({names}); give --workspace"
            )
        key = found[0].id if found[0] is not None else None
        grouped.setdefault(key, (found[0], []))[1].append(item_id)
    gemini = GeminiInbox(home)
    return [(Inbox(home, workspace, gemini=gemini), ids) for workspace, ids in grouped.values()]


@command("accept", under=run_list)
def run_accept(
    ids: tuple[str, ...],
    *,
    text: str | None = None,
    to: str | None = None,
    home: Home,
    workspace: str | None = None,
) -> InboxAccepted:
    """write items into the memory they belong in (or --to a file)

    Args:
        ids (ID):
        text: the edited text to accept (one ID only)
        to (PATH): the memory file to write into instead of the one proposed (a virtual path:
            /memories/project/notes.md, /memories/global/x.md)
        workspace (ID):
    """
    if text is not None and len(ids) != 1:
        raise CliError("--text edits one item: give exactly one ID")
    accepted: list[InboxItem] = []
    for inbox, held in _by_workspace(home, workspace, ids):
        with as_cli_error(*_ERRORS):
            decision = inbox.accept(held, text=text, to=to)
        for item in decision.items:
            accepted.append(item.replaced(text=decision.texts[item.id]))
    return InboxAccepted(accepted=tuple(accepted))


@command("reject", under=run_list, aliases=["dismiss"])
def run_reject(ids: tuple[str, ...], *, home: Home, workspace: str | None = None) -> InboxRejected:
    """drop items from the inbox

    Args:
        ids (ID):
        workspace (ID):
    """
    # A harvest candidate leaves its file too.
    rejected: list[InboxItem] = []
    for inbox, held in _by_workspace(home, workspace, ids):
        with as_cli_error(*_ERRORS):
            decision = inbox.reject(held)
        rejected += decision.items
    return InboxRejected(rejected=tuple(rejected))


class InboxListing(Record, write_only=True):
    """`memtab inbox --json` (a stable contract, docs/formats.md §10.5)."""

    items: tuple[InboxItem, ...]


class InboxAccepted(Record, write_only=True):
    """`memtab inbox accept --json`: each item as written (its text, its file)."""

    accepted: tuple[InboxItem, ...]


class InboxRejected(Record, write_only=True):
    """`memtab inbox reject --json`."""

    rejected: tuple[InboxItem, ...]


def _report(done: InboxAccepted | InboxRejected) -> None:
    accepted = isinstance(done, InboxAccepted)
    for item in done.accepted if isinstance(done, InboxAccepted) else done.rejected:
        where = f" → {item.memory_path}" if accepted else ""
        said = item.text if accepted else _said(item)
        print(
            f"{'accepted' if accepted else 'rejected'} {item.id} "
            f"({item.workspace_id or 'global'}){where}: {_one_line(said)}"
        )


run_accept.text(_report)
run_reject.text(_report)
