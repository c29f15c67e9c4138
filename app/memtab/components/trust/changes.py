"""What the window's trust actions write, each one Edit → Undo step (a `TogetherStep`): what
the user accepted in a review (`components.trust.review`), written only while every file
holds what the review read — and Keep, which writes no memory."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memtab.components.files.ops import OpResult, create_file
from memtab.components.files.steps import (
    Applied,
    RemoveStep,
    RestoreStep,
    TogetherStep,
    UndoStep,
)
from memtab.components.files.undo import UndoStack
from memtab.components.trust.review import LIST_MARK, FileChange, Reviewed
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.markdown import text_lines
from memtab.redact import redact_secrets
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.trust.duplicates.kept import forget_kept, keep_group
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.records import MemoryPlace

FileOpener = Callable[[MemoryPlace], "MemoryFile | None"]
"""The memory file a place names, to read and change (None: it cannot be reached)."""
StoreOf = Callable[[str | None], "MemoryStore | None"]
"""The store of a project's workspace (None: the global scope's, any workspace's)."""


@dataclass(frozen=True)
class KeepStep(UndoStep):
    """A group kept as it is (`kept`) or forgotten again. Turned around: the other."""

    home: Home
    group: DuplicateGroup
    kept: bool  # Whether applying this forgets the group (True) or keeps it (False).

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        try:
            if self.kept:
                forget_kept(self.home, self.group.key)
            else:
                keep_group(self.home, self.group)
        except OSError as error:
            return Applied(OpResult.failed(f"Undo of {self.description} failed", error))
        turned = self.turned(KeepStep, kept=not self.kept)
        said = "shown again" if self.kept else "kept as it is"
        return Applied(OpResult(f"The group is {said}"), turned)


def keep(stack: UndoStack, home: Home, group: DuplicateGroup) -> OpResult:
    """Keep `group` as it is (left out until a member changes)."""
    step = KeepStep(None, "keep of a duplicate group", home=home, group=group, kept=False)
    applied = step.apply(MemoryStore(home, None))
    if applied.result.ok and applied.inverse is not None:
        stack.push(applied.inverse)
    return applied.result


class _Changes:
    """The files one action changed, and how to take each back (newest first)."""

    def __init__(self) -> None:
        self.undo: list[UndoStep] = []
        self.touched: list[str] = []
        self.said: list[str] = []

    def pushed(self, stack: UndoStack, description: str, message: str) -> OpResult:
        if self.undo:
            stack.push(TogetherStep(None, description, steps=tuple(self.undo)))
        return OpResult(message, touched=tuple(self.touched))

    def failed(self, stack: UndoStack, description: str, message: str, error: str) -> OpResult:
        """What was done before the failure stays done, and is one step to take back."""
        done = self.pushed(stack, description, message)
        return OpResult(message, error=error, touched=done.touched)


def current_text(file: MemoryFile, place: MemoryPlace) -> tuple[str, str]:
    """The file's text and sha now. MemoryFileError when it is gone, SaveConflictError
    when it changed since the finding was read (its time is no longer the place's)."""
    content = file.read()
    if file.read_whole() is None:
        raise MemoryFileError(f"{place.path} is gone")
    physical = file.physical()
    if place.modified_at and physical is not None:
        try:
            modified = physical.stat().st_mtime_ns // 1_000_000
        except OSError as error:
            raise MemoryFileError(f"{place.path}: {error.strerror or error}") from None
        if modified != place.modified_at:
            raise SaveConflictError("changed", f"{place.path} changed since it was read; kept")
    return content.content, content.sha256


def _remove_file(file: MemoryFile, sha: str, changes: _Changes, noun: str) -> None:
    """Remove `file` if it holds `sha`. SaveConflictError, UnkeptChangeError, MemoryFileError."""
    step = RemoveStep(None, f"{noun} {file.name}", file, sha, noun=noun, made="read")
    applied = step.apply(MemoryStore(file.home, None))
    if not applied.result.ok:
        raise MemoryFileError(applied.result.error or applied.result.message)
    if applied.inverse is not None:
        changes.undo.insert(0, applied.inverse)
    changes.touched += applied.result.touched


def without_line(text: str, place: MemoryPlace) -> str | None:
    """`text` without what `place` names: its line (found again by its text if it moved),
    or only its sentence where the line says more; None when no line holds it any more."""
    lines = text.splitlines(keepends=True)
    wanted = place.text.strip()
    if not wanted:
        return None
    order = list(range(len(lines)))
    if place.line is not None and 0 < place.line <= len(lines):
        order.insert(0, place.line - 1)
    for index in order:
        line = lines[index]
        if wanted not in line:
            continue
        body = LIST_MARK.sub("", line.strip())
        if body == wanted:
            return "".join(lines[:index] + lines[index + 1 :])
        end = line[len(line.rstrip("\r\n")) :]
        rest = " ".join(line.rstrip("\r\n").replace(wanted, "").split(" "))
        lines[index] = _SPACES.sub(" ", rest).rstrip() + end
        return "".join(lines)
    return None


_SPACES = re.compile(r"(?<=\S) {2,}")


def _save(
    file: MemoryFile,
    text: str,
    sha: str,
    changes: _Changes,
    description: str,
    *,
    counted: bool = True,
) -> None:
    """Save `text` over what holds `sha`, remembering how to give the file `sha` back;
    `counted`: the write, and its undo, are one use of the file each."""
    new_sha = file.save(text, sha, count_as_write=counted)
    before = next((v for v in file.versions() if v.sha256 == sha and not v.deleted), None)
    if before is not None:
        step = RestoreStep(
            None, description, file=file, before=before, sha256=new_sha, count_as_write=counted
        )
        changes.undo.insert(0, step)
    physical = file.physical()
    if physical is not None:
        changes.touched.append(str(physical))


def without_secret_line(text: str, place: MemoryPlace) -> str | None:
    """`text` without the line holding the secret `place` names — its text is redacted: the
    line numbered `place.line` (as `markdown.text_lines` numbers them) if it says that once
    redacted, else the one line that does; None when none does, or several."""
    parts = text.split("\n")
    count = len(text_lines(text))

    def says_it(index: int) -> bool:
        return redact_secrets(parts[index].removesuffix("\r")) == place.text

    numbered = place.line - 1 if place.line is not None and 0 < place.line <= count else None
    if numbered is not None and says_it(numbered):
        found = [numbered]
    else:
        found = [index for index in range(count) if says_it(index)]
    return None if len(found) != 1 else "\n".join(parts[: found[0]] + parts[found[0] + 1 :])


_CHANGE_ERRORS = (SaveConflictError, UnkeptChangeError, MemoryFileError, MemoryStoreError, OSError)


def write_reviewed(
    stack: UndoStack,
    reviewed: Reviewed,
    text: str | None,
    open_file: FileOpener,
    store_of: StoreOf,
) -> OpResult:
    """Write what the user accepted in `reviewed` (`text`: the edited file's text as the
    user left it): each file's after-text, a new file made, a removed one taken out — only
    while every file read holds what the review read (its sha), none read-only that
    changes; new and changed files first, removals last; one step of Edit → Undo."""
    if reviewed.refused:
        return OpResult(f"{reviewed.action} failed", error=reviewed.refused)
    files = reviewed.with_text(text) if text is not None else reviewed.files
    action, description = reviewed.action, reviewed.undo_as
    changes = _Changes()
    try:
        opened: list[MemoryFile | None] = []
        for change in files:
            file = open_file(change.place) if change.before is not None else None
            if change.before is not None:
                refused = _refused(change, file)
                if refused:
                    return OpResult(f"{action} failed", error=refused)
            opened.append(file)
        for change, file in zip(files, opened, strict=True):
            if change.before is None and change.after is not None:
                _make(change, change.after, store_of, changes, description)
            elif file is not None and change.after is not None and change.changes:
                _save(
                    file, change.after, change.sha256, changes, description, counted=change.counted
                )
        for change, file in zip(files, opened, strict=True):
            if file is not None and change.after is None:
                _remove_file(file, change.sha256, changes, "removed file")
    except (*_CHANGE_ERRORS, PathError) as error:
        message = OpResult.failed(f"{action} stopped", error)
        return changes.failed(stack, description, message.message, message.error or "")
    return changes.pushed(stack, description, reviewed.done)


def _refused(change: FileChange, file: MemoryFile | None) -> str:
    """Why `change` may not be written to `file` ("" when it may): it cannot be reached,
    is read-only, or no longer holds what the review read."""
    path = change.place.path
    if file is None:
        return f"{path} cannot be reached"
    if change.changes and file.read_only_reason is not None:
        return f"{path}: {file.read_only_reason}"
    if file.read_whole() is None or file.read().sha256 != change.sha256:
        return f"{path} changed since it was read; kept"
    return ""


def _make(
    change: FileChange, text: str, store_of: StoreOf, changes: _Changes, description: str
) -> None:
    """Make `change`'s new file in mux's memory (never over one that is there)."""
    place = change.place
    store = store_of(place.project if place.scope == "project" else None)
    if store is None or place.agent != "mux":
        raise MemoryStoreError(f"no workspace of {place.project} to write {place.path} in")
    target = parse_file_path(place.path)
    made = create_file(store, target, text)
    if not made.ok:
        raise MemoryStoreError(made.error or made.message)
    changes.undo.insert(
        0, RemoveStep(None, description, MuxFile(store, target), content_sha256(text))
    )
    changes.touched += made.touched


def move_target(leak: Leak) -> str | None:
    """Where Move takes `leak` in words, or None when it cannot be moved from the window
    (another agent's memory naming another project: its agent keeps it)."""
    if leak.kind == "secret":
        return "Take the line out"
    if leak.place.agent != "mux" or leak.belongs_to is None:
        return None
    if leak.kind in ("other-project", "project-in-global"):
        return f"Move to project {leak.belongs_to}'s memory"
    return None
