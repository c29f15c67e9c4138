"""Sync conflicts in the window, without Qt: read and decided on a lane (docs/formats.md
§18.4, §18.5), what Resolve conflicts… selects and allows, and what a file in conflict says
in its editor tab's bar and what each choice there does."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

from memtab.components import merge as choices
from memtab.components.editor.session import Situation
from memtab.components.jobs import JobContext
from memtab.components.merge import (
    COMPARE,
    KEEP_BOTH,
    KEEP_MINE,
    KEEP_THEIRS,
    ThreeWayTexts,
    three_way_texts,
)
from memtab.components.sync.status import service_for
from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import file_key
from memtab.store.conflict_copies import ConflictCopy, CopyName
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.sync.conflicts.copies import (
    SidecarCopy,
    memory_copies,
    resolve_memory_copy,
    resolve_sidecar_copy,
    sidecar_copies,
)
from memtab.sync.repository.layout import load_config

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncConflict


ConflictKind = Literal["sync", "copy", "sidecar"]
"""Keep mine, keep theirs (the other machine's text, or the copy's), both (every line of
each, the shared ones once), or the text the person wrote."""


@dataclass(frozen=True)
class ConflictItem:
    """One conflict to resolve, as the dialog lists it."""

    kind: ConflictKind
    key: str  # Unique among the listed conflicts (a virtual path, or a sidecar copy's name).
    title: str  # The file's name and what the conflict is, on two lines.
    detail: str
    subject: SyncConflict | ConflictCopy | SidecarCopy

    @property
    def mergeable(self) -> bool:
        """Whether "both" and a written text are possible (a sidecar: memory-meta only,
        merged by sync's rules, never by lines)."""
        return bool(getattr(self.subject, "mergeable", False)) if self.kind == "sidecar" else True

    @property
    def editable(self) -> bool:
        """Whether a text the person wrote can be kept."""
        return self.kind != "sidecar"


def list_conflicts(
    home: Home, workspace: Workspace | None, git_program: str | None, _ctx: JobContext
) -> list[ConflictItem]:
    """Every conflict of the home the window shows: sync's, then the copies."""
    items: list[ConflictItem] = []
    if load_config(home).targets:
        items += [sync_item(conflict) for conflict in service_for(home, git_program).conflicts()]
    copies: list[tuple[ConflictKind, ConflictCopy | SidecarCopy, str, str]] = [
        ("copy", c, str(c.path), str(c.original))
        for c in memory_copies(MemoryStore(home, workspace))
    ]
    copies += [("sidecar", c, c.path.name, c.original.name) for c in sidecar_copies(home)]
    for kind, copy, path, original in copies:
        title = f"{copy.original.name}\n{copy.name.label}"
        items.append(
            ConflictItem(kind, str(copy.path), title, _copy_detail(copy.name, path, original), copy)
        )
    return items


def sync_item(conflict: SyncConflict) -> ConflictItem:
    """A sync conflict as the dialog lists it (and the editor's bar decides it)."""
    return ConflictItem(
        "sync",
        conflict.path,
        f"{_name(conflict.path)}\nedited on two machines",
        f"{conflict.path}: edited on two machines ({conflict.target}), {conflict.reason}",
        conflict,
    )


SYNC_CONFLICT_MARK = "sync conflict"
SYNC_CONFLICT_DETAIL = (
    "Edited on two machines, on the same lines: this machine's text is the one here until "
    "you decide (File → Resolve conflicts…)"
)


def shown_conflicts(
    conflicts: Iterable[SyncConflict], workspace: Workspace | None
) -> dict[str, SyncConflict]:
    """The conflicts (by row key, the tree's and the editor tabs') in the scopes the
    Memory tab shows for `workspace`: global's always, a project's or workspace's when it
    is the shown workspace's own."""
    shown: dict[str, SyncConflict] = {}
    for conflict in conflicts:
        scope = conflict.scope
        path = scope.virtual_path(conflict.repo_path) if scope is not None else None
        if scope is None or path is None:
            continue
        if scope.kind == "global" or (
            workspace is not None
            and scope.key
            == (workspace.project_identity if scope.kind == "project" else workspace.id)
        ):
            shown[file_key(path)] = conflict
    return shown


def conflict_marks(
    conflicts: Iterable[SyncConflict], workspace: Workspace | None
) -> dict[str, RowMark]:
    """The tree's "sync conflict" marks (by row key) of the `shown_conflicts`."""
    mark = RowMark(SYNC_CONFLICT_MARK, MarkTone.CONFLICT, SYNC_CONFLICT_DETAIL)
    return dict.fromkeys(shown_conflicts(conflicts, workspace), mark)


def _copy_detail(name: CopyName, path: str, original: str) -> str:
    made = "".join((f", {name.when}" if name.when else "", f", by {name.by}" if name.by else ""))
    return f"{path}: {name.label} of {original}{made}"


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ConflictTexts:
    """A conflict's texts for the three-way view (`load_texts`)."""

    item: ConflictItem
    texts: ThreeWayTexts


def load_texts(
    home: Home,
    workspace: Workspace | None,
    item: ConflictItem,
    git_program: str | None,
    _ctx: JobContext,
) -> ConflictTexts:
    """The conflict's texts for the three-way view."""
    return ConflictTexts(item, _texts(home, workspace, item, git_program))


def _texts(
    home: Home, workspace: Workspace | None, item: ConflictItem, git_program: str | None
) -> ThreeWayTexts:
    if item.kind == "sync":
        # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
        from memtab.sync.conflicts.resolve import conflict_texts

        assert not isinstance(item.subject, ConflictCopy | SidecarCopy)  # sync's SyncConflict
        texts = conflict_texts(service_for(home, git_program), item.subject)
        labels = ("Common version", "Mine (this machine)", "Theirs (the other machine)")
        return three_way_texts(texts.base, texts.local, texts.remote, labels=labels)
    copy = item.subject
    assert isinstance(copy, ConflictCopy | SidecarCopy)
    if isinstance(copy, ConflictCopy):
        store = MemoryStore(home, workspace)
        mine, theirs = store.read_whole(copy.original), store.read_whole(copy.path)
        label = f"Theirs: this {copy.name.label}"
    else:
        mine, theirs, label = _read(copy.original), _read(copy.path), "Theirs: this copy"
    labels = ("Common version", f"Mine ({copy.original.name})", label)
    return three_way_texts(None, mine, theirs, labels=labels)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def resolve(
    home: Home,
    workspace: Workspace | None,
    item: ConflictItem,
    decision: Decision,
    merged: str | None,
    git_program: str | None,
    _ctx: JobContext,
) -> str:
    """Decide a conflict through its engine; what was done, in words. Raises the
    engine's error (one line) when it cannot (the file changed meanwhile, a sync runs)."""
    written = merged.encode("utf-8") if decision == "merged" and merged is not None else None
    done = DECISIONS[decision].done
    if item.kind == "sync":
        # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
        from memtab.sync.conflicts.resolve import resolve_conflict

        assert not isinstance(item.subject, ConflictCopy | SidecarCopy)  # sync's SyncConflict
        keep = {"mine": "local", "theirs": "remote", "both": "both"}.get(decision)
        resolve_conflict(
            service_for(home, git_program),
            item.subject,
            keep=keep,  # type: ignore[arg-type]
            merged=written,
        )
        # The file's name: the title is two lines (the list's), the status bar has one.
        return f"Resolved {_name(item.subject.path)}: {done}; the next sync sends it"
    copy_keep = {"mine": "mine", "theirs": "this", "both": "both"}.get(decision)
    if item.kind == "copy":
        assert isinstance(item.subject, ConflictCopy)
        resolve_memory_copy(
            MemoryStore(home, workspace),
            str(item.subject.path),
            keep=copy_keep,  # type: ignore[arg-type]
            merged=written,
        )
        return f"Resolved {item.subject.original.name}: {done}; the copy is in Recently deleted"

    assert isinstance(item.subject, SidecarCopy) and copy_keep is not None
    aside = resolve_sidecar_copy(home, item.subject, copy_keep)  # type: ignore[arg-type]
    return f"Resolved {item.subject.original.name}: {done}; set aside in {aside}"


def resolve_sync_conflict(
    home: Home,
    workspace: Workspace | None,
    conflict: SyncConflict,
    decision: Decision,
    git_program: str | None,
    ctx: JobContext,
) -> str:
    """Decide a sync conflict from the editor's bar (as `resolve`, no text written)."""
    return resolve(home, workspace, sync_item(conflict), decision, None, git_program, ctx)


Decision = Literal["mine", "theirs", "both", "merged"]
DECISIONS: dict[Decision, choices.ConflictChoice] = {
    "mine": choices.KEEP_MINE,
    "theirs": choices.KEEP_THEIRS,
    "both": choices.KEEP_BOTH,
    "merged": choices.KEEP_TEXT,
}
"""Each decision's button (the editor's conflict bar's words), in the row's order."""
EMPTY_TEXT = "No conflicts: every file is as both sides agree."
RESOLVING = "Resolving…"
KEEP_BOTH_AGAIN = f"Press {choices.KEEP_BOTH.button} again to keep it."


ItemT = TypeVar("ItemT", bound=ConflictItem)


class Press(enum.Enum):
    """What a decision's button does now."""

    NOTHING = "nothing"
    SHOW_BOTH = "show both"  # show Keep both's result in the text to keep; say so
    RESOLVE = "resolve"


@dataclass(frozen=True)
class Allowed:
    """The decisions a conflict allows once read, and whether the text to keep is editable."""

    buttons: dict[Decision, bool]
    editable: bool


def allowed(item: ConflictItem, *, binary: bool) -> Allowed:
    """Mine and theirs always; both where sync's rules merge it and it is text; the text
    below where it may be edited and is text."""
    return Allowed(
        {
            "mine": True,
            "theirs": True,
            "both": item.mergeable and not binary,
            "merged": item.editable and not binary,
        },
        item.editable and not binary,
    )


def resolve_failed_text(message: str) -> str:
    """A refused decision's reason, without the job's prefix."""
    return message.split(": ", 1)[-1]


class ConflictsPresenter(Generic[ItemT]):
    """The dialog's state: the conflicts listed, the one to select once listed (and whether to show
    Keep both's result for it), whether that result is shown, and the decision under way."""

    def __init__(self) -> None:
        self.items: list[ItemT] = []
        self.deciding: int | None = None
        self.both_shown = False
        self._wanted: str | None = None
        self._both_for: str | None = None

    def want(self, key: str, *, show_both: bool) -> None:
        """Select `key`'s conflict once listed (`show_both`: with Keep both's result)."""
        self._wanted = key
        self._both_for = key if show_both else None

    def listed(self, items: Sequence[ItemT], selected: str | None) -> list[str]:
        """Take a new listing; the keys to try selecting, in turn (none works: the first)."""
        self.items = list(items)
        wanted, self._wanted = self._wanted, None
        return [key for key in (wanted, selected) if key is not None]

    def item(self, key: object) -> ItemT | None:
        return next((found for found in self.items if found.key == key), None)

    def shown(self) -> None:
        """Another conflict is shown: Keep both's result is not."""
        self.both_shown = False

    def show_both_now(self, item: ConflictItem, allowed_both: bool) -> bool:
        """Whether the texts just read are to show Keep both's result at once (an editor
        bar's Keep both asked for it)."""
        if self._both_for != item.key:
            return False
        self._both_for = None
        return allowed_both

    def press(self, decision: Decision, item: ConflictItem | None) -> Press:
        """What pressing `decision` does now: nothing while one runs; Keep both of an
        editable text shows its result first."""
        if item is None or self.deciding is not None:
            return Press.NOTHING
        if decision == "both" and item.editable and not self.both_shown:
            return Press.SHOW_BOTH
        return Press.RESOLVE

    def merged_edited(self) -> bool:
        """The text to keep was edited: whether Keep both's result was shown (the next
        press shows it again, its message goes)."""
        was, self.both_shown = self.both_shown, False
        return was

    def ended(self, job_id: int) -> bool:
        """Whether the job that ended was the decision under way."""
        if job_id != self.deciding:
            return False
        self.deciding = None
        return True


PREFIX = "sync:"
"""The bar's action ids are the choices' ids after this (the editor's own never are)."""
CHOICES = (COMPARE, KEEP_MINE, KEEP_THEIRS, KEEP_BOTH)
DEFAULT_ACTION = PREFIX + COMPARE.id  # Enter picks Compare.
BAR_DECISIONS: dict[str, Decision] = {
    KEEP_MINE.id: "mine",
    KEEP_THEIRS.id: "theirs",
}


def bar_text(conflict: SyncConflict) -> str:
    """What the bar says of a conflict: the news first (two lines show at 683 px)."""
    return (
        "Sync conflict: another machine changed the same lines. You see this machine's "
        f"text until you decide ({conflict.reason})."
    )


def bar_actions() -> list[tuple[str, str]]:
    """The bar's buttons: (action id, words with their Alt+letter: the window's keys,
    `components.editor.session.bar_choice`)."""
    return [(PREFIX + choice.id, choice.label) for choice in CHOICES]


def not_resolved_text(message: str) -> str:
    """What the bar says first when a decision was refused."""
    return f"Not resolved: {resolve_failed_text(message)}. "


class BarStep(enum.Enum):
    """What a tab's bar does as sync's conflicts change."""

    NOTHING = "nothing"
    SHOW = "show"
    CLEAR = "clear"


def bar_step(in_conflict: bool, situation: Situation, *, reading: bool, dismissed: bool) -> BarStep:
    """Show the bar where the file is in conflict (its tab asks nothing else, is not
    reading, and its bar was not dismissed); take it away where the conflict went."""
    if not in_conflict:
        return BarStep.CLEAR if situation is Situation.SYNC_CONFLICT else BarStep.NOTHING
    if situation is Situation.NONE and not reading and not dismissed:
        return BarStep.SHOW
    return BarStep.NOTHING


class Choice(enum.Enum):
    """What a choice of the bar does."""

    COMPARE = "compare"  # Resolve conflicts… on this file
    COMPARE_BOTH = "compare both"  # …with Keep both's result shown
    DECIDE = "decide"  # sync's engine decides (mine or theirs)


def choice_of(choice_id: str) -> Choice:
    """What the bar's choice `choice_id` does."""
    if choice_id == COMPARE.id:
        return Choice.COMPARE
    if choice_id == KEEP_BOTH.id:  # Keep both is seen before it is kept
        return Choice.COMPARE_BOTH
    return Choice.DECIDE
