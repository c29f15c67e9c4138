"""What the window's trust actions change, each one Edit → Undo step (a `TogetherStep`):
Combine into… (what it proposes for whole files: one keeping every line either says, once),
Keep and Move, each only where nothing changed since the finding was read."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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
from memtab.components.merge import ThreeWayTexts
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.humanize import plural
from memtab.markdown import text_lines
from memtab.redact import redact_secrets
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_file_path
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.trust.duplicates.kept import forget_kept, keep_group
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace

REVIEW_NOTE = (
    "Every line either file says, once, under the kept file's title. Check it and edit it "
    "if needed: Combine keeps exactly this text."
)
"""The note under the text to keep."""


@dataclass(frozen=True)
class CombineChoice:
    """Where a group is combined: member `member` (an index), or global memory (None)."""

    label: str
    member: int | None


def combine_choices(group: DuplicateGroup) -> list[CombineChoice]:
    """Where `group` can go: each member, then mux's global memory for a group of whole
    files none of which is there already."""
    choices = [
        CombineChoice(f"{file_name(m.path)} — {where_in_words(m)}", index)
        for index, m in enumerate(group.members)
    ]
    in_global = any(m.agent == "mux" and m.scope == "global" for m in group.members)
    if group.kind != "rule" and not in_global:
        choices.append(CombineChoice("A new file in mux's global memory (every session)", None))
    return choices


def file_name(path: str) -> str:
    """A place's file name (`testing.md` of `/memories/project/testing.md`, of a file id)."""
    return path.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def newest(places: Sequence[MemoryPlace]) -> int:
    """The index of the place changed last."""
    return max(range(len(places)), key=lambda i: places[i].modified_at)


@dataclass(frozen=True)
class CombineMember:
    """One file of the group as read: text, sha, and its description, uses and pin."""

    place: MemoryPlace
    text: str
    sha256: str
    described: bool = False
    uses: int | None = None
    """How often agents used it (mux's memory-meta.json); None: not counted (another
    agent's file)."""
    pinned: bool = False

    @property
    def name(self) -> str:
        return file_name(self.place.path)

    def facts(self) -> str:
        """`described · used 12× · pinned`, `no description · never used`."""
        said = ["described" if self.described else "no description"]
        if self.uses is not None:
            said.append(f"used {self.uses}×" if self.uses else "never used")
        if self.pinned:
            said.append("pinned")
        return " · ".join(said)


@dataclass(frozen=True)
class CombineProposal:
    """What Combine proposes for `group`: its files as read, the one kept by default
    (`keeper`), and for each member kept, the review's texts (`reviews`: that member as
    "mine", the others as "theirs", the combined text as the draft to keep)."""

    group: DuplicateGroup
    members: tuple[CombineMember, ...]
    keeper: int
    reviews: tuple[ThreeWayTexts, ...]

    def choices(self) -> list[CombineChoice]:
        """Where the group can go, each member with why it is the better file or not, the
        one kept by default first."""
        listed = combine_choices(self.group)
        for index, member in enumerate(self.members):
            choice = listed[index]
            listed[index] = CombineChoice(f"{choice.label} · {member.facts()}", index)
        order = [self.keeper, *(i for i in range(len(listed)) if i != self.keeper)]
        return [listed[i] for i in order]

    def review(self, choice: CombineChoice) -> ThreeWayTexts:
        """The texts reviewed for `choice` (a new file in global memory: the default
        keeper's combined text, every member going)."""
        return self.reviews[self.keeper if choice.member is None else choice.member]

    def summary(self, choice: CombineChoice) -> str:
        """What accepting `choice` does, in words."""
        gone = [m.name for i, m in enumerate(self.members) if i != choice.member]
        if choice.member is None:
            where = "a new file in mux's global memory"
        else:
            kept = self.members[choice.member]
            where = f"{kept.name} ({where_in_words(kept.place)})"
        return (
            f"{self.group.why}.\nCombine keeps the text below in {where}: every line either "
            f"file says, once. {', '.join(gone)} then "
            f"{'goes' if len(gone) == 1 else 'go'} — Edit → Undo brings "
            f"{'it' if len(gone) == 1 else 'them'} back as before, usage and pins included. "
            "Nothing changes until you combine."
        )


def side_labels(proposal: CombineProposal, choice: CombineChoice) -> tuple[str, str, str]:
    """The review's titles: (no common version), the file kept, the files taken out."""
    kept = proposal.keeper if choice.member is None else choice.member
    others = [m.name for i, m in enumerate(proposal.members) if i != kept]
    first = proposal.members[kept].name
    mine = f"From {first}" if choice.member is None else f"Kept: {first}"
    verb = "And" if choice.member is None else "Taken out"
    return ("", mine, f"{verb}: {', '.join(others)}")


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


def _without_line(text: str, place: MemoryPlace) -> str | None:
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
        body = _LIST_MARK.sub("", line.strip())
        if body == wanted:
            return "".join(lines[:index] + lines[index + 1 :])
        end = line[len(line.rstrip("\r\n")) :]
        rest = " ".join(line.rstrip("\r\n").replace(wanted, "").split(" "))
        lines[index] = _SPACES.sub(" ", rest).rstrip() + end
        return "".join(lines)
    return None


_LIST_MARK = re.compile(r"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
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


def _without_secret_line(text: str, place: MemoryPlace) -> str | None:
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


def _take_line_out(
    file: MemoryFile, place: MemoryPlace, changes: _Changes, description: str, *, secret: bool
) -> None:
    """Take `place`'s line out of `file` (a secret's: that line whole), only while the file
    is as the finding read it; SaveConflictError when it is not."""
    text, sha = current_text(file, place)
    shorter = _without_secret_line(text, place) if secret else _without_line(text, place)
    if shorter is None:
        raise SaveConflictError("changed", f"{place.path} no longer holds the line; kept")
    _save(file, shorter, sha, changes, description)


_CHANGE_ERRORS = (SaveConflictError, UnkeptChangeError, MemoryFileError, MemoryStoreError, OSError)


def combine_lines(
    stack: UndoStack, group: DuplicateGroup, choice: CombineChoice, open_file: FileOpener
) -> OpResult:
    """Combine a rule written in several memories into the one `choice` keeps: the rule's
    line taken out of each other file; one step of Edit → Undo."""
    description = "combine of duplicates"
    changes = _Changes()
    try:
        files = [open_file(member) for member in group.members]
        for index, (member, file) in enumerate(zip(group.members, files, strict=True)):
            if file is None:
                return OpResult("Combining failed", error=f"{member.path} cannot be reached")
            if index != choice.member:
                _take_line_out(file, member, changes, description, secret=False)
    except _CHANGE_ERRORS as error:
        message = OpResult.failed("Combining stopped", error)
        return changes.failed(stack, description, message.message, message.error or "")
    kept = group.members[choice.member].path if choice.member is not None else ""
    said = f"Combined into {kept}: {_taken_out(len(group.members) - 1, 'line')}"
    return changes.pushed(stack, description, said)


def combine_files(
    stack: UndoStack,
    members: Sequence[CombineMember],
    choice: CombineChoice,
    text: str,
    open_file: FileOpener,
    global_store: MemoryStore | None,
) -> OpResult:
    """Combine whole files: `text`, the combined text the user accepted, into the file
    `choice` keeps (or a new global file), the others removed; only while every file holds
    what was read (`members`). One Undo brings all back, usage and pins included."""
    description = "combine of duplicates"
    changes = _Changes()
    keep_at = choice.member
    try:
        files: list[MemoryFile] = []
        for index, member in enumerate(members):
            file = open_file(member.place)
            if file is None:
                return OpResult("Combining failed", error=f"{member.place.path} cannot be reached")
            changing = index != keep_at or text != member.text
            if changing and file.read_only_reason is not None:
                return OpResult(
                    "Combining failed", error=f"{member.place.path}: {file.read_only_reason}"
                )
            if file.read_whole() is None or file.read().sha256 != member.sha256:
                raise SaveConflictError(
                    "changed", f"{member.place.path} changed since it was read; kept"
                )
            files.append(file)
        if keep_at is None:
            if global_store is None:
                return OpResult("Combining failed", error="mux's global memory is not there")
            name = file_name(members[newest([m.place for m in members])].place.path)
            target = parse_file_path(f"/memories/{Scope.GLOBAL.value}/{name}")
            made = create_file(global_store, target, text)
            if not made.ok:
                return made
            new = MuxFile(global_store, target)
            changes.undo.insert(0, RemoveStep(None, description, new, content_sha256(text)))
            changes.touched += made.touched
            kept_words = str(target)
        else:
            kept_words = members[keep_at].place.path
            if text != members[keep_at].text:
                kept = members[keep_at]  # its usage is its agents': this write is none
                _save(files[keep_at], text, kept.sha256, changes, description, counted=False)
        for index, (member, file) in enumerate(zip(members, files, strict=True)):
            if index != keep_at:
                _remove_file(file, member.sha256, changes, "duplicate")
    except _CHANGE_ERRORS as error:
        message = OpResult.failed("Combining stopped", error)
        return changes.failed(stack, description, message.message, message.error or "")
    gone = len(members) - (0 if keep_at is None else 1)
    said = f"Combined into {kept_words}: {_taken_out(gone, 'file')}"
    return changes.pushed(stack, description, said)


def _taken_out(count: int, what: str) -> str:
    """`1 file taken out (Edit → Undo brings it back)`."""
    them = "it" if count == 1 else "them"
    return f"{plural(count, what)} taken out (Edit → Undo brings {them} back)"


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


def move(stack: UndoStack, leak: Leak, open_file: FileOpener, store_of: StoreOf) -> OpResult:
    """Move `leak` where it belongs: one step of Edit → Undo."""
    description = "move of a leak"
    changes = _Changes()
    place = leak.place
    file = open_file(place)
    if file is None:
        return OpResult("Moving failed", error=f"{place.path} cannot be reached")
    try:
        if leak.kind == "secret":
            _take_line_out(file, place, changes, "removal of a secret", secret=True)
            return changes.pushed(
                stack, "removal of a secret", f"Took the secret's line out of {place.path}"
            )
        target_store = store_of(leak.belongs_to)
        if target_store is None or leak.belongs_to is None or place.agent != "mux":
            return OpResult(
                "Moving failed", error=f"no workspace of {leak.belongs_to} to move it into"
            )
        path = parse_file_path(place.path)
        target = parse_file_path(f"/memories/{Scope.PROJECT.value}/{path.relative}")
        text, sha = current_text(file, place)
        made = create_file(target_store, target, text)
        if not made.ok:
            return made
        changes.undo.insert(
            0, RemoveStep(None, description, MuxFile(target_store, target), content_sha256(text))
        )
        changes.touched += made.touched
        _remove_file(file, sha, changes, "moved file")
    except (*_CHANGE_ERRORS, PathError) as error:
        message = OpResult.failed("Moving stopped", error)
        return changes.failed(stack, description, message.message, message.error or "")
    return changes.pushed(
        stack, description, f"Moved {place.path} to project {leak.belongs_to}'s memory"
    )
