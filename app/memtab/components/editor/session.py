"""The editor's open file and the rules that keep it in step with the disk — no Qt."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from memtab.components import merge as choices
from memtab.components.editor.merge import MergeBasis
from memtab.components.editor.text_buffer import TextCodec
from memtab.components.loads.loads import past_cut_warning
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.claude.index import is_cut_index
from memtab.store.files import MAX_FILE_BYTES, FileContent

# Action ids shared by the bar and the diff dialog; their words are a conflict's everywhere
# (`components.merge`): Reload and Take theirs say "Keep theirs", Overwrite "Keep
# mine" (over a refused save it writes the draft: what keeping mine means there).
RELOAD = "reload"
SHOW_DIFF = "show_diff"
OVERWRITE = "overwrite"
KEEP_MINE = "keep_mine"
TAKE_THEIRS = "take_theirs"
RESTORE_DRAFT = "restore_draft"
CLOSE_FILE = "close_file"
MERGE = "merge"
SAVE_WITHOUT_COPY = "save_without_copy"

# What Enter (the default button) may do: look, or keep both sides' changes.
_SAFE_DEFAULTS = (MERGE, SHOW_DIFF)

Choice = tuple[str, str]  # An action id and its button label.


class Situation(enum.Enum):
    """Why the message bar is showing (decides what its actions mean)."""

    NONE = "none"
    CONFLICT = "conflict"
    CHANGED_ON_DISK = "changed_on_disk"
    DELETED = "deleted"
    DRAFT_REPLACED = "draft_replaced"
    ERROR = "error"
    NOTE = "note"
    CUT_NOTE = "cut_note"
    """What Claude Code does not read of the open MEMORY.md (`components.loads.loads.CutBar`):
    it follows the text, and stays over saves."""
    PAST_CUT = "past_cut"
    """A save of MEMORY.md that waits for *Save anyway* (`components.loads.loads.CutBar`): it
    follows the text."""
    SYNC_CONFLICT = "sync_conflict"
    """Another machine changed the file's same lines (`gui.sync.feature.SyncConflictBars`): the
    bar stays over saves and reloads until the conflict is decided."""


class BarKind(enum.Enum):
    """How serious a bar message is (`gui.editor.tab.bar` gives each its accent and icon)."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class FileState(enum.Enum):
    """What the editor's state label says about the open file."""

    CLEAN = ""
    READING = "Reading…"
    UNSAVED = "● Unsaved"
    NOT_ON_DISK = "Not on disk"
    READ_ONLY = "Read-only"


class DiskAbsence(enum.Enum):
    """What reading the file found instead of its content."""

    MISSING = "missing"
    UNREADABLE = "unreadable"


DiskRead = FileContent | DiskAbsence  # The file on disk now, or why there is none.


class Decision(enum.Enum):
    """What to do with the open file after the disk changed under it."""

    UNREADABLE = "unreadable"  # It cannot be read now: leave the buffer (the error is shown).
    MISSING = "missing"  # It is gone: keep the text; Save recreates the file.
    UNCHANGED = "unchanged"
    """The disk holds what the buffer is based on (our own save's echo, a touch)."""
    REOPEN = "reopen"
    """Load it again: a read-only view follows the disk, and so does a clean buffer of a
    file that is no longer editable."""
    ADOPT = "adopt"  # The disk caught up with the draft: base the next save on it, mark it clean.
    RELOAD = "reload"
    """A clean buffer: replace it with the disk version (undoably, keeping the cursor)."""
    ASK = "ask"  # A dirty buffer and a different file on disk: the user chooses.


class TakeDecision(enum.Enum):
    """What Reload / Take theirs does with the disk version."""

    UNREADABLE = "unreadable"
    MISSING = "missing"
    REFUSE = "refuse"
    """Not editable any more (binary, over the cap): loading it would drop the draft."""
    REPLACE = "replace"


class SaveStart(enum.Enum):
    """What a save asked now does (`OpenFile.save_start`)."""

    AFTER_TEXT = "after_text"
    """The text is on its way from disk: save once it (and what was typed meanwhile) is in."""
    REFUSE = "refuse"  # Nothing here can be saved: no file, or a read-only one.
    SAVED = "saved"  # Nothing unsaved and no save on its way: it counts as saved.
    SAVE = "save"


@dataclass(frozen=True)
class Buffer:
    """What the editor holds: its text (`\\n` line breaks) and its undo-aware modified flag."""

    text: str
    modified: bool


def is_editable(content: FileContent) -> bool:
    """Whether the editor may edit a file with this content."""
    return not content.binary and not content.over_cap


def not_editable_reason(content: FileContent) -> str:
    """Why a file opens read-only, as the end of "this file is …"."""
    if content.binary:
        return "not a text file (it contains NUL bytes)"
    return (
        f"larger than the {MAX_FILE_BYTES // 1024} KiB cap for memory files "
        f"({content.size_bytes:,} bytes); only the start is shown"
    )


def display_text(content: FileContent) -> str:
    """What a read-only view shows of a file."""
    text = content.content
    if content.over_cap:
        text = text[:MAX_FILE_BYTES]
    return text.replace("\x00", "\u2400")  # show NULs as ␀ rather than cutting lines


class OpenFile:
    """The file the editor shows and what it was loaded with."""

    def __init__(self, ref: MemoryFileRef | None = None) -> None:
        """Nothing loaded yet; `ref` names the file (None: no file, or one shown only to
        be read)."""
        self.ref = ref
        self.loaded_sha: str | None = None
        """The sha on disk the buffer is based on; None when the file is not on disk."""
        self.clean_text = ""  # The buffer as last loaded or saved.
        self.base_text = ""
        """The disk version the buffer is based on, as the buffer shows it: what a merge
        of the draft with a newer disk version starts from."""
        self.exists_on_disk = False
        self.read_only_reason: str | None = None
        self.codec = TextCodec()
        self.draft_backup: str | None = None
        """The draft a Reload / Take theirs replaced, for "Restore my draft"."""
        self.situation = Situation.NONE
        self.reading = False  # Its content is on its way from disk: nothing is shown to edit yet.

    @property
    def is_read_only(self) -> bool:
        return self.read_only_reason is not None

    def is_dirty(self, modified: bool) -> bool:
        """Unsaved changes: an edited buffer, or a draft whose file is gone from disk."""
        if self.ref is None or self.is_read_only or self.reading:
            return False
        return modified or not self.exists_on_disk

    def may_autosave(self, modified: bool) -> bool:
        """Whether auto save may save it now: unsaved changes to a file on disk, and no
        question of the bar (a conflict, a change on disk, a deletion) left to answer."""
        waiting = (Situation.CONFLICT, Situation.CHANGED_ON_DISK, Situation.DELETED)
        return self.is_dirty(modified) and self.exists_on_disk and self.situation not in waiting

    def state(self, modified: bool) -> FileState:
        """What the state label says, given the buffer's modified flag."""
        if self.reading:
            return FileState.READING
        if self.is_read_only:
            return FileState.READ_ONLY
        if self.ref is not None and not self.exists_on_disk:
            return FileState.NOT_ON_DISK
        return FileState.UNSAVED if self.is_dirty(modified) else FileState.CLEAN

    def save_start(self, modified: bool, saving: bool) -> SaveStart:
        """What a save asked now does, given the buffer's modified flag and whether a save
        is on its way."""
        if self.reading:
            return SaveStart.AFTER_TEXT
        if self.ref is None or self.is_read_only:
            return SaveStart.REFUSE
        return SaveStart.SAVE if self.is_dirty(modified) or saving else SaveStart.SAVED

    def past_cut_warning(self, text: str) -> str | None:
        """Why saving `text` waits for the user's word: it would push more lines of
        Claude Code's MEMORY.md past the cut Claude Code reads to (docs/formats.md §17.6)
        than the file has now; None when it need not wait."""
        ref = self.ref
        if ref is None or not is_cut_index(ref.agent, ref.name):
            return None
        return past_cut_warning(self.clean_text, text)

    def save_expectation(self) -> str | None:
        """The sha a save expects on disk (None: the file must not exist)."""
        return self.loaded_sha if self.exists_on_disk else None

    def decide(self, disk: DiskRead, buffer: Buffer) -> Decision:
        """What to do now that the disk holds `disk` and the editor holds `buffer`."""
        if disk is DiskAbsence.UNREADABLE:
            return Decision.UNREADABLE
        if disk is DiskAbsence.MISSING:
            return Decision.MISSING
        if disk.sha256 == self.loaded_sha and self.exists_on_disk:
            return Decision.UNCHANGED
        dirty = self.is_dirty(buffer.modified)
        if self.is_read_only or (not is_editable(disk) and not dirty):
            return Decision.REOPEN
        if self.codec.to_buffer(disk.content) == buffer.text:
            return Decision.ADOPT
        return Decision.ASK if dirty else Decision.RELOAD

    def decide_take(self, disk: DiskRead) -> TakeDecision:
        """What Reload / Take theirs does with `disk` (the draft is kept restorable)."""
        if disk is DiskAbsence.UNREADABLE:
            return TakeDecision.UNREADABLE
        if disk is DiskAbsence.MISSING:
            return TakeDecision.MISSING
        return TakeDecision.REPLACE if is_editable(disk) else TakeDecision.REFUSE

    def changed_on_disk_choices(self) -> list[Choice]:
        """The bar's choices when the disk changed under a dirty buffer (with their
        Alt+letters: the window's keys, `bar_choice`)."""
        return _labelled(SHOW_DIFF, KEEP_MINE, TAKE_THEIRS)

    def conflict_choices(self, kind: str) -> list[Choice]:
        """The bar's choices after a save was refused (`SaveConflictError.kind`)."""
        if kind == "missing":
            return [(SHOW_DIFF, choices.COMPARE.label), (OVERWRITE, "Recreate")]
        return _labelled(SHOW_DIFF, OVERWRITE, RELOAD)

    def diff_choices(self, disk_exists: bool) -> list[Choice]:
        """The diff dialog's choices, by why it opened and whether the file exists, with their
        mnemonics; Merge (Keep both) is offered whenever there is a disk version, enabled once
        the merge is clean."""
        if not disk_exists:
            return [(OVERWRITE, "Recreate from my draft")]
        changed = self.situation is Situation.CHANGED_ON_DISK
        mine, theirs = (KEEP_MINE, TAKE_THEIRS) if changed else (OVERWRITE, RELOAD)
        return [(MERGE, choices.KEEP_BOTH.label), *_labelled(mine, theirs)]

    def merge_basis(self, disk: DiskRead) -> MergeBasis | None:
        """What a three-way merge of the draft with `disk` starts from; None when there is
        nothing to merge (no disk version, a read-only view, nothing loaded from disk)."""
        if not isinstance(disk, FileContent) or self.is_read_only or self.loaded_sha is None:
            return None
        return MergeBasis(self.base_text, disk.sha256)

    def bar_clears_on_adopt(self) -> bool:
        """Whether taking the disk version answers what the bar was asking."""
        return self.situation in (
            Situation.CHANGED_ON_DISK,
            Situation.DELETED,
            Situation.CONFLICT,
        )

    def loaded(self, content: FileContent, read_only_reason: str | None = None) -> None:
        """The file was read from disk and shown (read-only when a reason is given)."""
        if read_only_reason is None:
            self.codec = TextCodec.detect(content.content)
        self.reading = False
        self.loaded_sha = content.sha256
        self.exists_on_disk = True
        self.base_text = self.codec.to_buffer(content.content)

    def adopted(self, disk: FileContent, buffer_text: str) -> None:
        """The buffer now equals `disk`: the next save is based on it."""
        self.loaded_sha = disk.sha256
        self.exists_on_disk = True
        self.codec = TextCodec.detect(disk.content)
        self.clean_text = buffer_text
        self.base_text = buffer_text

    def kept_mine(self, disk: FileContent) -> None:
        """Keep the draft (or a merge of it), and base the next save on what is on disk now."""
        self.loaded_sha = disk.sha256
        self.exists_on_disk = True
        self.base_text = self.codec.to_buffer(disk.content)

    def gone(self) -> None:
        """The file was deleted on disk (the draft stays; Save recreates it)."""
        self.exists_on_disk = False
        self.loaded_sha = None

    def conflicted(self, kind: str) -> None:
        """A save was refused because the disk changed (`kind` "missing": it is gone)."""
        if kind == "missing":
            self.exists_on_disk = False

    def saved(self, sha256: str, buffer_text: str) -> None:
        """The buffer was written with this sha."""
        self.loaded_sha = sha256
        self.exists_on_disk = True
        self.clean_text = buffer_text
        self.base_text = buffer_text
        self.draft_backup = None


_BAR_CHOICES = {
    SHOW_DIFF: choices.COMPARE,
    KEEP_MINE: choices.KEEP_MINE,
    OVERWRITE: choices.KEEP_MINE,  # over a refused save, or recreating the file: mine
    TAKE_THEIRS: choices.KEEP_THEIRS,
    RELOAD: choices.KEEP_THEIRS,
}


def _labelled(*actions: str) -> list[Choice]:
    return [(action, _BAR_CHOICES[action].label) for action in actions]


def bar_choice(action_id: str) -> choices.ConflictChoice | None:
    """The conflict choice a bar's action is (its window key: Alt+C, Alt+M, Alt+T, Alt+B):
    the editor's own, or another bar's whose id ends in the choice's ("sync:mine")."""
    found = _BAR_CHOICES.get(action_id)
    if found is not None or ":" not in action_id:
        return found
    tail = action_id.rsplit(":", 1)[1]
    return next((choice for choice in choices.CHOICES if choice.id == tail), None)


def default_choice(choices: list[Choice]) -> str | None:
    """The choice Enter picks: Merge or Show diff when offered, else none. Never Keep
    mine, Take theirs, Overwrite or Reload: Enter must not drop anyone's change."""
    offered = [action for action, _label in choices]
    return next((action for action in _SAFE_DEFAULTS if action in offered), None)
