"""The `memory` tool agents, the consolidator and `memtab tool` call (docs/formats.md §5): errors
returned, never raised; agent reads and writes count as usage."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from memtab.fs.atomic import encode_utf8
from memtab.fs.records import Key, NotWritten, OmitNone, Record, computed
from memtab.store.conflict_copies import copy_names
from memtab.store.errors import ToolArgumentError
from memtab.store.files import content_sha256, sort_key
from memtab.store.paths import (
    SCOPE_ORDER,
    PathError,
    Scope,
    VirtualPath,
    entries_too_deep,
    parse_virtual_path,
    require_file_path,
    require_listed,
    too_deep_words,
)
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from memtab.store.scopes.scope_store import check_file_size
from memtab.store.scopes.tool_args import (
    CreateArgs,
    DeleteArgs,
    InsertArgs,
    RenameArgs,
    StrReplaceArgs,
    ToolArgs,
    ViewArgs,
    input_schema,
    validate_arguments,
)
from memtab.store.xum_notes import SESSION_SCOPE_UNOFFERED

logger = logging.getLogger(__name__)

MUTATING_COMMANDS = ("create", "str_replace", "insert", "delete", "rename")

TOOL_NAME = "memory"
TOOL_DESCRIPTION = (
    "Read and edit durable memory files. Paths are virtual: /memories/global/... (every "
    "project), /memories/project/... (this repository), /memories/workspace/... (this "
    "workspace). Commands: view (a file with line numbers, from line offset, limit lines; or "
    "a directory tree), create, "
    "str_replace (old_str must match exactly once), insert (after line insert_line; 0 = top), "
    "delete (file or directory), rename (within one scope)."
)


tool_input_schema = input_schema
"""The tool's input schema, generated from the argument records (`tool_args`)."""


class ToolResult(Record, write_only=True):
    """One call's result, `{"success": true, "output"}` or `{"success": false, "error"}`
    (docs/formats.md §5)."""

    success: bool
    output: Annotated[str, NotWritten] = ""
    error: Annotated[str, NotWritten] = ""
    written_output: Annotated[str | None, Key("output"), OmitNone] = computed(
        lambda result: result.output if result.success else None
    )
    written_error: Annotated[str | None, Key("error"), OmitNone] = computed(
        lambda result: None if result.success else result.error
    )

    @property
    def text(self) -> str:
        return self.output if self.success else self.error


@dataclass(frozen=True)
class ToolRequest:
    """A call whose arguments passed their command's record: what the guard inspects."""

    args: ToolArgs

    @property
    def command(self) -> str:
        return self.args.command

    @property
    def path(self) -> str:
        """The path the call acts on (a rename's source)."""
        return self.args.target

    @property
    def new_path(self) -> str | None:
        """A rename's destination (None for other commands)."""
        return self.args.destination

    @property
    def mutating(self) -> bool:
        return self.command in MUTATING_COMMANDS

    @functools.cached_property
    def target_path(self) -> VirtualPath:
        """`path` parsed, once for the call (PathError when it breaks a rule)."""
        return parse_virtual_path(self.path)

    @functools.cached_property
    def destination_path(self) -> VirtualPath | None:
        """`new_path` parsed, once for the call (PathError when it breaks a rule)."""
        return None if self.new_path is None else parse_virtual_path(self.new_path)

    def file_path(self) -> VirtualPath:
        """`target_path`, which must name something inside a scope (PathError)."""
        return require_file_path(self.target_path)

    def named_paths(self) -> list[tuple[str, VirtualPath | None]]:
        """Each path the call names, as sent and parsed (None: it breaks a rule)."""
        named: list[tuple[str, VirtualPath | None]] = []
        for raw, attribute in ((self.path, "target_path"), (self.new_path, "destination_path")):
            if raw is not None:
                try:
                    named.append((raw, getattr(self, attribute)))
                except PathError:
                    named.append((raw, None))
        return named


def parse_tool_request(raw: Any) -> ToolRequest:
    """Validate a call against its command's record (ToolArgumentError, one line, otherwise)."""
    return ToolRequest(validate_arguments(raw))


def _lines(content: str) -> list[str]:
    """Content split on newlines; an empty file has zero lines."""
    return content.split("\n") if content else []


class MemoryTool:
    """Runs memory-tool commands against one workspace's store, in `scopes` (default: all)."""

    def __init__(self, store: MemoryStore, *, scopes: Sequence[Scope] | None = None) -> None:
        self.store = store
        self.scopes = tuple(SCOPE_ORDER if scopes is None else scopes)
        self._expected: str | None = None  # the running call's expected_sha256

    def execute(self, raw: Any) -> ToolResult:
        """Run one call; every failure comes back as `ToolResult(success=False)`."""
        try:
            request = parse_tool_request(raw)
        except ToolArgumentError as error:
            return ToolResult(success=False, error=str(error))
        return self.execute_request(request)

    def execute_request(
        self, request: ToolRequest, *, expected_sha256: str | None = None
    ) -> ToolResult:
        """Run a parsed request. `expected_sha256` (a change only): refused unless the file still
        has this content (docs/formats.md §5)."""
        try:
            self._refuse_unoffered(request)
            self._expected = self._checked_expectation(request, expected_sha256)
            handler = getattr(self, f"_{request.command}")
            output: str = handler(request.args, request)
            return ToolResult(success=True, output=output)
        except (ToolArgumentError, PathError, MemoryStoreError) as error:
            return ToolResult(success=False, error=str(error))
        except OSError as error:
            return ToolResult(success=False, error=f"File system error: {error.strerror or error}")
        except Exception as error:  # the tool contract: errors are returned, never raised
            logger.exception("memory tool %s failed unexpectedly", request.command)
            return ToolResult(success=False, error=f"Internal error in the memory tool: {error!r}")
        finally:
            self._expected = None

    def _refuse_unoffered(self, request: ToolRequest) -> None:
        """PathError for a call naming a scope this tool does not offer."""
        for raw, path in request.named_paths():
            scope = path.scope if path is not None else None
            if scope is not None and scope not in self.scopes:
                why = f" ({SESSION_SCOPE_UNOFFERED})" if scope is Scope.SESSION else ""
                raise PathError(
                    f"Invalid memory path {raw!r}: the {scope.value} scope is not offered here{why}"
                )

    def _checked_expectation(self, request: ToolRequest, expected: str | None) -> str | None:
        """`expected` for a call it applies to; a delete or rename is checked here."""
        if expected is None:
            return None
        if not request.mutating or request.command == "create":
            words = "`expected_sha256` applies to a change of an existing file, not"
            raise ToolArgumentError(f"{words} {request.command}")
        if request.command in ("delete", "rename"):
            path = request.file_path()
            if self.store.kind_of(path) != "file":
                raise ToolArgumentError(f"`expected_sha256` applies to a file; {path} is none")
            require_sha(path, self.store.read(path).sha256, expected)
        return expected

    def _edit(self, path: VirtualPath, change: Callable[[str], str]) -> None:
        """`store.edit_text`, checking `expected_sha256` on the text being edited."""
        expected = self._expected

        def checked(content: str) -> str:
            if expected is not None:
                require_sha(path, content_sha256(content), expected)
            return change(content)

        self.store.edit_text(path, checked)

    def _view(self, args: ViewArgs, request: ToolRequest) -> str:
        path = request.target_path
        if path.is_root:
            return self._view_root()
        assert path.scope is not None
        if reason := self.store.unavailable_reason(path.scope):
            raise MemoryStoreError(reason)
        kind = "dir" if path.is_scope_root else self.store.kind_of(path)
        if kind is None:
            raise NotFoundError(f"No memory file or directory at {path}")
        if kind == "dir":
            return "\n".join([f"Directory: {path}", *self._tree(path, depth=2, indent="")])
        output = numbered_view(self.store.read_text(path), str(path), args.offset or 1, args.limit)
        self.store.record_read(path)
        return output

    def _view_root(self) -> str:
        lines = ["Directory: /memories"]
        for scope in (scope for scope in self.store.scopes() if scope in self.scopes):
            lines.append(f"- {scope.value}/")
            if reason := self.store.unavailable_reason(scope):
                why = reason.split(": ", 1)[-1]  # "Project memory is unavailable: <why>"
                lines.append(f"  (unavailable: {why})")
            else:
                lines.extend(self._tree(VirtualPath(scope), depth=1, indent="  "))
        return "\n".join(lines)

    def _tree(self, path: VirtualPath, *, depth: int, indent: str) -> list[str]:
        entries = self.store.entries(path)
        if entries_too_deep(path.segments):
            # Nothing below is listed (docs/formats.md §5): say so.
            return [f"{indent}(not listed: {too_deep_words(path)})"] if entries else []
        # A conflict copy is not shown to agents until resolved.
        copies = copy_names(name for name, is_dir in entries if not is_dir)
        entries = [(name, is_dir) for name, is_dir in entries if is_dir or name not in copies]
        entries.sort(key=lambda item: sort_key((item[0],), is_dir=item[1]))
        lines: list[str] = []
        for name, is_dir in entries:
            lines.append(f"{indent}- {name}/" if is_dir else f"{indent}- {name}")
            if is_dir and depth > 1:
                lines.extend(self._tree(path.child(name), depth=depth - 1, indent=indent + "  "))
        return lines

    def _create(self, args: CreateArgs, request: ToolRequest) -> str:
        self.store.create_file(path := request.file_path(), args.file_text)
        return f"Created {path}"

    def _str_replace(self, args: StrReplaceArgs, request: ToolRequest) -> str:
        path = request.file_path()
        self._edit(path, lambda content: replaced_once(content, args, path))
        return f"Edited {path}"

    def _insert(self, args: InsertArgs, request: ToolRequest) -> str:
        path = request.file_path()
        self._edit(path, lambda content: inserted(content, args))
        count = len(_inserted_lines(args))
        return f"Inserted {count} line(s) into {path} after line {args.insert_line}"

    def _delete(self, args: DeleteArgs, request: ToolRequest) -> str:
        self.store.delete(path := request.file_path())
        return f"Deleted {path}"

    def _rename(self, args: RenameArgs, request: ToolRequest) -> str:
        old, new = _rename_paths(request)
        self.store.move(old, new)
        return f"Renamed {old} to {new}"


def _rename_paths(request: ToolRequest) -> tuple[VirtualPath, VirtualPath]:
    """A rename's source and destination, in one scope (MemoryStoreError otherwise)."""
    old = request.file_path()
    assert request.destination_path is not None  # a rename's record requires new_path
    new = require_file_path(request.destination_path)
    if old.scope != new.scope:
        raise MemoryStoreError(
            f"Cannot rename across memory scopes ({old} -> {new}); "
            "create the file in the target scope instead"
        )
    return old, new


def check_change(request: ToolRequest) -> None:
    """What a change must pass before any file is read, as the tool runs it (a proposal too,
    docs/formats.md §22.5): paths in a scope, listable names, renames within a scope, the cap.
    PathError, CapError, MemoryStoreError."""
    args = request.args
    if isinstance(args, RenameArgs):
        old, new = _rename_paths(request)
        require_listed(new, f"move {old} to")
        return
    path = request.file_path()
    if isinstance(args, CreateArgs):
        require_listed(path, "create")
        written = [args.file_text]
    elif isinstance(args, StrReplaceArgs):
        written = [args.new_str, args.old_str]
    elif isinstance(args, InsertArgs):
        written = [args.insert_text.removesuffix("\n")]
    else:
        written = []
    for text in written:
        check_file_size(len(encode_utf8(text)))


def replaced_once(content: str, args: StrReplaceArgs, path: VirtualPath) -> str:
    """`content` with `args.old_str`, found exactly once, replaced by `args.new_str`;
    MemoryStoreError otherwise."""
    old = args.old_str
    starts = [content.find(old)]  # overlapping matches included (as mux counts)
    while starts[-1] != -1:
        starts.append(content.find(old, starts[-1] + 1))
    starts.pop()
    if not starts:
        raise MemoryStoreError(f"No replacement was performed: old_str was not found in {path}")
    if len(starts) > 1:
        raise MemoryStoreError(
            f"No replacement was performed: old_str matches {len(starts)} locations "
            f"(lines {_line_numbers(content, starts)}) in {path}. "
            "Provide a longer, unique old_str."
        )
    index = starts[0]  # slicing keeps `$&` and `\1` literal
    return content[:index] + args.new_str + content[index + len(old) :]


def inserted(content: str, args: InsertArgs) -> str:
    """`content` with `args.insert_text` after line `args.insert_line`; ToolArgumentError past the
    end."""
    lines = _lines(content)
    line = args.insert_line
    if line > len(lines):
        words = "(0 inserts at the top; N inserts after line N)"
        raise ToolArgumentError(f"insert_line must be between 0 and {len(lines)} {words}")
    lines[line:line] = _inserted_lines(args)
    return "\n".join(lines)


def _inserted_lines(args: InsertArgs) -> list[str]:
    new_lines = args.insert_text.split("\n")
    return new_lines[:-1] if new_lines[-1] == "" else new_lines


def view_lines(text: str, label: str, offset: int) -> list[str]:
    """A file's lines as `view` numbers them (docs/formats.md §5.2); ToolArgumentError for an offset
    past the end."""
    lines = _lines(text)
    counted = len(lines)  # xum counts the empty line after a final newline (`renderFileView`)
    if lines and lines[-1] == "":
        lines.pop()
    if offset > 1 and offset > counted:
        raise ToolArgumentError(
            f"offset {offset} is beyond the end of {label} ({len(lines)} lines)"
        )
    return lines


def numbered_view(text: str, label: str, offset: int, limit: int | None) -> str:
    """`limit` lines from `offset`, numbered from 1 as `view` shows them (docs/formats.md §5.2)."""
    lines = view_lines(text, label, offset)
    selected = lines[offset - 1 : None if limit is None else offset - 1 + limit]
    if not lines:
        return f"(empty file: {label})"
    if not selected:
        return f"(no lines from offset {offset}: {label} has {len(lines)} lines)"
    return "\n".join(f"{number}\t{line}" for number, line in enumerate(selected, offset))


def require_sha(path: VirtualPath, actual: str, expected: str) -> None:
    """SaveConflictError unless `actual` is the `expected_sha256` sent (docs/formats.md §5.2)."""
    if actual != expected.strip().lower():
        raise SaveConflictError(
            "changed",
            f"{path} changed since it was read (its sha256 is now {actual}, not the "
            "expected_sha256 given); nothing was changed: view it again",
        )


def _line_numbers(content: str, starts: list[int]) -> str:
    """The distinct 1-based lines where matches start, in order (`1, 4`)."""
    lines: dict[int, None] = {}
    line, counted_to = 1, 0
    for start in starts:
        line += content.count("\n", counted_to, start)
        counted_to = start
        lines[line] = None
    return ", ".join(str(number) for number in lines)
