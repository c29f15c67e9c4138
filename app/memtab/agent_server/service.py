"""What each MCP tool does, protocol aside (docs/formats.md §22): reads through the catalog and
memory tool; a change, redacted first, run as the client (`direct`), queued in the Inbox (`inbox`)
or refused (`off`); a refusal is an `Answer` with `error`."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from memtab.agent_server.catalog import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MemoryCatalog,
    copy_words,
    fold_copies,
)
from memtab.agent_server.origin import SessionOrigin
from memtab.agent_server.pages.answers import file_page, lines_page, search_page
from memtab.agent_server.pages.gemini_build_files import refusal_note
from memtab.agent_server.pages.paging import (
    CLAUDE_CODE_WHOLE_CHARS,
    CURSOR_SHA_DIGITS,
    DEFAULT_ANSWER_BUDGET,
    PageCursor,
    cursor_argument,
    cut_to_fit,
    framed_size,
    optional_text,
)
from memtab.agent_server.pages.recall_marks import Checks, RecallMarks
from memtab.agent_server.pages.waiting import Waiting, count_note, found_by, view_note
from memtab.agent_server.server_names import (
    CLAUDE_CODE_CLIENT,
    CODEX_CLIENT,
    GEMINI_CLI_CLIENT,
    READ_TOOLS,
    WriteMode,
)
from memtab.agent_server.session_scope import (
    FROM_DIRECTORY,
    SessionScope,
    SessionStore,
    session_scope,
)
from memtab.agent_server.tools import (
    CHANGE_TOOLS,
    DEFAULT_LIST_LIMIT,
    MAX_LIST_LIMIT,
    MAX_QUERY_CHARS,
)
from memtab.file_protocol.file_ref import OTHER_AGENTS, SourceError
from memtab.fs.terminal_text import without_controls
from memtab.fs.user_files import read_regular_file
from memtab.redact import redact_secrets
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.gemini.settings import SettingsReader
from memtab.sources.gemini.source import GEMINI_DIR, HOME_VARIABLE
from memtab.sources.listing import find_file
from memtab.sources.model import Source
from memtab.store.actors import MCP_PREFIX
from memtab.store.errors import MemoryStoreError, ToolArgumentError
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER, PathError, Scope
from memtab.store.proposals.queue import ProposalError, ProposalQueue, ToolCall
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import (
    MemoryTool,
    ToolRequest,
    parse_tool_request,
    view_lines,
)
from memtab.store.scopes.tool_args import ViewArgs
from memtab.store.sidecars.registry import Workspace

GEMINI_WRAPPER_CHARS = len("<untrusted_context>\n") + len("\n</untrusted_context>")
"""What Gemini CLI wraps a tool's text in before it measures it (`wrapUntrusted`)."""
CODEX_FALLBACK_POLICY_BYTES = 10_000
"""The truncation policy of a model outside Codex's catalog (`model_info_from_slug`)."""
CODEX_SERIALIZATION_ALLOWANCE = 1.2
"""`with_serialization_allowance`: the policy × 1.2 when a tool's output is recorded."""
CODEX_BYTES_PER_TOKEN = 4
CODEX_OUTPUT_HEADER_BYTES = 100
"""Room for Codex's own text before a tool's answer, in the same budget."""
CLAUDE_CODE_MCP_TOKENS = 25_000
"""Claude Code's default `MAX_MCP_OUTPUT_TOKENS`."""
CLAUDE_CODE_UNCOUNTED_SHARE = 2
"""Claude Code never counts a result under half its token limit at a quarter token a character."""
MIN_CLIENT_BUDGET = 2_000
"""The least a client's limit makes the budget; below it a limit is a mistake."""
_CONFIG_MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class ClientBudget:
    """The budget a session's answers get, and why, in words."""

    budget: int
    why: str


def client_budget(
    client: str | None,
    env: Mapping[str, str],
    *,
    configured: int | None,
    default: int = DEFAULT_ANSWER_BUDGET,
    cwd: str = "",
) -> ClientBudget:
    """The budget of a session of client `client` started with `env` in `cwd`: `configured` when
    set, else `default` lowered to the client's limit."""
    if configured is not None:
        return ClientBudget(configured, f"{configured} bytes: set with --answer-budget")
    if client == CODEX_CLIENT:
        limit, why = codex_limit(env)
    elif client == CLAUDE_CODE_CLIENT:
        limit, why = claude_code_limit(env)
    elif client == GEMINI_CLI_CLIENT:
        gemini = gemini_cli_limit(env, cwd)
        if gemini is None:
            return ClientBudget(default, f"{default} bytes: the default (Gemini CLI cuts none)")
        limit, why = gemini
    else:
        return ClientBudget(default, f"{default} bytes: the default")
    if limit >= default:
        return ClientBudget(default, f"{default} bytes: the default, within {why}")
    budget = max(MIN_CLIENT_BUDGET, limit)
    return ClientBudget(budget, f"{budget} bytes: {why}")


def codex_limit(env: Mapping[str, str]) -> tuple[int, str]:
    """The most of an answer's text Codex keeps whole, in bytes, and why."""
    tokens = _tool_output_token_limit(env)
    if tokens is not None:
        kept = int(tokens * CODEX_BYTES_PER_TOKEN * CODEX_SERIALIZATION_ALLOWANCE)
        why = f"Codex keeps {kept} bytes whole (tool_output_token_limit = {tokens})"
    else:
        kept = int(CODEX_FALLBACK_POLICY_BYTES * CODEX_SERIALIZATION_ALLOWANCE)
        why = f"Codex keeps {kept} bytes whole for a model outside its catalog"
    return kept - CODEX_OUTPUT_HEADER_BYTES, f"{why}, its own header included"


def claude_code_limit(env: Mapping[str, str]) -> tuple[int, str]:
    """The most characters of an answer Claude Code shows whole, and why."""
    try:
        named = max(0, int(env.get("MAX_MCP_OUTPUT_TOKENS") or 0))
    except ValueError:
        named = 0
    tokens = named or CLAUDE_CODE_MCP_TOKENS
    limit = min(CLAUDE_CODE_WHOLE_CHARS, tokens * CLAUDE_CODE_UNCOUNTED_SHARE)
    setting = f"MAX_MCP_OUTPUT_TOKENS={tokens}" if named else f"{tokens} tokens"
    return limit, f"Claude Code shows {limit} characters whole ({setting})"


def gemini_cli_limit(env: Mapping[str, str], cwd: str = "") -> tuple[int, str] | None:
    """The most characters Gemini CLI gives the model whole, and why; None when it cuts none."""
    named = env.get(HOME_VARIABLE, "").strip()
    base = Path(named).expanduser() if named else Path(env.get("HOME") or Path.home())
    reader = SettingsReader(base / GEMINI_DIR, env)
    threshold = reader.settings(Path(cwd) if cwd else None).truncate_threshold
    if threshold <= 0:
        return None
    limit = int(threshold) - GEMINI_WRAPPER_CHARS
    return limit, (
        f"Gemini CLI keeps {threshold:g} characters whole (tools.truncateToolOutputThreshold), "
        "its <untrusted_context> wrapper included"
    )


def _tool_output_token_limit(env: Mapping[str, str]) -> int | None:
    """`tool_output_token_limit` of Codex's `config.toml` (None: not set, or unreadable)."""
    named = env.get("CODEX_HOME")
    codex_home = (
        Path(named).expanduser() if named else Path(env.get("HOME") or Path.home()) / ".codex"
    )
    try:  # without blocking: a FIFO named config.toml is refused at once
        data = read_regular_file(codex_home / "config.toml", limit=_CONFIG_MAX_BYTES)
    except OSError:
        return None
    # lazy: tomllib only for a Codex session with a config.toml
    import tomllib

    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    value = config.get("tool_output_token_limit")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


logger = logging.getLogger(__name__)

UNKNOWN_CLIENT = "unknown-client"
READER_ACTOR = "agent-tool"
# The text arguments a change writes: redacted first.
_TEXT_ARGUMENTS = ("file_text", "new_str", "insert_text")
_AGENT_OWNED = "another agent's memory file"
_NO_INBOX = (
    "Nothing was proposed: this session serves the project memory of {project} without a "
    "workspace (its checkout is the project's, not a xum workspace's), and a proposal waits "
    "in a workspace's Inbox. Start the agent in a workspace's checkout, or register one "
    "working here (`memtab workspace add --project {project} --name NAME`); the next call "
    "proposes into its Inbox."
)
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


class SharedCatalogs(Protocol):
    """A host's catalogs (`hosting/catalogs.py`): the one a session of `home` serving `scope` lists,
    taken and given back."""

    def take(self, home: Home, scope: SessionScope, other_agents: bool) -> MemoryCatalog: ...

    def give_back(self, catalog: MemoryCatalog) -> None: ...


def new_catalog(reader: SessionStore, scope: SessionScope, *, other_agents: bool) -> MemoryCatalog:
    """The catalog of what a session serving `scope` lists, read through `reader`."""
    # Discovery rereads settings.json: a source turned off is gone from the next listing.
    home = reader.home
    sources = (lambda: SourceContext.load(home)) if other_agents else None
    return MemoryCatalog(reader, sources=sources, keep=scope.serves)


class MemoryService:
    """The tools of one session (docs/formats.md §22.8–§22.10): one home, the scopes it serves (from
    where it works, `settle`; else `workspace`), one write mode, every answer within `budget`
    (fitted to its client, `meet_client`); `catalogs` shared by a host."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace | None = None,
        *,
        writes: WriteMode,
        other_agents: bool = True,
        budget: int | None = None,
        scope: SessionScope | None = None,
        origin: SessionOrigin | None = None,
        catalogs: SharedCatalogs | None = None,
        checks: Checks | None = None,
    ) -> None:
        self.home = home
        self._checks = checks
        self.writes = writes
        self.configured_budget = budget
        self.budget = DEFAULT_ANSWER_BUDGET if budget is None else budget
        self.client: str | None = None
        self.origin = origin
        self._catalogs = catalogs
        self._other_agents = other_agents
        self._pinned = workspace.id if workspace is not None else None
        self._waiting = Waiting(home)
        self._place: tuple[tuple[str, ...], str] | None = None
        self._registry_stamp: tuple[int, int, int] | None = None
        if scope is None and origin is not None and origin.cwd:
            # Where the agent works: its starting directory, until its client lists roots.
            self.settle([origin.cwd], FROM_DIRECTORY)
        else:
            self._serve(scope or SessionScope.of_workspace(workspace))

    @property
    def workspace(self) -> Workspace | None:
        return self.scope.workspace

    def settle(self, directories: Sequence[str], decided_by: str) -> bool:
        """Serve what a session working in `directories` serves (its workspace a pin), again
        whenever the registry changes; whether that changed."""
        self._place = (tuple(directories), decided_by)
        self._registry_stamp = _stamp(self.home.config_path)
        scope = session_scope(self.home, directories, decided_by=decided_by, pinned=self._pinned)
        return self._serve(scope)

    def _serve(self, scope: SessionScope) -> bool:
        if getattr(self, "scope", None) == scope:
            return False
        old = getattr(self, "catalog", None)
        self.scope = scope
        self._reader = SessionStore(self.home, scope, actor=READER_ACTOR)
        self._marks = None
        if self._checks is not None:
            workspace_id = lambda: scope.workspace.id if scope.workspace else None  # noqa: E731
            self._marks = RecallMarks(self._checks, self.home, self._reader, workspace_id)
            self._checks.warm(workspace_id())  # in the background: answers never wait
        if self._catalogs is not None:  # a host's, shared with its other sessions
            self.catalog = self._catalogs.take(self.home, scope, self._other_agents)
        else:
            self.catalog = new_catalog(self._reader, scope, other_agents=self._other_agents)
        if old is not None:
            self._let_go(old)
        self._stores: dict[str, MemoryStore] = {}
        return True

    def close(self) -> None:
        """The session ends: its catalog stops watching, or goes back to its host."""
        self._let_go(self.catalog)

    def _let_go(self, catalog: MemoryCatalog) -> None:
        if self._catalogs is not None:
            self._catalogs.give_back(catalog)
        else:
            catalog.close()

    def refresh(self) -> bool:
        """Serve anew when the registry changed since; whether what it serves changed."""
        if self._place is None or _stamp(self.home.config_path) == self._registry_stamp:
            return False
        return self.settle(*self._place)

    def meet_client(self, client: str | None) -> bool:
        """Fit the budget to client `client` (`client_budget`); whether it changed."""
        if client == self.client:
            return False
        self.client = client
        env = self.origin.env if self.origin is not None else {}
        cwd = self.origin.cwd if self.origin is not None else ""
        fitted = client_budget(client, env, configured=self.configured_budget, cwd=cwd)
        changed = fitted.budget != self.budget
        if changed:
            logger.info("memtab mcp: answers of %s within %s", client, fitted.why)
        self.budget = fitted.budget
        return changed

    def call(self, name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        """Run tool `name`; every failure an `Answer` with `error`, no answer past the budget."""
        self.refresh()
        self.meet_client(client)
        return self._within_budget(self._answer(name, arguments, client))

    def _answer(self, name: str, arguments: dict[str, Any], client: str | None) -> Answer:
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

    def _within_budget(self, answer: Answer) -> Answer:
        """`answer` cut to the budget, saying so."""
        text = answer.error if answer.error is not None else answer.text
        if framed_size(text) <= self.budget:
            return answer
        note = f"… (cut: the whole answer is {framed_size(text)} bytes, over {self.budget})"
        cut = cut_to_fit(text, self.budget - framed_size(note), mark=note)
        return Answer(error=cut) if answer.error is not None else Answer(cut)

    def _list(self, arguments: dict[str, Any]) -> Answer:
        carried = ("scope", "limit")
        cursor = cursor_argument(
            arguments, "list", alone=("offset",), carried=carried, default_limit=DEFAULT_LIST_LIMIT
        )
        if cursor is not None:
            scope, offset, limit = cursor.scope, cursor.at, cursor.end or DEFAULT_LIST_LIMIT
        else:
            scope = self._known_scope(optional_text(arguments, "scope"))
            offset = _integer(arguments, "offset", 0, 0, None)
            limit = _integer(arguments, "limit", DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT)
            asked = None if arguments.get("limit") is None else limit
            cursor = PageCursor(tool="list", at=offset, end=asked, scope=scope)
        rows = self.catalog.rows(scope=scope)
        notes = list(self.catalog.notes())
        if self._marks is not None:  # the rows a page may show, each with its check
            marked, said = self._marks.rows(rows[offset : offset + limit])
            rows = [*rows[:offset], *marked, *rows[offset + limit :]]
            notes += said
        if cursor.after is not None:
            paths = [row.path for row in rows]
            if offset == 0 or offset > len(rows) or paths[offset - 1] != cursor.after:
                if cursor.after in paths:
                    offset = paths.index(cursor.after) + 1
                notes.append(
                    "The files listed changed since this cursor was given: this page goes "
                    "on after the last file shown; list without a cursor to start again."
                )
        waiting = len(self._waiting.pending(self._workspace_id(), scope))
        notes += filter(None, [count_note(waiting)])
        text = file_page(
            rows,
            offset=offset,
            limit=limit,
            cursor=cursor,
            notes=notes,
            session=self.scope.served(),
            budget=self.budget,
            waiting=waiting,
        )
        return Answer(text)

    def _known_scope(self, scope: str | None) -> str | None:
        """`scope` when it names one this session serves (ToolArgumentError or SourceError
        otherwise)."""
        if scope in _STORE_SCOPES:
            reason = self._reader.unavailable_reason(Scope(scope))
            if reason:
                raise ToolArgumentError(reason)
            return scope
        if scope is None or scope in OTHER_AGENTS:
            return scope
        agent, _, name = scope.partition(":")
        if agent not in OTHER_AGENTS or not name:
            raise ToolArgumentError(
                f"Unknown scope {scope!r}: `scope` is global, project, workspace or session, an "
                f"agent ({', '.join(OTHER_AGENTS)}) or one of its sources (e.g. claude-code:user)"
            )
        if self._other_agents:
            self._served_source(discover(SourceContext.load(self.home)).source(scope))
        return scope

    def _served_source(self, source: Source) -> None:
        """SourceError, in words, for another agent's source this session does not read."""
        if not self.scope.serves(source):
            raise SourceError(
                f"{source.id} is memory of {source.project or 'another project'}, not of this "
                f"session's: {self.scope.words()}"
            )

    def _search(self, arguments: dict[str, Any]) -> Answer:
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ToolArgumentError("`query` is required and must be a non-empty string")
        if len(query) > MAX_QUERY_CHARS:
            raise ToolArgumentError(f"`query` must be at most {MAX_QUERY_CHARS} characters")
        cursor = cursor_argument(arguments, "search", alone=(), carried=("scope", "limit"))
        if cursor is not None:
            if cursor.query != query:
                raise ToolArgumentError(
                    f"This cursor pages the search for {cursor.query!r}: call search with "
                    "that query and the cursor, or without the cursor to search anew"
                )
            scope, offset, limit = cursor.scope, cursor.at, cursor.end or DEFAULT_LIMIT
        else:
            limit = _integer(arguments, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
            scope = self._known_scope(optional_text(arguments, "scope"))
            offset = 0
            cursor = PageCursor(tool="search", at=0, end=limit, scope=scope, query=query)
        wanted = min(limit, MAX_LIMIT)
        # A flagged file ranks lower: found among twice as many.
        found = wanted if self._marks is None else min(2 * wanted, MAX_LIMIT)
        hits = fold_copies(self.catalog.search(query, scope=scope, limit=found))
        notes = self.catalog.notes()
        if self._marks is not None:
            hits, said = self._marks.hits(hits, keep=wanted)
            notes += said
        pending = self._waiting.pending(self._workspace_id(), scope)
        waiting = found_by(pending, query) if offset == 0 else []
        notes += tuple(filter(None, [count_note(len(pending), len(waiting))]))
        text = search_page(
            hits,
            offset=offset,
            cursor=cursor,
            notes=notes,
            budget=self.budget,
            waiting=waiting,
            waiting_count=len(pending),
        )
        return Answer(text)

    def _workspace_id(self) -> str | None:
        return self.workspace.id if self.workspace is not None else None

    def _memory_command(self, name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        raw = {k: v for k, v in arguments.items() if k not in ("expected_sha256", "cursor")}
        expected = arguments.get("expected_sha256")
        if expected is not None and not isinstance(expected, str):
            raise ToolArgumentError("`expected_sha256` must be a string")
        if name == "view":
            cursor = cursor_argument(arguments, "view", alone=("offset", "limit"))
            return self._view(parse_tool_request({**raw, "command": name}), cursor)
        request = parse_tool_request({**raw, "command": name})
        if self.writes == "off":
            return Answer(error="This Memtab server is read-only (started with --writes off)")
        request, redacted = _redacted(request)
        if self.writes == "inbox":
            return self._propose(request, expected, client, redacted)
        store = self._store_for(client)
        result = MemoryTool(store).execute_request(request, expected_sha256=expected)
        self.catalog.invalidate([path for path in (request.path, request.new_path) if path])
        if not result.success:
            return Answer(error=result.error)
        return Answer(result.output + redacted)

    def _view(self, request: ToolRequest, cursor: PageCursor | None) -> Answer:
        assert isinstance(request.args, ViewArgs)
        if request.path.strip().split(":", 1)[0] in OTHER_AGENTS:  # a file id, not a path
            return self._view_other_agents(request, cursor)
        path = request.target_path
        scope = path.scope
        a_file = not (path.is_root or path.is_scope_root)
        if a_file and scope is not None and self._reader.unavailable_reason(scope) is None:
            a_file = self._reader.kind_of(path) == "file"
        if not a_file:  # a directory, or what the memory tool refuses in its words
            result = MemoryTool(self._reader).execute_request(request)
            if not result.success:
                waits = view_note(self._waiting.pending(self._workspace_id()), str(path))
                return Answer(error=f"{result.error} {waits}" if waits else result.error)
            listing = result.output.split("\n")
            return self._lines(listing, str(path), content_sha256(result.output), request,
                               cursor, tail=(), numbered=False)  # fmt: skip
        text = self._reader.read_text(path)
        self._reader.record_read(path)
        sha256 = content_sha256(text)
        waits = view_note(self._waiting.pending(self._workspace_id()), str(path))
        refused = refusal_note(self.client, str(path))
        said = tuple(note for note in (waits, refused) if note)
        tail = (*said, f"(sha256 of {path}: {sha256})")
        return self._lines(text, str(path), sha256, request, cursor, tail=tail)

    def _view_other_agents(self, request: ToolRequest, cursor: PageCursor | None) -> Answer:
        """Another agent's file, by the file id `list` and `search` give (read-only here)."""
        discovery = discover(SourceContext.load(self.home))
        source, file = find_file(discovery, request.path)
        self._served_source(source)
        content = read_source_file(source, file)
        if content.binary:
            raise SourceError(f"{file.id} is not a text file (it contains NUL bytes)")
        note = (f"({content.note})",) if content.note else ()
        copied = copy_words(discovery, source, file, self.scope.serves)
        copy = (copied,) if copied is not None else ()
        tail = (*note, *copy, f"({file.id} is {_AGENT_OWNED}; read-only here)")
        sha256 = content_sha256(content.text)
        return self._lines(content.text, file.id, sha256, request, cursor, tail=tail)

    def _lines(
        self,
        text: str | list[str],
        label: str,
        sha256: str,
        request: ToolRequest,
        cursor: PageCursor | None,
        *,
        tail: tuple[str, ...],
        numbered: bool = True,
    ) -> Answer:
        """A page of a file's numbered lines or a directory's listing, within the budget."""
        args = request.args
        assert isinstance(args, ViewArgs)
        if cursor is not None:
            if cursor.path != label:
                raise ToolArgumentError(
                    f"This cursor pages {cursor.path}, not {label}: view that path with it"
                )
            if cursor.sha256 != sha256[:CURSOR_SHA_DIGITS]:
                raise ToolArgumentError(
                    f"{label} changed since this cursor was given; view it again (from line "
                    f"{cursor.at}, with offset, to go on near where you were)"
                )
        start = cursor.at if cursor is not None else args.offset or 1
        if isinstance(text, list):
            lines = text
        else:
            lines = view_lines(text, label, start)
            if not lines:
                return Answer("\n\n".join([f"(empty file: {label})", *tail]))
            if start > len(lines):
                words = f"(no lines from offset {start}: {label} has {len(lines)} lines)"
                return Answer("\n\n".join([words, *tail]))
            if self._marks is not None:  # what the check finds false or stale, marked
                lines, notes = self._marks.view(label, sha256, lines, 1)
                tail = (*notes, *tail)
        if cursor is None:
            end = len(lines) + 1 if args.limit is None else min(start + args.limit, len(lines) + 1)
            cursor = PageCursor(
                tool="view", at=start, end=end, path=label, sha256=sha256[:CURSOR_SHA_DIGITS]
            )
        page = lines_page(
            lines,
            label=label,
            start=start,
            column=cursor.column or 0,
            end=min(cursor.end or len(lines) + 1, len(lines) + 1),
            cursor=cursor,
            tail=tail,
            budget=self.budget,
            numbered=numbered,
        )
        return Answer(page)

    def _propose(
        self, request: ToolRequest, expected: str | None, client: str | None, redacted: str
    ) -> Answer:
        for _raw, path in request.named_paths():
            scope = path.scope if path is not None else None
            reason = self._reader.unavailable_reason(scope) if scope is not None else None
            if reason:
                return Answer(error=reason)
            if scope is Scope.PROJECT and self.workspace is None:
                return Answer(error=_NO_INBOX.format(project=self.scope.project))
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
            "the user accepts it (maybe edited) or rejects it." + redacted
        )

    def _store_for(self, client: str | None) -> MemoryStore:
        actor = client_actor(client)
        if actor not in self._stores:
            self._stores[actor] = SessionStore(self.home, self.scope, actor=actor)
        return self._stores[actor]


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


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells a file changed: its size, mtime and inode (None: missing)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def _redacted(request: ToolRequest) -> tuple[ToolRequest, str]:
    """The request with control characters and secrets taken out of the text it writes, and
    the answer's note saying what was (empty when nothing was)."""
    changes: dict[str, str] = {}
    notes: dict[str, None] = {}
    for key in _TEXT_ARGUMENTS:
        value = getattr(request.args, key, None)
        if not isinstance(value, str):
            continue
        bare = without_controls(value)
        clean = redact_secrets(bare)
        if bare != value:
            notes[" (Control characters in the text were taken out.)"] = None
        if clean != bare:
            notes[" (A secret in the text was replaced by a placeholder.)"] = None
        if clean != value:
            changes[key] = clean
    if not changes:
        return request, ""
    return ToolRequest(request.args.replaced(**changes)), "".join(notes)
