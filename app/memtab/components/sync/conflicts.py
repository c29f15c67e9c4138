"""The conflicts the window resolves, read and decided on a lane: plain functions, no Qt
(docs/formats.md §18.4, §18.5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memtab.components import merge as choices
from memtab.components.jobs import JobContext
from memtab.components.merge import ThreeWayTexts, three_way_texts
from memtab.components.sync.conflicts_view import Decision
from memtab.components.sync.look import service_for
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
    key: str
    """Unique among the listed conflicts (a virtual path, or a sidecar copy's name)."""
    title: str
    """The file's name and what the conflict is, on two lines."""
    detail: str
    subject: SyncConflict | ConflictCopy | SidecarCopy

    @property
    def mergeable(self) -> bool:
        """Whether "both" and a written text are possible (a sidecar: memory-meta only,
        merged by sync's rules, never by lines)."""
        if self.kind == "sidecar":
            return bool(getattr(self.subject, "mergeable", False))
        return True

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
    for copy in memory_copies(MemoryStore(home, workspace)):
        items.append(
            ConflictItem(
                "copy",
                str(copy.path),
                f"{copy.original.name}\n{copy.name.label}",
                _copy_detail(copy.name, str(copy.path), str(copy.original)),
                copy,
            )
        )
    for sidecar in sidecar_copies(home):
        items.append(
            ConflictItem(
                "sidecar",
                str(sidecar.path),
                f"{sidecar.original.name}\n{sidecar.name.label}",
                _copy_detail(sidecar.name, sidecar.path.name, sidecar.original.name),
                sidecar,
            )
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
        return three_way_texts(
            texts.base,
            texts.local,
            texts.remote,
            labels=("Common version", "Mine (this machine)", "Theirs (the other machine)"),
        )
    if item.kind == "copy":
        assert isinstance(item.subject, ConflictCopy)
        store = MemoryStore(home, workspace)
        return three_way_texts(
            None,
            store.read_whole(item.subject.original),
            store.read_whole(item.subject.path),
            labels=(
                "Common version",
                f"Mine ({item.subject.original.name})",
                f"Theirs: this {item.subject.name.label}",
            ),
        )

    assert isinstance(item.subject, SidecarCopy)
    return three_way_texts(
        None,
        _read(item.subject.original),
        _read(item.subject.path),
        labels=("Common version", f"Mine ({item.subject.original.name})", "Theirs: this copy"),
    )


def _read(path: object) -> bytes | None:
    try:
        return Path(str(path)).read_bytes()
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
    if item.kind == "sync":
        # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
        from memtab.sync.conflicts.resolve import resolve_conflict

        assert not isinstance(item.subject, ConflictCopy | SidecarCopy)  # sync's SyncConflict
        keep = {"mine": "local", "theirs": "remote", "both": "both"}.get(decision)
        resolve_conflict(
            service_for(home, git_program),
            item.subject,
            keep=keep,  # type: ignore[arg-type]
            merged=merged.encode("utf-8") if decision == "merged" and merged is not None else None,
        )
        # The file's name: the title is two lines (the list's), the status bar has one.
        return f"Resolved {_name(item.subject.path)}: {_DONE[decision]}; the next sync sends it"
    copy_keep = {"mine": "mine", "theirs": "this", "both": "both"}.get(decision)
    if item.kind == "copy":
        assert isinstance(item.subject, ConflictCopy)
        resolve_memory_copy(
            MemoryStore(home, workspace),
            str(item.subject.path),
            keep=copy_keep,  # type: ignore[arg-type]
            merged=merged.encode("utf-8") if decision == "merged" and merged is not None else None,
        )
        return (
            f"Resolved {item.subject.original.name}: {_DONE[decision]}; the copy is in "
            "Recently deleted"
        )

    assert isinstance(item.subject, SidecarCopy) and copy_keep is not None
    aside = resolve_sidecar_copy(home, item.subject, copy_keep)  # type: ignore[arg-type]
    return f"Resolved {item.subject.original.name}: {_DONE[decision]}; set aside in {aside}"


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


_DONE: dict[Decision, str] = {
    "mine": choices.KEEP_MINE.done,
    "theirs": choices.KEEP_THEIRS.done,
    "both": choices.KEEP_BOTH.done,
    "merged": choices.KEEP_TEXT.done,
}
