"""Writer settings from settings.json: defaults, valid values, and bad values ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.writer.config import (
    DEFAULT_MEMORY_PATH,
    MAX_TIMEOUT_S,
    OfflineNotes,
    WriterMode,
    WriterSettings,
    load_writer_settings,
    save_writer_settings,
)
from support.logfail import ExpectLog


def write_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(text)


def test_defaults_without_a_settings_file() -> None:
    settings = load_writer_settings()
    assert settings == WriterSettings()
    assert settings.mode is WriterMode.AUTO and settings.timeout_s is None
    # the dream's 5 minutes on a server on this machine, which reads a prompt in minutes
    assert (settings.limit_s(local=False), settings.limit_s(local=True)) == (60.0, 300.0)
    assert WriterSettings(timeout_s=45).limit_s(local=True) == 45  # never past the user's
    assert settings.memory_path == DEFAULT_MEMORY_PATH and settings.max_dumps == 50
    assert settings.dump_successful_runs  # every run is in Runs… with its trace


def test_the_defaults_are_valid_settings() -> None:
    """Defaults are not checked when built: they must read back as themselves."""
    assert WriterSettings.read_problems(WriterSettings().to_json()) == []
    assert WriterSettings.read(WriterSettings().to_json()) == WriterSettings()


def test_every_setting_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_settings(
        tmp_path,
        monkeypatch,
        json.dumps(
            {
                "provider": "offline",
                "writer": {
                    "mode": "Always",
                    "timeout_s": 12.5,
                    "memory_path": "/memories/workspace/agent/notes.md",
                    "dump_successful_runs": True,
                    "max_dumps": 7.9,
                    "notify": True,
                },
            }
        ),
    )
    assert load_writer_settings() == WriterSettings(
        mode=WriterMode.ALWAYS,
        timeout_s=12.5,
        memory_path="/memories/workspace/agent/notes.md",
        dump_successful_runs=True,
        max_dumps=7,
        notify=True,
    )


def test_bad_values_fall_back_one_by_one(expect_log: ExpectLog) -> None:
    for key in ("mode", "timeout_s", "memory_path.*workspace scope", "dump_", "notify"):
        expect_log(
            "memtab.fs.config.declared", "WARNING", f"^settings: writer\\.{key}.*using the default"
        )
    settings = WriterSettings.parsed(
        {
            "mode": "sometimes",
            "timeout_s": 0,
            "memory_path": "/memories/global/notes.md",
            "dump_successful_runs": "yes",
            "max_dumps": 25,
            "notify": "on",
        }
    )
    assert settings == WriterSettings(max_dumps=25)


@pytest.mark.expect_log(
    "memtab.fs.config.declared", "WARNING", r"^the settings file .*; using the default writer"
)
@pytest.mark.expect_log(
    "memtab.fs.config.declared", "WARNING", r"settings.json: 'writer' must be an object"
)
def test_a_corrupt_settings_file_gives_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_settings(tmp_path, monkeypatch, "{oops")
    assert load_writer_settings() == WriterSettings()
    write_settings(tmp_path, monkeypatch, '{"writer": [1]}')
    assert load_writer_settings() == WriterSettings()


def test_invalid_settings_cannot_be_constructed() -> None:
    with pytest.raises(ValueError, match="workspace scope"):
        WriterSettings(memory_path="/memories/project/x.md")
    with pytest.raises(ValueError, match="timeout_s"):
        WriterSettings(timeout_s=0.1)


def test_the_ranges_are_declared_once_in_the_model() -> None:
    within = {field.name: setting.within for field, setting in WriterSettings.declared()}
    assert within["timeout_s"] == (1.0, MAX_TIMEOUT_S) == (1.0, 900.0)
    assert within["max_dumps"] == (1, 10_000)
    expected = {
        "timeout_s": "a number from 1 to 900 seconds",
        "max_dumps": "a whole number from 1 to 10000",
    }
    for key, value in (("timeout_s", 900.5), ("max_dumps", 10_001), ("timeout_s", float("nan"))):
        settings, problems = WriterSettings.checked({key: value}, source="s.json")
        assert settings == WriterSettings()
        assert problems == [
            f"s.json: writer.{key} = {value!r} is invalid ({expected[key]}); using the default"
        ]
    with pytest.raises(ValueError, match="max_dumps"):
        WriterSettings(max_dumps=0)


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("mode", "sometimes", "auto, always or off"),
        ("mode", 1, "auto, always or off"),
        ("timeout_s", True, "a number from 1 to 900 seconds"),
        ("timeout_s", "60", "a number from 1 to 900 seconds"),
        ("memory_path", 5, "a string"),
        (
            "memory_path",
            "/memories/global/notes.md",
            "The writer's memory file must be in the workspace scope, "
            "not '/memories/global/notes.md'",
        ),
        ("dump_successful_runs", "yes", "true or false"),
        ("max_dumps", 0, "a whole number from 1 to 10000"),
        ("max_dumps", 2.5e4, "a whole number from 1 to 10000"),
        ("offline_notes", None, "suggest or write"),
        ("notify", 1, "true or false"),
    ],
)
def test_each_rule_says_what_the_setting_takes(key: str, value: object, expected: str) -> None:
    """The warning the window and the CLI show: the setting, its value, what it takes."""
    settings, problems = WriterSettings.checked({"max_dumps": 7.9} | {key: value})
    assert problems == [
        f"settings: writer.{key} = {value!r} is invalid ({expected}); using the default"
    ]
    assert settings.max_dumps == (50 if key == "max_dumps" else 7)  # a float count floored


def test_offline_notes_and_mode_are_read_in_any_case() -> None:
    settings, problems = WriterSettings.checked({"offline_notes": " Write ", "mode": "OFF"})
    assert (settings.offline_notes, settings.mode, problems) == (
        OfflineNotes.WRITE,
        WriterMode.OFF,
        [],
    )
    _, problems = WriterSettings.checked({"offline_notes": "later"})
    assert problems == [
        "settings: writer.offline_notes = 'later' is invalid (suggest or write); using the default"
    ]


def test_saving_keeps_keys_of_the_section_this_version_does_not_know(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_settings(tmp_path, monkeypatch, json.dumps({"writer": {"next_version_knob": True}}))
    save_writer_settings(WriterSettings(offline_notes=OfflineNotes.WRITE, max_dumps=3))
    stored = json.loads((tmp_path / "settings.json").read_text())["writer"]
    assert stored == {
        "next_version_knob": True,
        "mode": "auto",
        "timeout_s": None,  # the default: sized to the run's model (limit_s)
        "memory_path": DEFAULT_MEMORY_PATH,
        "dump_successful_runs": True,
        "max_dumps": 3,
        "offline_notes": "write",
        "notify": False,
    }
    assert load_writer_settings() == WriterSettings(offline_notes=OfflineNotes.WRITE, max_dumps=3)
