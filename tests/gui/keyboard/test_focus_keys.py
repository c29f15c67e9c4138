"""The keyboard is never lost (issue 96 points 4 and 5), on a real display at 1366×768 and
at 683 px: after Discard in "Unsaved changes" — a typed character or the file deleted from a
shell, Alt+D or a click — every shortcut was dead until Tab or a click (the keyboard in the
window's tab bar); after Runs… opened a file beside a terminal and closed, the same; at
683 px Ctrl+Shift+F typed into a search field the editor hid. Runs… opens a run's trace."""

from __future__ import annotations

from typing import Any

import pytest

from gui.keyboard.walked import walk_of, walked

pytestmark = pytest.mark.slow  # slow: seven windows on a fresh Xvfb, keys typed (~15 s of CPU)

Seen = dict[str, dict[str, Any]]
TEXT = "belowEditorSplitter > Memory file content"
TREE = "memoryTreePane > Memory files"


@pytest.fixture(scope="module")
def seen() -> Seen:
    return walked(
        [
            "discards",
            "discards_narrow",
            "runs_closed",
            "runs_closed_narrow",
            "search_narrow",
            "runs_trace",
            "runs_trace_narrow",
        ]
    )


@pytest.mark.parametrize("name", ["discards", "discards_narrow"])
@pytest.mark.parametrize("case", ["typed_keys", "typed_mouse", "deleted_keys", "deleted_mouse"])
def test_after_discard_the_keyboard_is_in_the_file_behind_and_keys_work(
    seen: Seen, name: str, case: str
) -> None:
    walk = walk_of(seen, name)
    assert walk[f"{case}:asked"] == "Unsaved changes"
    assert walk[f"{case}:focus"] == TEXT  # the text of the file open behind
    assert walk[f"{case}:search_key"]  # a shortcut works at once, no Tab or click first


@pytest.mark.parametrize("name", ["discards", "discards_narrow"])
def test_after_discarding_the_last_tab_the_keyboard_is_in_the_tree(seen: Seen, name: str) -> None:
    walk = walk_of(seen, name)
    assert walk["behind"] == "/memories/global/preferences.md"
    assert walk["last_tab:focus"] == TREE
    assert walk["last_tab:search_key"]


@pytest.mark.parametrize("name", ["runs_closed", "runs_closed_narrow"])
def test_closing_runs_gives_the_keyboard_back(seen: Seen, name: str) -> None:
    walk = walk_of(seen, name)
    assert walk["in_runs"] and walk["back_in_text"]
    assert walk["after_open"] in (TEXT, TREE)


def test_beside_a_terminal_the_search_key_shows_the_field_it_types_into(seen: Seen) -> None:
    walk = walk_of(seen, "search_narrow")
    assert walk["narrow"]
    assert walk["field_shows"] and walk["in_field"] and walk["tree_shows"]
    assert walk["typed"] == "ruff"


@pytest.mark.parametrize("name", ["runs_trace", "runs_trace_narrow"])
def test_runs_open_trace_shows_the_dump_with_the_keyboard_in_the_list(
    seen: Seen, name: str
) -> None:
    walk = walk_of(seen, name)
    assert walk["run"] == "writer failed" and walk["trace_on"]  # the demo's, beside its trace
    assert walk["focus"] == "qt_tabwidget_stackedwidget > Trace dumps"
    assert walk["selected"] == walk["trace"] is not None
    assert walk["search_shows"]  # the search's key brings the Memory tab forward
