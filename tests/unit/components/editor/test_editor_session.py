"""The editor's rules without a text widget: one row per rule (no QApplication)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memtab.components import merge as merge_choices
from memtab.components.editor.merge import MergeBasis
from memtab.components.editor.session import (
    KEEP_MINE,
    MERGE,
    OVERWRITE,
    RELOAD,
    SHOW_DIFF,
    TAKE_THEIRS,
    Buffer,
    Decision,
    DiskAbsence,
    DiskRead,
    FileState,
    OpenFile,
    SaveStart,
    Situation,
    TakeDecision,
    bar_choice,
    default_choice,
    display_text,
    not_editable_reason,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.files import MAX_FILE_BYTES, FileContent, content_sha256
from memtab.store.paths import parse_virtual_path

NOTES = parse_virtual_path("/memories/global/notes.md")
LOADED = "- first\n"
THEIRS = "- first\n- theirs\n"
MINE = "- first\n- mine\n"


def disk(text: str, *, binary: bool = False, size: int | None = None) -> FileContent:
    size_bytes = len(text) if size is None else size
    over_cap = size_bytes > MAX_FILE_BYTES  # what the store's capped read reports
    return FileContent(text, content_sha256(text), size_bytes, binary, over_cap)


def open_file(
    text: str = LOADED,
    *,
    read_only: str | None = None,
    on_disk: bool = True,
    save_found_it_missing: bool = False,
) -> OpenFile:
    """NOTES as the editor has it after loading `text` (then deleted if not `on_disk`, or
    found missing by a save)."""
    file = OpenFile(MemoryFileRef.of_mux(NOTES))
    file.loaded(disk(text), read_only)
    file.read_only_reason = read_only
    file.clean_text = text
    if not on_disk:
        file.gone()
    if save_found_it_missing:
        file.conflicted("missing")
    return file


@dataclass(frozen=True)
class Case:
    name: str
    file: OpenFile
    disk: DiskRead
    buffer: Buffer
    expected: Decision


CLEAN = Buffer(LOADED, modified=False)
EDITED = Buffer(MINE, modified=True)

DECIDE_CASES = [
    Case("unreadable", open_file(), DiskAbsence.UNREADABLE, EDITED, Decision.UNREADABLE),
    Case("deleted", open_file(), DiskAbsence.MISSING, EDITED, Decision.MISSING),
    Case("our own save's echo", open_file(), disk(LOADED), EDITED, Decision.UNCHANGED),
    Case("a read-only view follows", open_file(read_only="orphan"), disk(THEIRS), CLEAN,
         Decision.REOPEN),
    Case("clean, now binary", open_file(), disk("a\x00b", binary=True), CLEAN, Decision.REOPEN),
    Case("dirty, now binary", open_file(), disk("a\x00b", binary=True), EDITED, Decision.ASK),
    Case("the disk caught up with the draft", open_file(), disk(MINE), EDITED, Decision.ADOPT),
    Case("clean, changed", open_file(), disk(THEIRS), CLEAN, Decision.RELOAD),
    Case("dirty, changed", open_file(), disk(THEIRS), EDITED, Decision.ASK),
    Case("a draft of a deleted file, recreated by someone", open_file(on_disk=False),
         disk(THEIRS), CLEAN, Decision.ASK),
    Case("recreated with the draft's text", open_file(on_disk=False), disk(LOADED), CLEAN,
         Decision.ADOPT),
    Case("back as loaded after a save found it missing", open_file(save_found_it_missing=True),
         disk(LOADED), EDITED, Decision.ASK),
]  # fmt: skip


@pytest.mark.parametrize("case", DECIDE_CASES, ids=[case.name for case in DECIDE_CASES])
def test_decide(case: Case) -> None:
    assert case.file.decide(case.disk, case.buffer) is case.expected


def test_decide_compares_the_disk_in_the_buffers_line_endings() -> None:
    file = open_file("a\r\nb\r\n")
    assert file.codec.crlf
    assert file.decide(disk("a\r\nb\r\nc\r\n"), Buffer("a\nb\nc\n", True)) is Decision.ADOPT


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        (DiskAbsence.UNREADABLE, TakeDecision.UNREADABLE),
        (DiskAbsence.MISSING, TakeDecision.MISSING),
        (disk("a\x00b", binary=True), TakeDecision.REFUSE),
        (disk("x", size=MAX_FILE_BYTES + 1), TakeDecision.REFUSE),
        (disk(THEIRS), TakeDecision.REPLACE),
    ],
    ids=["unreadable", "missing", "binary", "over the cap", "editable"],
)
def test_decide_take(read: DiskRead, expected: TakeDecision) -> None:
    assert open_file().decide_take(read) is expected


@pytest.mark.parametrize(
    ("file", "modified", "dirty"),
    [
        (OpenFile(), True, False),  # nothing open
        (open_file(read_only="binary"), True, False),
        (open_file(), False, False),
        (open_file(), True, True),
        (open_file(on_disk=False), False, True),  # a draft whose file is gone
    ],
    ids=["no file", "read-only", "clean", "edited", "deleted"],
)
def test_is_dirty(file: OpenFile, modified: bool, dirty: bool) -> None:
    assert file.is_dirty(modified) is dirty


def test_a_save_expects_the_loaded_sha_or_no_file() -> None:
    assert open_file().save_expectation() == content_sha256(LOADED)
    assert open_file(on_disk=False).save_expectation() is None


def test_choices_follow_the_situation() -> None:
    file = open_file()
    assert [a for a, _ in file.conflict_choices("changed")] == [SHOW_DIFF, OVERWRITE, RELOAD]
    assert [a for a, _ in file.conflict_choices("missing")] == [SHOW_DIFF, OVERWRITE]
    assert [a for a, _ in file.diff_choices(disk_exists=True)] == [MERGE, OVERWRITE, RELOAD]
    assert file.diff_choices(disk_exists=False) == [(OVERWRITE, "Recreate from my draft")]
    file.situation = Situation.CHANGED_ON_DISK
    assert [a for a, _ in file.diff_choices(disk_exists=True)] == [MERGE, KEEP_MINE, TAKE_THEIRS]
    assert [a for a, _ in file.changed_on_disk_choices()] == [SHOW_DIFF, KEEP_MINE, TAKE_THEIRS]


def test_enter_never_picks_a_choice_that_drops_a_change() -> None:
    file = open_file()
    for choices in (
        file.conflict_choices("changed"),
        file.conflict_choices("missing"),
        file.changed_on_disk_choices(),
    ):
        assert default_choice(choices) == SHOW_DIFF
    assert default_choice(file.diff_choices(disk_exists=True)) == MERGE
    # Nothing safe offered: Enter picks nothing.
    assert default_choice([(KEEP_MINE, "Keep mine"), (TAKE_THEIRS, "Keep theirs")]) is None
    assert default_choice(file.diff_choices(disk_exists=False)) is None


def test_the_merge_starts_from_the_version_the_draft_is_based_on() -> None:
    file = open_file()
    assert file.base_text == LOADED
    assert file.merge_basis(disk(THEIRS)) == MergeBasis(LOADED, content_sha256(THEIRS))
    # Keep mine: the draft now stands over their version, so a later merge starts there.
    file.kept_mine(disk(THEIRS))
    assert file.base_text == THEIRS
    file.saved(content_sha256(MINE), MINE)
    assert file.base_text == MINE
    # Nothing to merge with, or nothing to merge.
    assert file.merge_basis(DiskAbsence.MISSING) is None
    assert open_file(read_only="binary").merge_basis(disk(THEIRS)) is None
    assert (
        OpenFile(MemoryFileRef.of_mux(NOTES)).merge_basis(disk(THEIRS)) is None
    )  # never loaded from disk


@pytest.mark.parametrize(
    ("file", "modified", "state"),
    [
        (open_file(), False, FileState.CLEAN),
        (open_file(), True, FileState.UNSAVED),
        (open_file(on_disk=False), False, FileState.NOT_ON_DISK),
        (open_file(read_only="binary"), True, FileState.READ_ONLY),
    ],
    ids=["clean", "edited", "deleted", "read-only"],
)
def test_state_label(file: OpenFile, modified: bool, state: FileState) -> None:
    assert file.state(modified) is state


@pytest.mark.parametrize(
    ("situation", "clears"),
    [
        (Situation.CHANGED_ON_DISK, True),
        (Situation.DELETED, True),
        (Situation.CONFLICT, True),
        (Situation.NOTE, False),
        (Situation.DRAFT_REPLACED, False),
        (Situation.ERROR, False),
    ],
)
def test_taking_the_disk_version_answers_only_disk_questions(
    situation: Situation, clears: bool
) -> None:
    file = open_file()
    file.situation = situation
    assert file.bar_clears_on_adopt() is clears


def test_what_happened_moves_the_sha_the_next_save_expects() -> None:
    file = open_file()
    file.conflicted("changed")
    assert file.exists_on_disk
    file.conflicted("missing")
    assert not file.exists_on_disk and file.is_dirty(modified=False)
    theirs = disk(THEIRS)
    file.kept_mine(theirs)
    assert file.save_expectation() == theirs.sha256
    file.gone()
    assert file.save_expectation() is None and file.loaded_sha is None
    file.draft_backup = MINE
    file.saved("sha-saved", MINE)
    assert file.save_expectation() == "sha-saved" and file.clean_text == MINE
    assert file.draft_backup is None
    crlf = disk("x\r\ny\r\n")
    file.adopted(crlf, "x\ny\n")
    assert file.codec.crlf and file.clean_text == "x\ny\n"
    assert file.save_expectation() == crlf.sha256


def test_read_only_files_keep_plain_line_endings_and_show_nuls() -> None:
    binary = disk("a\r\n\x00b", binary=True)
    file = OpenFile(MemoryFileRef.of_mux(NOTES))
    file.loaded(binary, not_editable_reason(binary))
    assert not file.codec.crlf  # a read-only view is never saved
    assert display_text(binary) == "a\r\n\u2400b"
    assert "NUL" in not_editable_reason(binary)
    assert "KiB cap" in not_editable_reason(disk("x", size=MAX_FILE_BYTES + 1))


def test_what_a_save_asked_now_does() -> None:
    reading = OpenFile(MemoryFileRef.of_mux(NOTES))
    reading.reading = True
    assert reading.save_start(modified=True, saving=False) is SaveStart.AFTER_TEXT
    assert OpenFile().save_start(modified=True, saving=False) is SaveStart.REFUSE
    read_only = open_file(read_only="not a text file")
    assert read_only.save_start(modified=True, saving=False) is SaveStart.REFUSE
    assert open_file().save_start(modified=False, saving=False) is SaveStart.SAVED
    assert open_file().save_start(modified=True, saving=False) is SaveStart.SAVE
    assert open_file().save_start(modified=False, saving=True) is SaveStart.SAVE, "after it"
    gone = open_file(on_disk=False)
    assert gone.save_start(modified=False, saving=False) is SaveStart.SAVE, "recreates it"


def test_a_save_pushing_memory_md_past_claude_codes_cut_waits_for_the_users_word() -> None:
    lines = "".join(f"- line {number}\n" for number in range(199))
    index = OpenFile(MemoryFileRef("claude-code:memory-app", "MEMORY.md"))
    index.clean_text = lines
    assert index.past_cut_warning(lines + "- one more\n") is None, "still within the cut"
    warning = index.past_cut_warning(lines + "- one\n- two\n- three\n")
    assert warning is not None and warning.startswith("Not saved: Claude Code would not read")
    assert "2 more than the file on disk" in warning
    index.clean_text = lines + "- one\n- two\n"  # already past it: only what is new counts
    assert index.past_cut_warning(lines + "- one\n- two\n- three\n") is not None
    assert index.past_cut_warning(lines + "- one\n- two\n") is None
    topic = OpenFile(MemoryFileRef("claude-code:memory-app", "notes.md"))
    assert topic.past_cut_warning(lines * 2) is None, "only MEMORY.md is cut"
    mux = OpenFile(MemoryFileRef.of_mux(parse_virtual_path("/memories/global/MEMORY.md")))
    assert mux.past_cut_warning(lines * 2) is None


def test_auto_save_saves_only_what_no_question_waits_on() -> None:
    file = open_file()
    assert file.may_autosave(modified=True)
    assert not file.may_autosave(modified=False)  # nothing to save
    assert not open_file(on_disk=False).may_autosave(modified=True)  # never recreated
    assert not open_file(read_only="binary").may_autosave(modified=True)
    for waiting in (Situation.CONFLICT, Situation.CHANGED_ON_DISK, Situation.DELETED):
        file.situation = waiting
        assert not file.may_autosave(modified=True), waiting
    file.situation = Situation.NOTE  # a note asks nothing
    assert file.may_autosave(modified=True)


def test_every_conflict_choice_on_a_bar_is_one_of_the_windows_keys() -> None:
    """Alt+C, Alt+M, Alt+T, Alt+B press the bar's button of each choice: the editor's
    own ids, and a sync conflict bar's (`sync:<choice id>`); the letters are underlined."""
    file = OpenFile(MemoryFileRef.of_mux(parse_virtual_path("/memories/global/a.md")))
    offered = [*file.changed_on_disk_choices(), *file.conflict_choices("changed")]
    assert {action: bar_choice(action) for action, _label in offered} == {
        SHOW_DIFF: merge_choices.COMPARE,
        KEEP_MINE: merge_choices.KEEP_MINE,
        TAKE_THEIRS: merge_choices.KEEP_THEIRS,
        OVERWRITE: merge_choices.KEEP_MINE,
        RELOAD: merge_choices.KEEP_THEIRS,
    }
    assert all(mnemonic_letter(label) in "CMT" for _action, label in offered), (
        "each label underlines its key's letter"
    )
    assert bar_choice("sync:both") is merge_choices.KEEP_BOTH
    assert bar_choice("sync:nothing") is None and bar_choice("restore_draft") is None


def mnemonic_letter(label: str) -> str:
    """The letter after a label's `&`."""
    return label[label.index("&") + 1].upper()
