"""Memtab's `settings.json`: one reader, one writer, one error (docs/formats.md §15.1). A change
rereads under the lock and rewrites atomically 0600, keeping every key it did not change; an
unreadable file is never overwritten."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from memtab.fs.atomic import atomic_write_json
from memtab.fs.config.config_dir import config_dir
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.private import PRIVATE_FILE_MODE, anothers, private_dir
from memtab.fs.user_files import read_whole_regular_file

SETTINGS_FILE_NAME = "settings.json"
_LOCK_NAME = ".settings.json.lock"


class SettingsFileError(ValueError):
    """settings.json cannot be read or holds no JSON object; says which file and what to do."""


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Where settings.json is (`$MEMTAB_CONFIG_DIR`, else the platform config dir)."""
    return config_dir(env) / SETTINGS_FILE_NAME


def load_settings_file(path: Path) -> dict[str, Any]:
    """The settings file as a dict ({} when absent or empty); SettingsFileError when unreadable, not
    an object, or another user's (it chooses where memory is sent)."""
    if (planted := anothers(path)) is not None:
        raise SettingsFileError(
            f"the settings file {path} {planted}: Memtab does not use it, as it would choose "
            "where your memory is sent; remove it if you did not put it there"
        )
    try:
        text = read_whole_regular_file(path).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsFileError(f"cannot read the settings file {path}: {exc}") from None
    if not text.strip():
        return {}
    try:
        data = parse_json(text)
    except JsonError as exc:
        raise SettingsFileError(f"the settings file {path} is {exc}; fix or delete it") from None
    if not isinstance(data, dict):
        raise SettingsFileError(
            f"the settings file {path} must hold a JSON object, not {type(data).__name__}"
        )
    return data


def settings_section(name: str, env: Mapping[str, str] | None = None) -> Any:
    """The value of section `name` (None when absent); SettingsFileError as above."""
    return load_settings_file(settings_path(env)).get(name)


def update_settings_file(
    update: Callable[[dict[str, Any]], None], env: Mapping[str, str] | None = None
) -> Path:
    """Read settings.json under its lock, let `update` change the dict, rewrite it atomically
    (0600); SettingsFileError before any write when unreadable."""
    path = settings_path(env)
    # It holds a key and memory's words: private, one made open before too.
    private_dir(path.parent)
    with interprocess_lock(path.parent / _LOCK_NAME):
        data = load_settings_file(path)
        update(data)
        atomic_write_json(path, data, mode=PRIVATE_FILE_MODE)
    return path


def save_settings_section(
    name: str, value: Mapping[str, Any], *, env: Mapping[str, str] | None = None
) -> Path:
    """Store section `name`, keeping the other sections and this one's keys `value` lacks."""

    def set_section_values(data: dict[str, Any]) -> None:
        section = data.get(name)
        data[name] = {**(section if isinstance(section, dict) else {}), **value}

    return update_settings_file(set_section_values, env)
