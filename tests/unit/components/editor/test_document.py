"""components.editor.document: the editor's open document without Qt — open, edit, save,
the disk changing under it, Keep mine / Keep theirs / Keep both, a deleted or renamed file
— over fakes of the tab, the view, the bar and the file channel, on a real store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.components.editor.merge import MergeOutcome, merge_three_way
from memtab.components.editor.session import (
    CLOSE_FILE,
    KEEP_MINE,
    MERGE,
    OVERWRITE,
    RELOAD,
    RESTORE_DRAFT,
    SHOW_DIFF,
    TAKE_THEIRS,
    BarKind,
    Situation,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.store.files import FileContent, content_sha256
from unit.components.editor.document_fakes import Editor, editor_on
from unit.history.helpers import new_home, store_for

BASE = "# Notes\n\n- one\n- two\n- three\n"


@pytest.fixture
def editor(tmp_path: Path) -> Editor:
    return editor_on(store_for(new_home(tmp_path / "home")))


def opened(editor: Editor, text: str = BASE) -> Editor:
    editor.write_outside(text)
    editor.doc.open(editor.memory_file())
    editor.files.run()
    return editor


def test_opening_shows_the_text_once_read_and_tells_the_tab(editor: Editor) -> None:
    editor.write_outside(BASE)
    editor.doc.open(editor.memory_file())
    assert editor.view.text == BASE and not editor.view.modified
    assert editor.host.opened == [editor.memory_file().ref]
    assert editor.reading.calls == ["drop", "hold", "release"], "read within the wait"
    assert not editor.doc.reading and editor.prompts.bar is None
    assert editor.doc.file.loaded_sha == content_sha256(BASE)


def test_a_slow_read_says_reading_and_holds_the_keys_until_the_text_is_in(
    editor: Editor,
) -> None:
    editor.write_outside(BASE)
    editor.files.write(lambda _ctx: None)  # something ahead of the read on the lane
    editor.doc.open(editor.memory_file())
    assert editor.doc.reading and editor.reading.calls[-1] == "say /memories/global/notes.md"
    assert editor.host.opened == []
    editor.view.focused = True  # the focus was given while it was read
    editor.files.run()
    assert editor.view.text == BASE and not editor.doc.reading
    assert editor.reading.calls[-1] == "release"
    assert editor.view.past_frontmatter == 1, "typing starts past the frontmatter"


def test_a_file_opened_without_the_keyboard_starts_past_its_frontmatter_too(
    editor: Editor,
) -> None:
    editor.write_outside(BASE)
    editor.doc.open(editor.memory_file())
    editor.files.run()
    assert not editor.view.focused and editor.view.text == BASE
    assert editor.view.past_frontmatter == 1, "the text takes the keyboard in its body"


def test_a_newer_open_drops_what_the_older_one_read(editor: Editor) -> None:
    editor.write_outside("first\n")
    editor.write_outside("second\n", "/memories/global/other.md")
    editor.files.write(lambda _ctx: None)
    editor.doc.open(editor.memory_file())
    editor.doc.open(editor.memory_file("/memories/global/other.md"))
    editor.files.run()
    assert editor.view.text == "second\n"
    assert [ref.name for ref in editor.host.opened] == ["other.md"]


def test_save_writes_the_draft_with_a_final_line_break_and_marks_it_clean(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- four")
    told: list[bool] = []
    editor.doc.save_against(editor.doc.file.save_expectation(), then=told.append)
    assert editor.doc.saving and editor.on_disk() == BASE, "written on the channel"
    editor.files.run()
    assert editor.on_disk() == BASE + "- four\n" == editor.view.text
    assert told == [True] and not editor.view.modified and not editor.doc.saving
    assert editor.host.saved == [editor.memory_file().ref]
    assert editor.own_writes.is_own(editor.memory_file().ref.key, content_sha256(BASE + "- four\n"))


def test_a_clean_buffer_follows_the_disk_silently(editor: Editor) -> None:
    opened(editor)
    editor.write_outside(BASE + "- from an agent\n")
    editor.doc.follow_disk()
    editor.files.run()
    assert editor.view.text == BASE + "- from an agent\n" and not editor.view.modified
    assert editor.prompts.bar is None
    assert editor.doc.file.loaded_sha == content_sha256(BASE + "- from an agent\n")


def test_a_dirty_buffer_asks_when_the_disk_changed_and_keeps_the_draft(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside(BASE + "- theirs\n")
    editor.doc.follow_disk()
    editor.files.run()
    assert editor.view.text == BASE + "- mine\n", "the draft is kept"
    assert editor.doc.file.situation is Situation.CHANGED_ON_DISK
    assert editor.bar.kind is BarKind.WARNING and "changed on disk" in editor.bar.text
    assert editor.bar.actions == [SHOW_DIFF, KEEP_MINE, TAKE_THEIRS]


def test_the_disk_catching_up_with_the_draft_marks_it_clean(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- same\n")
    editor.write_outside(BASE + "- same\n")
    editor.doc.follow_disk()
    editor.files.run()
    assert not editor.view.modified and editor.prompts.bar is None


def test_keep_mine_saves_the_draft_over_the_newer_disk_version(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside(BASE + "- theirs\n")
    editor.doc.follow_disk()
    editor.files.run()
    editor.doc.perform(KEEP_MINE)
    editor.files.run()
    assert editor.prompts.bar is None and editor.view.modified
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.on_disk() == BASE + "- mine\n" and not editor.view.modified


def test_keep_theirs_loads_the_disk_version_and_the_draft_can_be_restored(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside(BASE + "- theirs\n")
    editor.doc.follow_disk()
    editor.files.run()
    editor.doc.perform(TAKE_THEIRS)
    editor.files.run()
    assert editor.view.text == BASE + "- theirs\n" and not editor.view.modified
    assert editor.doc.file.situation is Situation.DRAFT_REPLACED
    assert editor.bar.actions == [RESTORE_DRAFT]
    editor.doc.perform(RESTORE_DRAFT)
    assert editor.view.text == BASE + "- mine\n" and editor.prompts.bar is None


def test_a_save_refused_by_a_newer_disk_version_offers_compare_keep_mine_keep_theirs(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside(BASE + "- theirs\n")  # the watcher has not told the tab yet
    told: list[bool] = []
    editor.doc.save_against(editor.doc.file.save_expectation(), then=told.append)
    editor.files.run()
    assert told == [False] and editor.on_disk() == BASE + "- theirs\n"
    assert editor.doc.file.situation is Situation.CONFLICT
    assert editor.bar.text.startswith("Not saved:") and "Your draft is kept" in editor.bar.text
    assert editor.bar.actions == [SHOW_DIFF, OVERWRITE, RELOAD]
    editor.doc.perform(OVERWRITE)  # Keep mine: the draft over what is there now
    editor.files.run()
    assert editor.on_disk() == BASE + "- mine\n" and editor.prompts.bar is None


def test_compare_opens_the_diff_with_what_a_merge_starts_from(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside("- first\n" + BASE)
    editor.doc.follow_disk()
    editor.files.run()
    editor.doc.perform(SHOW_DIFF)
    editor.files.run()
    (diff,) = editor.prompts.diffs
    assert diff.title == "Differences — notes.md" and diff.old_label == "On disk"
    assert (diff.old, diff.new) == ("- first\n" + BASE, BASE + "- mine\n")
    assert diff.merge_basis is not None and diff.merge_basis.base == BASE
    assert diff.merge_basis.disk_sha == content_sha256("- first\n" + BASE)
    assert [action for action, _label in diff.choices] == [MERGE, KEEP_MINE, TAKE_THEIRS]


def keep_both_offered(editor: Editor) -> MergeOutcome:
    """The draft and the disk changed different lines; the diff window merged them."""
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    theirs = "- first\n" + BASE
    editor.write_outside(theirs)
    editor.doc.follow_disk()
    editor.files.run()
    result = merge_three_way(BASE, editor.view.text, theirs)
    assert result.text is not None
    outcome = MergeOutcome(result.text, result, content_sha256(theirs))
    editor.prompts.merge = outcome
    return outcome


def test_keep_both_puts_the_merge_in_place_of_the_draft_based_on_the_disk(
    editor: Editor,
) -> None:
    outcome = keep_both_offered(editor)
    editor.doc.perform(MERGE)
    editor.files.run()
    assert editor.view.text == "- first\n" + BASE + "- mine\n" == outcome.text
    assert editor.view.modified, "to review, then save"
    assert editor.view.focus_given == 1
    assert editor.doc.file.situation is Situation.DRAFT_REPLACED
    assert editor.bar.text.startswith("Merged: your 1 change and 1 change on disk")
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.on_disk() == outcome.text, "based on the disk version it merged"
    editor.doc.perform(RESTORE_DRAFT)  # offered no more: the save answered it
    assert editor.view.text == outcome.text


def test_keep_both_looks_again_when_the_disk_changed_since_the_merge(editor: Editor) -> None:
    keep_both_offered(editor)
    editor.write_outside("- newer\n" + BASE)
    editor.doc.perform(MERGE)
    editor.files.run()
    assert editor.view.text == BASE + "- mine\n", "the draft stays"
    assert len(editor.prompts.diffs) == 1 and editor.prompts.diffs[0].old == "- newer\n" + BASE


def test_a_file_deleted_under_a_draft_keeps_it_and_save_recreates_the_file(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.physical().unlink()
    editor.doc.follow_disk()
    editor.files.run()
    assert editor.doc.file.situation is Situation.DELETED and "deleted on disk" in editor.bar.text
    assert editor.doc.file.is_dirty(editor.view.modified)
    assert editor.doc.file.save_expectation() is None
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.on_disk() == BASE + "- mine\n"


def test_a_save_asked_while_one_is_on_its_way_runs_after_it_from_what_it_wrote(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- one more\n")
    told: list[str] = []
    editor.doc.save_against(
        editor.doc.file.save_expectation(), then=lambda ok: told.append(f"1 {ok}")
    )
    editor.view.type(BASE + "- one more\n- and another\n")
    editor.doc.save_against(
        editor.doc.file.save_expectation(), then=lambda ok: told.append(f"2 {ok}")
    )
    editor.files.run()
    assert told == ["1 True", "2 True"]
    assert editor.on_disk() == BASE + "- one more\n- and another\n"
    assert editor.prompts.bar is None


def test_the_disk_followed_during_a_save_is_followed_once_it_landed(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.doc.follow_disk()  # the watcher saw the save's own write
    assert len(editor.files.queue) == 1, "no read while the save is on its way"
    editor.files.run()
    assert editor.prompts.bar is None and not editor.view.modified


def test_a_moved_file_is_followed_with_its_buffer(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    moved = editor.memory_file("/memories/global/moved.md")
    editor.physical().rename(editor.physical("/memories/global/moved.md"))
    editor.doc.retarget(moved)
    assert editor.doc.file.ref == moved.ref and editor.view.text == BASE + "- mine\n"
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.on_disk("/memories/global/moved.md") == BASE + "- mine\n"


def test_a_binary_file_opens_read_only_with_a_note(editor: Editor) -> None:
    opened(editor, "a\x00b\n")
    assert editor.doc.file.is_read_only and editor.view.read_only
    assert editor.view.text == "a\u2400b\n"
    assert editor.bar.kind is BarKind.INFO and "not a text file" in editor.bar.text


def test_close_drops_the_reads_on_their_way(editor: Editor) -> None:
    opened(editor)
    editor.write_outside(BASE + "- theirs\n")
    editor.doc.follow_disk()
    editor.doc.close()
    editor.files.run()
    assert editor.view.text == BASE and editor.doc.document is None


def listed_in(editor: Editor) -> Callable[[MemoryFileRef], MemoryFile | None]:
    """What a rescan lists: the files of the store that are on disk."""

    def listed(ref: MemoryFileRef) -> MemoryFile | None:
        file = editor.memory_file(str(ref.virtual_path))
        physical = file.physical()
        return file if physical is not None and physical.exists() else None

    return listed


def test_a_file_renamed_outside_is_followed_where_it_went_with_the_draft(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    old, new = editor.memory_file(), editor.memory_file("/memories/global/renamed.md")
    editor.physical().rename(editor.physical("/memories/global/renamed.md"))
    editor.doc.follow_changes({old.ref, new.ref}, listed_in(editor))
    editor.files.run()
    assert editor.doc.file.ref == new.ref and editor.host.moved == [new]
    assert editor.bar.text == "notes.md was renamed on disk: this is it now."
    assert editor.view.text == BASE + "- mine\n" and editor.view.modified
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.on_disk("/memories/global/renamed.md") == BASE + "- mine\n"
    assert editor.on_disk() is None


def test_a_file_gone_with_no_file_holding_its_text_was_deleted(editor: Editor) -> None:
    opened(editor)
    editor.write_outside("something else\n", "/memories/global/new.md")
    editor.physical().unlink()
    old, new = editor.memory_file(), editor.memory_file("/memories/global/new.md")
    editor.doc.follow_changes({old.ref, new.ref}, listed_in(editor))
    editor.files.run()
    assert editor.doc.file.ref == old.ref and editor.host.moved == []
    assert editor.doc.file.situation is Situation.DELETED


def test_changes_to_other_files_leave_the_open_one_alone(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside("other\n", "/memories/global/other.md")
    other = editor.memory_file("/memories/global/other.md")
    editor.doc.follow_changes({other.ref}, listed_in(editor))
    assert editor.files.queue == [] and editor.prompts.bar is None


def test_keep_theirs_refuses_a_file_that_is_no_longer_text_and_keeps_the_draft(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside("binary\x00now\n")
    editor.doc.follow_disk()
    editor.files.run()
    editor.doc.perform(TAKE_THEIRS)
    editor.files.run()
    assert editor.view.text == BASE + "- mine\n" and not editor.doc.file.is_read_only
    assert editor.bar.kind is BarKind.ERROR and "cannot be loaded for editing" in editor.bar.text
    assert editor.bar.actions == [CLOSE_FILE]
    editor.doc.perform(CLOSE_FILE)
    assert editor.host.close_asked == 1, "the tab asks about the draft, then closes"


def test_keep_mine_over_a_file_deleted_meanwhile_says_it_is_gone(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.write_outside(BASE + "- theirs\n")
    editor.doc.follow_disk()
    editor.files.run()
    editor.physical().unlink()
    editor.doc.perform(KEEP_MINE)
    editor.files.run()
    assert editor.doc.file.situation is Situation.DELETED
    assert editor.doc.file.save_expectation() is None, "Save recreates it"


def test_a_save_refused_because_the_file_was_deleted_offers_to_recreate_it(
    editor: Editor,
) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    editor.physical().unlink()  # the watcher has not told the tab yet
    editor.doc.save_against(editor.doc.file.save_expectation())
    editor.files.run()
    assert editor.doc.file.situation is Situation.CONFLICT
    assert editor.bar.actions == [SHOW_DIFF, OVERWRITE] and editor.bar.choices[1][1] == "Recreate"
    editor.doc.perform(SHOW_DIFF)
    editor.files.run()
    assert editor.prompts.diffs[-1].old_label == "On disk (deleted)"
    assert editor.prompts.diffs[-1].merge_basis is None, "nothing to merge with"
    editor.doc.perform(OVERWRITE)
    editor.files.run()
    assert editor.on_disk() == BASE + "- mine\n" and editor.prompts.bar is None


class Unreadable:
    """The open file as a rescan may hand it over, whose reads now fail (a permission, a
    disk error)."""

    def __init__(self, file: MemoryFile) -> None:
        self._file = file

    def __getattr__(self, name: str) -> object:
        return getattr(self._file, name)

    def read(self) -> FileContent:
        raise MemoryFileError("permission denied")


def test_a_file_that_cannot_be_read_says_why_and_keeps_the_draft(editor: Editor) -> None:
    opened(editor)
    editor.view.type(BASE + "- mine\n")
    file = editor.memory_file()
    editor.doc.follow_changes({file.ref}, lambda _ref: Unreadable(file))
    editor.files.run()
    assert editor.bar.kind is BarKind.ERROR
    assert editor.bar.text == "Cannot read /memories/global/notes.md: permission denied"
    assert editor.view.text == BASE + "- mine\n" and editor.view.modified
    assert editor.doc.file.loaded_sha == content_sha256(BASE), "a save still expects it"
