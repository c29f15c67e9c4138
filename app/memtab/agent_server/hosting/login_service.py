"""Whether the warm Memtab is kept from login (docs/formats.md §22.8): the user's answer to
install's offer of `memtab watch --install`, remembered per home in settings.json (`loginService`,
§15.1)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from memtab.fs.clock import now_ms
from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    settings_path,
    update_settings_file,
)
from memtab.fs.records import Record, ValidEntries
from memtab.store.home import Home
from memtab.watch.service import service_path

logger = logging.getLogger(__name__)

SETTINGS_SECTION = "loginService"
Answer = Literal["installed", "declined"]


class LoginServiceAnswer(Record):
    """What the user answered for one home (§15.1): `installed` or `declined`, and when."""

    answer: Answer
    at: int


class LoginServiceSettings(Record, keep_unknown=True):
    """settings.json's `loginService`: each home's answer by path."""

    homes: ValidEntries[dict[str, LoginServiceAnswer]] = field(default_factory=dict)


class LoginServiceFacts(Record, write_only=True):
    """`memtab doctor --json`'s `loginService`: installed, the answer, the entry, `note`."""

    installed: bool
    answer: Answer | None
    entry: Path
    note: str


def remembered_answer(home: Home, env: Mapping[str, str] | None = None) -> Answer | None:
    """What the user answered for `home` (None: never asked, or settings.json unreadable)."""
    try:
        data = load_settings_file(settings_path(env))
    except SettingsFileError as error:
        logger.info("%s; the login service's answer is not known", error)
        return None
    read = LoginServiceSettings.read(data.get(SETTINGS_SECTION))
    found = read.homes.get(str(home.root)) if read is not None else None
    return found.answer if found is not None else None


def remember_answer(home: Home, answer: Answer, env: Mapping[str, str] | None = None) -> Path:
    """Keep `answer` for `home`; SettingsFileError when settings.json is unreadable."""

    def update(data: dict[str, Any]) -> None:
        section = data.get(SETTINGS_SECTION)
        values = dict(section) if isinstance(section, dict) else {}
        homes = values.get("homes")
        homes = dict(homes) if isinstance(homes, dict) else {}
        homes[str(home.root)] = LoginServiceAnswer(answer=answer, at=now_ms()).to_json()
        values["homes"] = homes
        data[SETTINGS_SECTION] = values

    return update_settings_file(update, env)


def login_service_facts(home: Home, env: Mapping[str, str] | None = None) -> LoginServiceFacts:
    """Whether `home`'s agents find a warm host from login, and what was answered."""
    entry = service_path(home, env=env)
    installed = entry.exists()
    answer = remembered_answer(home, env)
    if installed:
        note = f"kept warm from login by `memtab watch` ({entry})"
    elif answer == "installed":
        note = (
            f"the login service was installed, but {entry} is gone: "
            "`memtab watch --install` sets it up again"
        )
    elif answer == "declined":
        note = (
            "not kept warm from login (declined when `memtab mcp install` offered it; "
            "`memtab watch --install` sets it up)"
        )
    else:
        note = (
            "not kept warm from login: the first session of the day starts a host "
            "(`memtab mcp install --login-service` or `memtab watch --install` sets it up)"
        )
    return LoginServiceFacts(installed=installed, answer=answer, entry=entry, note=note)
