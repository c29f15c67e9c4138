"""What the tree's file dialogs ask and decide, without Qt: a new file's or folder's name, a
rename or move, and the confirmations of a delete, of a drop into another scope, of an
orphaned project's memory going and of a change history cannot keep a copy for."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import NamedTuple

from memtab import humanize
from memtab.components.files.ops import DeletionCount
from memtab.humanize import short_name
from memtab.store.paths import PathError, VirtualPath, hidden_name_problem, parse_file_path
from memtab.store.scopes.memory import MemoryStore

DEFAULT_SUFFIX = ".md"


class NewKind(enum.Enum):
    """What a "new" dialog creates."""

    FILE = "file"
    FOLDER = "folder"


def resolve_new_path(
    store: MemoryStore, location: VirtualPath, text: str, kind: NewKind
) -> tuple[VirtualPath | None, str | None]:
    """The path a "new" dialog's input names (relative to `location`, or a full virtual path;
    `.md` added to a bare name), or why it cannot be used."""
    text = text.strip()
    if not text:
        return None, "Enter a name"
    raw = text if text.startswith("/memories") else f"{location}/{text}"
    try:
        path = parse_file_path(raw)
    except PathError as error:
        return None, str(error)
    if kind is NewKind.FILE and "." not in path.name:
        path = path.parent.child(path.name + DEFAULT_SUFFIX)
    assert path.scope is not None
    reason = store.unavailable_reason(path.scope) or hidden_name_problem(path)
    return (None, reason) if reason is not None else (path, None)


def resolve_move_target(
    store: MemoryStore, source: VirtualPath, text: str
) -> tuple[VirtualPath | None, str | None]:
    """The destination a rename/move dialog's input names, or why it cannot be used."""
    try:
        target = parse_file_path(text)
    except PathError as error:
        return None, str(error)
    if target == source:
        return None, "Enter a new name or location"
    if target.is_within(source):
        return None, f"Cannot move {source} into itself"
    assert target.scope is not None
    reason = store.unavailable_reason(target.scope) or hidden_name_problem(target)
    return (None, reason) if reason is not None else (target, None)


class FieldState(NamedTuple):
    """A dialog's field: the path it names (None: the button is off), the reason, the button."""

    path: VirtualPath | None
    reason: str
    button: str


class NewItemForm:
    """The New file / New folder dialog's rules, inside `location` (a scope root or folder)."""

    def __init__(self, store: MemoryStore, location: VirtualPath, kind: NewKind) -> None:
        self._store = store
        self._location = location
        self.kind = kind
        is_file = kind is NewKind.FILE
        self.title = "New memory file" if is_file else "New folder"
        self.placeholder = (
            "notes.md, or sub/folder/notes.md" if is_file else "folder, or parent/folder"
        )
        self.asks_description = is_file

    def state(self, text: str) -> FieldState:
        """What the dialog shows for the name `text` (no reason while it is empty)."""
        path, error = resolve_new_path(self._store, self._location, text, self.kind)
        return FieldState(path, (error or "") if text.strip() else "", "C&reate")


class MoveForm:
    """The Rename or move dialog's rules, for `source` (any scope)."""

    def __init__(self, store: MemoryStore, source: VirtualPath) -> None:
        self._store = store
        self._source = source
        self.title = f"Rename or move {short_name(source.name)}"
        self.text = str(source)

    def name_selection(self) -> tuple[int, int]:
        """Where the name's stem starts in the field, and how long it is: what is selected
        at first, so typing renames."""
        name = self._source.name
        stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
        return len(self.text) - len(name), len(stem)

    def state(self, text: str) -> FieldState:
        """What the dialog shows for the path `text` (no reason while it is unchanged): a
        destination in the same folder is a Rename, elsewhere a Move."""
        target, error = resolve_move_target(self._store, self._source, text)
        unchanged = text.strip() == self.text
        same_folder = target is not None and target.parent == self._source.parent
        button = "&Rename" if same_folder or target is None else "&Move"
        return FieldState(target, "" if unchanged else (error or ""), button)


class Question(NamedTuple):
    """A confirmation: its title, question, details and the button that goes ahead."""

    title: str
    text: str
    detail: str
    action: str


def delete_confirmation_text(names: list[str], count: DeletionCount, only_files: bool) -> str:
    """The question before a delete, counting everything that goes: `Delete notes.md?`,
    `Delete 3 items — 5 files, 2 of them hidden by the search filter?`."""
    subject = names[0] if len(names) == 1 else f"{len(names)} items"
    if only_files and count.files == len(names) and not count.hidden:
        return f"Delete {subject if len(names) == 1 else humanize.plural(count.files, 'file')}?"
    if count.files == 0:
        return f"Delete {subject} — no files inside?"
    hidden = f", {count.hidden} of them hidden by the search filter" if count.hidden else ""
    return f"Delete {subject} — {humanize.plural(count.files, 'file')}{hidden}?"


def delete_question(
    names: list[str], count: DeletionCount, only_files: bool, loses_draft: bool
) -> Question:
    """Before deleting `names` (what `count` says goes with them; `loses_draft`: the open
    file's unsaved changes go too)."""
    details = []
    if count.hidden:
        details.append("The search filter hides some of the files inside: they are deleted too.")
    if loses_draft:
        details.append("The open file has unsaved changes; they will be lost.")
    details.append(
        "Deleted files go to Recently deleted (View menu) with their pins and usage; "
        "Edit → Undo brings them back."
    )
    text = delete_confirmation_text(names, count, only_files)
    return Question("Delete memory", text, " ".join(details), "Delete")


def cross_scope_question(names: Sequence[str], target: str) -> Question:
    """Before a drop moves `names` into another scope (`target`: where, in words)."""
    subject = names[0] if len(names) == 1 else f"{len(names)} items"
    return Question(
        "Move to another scope",
        f"Move {subject} to {target}?",
        "Other agents and workspaces see memories by scope: this changes who reads it. "
        "Edit → Undo moves it back.",
        "Move",
    )


def without_copy_label(done: str) -> str:
    """The button that makes a refused change without a copy: `Delete without a copy`."""
    verbs = {"deleted": "Delete", "restored": "Restore", "reverted": "Revert", "saved": "Save"}
    return f"{verbs.get(done, 'Go on')} without a copy"


def without_copy_question(refusal: str, done: str) -> Question:
    """A change history cannot keep a copy for (`refusal`: the store's words; `done`:
    `deleted`, `restored`…), to make anyway without one."""
    return Question(
        "History cannot keep a copy",
        refusal,
        "Nothing was changed. Going on loses what the file holds now for good: "
        "Recently deleted and Edit → Undo cannot bring it back. Fix history's folder "
        "(memtab doctor says what is wrong with it) to keep a copy instead.",
        without_copy_label(done),
    )


def delete_orphan_question(dir_name: str, file_count: int) -> Question:
    """Before an orphaned project's memory dir (no registered project owns it) goes."""
    return Question(
        "Delete orphaned project memory",
        f"{dir_name} will be deleted.",
        f"No registered project owns this memory ({humanize.plural(file_count, 'file')}). "
        f"Its files are kept in history (memtab trash --orphan {dir_name} to restore).",
        "Delete",
    )
