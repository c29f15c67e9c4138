"""Reading and saving a source's files: opened from the root without following links (writes
from the agent's trusted root), capped and single-linked as the store reads, saved sha-checked
under a cross-process lock per file, only where the layout allows."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memtab.file_protocol.file_ref import SourceError
from memtab.fs.atomic import Directory, encode_utf8
from memtab.fs.config.config_dir import config_dir
from memtab.fs.confined import LinkInPathError, descend
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.readable import open_readable, read_readable
from memtab.sources.claude.hidden_text import secret_scan_texts
from memtab.sources.codex.manifest import render_manifest
from memtab.sources.layouts import content_problem
from memtab.sources.loki_render import render_loki
from memtab.sources.model import (
    AgentFormatError,
    FileKind,
    ReadOnlyError,
    SecretRefusedError,
    Source,
    SourceFile,
)
from memtab.store.errors import CapError, SaveConflictError, file_cap_message
from memtab.store.files import MAX_FILE_BYTES, content_sha256
from memtab.store.history.capture import removes_nothing
from memtab.store.history.versions import Op
from memtab.store.scopes.memory import missing_conflict, replace_loaded_in

logger = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 10.0


class ChangeRecorder(Protocol):
    """Where a change of a source's file is kept, written ahead: `keep_before` under the lock,
    `record` once done."""

    def keep_before(
        self, file: SourceFile, before: bytes, *, done: str, destroys: bool, allow_unkept: bool
    ) -> bool: ...

    def record(
        self,
        file: SourceFile,
        before: bytes | None,
        after: bytes | None,
        op: Op,
        *,
        restored_from: str | None = None,
        before_kept: bool = False,
    ) -> None: ...


@dataclass(frozen=True)
class SourceContent:
    """A file's text as shown (rendered for JSON) and the sha guarding a save."""

    text: str
    sha256: str
    size_bytes: int
    over_cap: bool = False
    binary: bool = False
    rendered: bool = False
    note: str | None = None


def read_source_file(source: Source, file: SourceFile) -> SourceContent:
    """The file's text, at most the cap. SourceError (one line) when it cannot be read."""
    tail = file.kind is FileKind.RENDERED and file.relative.endswith(".jsonl")
    data, size = _read(source, file, from_end=tail)
    over_cap = size > MAX_FILE_BYTES
    if file.kind is FileKind.RENDERED:
        if over_cap and not tail:
            text = (
                f"# {file.relative}\n\nThis file is {size:,} bytes, over the "
                f"{MAX_FILE_BYTES}-byte cap: it is not rendered.\n"
            )
        elif source.agent == "codex":
            text = render_manifest(file.relative, data)
        else:
            text = render_loki(file.relative, data, newest_only=over_cap)
        return SourceContent(text, content_sha256(text), size, over_cap=over_cap, rendered=True)
    text = data[:MAX_FILE_BYTES].decode("utf-8", "replace")
    note = f"Only the first {MAX_FILE_BYTES} bytes are shown." if over_cap else None
    return SourceContent(
        text, content_sha256(text), size, over_cap=over_cap, binary=b"\x00" in data, note=note
    )


def read_raw_source_text(source: Source, file: SourceFile) -> str:
    """The file's own text, not rendered, at most the cap. SourceError."""
    tail = file.relative.endswith(".jsonl")
    data = _read(source, file, from_end=tail)[0]
    return (data[-MAX_FILE_BYTES:] if tail else data[:MAX_FILE_BYTES]).decode("utf-8", "replace")


def _read(source: Source, file: SourceFile, *, from_end: bool) -> tuple[bytes, int]:
    """At most the cap plus one byte (the last cap bytes of a log) and the full size; SourceError
    (one line)."""
    try:
        directory, name = _directory_of(source, file, create=False)
        with directory:
            if not from_end:
                data, info = read_readable(directory, name, limit=MAX_FILE_BYTES + 1)
                return data, max(info.st_size, len(data))
            fd, info = open_readable(directory, name)
            try:
                if info.st_size > MAX_FILE_BYTES:
                    os.lseek(fd, info.st_size - MAX_FILE_BYTES, os.SEEK_SET)
                chunks, remaining = [], MAX_FILE_BYTES
                while remaining > 0 and (chunk := os.read(fd, remaining)):
                    chunks.append(chunk)
                    remaining -= len(chunk)
                return b"".join(chunks), info.st_size
            finally:
                os.close(fd)
    except (OSError, SourceError) as error:
        raise SourceError(f"Cannot read {file.id}: {_reason(error)}") from None


def save_source_file(
    source: Source,
    file: SourceFile,
    content: str,
    expected_sha256: str | None,
    *,
    env: Mapping[str, str] | None = None,
    history: ChangeRecorder | None = None,
    restored_from: str | None = None,
    allow_unkept: bool = False,
) -> str:
    """Save editor content into a writable source file; the sha written. `expected_sha256` None
    creates it; else SaveConflictError when changed. ReadOnlyError, AgentFormatError,
    SecretRefusedError, SourceError; `history` records it write-ahead (UnkeptChangeError)."""
    if file.source_id != source.id:
        raise SourceError(f"{file.id} is not a file of {source.id}")
    if not file.writable:
        raise ReadOnlyError(f"{file.id} is read-only: {file.read_only_reason}")
    problem = content_problem(source.layout, tuple(file.relative.split("/")), content)
    if problem is not None:
        raise AgentFormatError(f"{file.id} was not changed: {problem}")
    refusal = shared_memory_refusal(source, content)
    if refusal is not None:
        raise SecretRefusedError(refusal)
    data = encode_utf8(content)
    if len(data) > MAX_FILE_BYTES:
        raise CapError(file_cap_message(len(data)))
    kept: list[bool] = []

    def keep_before(old: bytes) -> None:  # history's write-ahead (versions.py)
        if history is not None:
            done = "restored" if restored_from else "saved"
            destroys = not removes_nothing(old, data)
            kept.append(
                history.keep_before(
                    file, old, done=done, destroys=destroys, allow_unkept=allow_unkept
                )
            )

    try:
        with interprocess_lock(file_lock_path(file.physical, env), timeout_s=LOCK_TIMEOUT_S):
            creating = expected_sha256 is None
            try:
                directory, name = _directory_of(source, file, create=creating, writing=True)
            except FileNotFoundError:
                raise missing_conflict(file.id) from None
            with directory:
                before: bytes | None = None
                if expected_sha256 is None:
                    try:
                        directory.create_new(name, data)
                    except FileExistsError:
                        raise SaveConflictError(
                            "exists", f"{file.id} already exists; reload before saving"
                        ) from None
                else:
                    before = replace_loaded_in(
                        directory,
                        name,
                        data,
                        expected_sha256,
                        label=file.id,
                        before_replacing=keep_before,
                    )
            if history is not None:
                op: Op = "restore" if restored_from else "create" if before is None else "edit"
                history.record(
                    file, before, data, op, restored_from=restored_from, before_kept=kept == [True]
                )
    except LockUnavailableError as error:
        raise SourceError(f"Cannot save {file.id}: {error}") from None
    except OSError as error:
        raise SourceError(f"Cannot save {file.id}: {_reason(error)}") from None
    logger.info("Saved %s", file.id)
    return content_sha256(content)


def shared_memory_refusal(source: Source, content: str) -> str | None:
    """Why `content` may not go into synced or shared memory, in Claude Code's own words (a
    potential secret); None: it may."""
    if source.shared is None:
        return None
    # lazy: the secret patterns (~0.03 s to import) only for a write to shared memory, never a
    # trust command's read
    from memtab.redact import secret_labels

    found = [label for text in secret_scan_texts(content) for label in secret_labels(text)]
    if not found:
        return None
    kinds = ", ".join(dict.fromkeys(found))
    if source.shared == "team":
        return (
            f"Content contains potential secrets ({kinds}) and cannot be written to team "
            "memory. Team memory is shared with all repository collaborators. Remove the "
            "sensitive content and try again."
        )
    return (
        f"Content contains potential secrets ({kinds}) and cannot be written to memory. "
        "Memory is synced to your account. Remove the sensitive content and try again."
    )


def missing_folders(source: Source, relative: str) -> int:
    """How many folders holding `relative` do not exist yet (what a copy creates)."""
    folders = relative.split("/")[:-1]
    missing = 0
    for depth in range(len(folders), 0, -1):
        if os.path.lexists(source.root.joinpath(*folders[:depth])):
            break
        missing += 1
    return missing


def remove_created_file(
    source: Source,
    file: SourceFile,
    expected_sha256: str,
    *,
    created_folders: int = 0,
    env: Mapping[str, str] | None = None,
    history: ChangeRecorder | None = None,
    allow_unkept: bool = False,
) -> None:
    """Take back a file Memtab created in a source: removed only while it holds `expected_sha256`,
    then its `created_folders` while empty. SaveConflictError, SourceError, UnkeptChangeError."""
    changed = SaveConflictError("changed", f"{file.id} changed since it was copied; kept")
    try:
        with interprocess_lock(file_lock_path(file.physical, env), timeout_s=LOCK_TIMEOUT_S):
            try:
                directory, name = _directory_of(source, file, create=False, writing=True)
            except FileNotFoundError:
                raise changed from None
            with directory:
                try:
                    data, _info = read_readable(directory, name, limit=MAX_FILE_BYTES + 1)
                except FileNotFoundError:
                    raise changed from None
                if hashlib.sha256(data).hexdigest() != expected_sha256:
                    raise changed
                kept = history is not None and history.keep_before(
                    file, data, done="removed", destroys=True, allow_unkept=allow_unkept
                )
                target, at = directory.at(name)
                os.unlink(target, **at)
            if history is not None:
                history.record(file, data, None, "delete", before_kept=kept)
            _remove_empty_folders(source, file.relative.split("/")[:-1], created_folders)
    except LockUnavailableError as error:
        raise SourceError(f"Cannot remove {file.id}: {error}") from None
    except OSError as error:
        raise SourceError(f"Cannot remove {file.id}: {_reason(error)}") from None
    logger.info("Removed %s (undo of a copy)", file.id)


def _remove_empty_folders(source: Source, folders: list[str], count: int) -> None:
    """Remove the `count` innermost of `folders` (below the source's root) while empty."""
    for depth in range(len(folders), max(len(folders) - count, 0), -1):
        parent = descend(_open_root(source, writing=True), folders[: depth - 1])
        try:
            target, at = parent.at(folders[depth - 1])
            try:
                os.rmdir(target, **at)
            except OSError:  # not empty (something else is there now): kept
                return
        finally:
            parent.close()


def _open_root(source: Source, *, writing: bool) -> Directory:
    """The source's root, open: as the agent reads it, or for a write from the trusted root
    without links."""
    if not writing or source.trusted_root is None:
        return Directory.open(source.root)
    return descend(Directory.open(source.trusted_root), source.below_trusted_root)


def _directory_of(
    source: Source, file: SourceFile, *, create: bool, writing: bool = False
) -> tuple[Directory, str]:
    """The open directory holding `file` and its name there, no link followed (a linked file of
    a config dir reached where it is)."""
    if file.linked and not writing:
        real = os.path.realpath(file.physical)
        return Directory.open(os.path.dirname(real)), os.path.basename(real)
    folders = file.relative.split("/")[:-1]
    return descend(_open_root(source, writing=writing), folders, create=create), file.physical.name


def _reason(error: Exception) -> str:
    if isinstance(error, LinkInPathError):
        return f"{error.filename} is a link, and Memtab does not write or read through links"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def file_lock_path(physical: Path, env: Mapping[str, str] | None = None) -> Path:
    """One lock per real file path in Memtab's config dir, held by saves and the recorder."""
    digest = hashlib.sha256(encode_utf8(os.path.realpath(physical))).hexdigest()[:20]
    return config_dir(env) / "locks" / f"source-{digest}.lock"
