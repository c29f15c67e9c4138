"""The Inbox by keyboard on a real display (issue 74 point 5): accepting two agents'
changes said "Accepted 2 memories into the notes files" and selected the pending
deletion next, so the next Enter deleted a file; Alt+R did nothing, Ctrl+Enter in
"Edit, then accept" did nothing, Edit… was offered for a deletion, and a new file's row
showed the file, frontmatter and all, run together."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walked

pytestmark = pytest.mark.slow  # slow: a window on a fresh Xvfb, keys typed (~3 s of CPU)


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    seen = walked(["inbox_decisions"])["inbox_decisions"]
    assert "error" not in seen, seen["error"]
    return seen


def test_a_row_says_the_file_and_the_gist_never_the_raw_file(walk: dict[str, Any]) -> None:
    first = walk["rows"][0]
    assert first == "Claude Code create · global/shell.md — Which shell the scripts expect"
    assert not any("---" in row or "name:" in row for row in walk["rows"])


def test_accepting_several_says_where_each_went(walk: dict[str, Any]) -> None:
    assert walk["said"] == (
        "Accepted 2 memories: a new file /memories/global/shell.md, "
        "an edit of /memories/global/tools/git.md"
    )


def test_after_accepting_the_next_change_is_selected_never_a_deletion(
    walk: dict[str, Any],
) -> None:
    assert walk["selected_after"] == ["/memories/global/python-tips.md"]


def test_edit_is_off_for_a_deletion_and_alt_r_rejects_it(walk: dict[str, Any]) -> None:
    assert walk["deletion_edit_enabled"] is False
    assert walk["zeta_kept"] and walk["in_list_after_reject"]


def test_ctrl_enter_in_edit_then_accept_accepts_the_edited_text(walk: dict[str, Any]) -> None:
    assert walk["dialog"] == "Edit, then accept — Memtab"
    assert walk["tips"].startswith("Use uv.\nPin it.")
