"""ui-state.json (docs/formats.md §15.2) is read leniently — a value of the wrong shape
reads as never saved, the others kept — and changed without losing what this Memtab does
not know (another Memtab, older or newer, writes it too)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from memtab.components.window.ui_state import UiState

HOME = Path("/home/alice")


def _state(tmp_path: Path, document: object) -> UiState:
    path = tmp_path / "ui-state.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return UiState.load(path)


def test_a_good_file_reads_whole(tmp_path: Path) -> None:
    geometry = base64.b64encode(b"\x01\x02qt").decode("ascii")
    state = _state(tmp_path, {
        "version": 1,
        "homes": {str(HOME): {
            "workspace": "ws1",
            "open_files": {"ws1": "/memories/global/a.md", "": "/memories/global/b.md"},
            "open_tabs": {"ws1": ["/memories/global/a.md", "claude-code:x"]},
            "badges": {"/p/a.md": {"actor": "mux", "at": 5}},
        }},
        "flags": {"askBeforeRevert": False},
        "windows": {"main": geometry},
        "dialogs": {"review": [800, 600]},
        "splitters": {"memory": [200, 0, 600]},
    })  # fmt: skip
    assert state.workspace_for(HOME) == "ws1"
    assert state.open_file_for(HOME, "ws1") == "/memories/global/a.md"
    assert state.open_file_for(HOME, None) == "/memories/global/b.md"
    assert state.open_tabs_for(HOME, "ws1") == ["/memories/global/a.md", "claude-code:x"]
    assert state.badges_for(HOME) == {"/p/a.md": {"actor": "mux", "at": 5}}
    assert state.flag("askBeforeRevert", True) is False
    assert state.geometry() == b"\x01\x02qt"
    assert state.dialog_size("review") == (800, 600)
    assert state.splitter_sizes("memory") == [200, 0, 600]


@pytest.mark.parametrize(
    "document",
    [
        {"homes": [], "flags": [], "windows": 3, "dialogs": "x", "splitters": None},
        {"homes": {str(HOME): "ws1"}},
        {"homes": {str(HOME): {"workspace": 3, "open_files": [], "open_tabs": "a", "badges": 1}}},
        {"homes": {str(HOME): {"workspace": "", "open_files": {"ws1": 3, "": ""}}}},
        {"homes": {str(HOME): {"open_tabs": {"ws1": "a.md", "": {"a": 1}}}}},
        {"flags": {"f": "yes"}, "windows": {"main": 3}},
        {"windows": {"main": "not base64 !"}},
        {"dialogs": {"review": [800]}, "splitters": {"memory": []}},
        {"dialogs": {"review": [800, 0]}, "splitters": {"memory": [1, -1]}},
        {"dialogs": {"review": [800, True]}, "splitters": {"memory": [1, False]}},
        {"dialogs": {"review": [800, 600.5]}, "splitters": {"memory": [1, 2.5]}},
        {"dialogs": {"review": [800, 600, 1]}, "splitters": {"memory": "1,2"}},
    ],
)
def test_a_value_of_the_wrong_shape_reads_as_never_saved(tmp_path: Path, document: object) -> None:
    state = _state(tmp_path, document)
    assert state.workspace_for(HOME) is None
    assert state.open_file_for(HOME, "ws1") is None and state.open_file_for(HOME, None) is None
    assert state.open_tabs_for(HOME, "ws1") == [] and state.open_tabs_for(HOME, None) == []
    assert state.badges_for(HOME) == {}
    assert state.flag("f", True) is True and state.flag("f") is False
    assert state.geometry() is None
    assert state.dialog_size("review") is None
    assert state.splitter_sizes("memory") is None


def test_bad_items_are_dropped_the_others_kept(tmp_path: Path) -> None:
    state = _state(tmp_path, {
        "homes": {"/x": 3, str(HOME): {"open_tabs": {"ws1": ["a.md", 3, "", None, "b.md"]}}},
        "flags": {"bad": 1, "good": True},
        "dialogs": {"bad": "x", "good": [3, 4]},
        "splitters": {"bad": [1, "2"], "good": [0, 5]},
    })  # fmt: skip
    assert state.open_tabs_for(HOME, "ws1") == ["a.md", "b.md"]
    assert state.flag("bad", True) is True and state.flag("good") is True
    assert state.dialog_size("bad") is None and state.dialog_size("good") == (3, 4)
    assert state.splitter_sizes("bad") is None and state.splitter_sizes("good") == [0, 5]


def test_a_change_keeps_what_this_memtab_does_not_know(tmp_path: Path) -> None:
    document = {
        "version": 1,
        "newer": {"a": [1, 2]},
        "homes": {
            str(HOME): {"workspace": "ws1", "pinnedTabs": ["x"], "open_files": {"ws2": "/m/c.md"}},
            "/elsewhere": "not an entry",
        },
        "flags": {"kept": True},
        "splitters": {"other": "odd"},
    }
    state = _state(tmp_path, document)
    state.set_workspace(HOME, "ws2")
    state.set_open_file(HOME, "ws1", "/memories/global/a.md")
    state.set_open_tabs(HOME, "ws1", ["/memories/global/a.md"])
    state.set_badges(HOME, {"/p/a.md": {"actor": "mux", "at": 5}})
    state.set_flag("new", False)
    state.set_geometry(b"geo")
    state.set_dialog_size("review", 640, 480)
    state.set_splitter_sizes("memory", [1, 2])
    assert state.save()
    written = json.loads(state.path.read_text(encoding="utf-8"))
    assert written == {
        "version": 1,
        "newer": {"a": [1, 2]},
        "homes": {
            str(HOME): {
                "workspace": "ws2",
                "pinnedTabs": ["x"],
                "open_files": {"ws2": "/m/c.md", "ws1": "/memories/global/a.md"},
                "open_tabs": {"ws1": ["/memories/global/a.md"]},
                "badges": {"/p/a.md": {"actor": "mux", "at": 5}},
            },
            "/elsewhere": "not an entry",
        },
        "flags": {"kept": True, "new": False},
        "splitters": {"other": "odd", "memory": [1, 2]},
        "windows": {"main": base64.b64encode(b"geo").decode("ascii")},
        "dialogs": {"review": [640, 480]},
    }
    reread = UiState.load(state.path)
    assert reread.workspace_for(HOME) == "ws2" and reread.dialog_size("review") == (640, 480)


def test_forgetting_removes_only_what_it_forgets(tmp_path: Path) -> None:
    state = _state(tmp_path, {"homes": {str(HOME): {
        "workspace": "ws1", "open_files": {"ws1": "a.md"}, "open_tabs": {"ws1": ["a.md"]},
        "badges": {"/p": {}}, "other": 1,
    }}})  # fmt: skip
    state.set_workspace(HOME, None)
    state.set_open_file(HOME, "ws1", None)
    state.set_open_tabs(HOME, "ws1", [])
    state.set_badges(HOME, {})
    assert state.save()
    written = json.loads(state.path.read_text(encoding="utf-8"))
    assert written["homes"] == {str(HOME): {"open_files": {}, "open_tabs": {}, "other": 1}}


def test_the_bursts_seen_are_remembered_per_home_and_a_bad_one_dropped(tmp_path: Path) -> None:
    state = _state(tmp_path, {
        "homes": {str(HOME): {"seen_bursts": ["1a2b", 3, "", "1a2c"]}, "/x": {"seen_bursts": 1}},
    })  # fmt: skip
    assert state.bursts_seen_for(HOME) == ["1a2b", "1a2c"]
    assert state.bursts_seen_for(Path("/x")) == []
    state.set_bursts_seen(HOME, ["1a2c", "1a2d"])
    assert state.save()
    assert UiState.load(state.path).bursts_seen_for(HOME) == ["1a2c", "1a2d"]
    state.set_bursts_seen(HOME, [])  # forgotten: the key goes
    assert state.save()
    assert "seen_bursts" not in json.loads(state.path.read_text("utf-8"))["homes"][str(HOME)]
