"""Recently deleted without Qt: what each row says (a group, a burst, a file), which rows a
filter shows, what the buttons may do for the selection, what Restore does with a file,
and what a restore of a burst did, in words."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from memtab import humanize
from memtab.components.history.deleted import BurstFiles, DeletedFile, TrashGroup
from memtab.store.actors import actor_name
from memtab.store.history.describe import display_name
from memtab.watch.events import EventRestore

NOTHING = "Nothing was deleted here (that Memtab saw)."
NOTHING_BUT_ACROSS = "What it lost is in the burst across several memories, above."
SELECT_PROMPT = "Select a file to see what it held."
READING = "Reading…"


def row_key(file: DeletedFile) -> str:
    """What tells one row from every other: a file may be in a burst (restored since)
    and deleted again on its own."""
    return f"{file.key}\n{file.path}\n{file.version.id}\n{file.burst_id or ''}"


def group_title(group: TrashGroup) -> str:
    """A group's title row: `Claude Code (20)` (the files still deleted)."""
    return f"{group.label} ({group.deleted_count})"


@dataclass(frozen=True)
class BurstRow:
    """A burst's row: what happened, its tooltip, and whether it is greyed (all back)."""

    words: str
    tooltip: str
    muted: bool


@dataclass(frozen=True)
class FileRow:
    """A file's row: its cells, their tooltips ("": none), and whether it is greyed."""

    cells: tuple[str, str, str, str]
    tooltips: tuple[str, str, str]
    muted: bool


def burst_row(burst: BurstFiles) -> BurstRow:
    """A burst: who, how many, when — and what was put back since."""
    size = humanize.size_text(sum(file.size_bytes for file in burst.files))
    lines = [burst.words, humanize.absolute_time(burst.event.at)]
    if burst.place:
        lines.append(f"In {burst.place} · {size}")
    if burst.left_to_restore:
        lines.append(f"Restore all puts back {humanize.plural(burst.left_to_restore, 'file')}")
    return BurstRow(burst.words, "\n".join(lines), not burst.left_to_restore)


def file_row(file: DeletedFile) -> FileRow:
    """A deleted (or a burst's rewritten) file: its name (after its group's, in a burst
    across several memories: `Claude Code · memory/x.md`), when, who, its size."""
    marks = [" · pinned" if file.pinned else "", " · rewritten" if file.rewritten else ""]
    if file.restored_by is not None:
        marks.append(" · restored")  # by whom and when: its tooltip, the burst's preview
    elif file.there_again:
        marks.append(" · there again")
    state = file.state_words()
    tips = [file.where] + ([state] if state else [])
    if file.pinned:
        tips.append("Pinned: the pin comes back with it")
    if file.rewritten:
        tips.append("Rewritten: Restore gives it what it held before (if unchanged since)")
    if file.cannot_restore:
        tips.append(f"Cannot be restored: {file.cannot_restore}")
    return FileRow(
        (
            (f"{file.place} · " if file.place else "") + file.name + "".join(marks),
            humanize.relative_time(file.at),
            actor_name(file.actor),
            humanize.size_text(file.size_bytes),
        ),
        (
            "\n".join(tips),
            humanize.absolute_time(file.at),
            f"Run {file.version.run_id}" if file.version.run_id else "",
        ),
        not file.restorable,
    )


def restored_words(result: EventRestore) -> str:
    """`Restored 23 files` and what was left, in one line."""
    words = f"Restored {humanize.plural(len(result.restored), 'file')}"
    if result.left:
        left = result.left[0]
        more = f" and {len(result.left) - 1} more" if len(result.left) > 1 else ""
        words += f"; left {display_name(left.path)} ({left.why}){more}"
    return words


class Restore(enum.Enum):
    """How Restore puts a file back."""

    BURST = "burst"  # what it held before the burst that rewrote it, if unchanged since
    AGENT_FILE = "agent file"  # another agent's file, by the window
    FROM_HISTORY = "from history"  # a mux file, from its version in history


@dataclass(frozen=True)
class TrashButtons:
    """What the buttons may do for the selection, and the note to show (None: as is)."""

    restore: bool
    restore_to: bool
    restore_all: bool
    note: str | None


class TrashPresenter:
    """What was last read: the groups, each file by its row key, each burst by its id;
    and a burst asked for (the notice's Review…) until it is listed."""

    def __init__(self) -> None:
        self.groups: list[TrashGroup] = []
        self._files: dict[str, DeletedFile] = {}
        self._bursts: dict[str, BurstFiles] = {}
        self.wanted_burst: str | None = None
        self.wanted_newest = False
        """Select the newest deletion once listed (the dialog was just opened)."""

    def take(self, groups: list[TrashGroup]) -> None:
        """A new reading of the trash."""
        self.groups = groups
        self._files = {row_key(f): f for group in groups for f in group.files}
        self._bursts = {burst.id: burst for group in groups for burst in group.bursts}

    def shown(self, filter_key: str | None) -> list[TrashGroup]:
        """The groups the filter shows (None: every one); of the bursts across several
        memories, those that took files of what it shows."""
        if filter_key is None:
            return list(self.groups)
        shown = []
        for group in self.groups:
            if group.across:
                bursts = tuple(b for b in group.bursts if filter_key in b.filter_keys)
                if bursts:
                    shown.append(replace(group, bursts=bursts))
            elif group.filter_key == filter_key:
                shown.append(group)
        return shown

    def empty_words(self, group: TrashGroup) -> str:
        """What a group that lists nothing says: nothing was deleted there, or what was
        went in a burst across several memories (listed above it)."""
        key = group.filter_key
        across = (b for g in self.groups if g.across for b in g.bursts)
        return NOTHING_BUT_ACROSS if any(key in b.filter_keys for b in across) else NOTHING

    def newest(self, filter_key: str | None) -> tuple[str, str] | None:
        """The newest deletion the filter shows, where Recently deleted opens: ("burst",
        its id) or ("file", its row's key); None when nothing was deleted there."""
        found: list[tuple[int, str, str]] = []
        for group in self.shown(filter_key):
            found += [(max(f.at for f in b.files), "burst", b.id) for b in group.bursts if b.files]
            found += [(file.at, "file", row_key(file)) for file in group.items]
        if not found:
            return None
        _at, kind, key = max(found)
        return kind, key

    def elsewhere(self, filter_key: str | None) -> str | None:
        """What a filter that shows nothing deleted says of what was deleted elsewhere
        ("Nothing was deleted in Global; 6 files were deleted elsewhere: choose
        Everything"), None when it shows something or nothing was deleted at all."""
        shown = self.shown(filter_key)
        here = sum(len(g.files) for g in shown)
        other = sum(len(g.files) for g in self.groups) - here
        if filter_key is None or here or not other:
            return None
        labels = [g.label for g in shown]
        where = f"in {labels[0]}" if len(labels) == 1 else "here"
        files = humanize.plural(other, "file")
        return f"Nothing was deleted {where}; {files} were elsewhere — Everything shows them."

    @property
    def bursts(self) -> list[BurstFiles]:
        """The bursts listed, newest first."""
        return sorted(self._bursts.values(), key=lambda burst: burst.id, reverse=True)

    @property
    def has_bursts(self) -> bool:
        return bool(self._bursts)

    def file(self, key: object) -> DeletedFile | None:
        """The file of a row's key (None: not a file's row)."""
        return self._files.get(key) if isinstance(key, str) and key else None

    def burst(self, burst_id: object) -> BurstFiles | None:
        """The burst of an id (None: not listed)."""
        return self._bursts.get(burst_id) if isinstance(burst_id, str) and burst_id else None

    def burst_of(self, burst_id: object, file: DeletedFile | None) -> BurstFiles | None:
        """The burst selected, or the burst of the file selected."""
        return self.burst(burst_id) or (self.burst(file.burst_id) if file is not None else None)

    def buttons(self, file: DeletedFile | None, burst: BurstFiles | None) -> TrashButtons:
        """Restore a file that can come back; Restore to… only a mux file deleted on its
        own; Restore all a burst with files still gone."""
        restorable = file is not None and file.restorable
        movable = file is not None and restorable and may_restore_to(file) and not file.rewritten
        cannot = file.cannot_restore if file is not None else None
        note = f"Cannot be restored: {cannot}" if cannot else None
        restore_all = burst is not None and burst.left_to_restore > 0
        return TrashButtons(restorable, movable, restore_all, note)


def may_restore_to(file: DeletedFile | None) -> bool:
    """Whether Restore to… may ask where (an orphan's file goes back into its dir,
    another agent's to its place)."""
    return file is not None and not file.orphan_dir and file.source is None


def restore_kind(file: DeletedFile) -> Restore:
    """How Restore puts `file` back."""
    if file.rewritten:
        return Restore.BURST
    return Restore.AGENT_FILE if file.source is not None else Restore.FROM_HISTORY


def restoring_text(file: DeletedFile) -> str:
    return f"Restoring {file.name}…"


def restoring_burst_text(burst: BurstFiles) -> str:
    return f"Restoring what {burst.event.words()}…"


def still_gone(burst: BurstFiles) -> frozenset[str]:
    """The paths Restore all puts back: its files still gone (one back already is no
    file "left as it is")."""
    return frozenset(f.path for f in burst.files if f.restorable)
