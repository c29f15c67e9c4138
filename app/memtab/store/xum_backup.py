"""When xum's settings backup carries the same memory as Memtab's sync (docs/formats.md §18.9): the
user picks the owner per home; Memtab never edits xum's backup settings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from memtab.fs.config.settings_file import SettingsFileError, settings_section, update_settings_file
from memtab.fs.records import OrNone, Record, ValidEntries, computed, field
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import load_registry, read_registry_document

SETTINGS_SECTION = "xumBackup"
Owner = Literal["memtab", "xum"]
OWNERS: tuple[Owner, ...] = ("memtab", "xum")


class XumBackupSettings(Record):
    """config.json's `settingsBackup`, as far as it says what memory goes to the backup."""

    repo_url: OrNone[str] = None
    branch: OrNone[str] = None
    include_global_memory: OrNone[bool] = None  # default true
    include_projects: OrNone[bool] = None
    """Default false: project memory goes only when the user opted in."""


def _overlap_message(overlap: BackupOverlap) -> str:
    carried = ", ".join(overlap.scopes)
    both = f"xum's settings backup ({overlap.repo_url}) also carries {carried}"
    return both + _OWNED[overlap.owner]


_OWNED = {
    "memtab": "; you chose Memtab's sync to own it: turn off the memory in xum's Settings → Backup,"
    " or both will push and restore it",
    "xum": "; you chose xum's backup to own it: stop syncing it here (memtab sync remove NAME, then"
    " memtab sync init without it)",
    None: ": two owners push and restore the same files. Choose one: memtab sync backup-owner"
    " memtab|xum",
}


class BackupOverlap(Record, write_only=True):
    """The synced scopes xum's backup carries too and their owner: `sync init/status --json`'s
    `xumBackup` (docs/formats.md §18.9)."""

    repo_url: str
    scopes: tuple[str, ...]  # Memtab's labels: `global`, `project:/path`
    owner: Owner | None
    message: str = computed(_overlap_message)


def xum_backup(home: Home) -> XumBackupSettings | None:
    """xum's backup settings, or None when none is set up or config.json cannot be read."""
    try:
        document = read_registry_document(home)
    except HomeError:
        return None
    settings = XumBackupSettings.read(document.get("settingsBackup"))
    return settings if settings is not None and settings.repo_url else None


def backup_overlap(home: Home, synced: Iterable[tuple[str, str | None]]) -> BackupOverlap | None:
    """Which synced scopes (`(kind, key)`) xum's backup carries too, or None."""
    settings = xum_backup(home)
    if settings is None or settings.repo_url is None:
        return None
    try:
        projects = {project.path for project in load_registry(home).projects}
    except HomeError:
        projects = set()
    global_too, projects_too = (
        settings.include_global_memory is not False,
        settings.include_projects is True,
    )
    scopes = [
        "global" if kind == "global" else f"project:{key}"
        for kind, key in synced
        if (kind == "global" and global_too)
        or (kind == "project" and projects_too and key in projects)
    ]
    if not scopes:
        return None
    return BackupOverlap(repo_url=settings.repo_url, scopes=tuple(scopes), owner=backup_owner(home))


class BackupOwners(Record):
    """settings.json's `xumBackup` (docs/formats.md §18.9): the owner by home root."""

    owners: ValidEntries[dict[str, Owner]] = field(default_factory=dict)


def backup_owner(home: Home) -> Owner | None:
    """Who the user said owns the memory both carry, for this home (None: not chosen)."""
    try:
        section = settings_section(SETTINGS_SECTION)
    except SettingsFileError:
        return None  # the settings checks say why
    return (BackupOwners.read(section) or BackupOwners()).owners.get(str(home.root))


def set_backup_owner(home: Home, owner: Owner) -> None:
    """Remember who owns the memory both carry, for this home (settings.json)."""

    def choose(data: dict[str, Any]) -> None:
        section = data.get(SETTINGS_SECTION)
        section = section if isinstance(section, dict) else {}
        owners = section.get("owners")
        owners = owners if isinstance(owners, dict) else {}
        data[SETTINGS_SECTION] = {**section, "owners": {**owners, str(home.root): owner}}

    update_settings_file(choose)
