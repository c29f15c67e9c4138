"""settings.json has one home (`fs/config/settings_file.py`): every package's section is read and
changed through it, and a file it cannot read is one error type, never overwritten."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.check.settings import DEFAULT_STALE_DAYS, load_stale_days
from memtab.components.window.ui_state import UiState
from memtab.consolidation.review.review_setting import (
    DEFAULT_REVIEW_MODE,
    load_review_mode,
    save_review_mode,
)
from memtab.fs.config.settings_file import (
    SettingsFileError,
    save_settings_section,
    settings_section,
)
from memtab.sources.config import AgentSettings, load_sources_settings, save_agent_settings
from memtab.writer.config import WriterSettings, load_writer_settings, save_writer_settings
from support.private_modes import mode_of

CORRUPT = "{ half written"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(CORRUPT, encoding="utf-8")
    return {"MEMTAB_CONFIG_DIR": str(config)}


SAVERS: dict[str, Callable[[dict[str, str]], object]] = {
    "section": lambda env: save_settings_section("theme", {"dark": True}, env=env),
    "writer": lambda env: save_writer_settings(WriterSettings(), env=env),
    "review": lambda env: save_review_mode("apply-directly", env=env),
    "sources": lambda env: save_agent_settings("codex", AgentSettings(enabled=False), env=env),
}


@pytest.mark.parametrize("save", SAVERS.values(), ids=SAVERS.keys())
def test_no_section_is_saved_over_a_file_that_cannot_be_read(
    env: dict[str, str], save: Callable[[dict[str, str]], object]
) -> None:
    # A ValueError, which the window's "Always apply directly" already handles: it was a
    # ProviderError there, uncaught.
    with pytest.raises(SettingsFileError, match="fix or delete it") as caught:
        save(env)
    assert isinstance(caught.value, ValueError)
    path = Path(env["MEMTAB_CONFIG_DIR"]) / "settings.json"
    assert path.read_text(encoding="utf-8") == CORRUPT


def test_each_section_reads_its_defaults_from_a_file_that_cannot_be_read(
    env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("CRITICAL")  # each reader warns; the warnings are not the point here
    assert load_writer_settings(env) == WriterSettings()
    assert load_stale_days(env) == DEFAULT_STALE_DAYS
    assert load_review_mode(env) == DEFAULT_REVIEW_MODE
    assert "using the defaults" in load_sources_settings(env).problems[0]
    with pytest.raises(SettingsFileError):
        settings_section("writer", env)


def test_a_section_save_keeps_the_rest(tmp_path: Path) -> None:
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path)}
    save_settings_section("writer", {"max_dumps": 3}, env=env)
    save_settings_section("check", {"stale_days": 5}, env=env)
    save_settings_section("writer", {"notify": True}, env=env)
    assert settings_section("writer", env) == {"max_dumps": 3, "notify": True}
    assert settings_section("check", env) == {"stale_days": 5}


def test_the_config_dir_is_private_whatever_the_umask_and_an_open_one_closed(
    tmp_path: Path, umask: int
) -> None:
    config = tmp_path / "config"
    config.mkdir(mode=0o755)
    os.chmod(config, 0o755)  # made by an older Memtab, or by hand
    env = {"MEMTAB_CONFIG_DIR": str(config)}
    save_settings_section("writer", {"max_dumps": 3}, env=env)
    assert mode_of(config) == 0o700 and mode_of(config / "settings.json") == 0o600
    state = UiState(config / "ui-state.json")
    assert state.save_job()()
    assert mode_of(config / "ui-state.json") == 0o600


PLANTED = json.dumps({"provider": "openai", "base_url": "http://203.0.113.7:8000/v1"})


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's file needs root")
@pytest.mark.parametrize("how", ["file", "link", "link to another's file"])
def test_a_settings_file_another_user_planted_is_never_used(tmp_path: Path, how: str) -> None:
    """Another user's settings.json in the config dir (planted while it was open to others)
    would choose the model every memory is sent to: it is an error naming it, never read,
    never saved over (issue 70 point 2)."""
    config, theirs = tmp_path / "config", tmp_path / "theirs.json"
    config.mkdir()
    theirs.write_text(PLANTED, encoding="utf-8")
    path = config / "settings.json"
    if how == "file":
        path.write_text(PLANTED, encoding="utf-8")
        os.chown(path, 65534, 65534)
    else:
        path.symlink_to(theirs)
        owner = path if how == "link" else theirs
        os.chown(owner, 65534, 65534, follow_symlinks=False)
    env = {"MEMTAB_CONFIG_DIR": str(config)}
    with pytest.raises(SettingsFileError, match=r"of another user \(uid 65534\)") as refused:
        settings_section("provider", env)
    assert "Memtab does not use it" in str(refused.value)
    with pytest.raises(SettingsFileError):
        save_settings_section("check", {"stale_days": 30}, env=env)
    assert theirs.read_text(encoding="utf-8") == PLANTED
    # The user's own link to the user's own file (a dotfiles checkout) is read as ever.
    path.unlink()
    os.chown(theirs, os.getuid(), os.getgid())
    path.symlink_to(theirs)
    assert settings_section("provider", env) == "openai"
