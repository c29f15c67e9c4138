"""An agent's configuration file changed only while it still holds what was read (docs/formats.md
§22.6): retried from newer bytes, swapped by an exchange so a save landing in between is put back,
never an agent's save lost; a backup before Memtab's first change; what install created noted so
uninstall can take it away."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

from memtab.agent_server.config_files import ConfigFileError, EditStatus
from memtab.agent_server.config_files.places import Place, open_place
from memtab.fs.atomic import Directory, temp_name_for
from memtab.fs.config.config_dir import config_dir
from memtab.fs.private import anothers, entry_kind
from memtab.fs.records import AtLeast, Record, ValidEntries, ValidItems, field
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.fs.user_files import read_regular_file, size_words

logger = logging.getLogger(__name__)

FILE_NAME = "agent-files.json"
LOCK_NAME = ".agent-files.json.lock"
_CAP_BYTES = 1 << 20

Folder = Annotated[str, AtLeast(1)]


class CreatedFile(Record):
    """An agent's file install created (§15.6): the folders made for it, outermost first."""

    folders: ValidItems[tuple[Folder, ...]] = ()


class AgentFiles(Record, keep_unknown=True):
    """`agent-files.json` (§15.6): the agents' files install created, by real path."""

    created: ValidEntries[dict[str, CreatedFile]] = field(default_factory=dict)


def _key(path: Path) -> str:
    """The file's real path (its folder's links followed), as the ledger names it."""
    return os.path.join(os.path.realpath(path.parent), path.name)


class CreatedFiles:
    """The ledger in `path` (`CreatedFiles.of(env)`: the config dir's)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def of(cls, env: Mapping[str, str] | None = None) -> CreatedFiles:
        return cls(config_dir(env) / FILE_NAME)

    def _read(self) -> AgentFiles:
        planted = anothers(self.path)
        if planted is not None:  # it would choose which files and folders uninstall removes
            logger.warning("%s %s: not read (nothing counts as created)", self.path, planted)
            return AgentFiles()
        read = read_sidecar(self.path, max_bytes=_CAP_BYTES)
        return AgentFiles.read(read.document) or AgentFiles()

    def created(self, file: Path) -> bool:
        """Whether install created `file` (and it has not been taken away since)."""
        return _key(file) in self._read().created

    def remember(self, file: Path, folders: tuple[Path, ...]) -> None:
        """Note that install created `file`, and `folders` for it."""
        entry = CreatedFile(folders=tuple(_key(folder) for folder in folders))
        self._change(file, entry, "that Memtab created")

    def forget(self, file: Path) -> tuple[Path, ...]:
        """`file` is gone: take it out; the folders made for it, innermost first."""
        entry = self._read().created.get(_key(file))
        self._change(file, None, "that Memtab took away")
        return tuple(Path(folder) for folder in reversed(entry.folders)) if entry else ()

    def _change(self, file: Path, entry: CreatedFile | None, what: str) -> None:
        key = _key(file)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if anothers(self.path) is not None:  # planted: never read, the ledger starts anew
                self.path.unlink()
            with edit_sidecar(
                self.path, self.path.parent / LOCK_NAME, mode=0o600, max_bytes=_CAP_BYTES
            ) as document:
                created = document.get("created")
                if not isinstance(created, dict):
                    created = document["created"] = {}
                if entry is None:
                    created.pop(key, None)
                else:
                    created[key] = entry.to_json()
        except OSError as error:  # the lock's time out too
            logger.warning("Could not note in %s %s %s: %s", self.path, what, file, error)


CONFIG_LIMIT = 16 << 20  # a real ~/.claude.json holds a few MB of project history
ATTEMPTS = 5
BACKUP_SUFFIX = ".memtab-backup"
KEPT_INFIX = ".memtab-kept-"
NEW_FILE_MODE = 0o600
# What a file holds once its last entry is out: nothing (TOML), `{}` (JSON).
EMPTY_DOCUMENTS = (b"", b"{}")
# No exchange here: a checked rename instead.
_NO_EXCHANGE = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}

# From the file's bytes (None: no file), its new bytes and what that did.
Edit = Callable[[bytes | None], tuple[bytes, EditStatus]]


@dataclass(frozen=True)
class Edited:
    """What `edit_file` did: `status`, the `target` a link names, the backup made now and what stood
    at its name (`backup_note`), folders `made`, and `removed` with the folders `unmade`."""

    status: EditStatus
    target: Path
    backup: Path | None = None
    made: tuple[Path, ...] = ()
    removed: bool = False
    unmade: tuple[Path, ...] = ()
    backup_note: str | None = None  # what was at the backup's name, when not the copy


def edit_file(
    path: Path,
    edit: Edit,
    *,
    limit: int = CONFIG_LIMIT,
    attempts: int = ATTEMPTS,
    project: Path | None = None,
    created: CreatedFiles | None = None,
    whole: bool = False,
) -> Edited:
    """Apply `edit` to the file at `path`: `project`, where no link is followed; `created`,
    install's ledger; `whole`, a file that is Memtab's own (no backup, removed when emptied).
    ConfigFileError, `edit`'s errors, OSError."""
    backup: Path | None = None
    note: str | None = None
    for _ in range(attempts):
        with open_place(path, project) as place:
            try:
                data = _read(place, limit)
            except _BecameLinkError:
                continue
            new, status = edit(data)
            if status == "unchanged":
                return Edited(status, place.target, backup)
            if data is None:
                made = place.make_folders()
                assert place.directory is not None
                if not _create(place.directory, place.name, new):
                    continue
                if created is not None:
                    created.remember(place.target, made)
                return Edited(status, place.target, backup, made=made)
            directory = place.directory
            assert directory is not None
            _require_writable(directory, place.name)
            ours = created is not None and created.created(place.target)
            if (ours or whole) and new.strip() in EMPTY_DOCUMENTS:
                if not _remove(directory, place.name, data, limit):
                    continue
                made = created.forget(place.target) if created is not None and ours else ()
                unmade = _remove_folders(made)
                return Edited(status, place.target, backup, removed=True, unmade=unmade)
            if not ours and not whole and backup is None:
                backup, said = _back_up(directory, place.name, data)
                note = note or said
            if _replace(directory, place.name, data, new, limit):
                return Edited(status, place.target, backup, backup_note=note)
    raise ConfigFileError(f"it kept changing while Memtab edited it ({attempts} tries)")


class _BecameLinkError(Exception):
    """The user's own file became a link while it was read: follow it again."""


def _require_writable(directory: Directory, name: str) -> None:
    """Refuse a file another user owns or its owner made read-only."""
    info = directory.lstat(name)
    if info is None:
        raise ConfigFileError("it went while Memtab read it")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        owner = _owner(Path(directory.display(name)), info.st_uid)
        raise ConfigFileError(
            f"it belongs to another user ({owner}), not to you: Memtab changes only your "
            "own files, so run it as that user to change this one"
        )
    path, at = directory.at(name)
    try:
        writable = os.access(path, os.W_OK, **at)
    except NotImplementedError:  # pragma: no cover - no dir_fd for access here
        writable = os.access(directory.display(name), os.W_OK)
    if not info.st_mode & stat.S_IWUSR or not writable:
        raise ConfigFileError(
            f"it is read-only (mode {stat.S_IMODE(info.st_mode):04o}); make it writable to "
            "let Memtab change it"
        )


def _owner(path: Path, uid: int) -> str:
    """Who owns `path`: their login name and number, else their number ("uid 1001")."""
    try:
        return f"{path.owner()}, uid {uid}"
    except (NotImplementedError, KeyError, OSError):
        return f"uid {uid}"


def _read(place: Place, limit: int) -> bytes | None:
    """The file's bytes, never through a link (None: there is none)."""
    directory = place.directory
    if directory is None:
        return None
    path, at = directory.at(place.name)
    try:
        return read_regular_file(path, limit=limit, follow_links=False, dir_fd=at.get("dir_fd"))
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            if place.project is None:
                raise _BecameLinkError from None
            raise place.link_error(place.name, directory) from None
        if error.errno == errno.EFBIG:
            raise ConfigFileError(
                f"it holds more than {size_words(limit)}, more than Memtab edits"
            ) from None
        raise ConfigFileError(error.strerror or str(error)) from None


def _entry(directory: Directory, name: str, limit: int) -> bytes | None:
    """The bytes of the regular file `name` (never through a link), or None."""
    path, at = directory.at(name)
    try:
        return read_regular_file(path, limit=limit, follow_links=False, dir_fd=at.get("dir_fd"))
    except OSError:
        return None


def _remove(directory: Directory, name: str, data: bytes, limit: int) -> bool:
    """Take away file `name` if it still holds `data` (moved aside, read back, put back
    otherwise)."""
    aside = temp_name_for(name)
    try:
        directory.rename_no_replace(name, directory, aside)
    except FileNotFoundError:
        return False
    if _entry(directory, aside, limit) == data:
        directory.discard(aside)
        directory.fsync()
        return True
    try:
        directory.rename_no_replace(aside, directory, name)
    except FileExistsError:  # saved anew meanwhile: that stays, the displaced one is kept
        raise _kept_aside(directory, aside, name, "took it away") from None
    return False


def _remove_folders(folders: tuple[Path, ...]) -> tuple[Path, ...]:
    """Remove the folders install made, innermost first, while empty; those removed."""
    removed = []
    for folder in folders:
        try:
            os.rmdir(folder)
        except OSError:
            break
        removed.append(folder)
    return tuple(removed)


def _create(directory: Directory, name: str, data: bytes) -> bool:
    """Create `name`; False when a file appeared there meanwhile (nothing written)."""
    temp = directory.write_temp(name, data, mode=NEW_FILE_MODE)
    try:
        directory.publish(temp, name, unchanged=None, create=True)
    except FileExistsError:
        return False
    directory.fsync()
    return True


def _back_up(directory: Directory, name: str, data: bytes) -> tuple[Path | None, str | None]:
    """Copy `data` to `<name>.memtab-backup` unless the user's copy exists; its path, and what stood
    there instead, in words."""
    backup = name + BACKUP_SUFFIX
    shown = directory.display(backup)
    info = directory.lstat(backup)
    note = None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            return None, f"no copy of the file as it was is kept: {shown} is a folder (left alone)"
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid():
            return None, None  # the copy made before Memtab's first change
        note = _cleared(directory, backup, info)
    temp = directory.write_temp(backup, data, mode=0o600)
    try:
        directory.publish(temp, backup, unchanged=None, create=True)
    except FileExistsError:
        return None, note
    directory.fsync()
    return Path(shown), note


def _cleared(directory: Directory, name: str, info: os.stat_result) -> str:
    """Remove what is at `name` that is not the user's backup (never followed), in words."""
    path, at = directory.at(name)
    if stat.S_ISREG(info.st_mode):
        what = "a file of another user (not the copy Memtab keeps): removed"
    else:
        what = f"{entry_kind(info.st_mode)}: removed, never followed"
    if stat.S_ISLNK(info.st_mode):
        with contextlib.suppress(OSError):
            what = f"a link (to {os.readlink(path, **at)}): removed, never followed"
    directory.discard(name)
    return f"{directory.display(name)} was {what}"


def _replace(directory: Directory, name: str, data: bytes, new: bytes, limit: int) -> bool:
    """Put `new` in place of `name` if it still holds `data`; False, nothing lost, otherwise."""
    info = directory.lstat(name)
    if info is None or not stat.S_ISREG(info.st_mode):
        return False
    temp = directory.write_temp(name, new, mode=stat.S_IMODE(info.st_mode))
    try:
        ours = _keep_owner(directory, temp, info)
        still = _entry(directory, name, limit) == data
        if still:
            directory.exchange(temp, name)
    except OSError as error:
        if still and error.errno in _NO_EXCHANGE:
            return _publish_checked(directory, temp, name, data, limit)
        directory.discard(temp)
        if error.errno == errno.ENOENT:  # the file went meanwhile: start again
            return False
        raise
    except BaseException:
        directory.discard(temp)
        raise
    if not still:
        directory.discard(temp)
        return False
    # `temp` now names what the exchange displaced.
    if _entry(directory, temp, limit) == data:
        directory.discard(temp)
        directory.fsync()
        return True
    _put_back(directory, temp, name, ours)
    return False


def _publish_checked(directory: Directory, temp: str, name: str, data: bytes, limit: int) -> bool:
    """Without an exchange: rename `temp` over `name` if it still holds `data`."""
    published = directory.publish(
        temp, name, unchanged=lambda: _entry(directory, name, limit) == data
    )
    if published:
        directory.fsync()
    return published


def _put_back(
    directory: Directory, held: str, name: str, ours: tuple[int, int], attempts: int = ATTEMPTS
) -> None:
    """A save landed between the last look and the exchange: swap it back; a newer one too, the
    older kept beside under a telling name (ConfigFileError)."""
    expected: tuple[int, int] | None = ours
    for _ in range(attempts):
        putting = _identity(directory, held)
        directory.exchange(held, name)
        out = _identity(directory, held)
        if out == expected:
            break
        expected = putting
    if expected == ours:
        directory.discard(held)
        directory.fsync()
        return
    raise _kept_aside(directory, held, name, "replaced it")


def _kept_aside(directory: Directory, held: str, name: str, doing: str) -> ConfigFileError:
    """Keep `held`, an agent's earlier save, beside `name`; the error saying where."""
    kept = f"{name}{KEPT_INFIX}{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
    directory.rename_no_replace(held, directory, kept)
    return ConfigFileError(
        f"it was saved twice while Memtab {doing}; the earlier save is kept as "
        f"{directory.display(kept)}"
    )


def _identity(directory: Directory, name: str) -> tuple[int, int] | None:
    info = directory.lstat(name)
    return None if info is None else (info.st_dev, info.st_ino)


def _keep_owner(directory: Directory, temp: str, info: os.stat_result) -> tuple[int, int]:
    """Give the temp file the owner of the file it replaces; its identity."""
    mine = directory.lstat(temp)
    if mine is None:  # pragma: no cover - just written
        raise FileNotFoundError(errno.ENOENT, "the temp file is gone", directory.display(temp))
    if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid) and hasattr(os, "chown"):
        path, at = directory.at(temp)
        try:
            os.chown(path, info.st_uid, info.st_gid, follow_symlinks=False, **at)
        except PermissionError:
            raise ConfigFileError(
                "it belongs to another user or group, which Memtab cannot give its new version"
            ) from None
    return mine.st_dev, mine.st_ino
