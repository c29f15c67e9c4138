"""The guard between a consolidator (model or offline) and the memory tool (docs/formats.md §9.1,
§9.8, §9.7). Every call goes through `ConsolidationGuard.execute`. Reads pass straight to the
store's `MemoryTool` (and count as usage there)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from memtab.consolidation.errors import ConsolidationError
from memtab.humanize import plural
from memtab.redact import REDACTED, redact_outgoing, redact_view
from memtab.store.errors import MemoryStoreError, ToolArgumentError
from memtab.store.paths import SHARED_SCOPES, PathError, Scope, VirtualPath, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool, ToolRequest, ToolResult, parse_tool_request
from memtab.store.scopes.tool_args import CreateArgs, StrReplaceArgs
from memtab.store.sidecars.journal import RUN_SCOPES, JournalOp, RunScope
from memtab.store.text.content_lines import content_lines
from memtab.store.xum_notes import SESSION_SCOPE_UNOFFERED

MUTATION_BUDGET = 8
DRY_RUN_NOTE = "dry-run"
PROJECT_SCOPE_REJECTION = "project memory is available only for single-project runs"
PIN_RULE = "pinned files may be edited but never deleted or renamed"
READ_FIRST_RULE = "view it first: this run changes only files it has read"
SAME_TEXT = "old_str and new_str are the same: the change would change nothing"
REWRITE_RULE = (
    "change a file with str_replace or insert; a file is never deleted and created again "
    "(what the new text leaves out would be lost)"
)
EMPTY_RULE = "a file is created only to merge or promote memory into it"
DELETE_RULE = (
    "a file is deleted once what it says is in another file (merged or promoted there) "
    "or removed from it with str_replace"
)


def run_scopes(scope: RunScope | None) -> tuple[Scope, ...]:
    """The scopes a run sees and may change: the one it is limited to, or every scope a
    consolidation may change (never a session scope)."""
    return (Scope(scope),) if scope is not None else SHARED_SCOPES


def check_run_scope(store: MemoryStore, scope: str | None) -> RunScope | None:
    """The scope a run is asked to be limited to, if the workspace has it to consolidate
    (None: the whole workspace); ConsolidationError saying why not."""
    if scope is None:
        return None
    chosen = next((known for known in RUN_SCOPES if known == scope), None)
    if chosen is None:
        raise ConsolidationError(
            f"unknown scope {scope!r}; expected one of {', '.join(RUN_SCOPES)}"
        )
    if chosen == "project" and store.project_path is None:
        raise ConsolidationError(
            f"{PROJECT_SCOPE_REJECTION}: this workspace has no project memory to consolidate"
        )
    reason = store.unavailable_reason(Scope(chosen))
    if reason:
        raise ConsolidationError(f"the {chosen} scope cannot be consolidated: {reason}")
    return chosen


def outside_run_note(path: VirtualPath, scopes: Sequence[Scope]) -> str:
    """Why a run of one scope alone refuses a change of another scope's file."""
    only = " and ".join(scope.virtual_root + "/" for scope in scopes)
    return f"{path} is outside this run: it consolidates {only} only"


BeforeDispatch = Callable[[str, str, str | None, Mapping[str, Any]], None]
"""Told (command, path, new path, arguments) right before a mutation is made; raises
OSError when the run cannot record it."""
Rails = Callable[[ToolRequest], str | None]
"""Asked of a change: why its new text is refused (`rails.ConsolidationRails.refusal`),
or None."""
Declined = Callable[[str, str, str | None, Mapping[str, Any]], str | None]
"""Asked of (command, path, new path, arguments): why the call was declined in review and
is not made again (`declined.DeclinedMatcher.refusal`), or None."""


def budget_exhausted_note(limit: int = MUTATION_BUDGET) -> str:
    """The journal note and tool error of an over-budget call."""
    return f"Mutation budget exhausted ({limit} per run); stop and summarize."


class MutationBudget:
    """How many mutations a run may still make; reservations are atomic."""

    def __init__(self, limit: int = MUTATION_BUDGET) -> None:
        if limit < 0:
            raise ValueError(f"the mutation budget must be ≥ 0, got {limit}")
        self.limit = limit
        self._used = 0
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        """Reservations currently held (accepted and not refunded)."""
        with self._lock:
            return self._used

    @property
    def remaining(self) -> int:
        with self._lock:
            return self.limit - self._used

    def reserve(self) -> bool:
        """Take one unit; False (and nothing taken) when the budget is spent."""
        with self._lock:
            if self._used >= self.limit:
                return False
            self._used += 1
            return True

    def refund(self) -> None:
        """Give one reserved unit back (its call changed nothing)."""
        with self._lock:
            if self._used > 0:
                self._used -= 1


class _RejectedError(Exception):
    """A mutation the guard turns away; the message is the journal note."""


class ConsolidationGuard:
    """Runs memory-tool calls for one consolidation run and journals every mutation attempt."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        budget: MutationBudget | None = None,
        dry_run: bool = False,
        before_dispatch: BeforeDispatch | None = None,
        declined: Declined | None = None,
        scopes: Sequence[Scope] = SHARED_SCOPES,
        read_first: bool = False,
        rails: Rails | None = None,
        keeps_content: bool = False,
    ) -> None:
        """`scopes`: those the run sees and may change (`run_scopes`); `read_first`: a
        change needs a `view` of its file earlier in the run; `keeps_content`: no file
        is created empty, over a file, or where the run deleted one (a model's run)."""
        self.store = store
        self.read_first = read_first
        self.rails = rails
        self.keeps_content = keeps_content
        self._read: set[str] = set()
        self._deleted: set[str] = set()
        self.before_dispatch = before_dispatch
        self.declined = declined
        self.scopes = tuple(scope for scope in scopes if scope.shared)
        self.tool = MemoryTool(store, scopes=self.scopes)
        self.budget = budget or MutationBudget()
        self.dry_run = dry_run
        self._ops: list[JournalOp] = []
        self._ops_lock = threading.Lock()

    @property
    def ops(self) -> tuple[JournalOp, ...]:
        """Every mutation attempt so far, in the order they were decided."""
        with self._ops_lock:
            return tuple(self._ops)

    @property
    def applied_count(self) -> int:
        return sum(1 for op in self.ops if op.applied)

    @property
    def read_paths(self) -> frozenset[str]:
        """The paths this run viewed with success, as named and as resolved."""
        with self._ops_lock:
            return frozenset(self._read)

    def execute(self, raw: Any) -> ToolResult:
        """Run one tool call; never raises. Mutations are checked and journaled."""
        try:
            request = parse_tool_request(raw)
        except ToolArgumentError as error:
            return ToolResult(success=False, error=str(error))
        if not request.mutating:
            result = self.tool.execute_request(request)
            if result.success and request.command == "view":
                self._note_read(request)
            return result
        return self._mutate(request, raw if isinstance(raw, Mapping) else {})

    def _note_read(self, request: ToolRequest) -> None:
        try:
            path = request.target_path
            resolved = self.store.resolved(path)
        except PathError:
            return
        with self._ops_lock:
            self._read.update((str(path), str(resolved)))

    # --- mutations ----------------------------------------------------------------------

    def _mutate(self, request: ToolRequest, raw: Mapping[str, Any]) -> ToolResult:
        path_text, new_path_text = request.path or "", request.new_path
        try:
            path, new_path = self._parse_paths(request)
            path_text = str(path)
            new_path_text = str(new_path) if new_path is not None else new_path_text
            self._check_scopes(path, new_path)
            resolved = self._resolve(path)
            self._check_scopes(resolved, self._resolve(new_path) if new_path else None)
            if request.command in ("delete", "rename"):
                self._check_pins(path)
                if resolved != path:
                    self._check_pins(resolved)
            declined = self.declined and self.declined(
                request.command, path_text, new_path_text, raw
            )
            if declined:
                raise _RejectedError(declined)
            if self.read_first:
                self._check_read(request.command, path, resolved)
            if self.keeps_content and isinstance(request.args, CreateArgs):
                self._check_kept(request.args, path, resolved)
            if self.keeps_content and request.command == "delete":
                self._check_nothing_lost(path, resolved)
            refused = self.rails(request) if self.rails is not None else None
            if refused:
                raise _RejectedError(refused)
            if (
                isinstance(request.args, StrReplaceArgs)
                and request.args.old_str == request.args.new_str
            ):
                raise _RejectedError(SAME_TEXT)
        except _RejectedError as rejection:
            return self._journal(request, path_text, new_path_text, False, str(rejection))
        if not self.budget.reserve():
            note = budget_exhausted_note(self.budget.limit)
            return self._journal(request, path_text, new_path_text, False, note)
        if request.command == "delete":  # made, or as good as made in a dry run
            with self._ops_lock:
                self._deleted.update((path_text, str(resolved)))
        if self.dry_run:
            self._record(request, path_text, new_path_text, False, DRY_RUN_NOTE)
            return ToolResult(
                success=True,
                output=f"Dry run: {request.command} {path_text} was not applied "
                f"(change {self.budget.used} of {self.budget.limit}).",
            )
        if self.before_dispatch is not None:
            try:
                self.before_dispatch(request.command, path_text, new_path_text, raw)
            except OSError as error:
                self.budget.refund()
                note = f"not made: the run could not record it first ({error.strerror or error})"
                return self._journal(request, path_text, new_path_text, False, note)
        result = self.tool.execute_request(_as_the_file_holds(self.store, request))
        if not result.success:
            self.budget.refund()
            return self._journal(request, path_text, new_path_text, False, result.error)
        self._record(request, path_text, new_path_text, True, None)
        return result

    def _parse_paths(self, request: ToolRequest) -> tuple[VirtualPath, VirtualPath | None]:
        if request.command != "rename":
            return _parse_file_path(request.path, "path"), None
        return _parse_file_path(request.path, "old_path"), _parse_file_path(
            request.new_path, "new_path"
        )

    def _check_scopes(self, path: VirtualPath, new_path: VirtualPath | None) -> None:
        for candidate in (path, new_path):
            if candidate is None or candidate.scope is None:
                continue
            if candidate.scope is Scope.PROJECT and self.store.project_path is None:
                raise _RejectedError(PROJECT_SCOPE_REJECTION)
            if not candidate.scope.shared:
                raise _RejectedError(f"{candidate.scope.virtual_root} is {SESSION_SCOPE_UNOFFERED}")
            if candidate.scope not in self.scopes:
                raise _RejectedError(outside_run_note(candidate, self.scopes))
            reason = self.store.unavailable_reason(candidate.scope)
            if reason:
                raise _RejectedError(reason)

    def _check_read(self, command: str, path: VirtualPath, resolved: VirtualPath) -> None:
        read = self.read_paths
        if command == "create":
            if not read:
                raise _RejectedError(
                    f"{path} was not created: this run has read no memory file yet "
                    "(view the files a new one merges or promotes first)"
                )
        elif str(path) not in read and str(resolved) not in read:
            raise _RejectedError(f"{path} was not read in this run: {READ_FIRST_RULE}")

    def _check_kept(self, args: CreateArgs, path: VirtualPath, resolved: VirtualPath) -> None:
        with self._ops_lock:
            deleted = str(path) in self._deleted or str(resolved) in self._deleted
        if deleted:
            raise _RejectedError(f"{path} was deleted in this run: {REWRITE_RULE}")
        try:
            exists = self.store.kind_of(resolved) is not None
        except PathError:
            exists = True
        if exists:
            raise _RejectedError(f"{path} exists: {REWRITE_RULE}")
        if not content_lines(args.file_text):
            raise _RejectedError(f"{path} would hold no memory: {EMPTY_RULE}")

    def _check_nothing_lost(self, path: VirtualPath, resolved: VirtualPath) -> None:
        """Refuse the delete of `path` (a file or a directory) while a content line of
        what it deletes is in no other file of the run's scopes."""
        deleted: set[VirtualPath] = set()
        kept: list[VirtualPath] = []
        for listing in self.store.list_all(read_files=False, scopes=self.scopes):
            for file in listing.files:
                if file.path.is_within(path) or file.path.is_within(resolved):
                    deleted.add(file.path)
                else:
                    kept.append(file.path)
        lines = set().union(*(self._content_lines(gone) for gone in deleted))
        for other in kept:
            if not lines:
                return
            lines -= self._content_lines(other)
        if lines:
            example = redact_outgoing(min(lines))
            example = example if len(example) <= 80 else example[:79] + "…"
            raise _RejectedError(
                f"{path} holds {plural(len(lines), 'line')} no other memory file holds "
                f"(“{example}”): {DELETE_RULE}"
            )

    def _content_lines(self, path: VirtualPath) -> set[str]:
        try:
            data = self.store.read_whole(path)
        except (MemoryStoreError, PathError):
            return set()
        return content_lines(data.decode("utf-8", "replace")) if data is not None else set()

    def _check_pins(self, path: VirtualPath) -> None:
        pinned = self.store.pinned_within(path)
        if not pinned:
            return
        subtree = self.store.meta_key(path)
        if subtree in pinned:
            raise _RejectedError(f"{path} is pinned: {PIN_RULE}")
        names = ", ".join(sorted(key[len(subtree) + 1 :] for key in pinned))
        raise _RejectedError(
            f"{path} contains pinned files ({names}): {PIN_RULE}, nor a directory holding one"
        )

    def _resolve(self, path: VirtualPath) -> VirtualPath:
        """The file `path` really names (see the module doc); rejected if it escapes."""
        try:
            return self.store.resolved(path)
        except PathError as error:
            raise _RejectedError(str(error)) from None

    def _journal(
        self, request: ToolRequest, path: str, new_path: str | None, applied: bool, note: str
    ) -> ToolResult:
        """Record a refused attempt and tell the caller why."""
        self._record(request, path, new_path, applied, note)
        return ToolResult(success=False, error=note)

    def _record(
        self, request: ToolRequest, path: str, new_path: str | None, applied: bool, note: str | None
    ) -> None:
        new_path = new_path if request.command == "rename" else None
        op = JournalOp(
            command=request.command, path=path, applied=applied, new_path=new_path, note=note
        )
        with self._ops_lock:
            self._ops.append(op)


def _as_the_file_holds(store: MemoryStore, request: ToolRequest) -> ToolRequest:
    """A `str_replace` of the file as a model sees it (`redact.redact_view`: secrets and
    `<private>` blocks hidden) as the same edit of the file, the secrets it hides kept."""
    args = request.args
    if not isinstance(args, StrReplaceArgs) or REDACTED not in args.old_str:
        return request
    try:
        content = store.read(request.file_path()).content
    except (MemoryStoreError, PathError):
        return request  # the tool says why
    edit = redact_view(content).original_edit(args.old_str, args.new_str)
    if edit is None:
        return request
    return ToolRequest(args.replaced(old_str=edit[0], new_str=edit[1]))


def _parse_file_path(raw: str | None, name: str) -> VirtualPath:
    if raw is None:
        raise _RejectedError(f"`{name}` is required and must be a string")
    try:
        path = parse_virtual_path(raw)
    except PathError as error:
        raise _RejectedError(str(error)) from None
    if path.is_root or path.is_scope_root:
        raise _RejectedError(f"Invalid memory path {raw!r}: expected a path inside a scope")
    return path
