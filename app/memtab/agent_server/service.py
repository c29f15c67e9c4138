"""What each MCP tool does, protocol aside: one call in, one `Answer` out (docs/formats.md §22).

Reads go through the catalog (`list`, `search`) and the memory tool (`view`). A change
is the memory tool's command too, with the same rules and messages as `memtab tool`; its
text is redacted first (`memtab.redact`, the one redaction), and then, by the server's
`--writes`:

- `direct`: run at once through a store whose history names the client as the actor
  (`mcp:<client name>`), so history, blame, caps and locks are the store's;
- `inbox`: proposed to the Inbox (`store.proposals`) for the user to accept, edit or
  reject — nothing in memory changes until then;
- `off`: refused (the change tools are not even listed).

A refusal is an `Answer` with `error` set: the client shows the model the reason, and the
server goes on.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Annotated, Any

from memtab.agent_server.catalog import DEFAULT_LIMIT, MAX_LIMIT, MemoryCatalog, SearchHit
from memtab.agent_server.server_names import READ_TOOLS, WriteMode
from memtab.agent_server.tools import (
    CHANGE_TOOLS,
    DEFAULT_LIST_LIMIT,
    MAX_LIST_LIMIT,
    MAX_QUERY_CHARS,
)
from memtab.file_protocol.file_ref import OTHER_AGENTS, SourceError
from memtab.fs.records import OmitEmpty, Record
from memtab.redact import redact_secrets
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.store.actors import MCP_PREFIX
from memtab.store.errors import MemoryStoreError, ToolArgumentError
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER, PathError, parse_virtual_path
from memtab.store.proposals.queue import ProposalError, ProposalQueue, ToolCall
from memtab.store.scopes.file_rows import FileRow
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool, ToolRequest, numbered_view, parse_tool_request
from memtab.store.scopes.tool_args import ViewArgs
from memtab.store.sidecars.registry import Workspace

logger = logging.getLogger(__name__)

UNKNOWN_CLIENT = "unknown-client"
# The text arguments a change writes: redacted before anything else sees them.
_TEXT_ARGUMENTS = ("file_text", "new_str", "insert_text")
_AGENT_OWNED = "another agent's memory file"
_CLIENT_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_STORE_SCOPES = frozenset(scope.value for scope in SCOPE_ORDER)


@dataclass(frozen=True)
class Answer:
    """A tool's result: text for the model, or the reason it was refused."""

    text: str = ""
    error: str | None = None


def client_actor(name: str | None) -> str:
    """The history actor of a client: `mcp:` and its name (letters, digits, `._-`)."""
    cleaned = _CLIENT_NAME.sub("-", (name or "").strip()).strip("-")[:60]
    return MCP_PREFIX + (cleaned or UNKNOWN_CLIENT)


class FilePage(Record, write_only=True):
    """What `list` answers (docs/formats.md §22.2): a page of the rows of `memtab list
    --json` (another agent's file with its own fields), how many in all, where it starts,
    and what was left out and why (`notes`, only when something was)."""

    files: tuple[FileRow, ...]
    total: int
    offset: int
    notes: Annotated[tuple[str, ...], OmitEmpty] = ()


class SearchResults(Record, write_only=True):
    """What `search` answers: the files found, best first, and `notes` as `list`'s."""

    results: tuple[SearchHit, ...]
    notes: Annotated[tuple[str, ...], OmitEmpty] = ()


class MemoryService:
    """The tools of one server: one home, one workspace (or global only), one write mode."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace | None,
        *,
        writes: WriteMode,
        other_agents: bool = True,
    ) -> None:
        self.home = home
        self.workspace = workspace
        self.writes = writes
        self._reader = MemoryStore(home, workspace, actor="agent-tool")
        # Other agents' memory: discovery re-reads settings.json, so a source turned off
        # in the window is gone from the next listing.
        self._other_agents = other_agents
        sources = (lambda: SourceContext.load(home)) if other_agents else None
        self.catalog = MemoryCatalog(self._reader, sources=sources)
        self._stores: dict[str, MemoryStore] = {}

    def call(self, name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        """Run tool `name`; every failure is an `Answer` with `error`."""
        try:
            if name == "list":
                return self._list(arguments)
            if name == "search":
                return self._search(arguments)
            if name in ("view", *CHANGE_TOOLS):
                return self._memory_command(name, arguments, client)
        except (ToolArgumentError, PathError, MemoryStoreError, SourceError) as error:
            return Answer(error=str(error))
        except OSError as error:
            return Answer(error=f"File system error: {error.strerror or error}")
        known = ", ".join((*READ_TOOLS, *CHANGE_TOOLS))
        return Answer(error=f"Unknown tool {name!r}; the tools are: {known}")

    # --- reading ------------------------------------------------------------------------

    def _list(self, arguments: dict[str, Any]) -> Answer:
        scope = self._known_scope(_optional_text(arguments, "scope"))
        offset = _integer(arguments, "offset", 0, 0, None)
        limit = _integer(arguments, "limit", DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT)
        rows = self.catalog.rows(scope=scope)
        page = FilePage(
            files=tuple(rows[offset : offset + limit]),
            total=len(rows),
            offset=offset,
            notes=self.catalog.notes(),
        )
        return Answer(json.dumps(page.to_json(), ensure_ascii=False, indent=1))

    def _known_scope(self, scope: str | None) -> str | None:
        """`scope` when it names one: a scope of the store's, an agent, or a source of one
        found (ToolArgumentError, or SourceError naming the sources found, otherwise)."""
        if scope is None or scope in _STORE_SCOPES or scope in OTHER_AGENTS:
            return scope
        agent, _, name = scope.partition(":")
        if agent not in OTHER_AGENTS or not name:
            raise ToolArgumentError(
                f"Unknown scope {scope!r}: `scope` is global, project or workspace, an agent "
                f"({', '.join(OTHER_AGENTS)}) or one of its sources (e.g. claude-code:user)"
            )
        if self._other_agents:
            discover(SourceContext.load(self.home)).source(scope)
        return scope

    def _search(self, arguments: dict[str, Any]) -> Answer:
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ToolArgumentError("`query` is required and must be a non-empty string")
        if len(query) > MAX_QUERY_CHARS:
            raise ToolArgumentError(f"`query` must be at most {MAX_QUERY_CHARS} characters")
        limit = _integer(arguments, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        scope = self._known_scope(_optional_text(arguments, "scope"))
        results = self.catalog.search(query, scope=scope, limit=limit)
        found = SearchResults(results=tuple(results), notes=self.catalog.notes())
        return Answer(json.dumps(found.to_json(), ensure_ascii=False, indent=1))

    # --- the memory tool's commands -----------------------------------------------------

    def _memory_command(self, name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        raw = {key: value for key, value in arguments.items() if key != "expected_sha256"}
        expected = arguments.get("expected_sha256")
        if expected is not None and not isinstance(expected, str):
            raise ToolArgumentError("`expected_sha256` must be a string")
        request = parse_tool_request({**raw, "command": name})
        if name == "view":
            return self._view(request)
        if self.writes == "off":
            return Answer(error="This Memtab server is read-only (started with --writes off)")
        request, redacted = _redacted(request)
        if self.writes == "inbox":
            return self._propose(request, expected, client, redacted)
        store = self._store_for(client)
        result = MemoryTool(store).execute_request(request, expected_sha256=expected)
        self.catalog.invalidate()
        if not result.success:
            return Answer(error=result.error)
        return Answer(result.output + _redaction_note(redacted))

    def _view(self, request: ToolRequest) -> Answer:
        if request.path.strip().split(":", 1)[0] in OTHER_AGENTS:  # a file id, not a path
            return self._view_other_agents(request)
        result = MemoryTool(self._reader).execute_request(request)
        if not result.success:
            return Answer(error=result.error)
        path = parse_virtual_path(request.path)
        if path.is_root or path.is_scope_root or self._reader.kind_of(path) != "file":
            return Answer(result.output)
        sha256 = self._reader.read(str(path)).sha256
        return Answer(f"{result.output}\n\n(sha256 of {path}: {sha256})")

    def _view_other_agents(self, request: ToolRequest) -> Answer:
        """Another agent's file, by the file id `list` and `search` give (read-only here)."""
        assert isinstance(request.args, ViewArgs)
        source, file = find_file(discover(SourceContext.load(self.home)), request.path)
        content = read_source_file(source, file)
        if content.binary:
            raise SourceError(f"{file.id} is not a text file (it contains NUL bytes)")
        text = numbered_view(content.text, file.id, request.args.offset or 1, request.args.limit)
        note = f"\n\n({content.note})" if content.note else ""
        return Answer(f"{text}{note}\n\n({file.id} is {_AGENT_OWNED}; read-only here)")

    def _propose(
        self, request: ToolRequest, expected: str | None, client: str | None, redacted: bool
    ) -> Answer:
        call = ToolCall(
            command=request.command,
            arguments=request.args.arguments,
            expected_sha256=expected,
        )
        try:
            proposal = ProposalQueue(self.home, self.workspace).propose(
                call, client=client_actor(client).removeprefix(MCP_PREFIX)
            )
        except ProposalError as error:
            return Answer(error=str(error))
        return Answer(
            f"Proposed to the user's Memtab Inbox as {proposal.id}: nothing is written until "
            "the user accepts it (maybe edited) or rejects it." + _redaction_note(redacted)
        )

    def _store_for(self, client: str | None) -> MemoryStore:
        actor = client_actor(client)
        store = self._stores.get(actor)
        if store is None:
            store = MemoryStore(self.home, self.workspace, actor=actor)
            self._stores[actor] = store
        return store


def _integer(
    arguments: dict[str, Any], key: str, default: int, least: int, most: int | None
) -> int:
    """An optional integer argument within bounds (ToolArgumentError otherwise)."""
    value = arguments.get(key)
    if value is None:
        return default
    too_big = most is not None and isinstance(value, int) and value > most
    if isinstance(value, bool) or not isinstance(value, int) or value < least or too_big:
        bounds = f"from {least} to {most}" if most is not None else f"≥ {least}"
        raise ToolArgumentError(f"`{key}` must be an integer {bounds}")
    return value


def _optional_text(arguments: dict[str, Any], key: str) -> str | None:
    value = arguments.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolArgumentError(f"`{key}` must be a string")
    return value or None


def _redacted(request: ToolRequest) -> tuple[ToolRequest, bool]:
    """The request with secrets taken out of the text it writes, and whether any were."""
    changes = {}
    for key in _TEXT_ARGUMENTS:
        value = getattr(request.args, key, None)
        if isinstance(value, str):
            clean = redact_secrets(value)
            if clean != value:
                changes[key] = clean
    if not changes:
        return request, False
    return ToolRequest(request.args.replaced(**changes)), True


def _redaction_note(redacted: bool) -> str:
    return " (A secret in the text was replaced by a placeholder.)" if redacted else ""
