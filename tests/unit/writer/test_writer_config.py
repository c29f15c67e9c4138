"""Writer settings from settings.json: defaults, valid values, and bad values ignored."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from memtab.writer.config import (
    DEFAULT_MEMORY_PATH,
    WriterMode,
    WriterSettings,
    load_writer_settings,
    parse_writer_settings,
)


def write_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(text)


def test_defaults_without_a_settings_file() -> None:
    settings = load_writer_settings()
    assert settings == WriterSettings()
    assert settings.mode is WriterMode.AUTO and settings.timeout_s == 60.0
    assert settings.memory_path == DEFAULT_MEMORY_PATH and settings.max_dumps == 50
    assert not settings.dump_successful_runs


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
    )


def test_bad_values_fall_back_one_by_one(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        settings = parse_writer_settings(
            {
                "mode": "sometimes",
                "timeout_s": 0,
                "memory_path": "/memories/global/notes.md",
                "dump_successful_runs": "yes",
                "max_dumps": 25,
            }
        )
    assert settings == WriterSettings(max_dumps=25)
    messages = caplog.text
    for key in ("writer.mode", "writer.timeout_s", "writer.memory_path", "writer.dump_"):
        assert key in messages
    assert "workspace scope" in messages


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
