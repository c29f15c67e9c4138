"""A new file's text: its description written as every other file writes it."""

from __future__ import annotations

from memtab.components.files.ops import initial_content


def test_a_new_files_description_is_written_plain() -> None:
    assert initial_content("Build  notes\n of this branch") == (
        "---\ndescription: Build notes of this branch\n---\n\n"
    )
    assert initial_content("Ideas: more") == "---\ndescription: 'Ideas: more'\n---\n\n"
    assert initial_content("   ") == ""
