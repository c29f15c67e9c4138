"""Claude Code's settings files (docs/formats.md §17.2, §17.6) are Claude Code's: Memtab
reads the keys it needs as Claude Code does, and a value of the wrong shape never stops
it — the next settings file, or the default, is taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.sources.claude.instructions import DEFAULT_MODE, instruction_mode
from memtab.sources.claude.settings import user_auto_memory_directory


def _file(tmp_path: Path, name: str, settings: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(settings), encoding="utf-8")
    return path


TOP = {"instructionFiles": "claude-md"}


def _plugin(value: object) -> dict[str, object]:
    return {"pluginConfigs": {"agents-md@builtin": {"options": {"instructionFiles": value}}}}


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (_plugin("claude-md"), "claude-md"),
        ({**_plugin("managed-only"), "instructionFiles": "claude-md"}, "managed-only"),
        ({**_plugin(None), "instructionFiles": "claude-md"}, "claude-md"),
        ({"instructionFiles": "claude-md-and-agents-md"}, "claude-md-and-agents-md"),
        ({"pluginConfigs": [], "instructionFiles": "claude-md"}, "claude-md"),
        ({"pluginConfigs": {"agents-md@builtin": 3}, "instructionFiles": "claude-md"}, "claude-md"),
        ({"pluginConfigs": {"agents-md@builtin": {"options": "x"}}, **TOP}, "claude-md"),
        ({"pluginConfigs": {"other@x": {"options": {"instructionFiles": "managed-only"}}},
          "instructionFiles": "claude-md"}, "claude-md"),
    ],
)  # fmt: skip
def test_the_instruction_files_option_is_found(
    tmp_path: Path, settings: object, expected: str
) -> None:
    path = _file(tmp_path, "settings.json", settings)
    assert instruction_mode([path]) == (expected, path)


@pytest.mark.parametrize("bad", ["CLAUDE-MD", 3, True, ["claude-md"], {"mode": "claude-md"}])
def test_a_value_that_is_no_mode_is_the_default_and_stops_the_search(
    tmp_path: Path, bad: object
) -> None:
    first = _file(tmp_path, "managed.json", {"instructionFiles": bad})
    second = _file(tmp_path, "settings.json", {"instructionFiles": "claude-md"})
    assert instruction_mode([first, second]) == (DEFAULT_MODE, first)
    first = _file(tmp_path, "managed.json", _plugin(bad))
    assert instruction_mode([first, second]) == (DEFAULT_MODE, first)


@pytest.mark.parametrize("unset", [{}, {"instructionFiles": None}, [1], "x", _plugin(None)])
def test_an_unset_option_looks_at_the_next_file(tmp_path: Path, unset: object) -> None:
    first = _file(tmp_path, "managed.json", unset)
    second = _file(tmp_path, "settings.json", {"instructionFiles": "claude-md"})
    assert instruction_mode([first, second]) == ("claude-md", second)
    assert instruction_mode([first]) == (DEFAULT_MODE, None)


@pytest.mark.parametrize("bad", [3, None, "", "relative/dir", ["/abs"], {"p": "/abs"}, True])
def test_an_unusable_auto_memory_directory_is_passed_over(tmp_path: Path, bad: object) -> None:
    managed = _file(tmp_path, "managed.json", {"autoMemoryDirectory": bad})
    _file(tmp_path, "settings.json", {"autoMemoryDirectory": "/data/memory", "other": 1})
    found = user_auto_memory_directory(tmp_path, [managed])
    assert found is not None
    assert (found.path, found.settings_file) == (Path("/data/memory"), tmp_path / "settings.json")
