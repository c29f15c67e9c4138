"""JSON sidecars other programs also write, read tolerantly and changed without loss: a bad file
reads as a problem and an empty object, is kept aside (`<name>.corrupt-<UTC>`) before its first
write, and every field the caller does not touch is written back."""

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memtab.fs.atomic import atomic_write_bytes, atomic_write_json
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.locks import DEFAULT_TIMEOUT_S, interprocess_lock
from memtab.fs.slotted import Slotted
from memtab.fs.user_files import open_regular_file

logger = logging.getLogger(__name__)

CORRUPT_INFIX = ".corrupt-"
_KEPT_ASIDE_MODE = 0o600  # sidecars may hold credentials: the copy is private


class SidecarRead(Slotted):
    """What a sidecar holds: `document` (a dict, empty when unusable), `problem` (one line, after
    "the file is"), `raw` (None when not read)."""

    __slots__ = ("document", "over_cap", "problem", "raw")

    document: dict[str, Any]
    problem: str | None
    raw: bytes | None
    over_cap: bool

    def __init__(
        self,
        document: dict[str, Any],
        problem: str | None = None,
        raw: bytes | None = None,
        over_cap: bool = False,
    ) -> None:
        self.document, self.problem, self.raw, self.over_cap = document, problem, raw, over_cap

    @property
    def exists(self) -> bool:
        return self.raw is not None


class KeptAside(Slotted):
    """A sidecar Memtab could not use, copied aside before it was replaced."""

    __slots__ = ("backup", "original", "reason")

    original: Path
    backup: Path
    reason: str

    def __init__(self, original: Path, backup: Path, reason: str) -> None:
        self.original, self.backup, self.reason = original, backup, reason

    @property
    def message(self) -> str:
        """One line for the user: which file, why, and where its old bytes are."""
        kept = f"its content was kept as {self.backup.name} and a fresh one was started"
        return f"{self.original.name} could not be used ({self.reason}); {kept}"


def parse_object(data: bytes) -> tuple[dict[str, Any], str | None]:
    """The JSON object in `data`, or `({}, why not)` — a BOM and CRLF are fine."""
    try:
        value = parse_json(data)
    except JsonError as error:
        return {}, str(error)
    if not isinstance(value, dict):
        kinds = ((list, "a list"), (str, "a string"), (type(None), "null"), (bool, "a boolean"))
        found = next((name for kind, name in kinds if isinstance(value, kind)), "a number")
        return {}, f"not a JSON object (found {found})"
    return value, None


def read_sidecar(path: Path, *, max_bytes: int | None = None) -> SidecarRead:
    """The JSON object in `path`, never raising (missing: empty; over `max_bytes`: not read)."""
    try:
        data = _read_capped(path, max_bytes)
    except FileNotFoundError:
        return SidecarRead({})
    except OSError as error:
        return SidecarRead({}, f"unreadable ({error.strerror or error})")
    if data is None:
        return SidecarRead({}, _over_cap_problem(path, max_bytes), over_cap=True)
    document, problem = parse_object(data)
    return SidecarRead(document, problem, data)


def _read_capped(path: Path, max_bytes: int | None) -> bytes | None:
    """The bytes of `path`, or None past `max_bytes`."""
    with open_regular_file(path) as handle:  # a FIFO there is refused, never waited for
        if max_bytes is None:
            return handle.read()
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            return None
        data = handle.read(size + 1)  # read(n) sets n bytes aside first: not the cap
        if len(data) > size:  # it grew meanwhile
            data += handle.read(max_bytes + 1 - len(data))
    return data if len(data) <= max_bytes else None


def _over_cap_problem(path: Path, max_bytes: int | None) -> str:
    try:
        size = f"{path.stat().st_size} bytes"
    except OSError:
        size = "more"
    return f"larger than the {max_bytes}-byte cap: {size}, not read"


@contextlib.contextmanager
def edit_sidecar(
    path: Path,
    lock_path: Path | None,
    *,
    shape_problem: Callable[[dict[str, Any]], str | None] | None = None,
    mode: int | None = None,
    lock_timeout_s: float = DEFAULT_TIMEOUT_S,
    max_bytes: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Read-modify-write the JSON object in `path`, holding `lock_path` (None: the caller keeps
    writers apart). An unparsable or `shape_problem` file is kept aside first, one past `max_bytes`
    set aside; a raise or no change writes nothing; an unreadable one raises OSError."""
    with (
        interprocess_lock(lock_path, timeout_s=lock_timeout_s)
        if lock_path
        else contextlib.nullcontext()
    ):
        try:
            data = _read_capped(path, max_bytes)
            if data is None:
                set_aside(path, _over_cap_problem(path, max_bytes))
        except FileNotFoundError:
            data = None
        document: dict[str, Any] = {}
        unchanged: str | None = None
        if data is not None:
            document, problem = parse_object(data)
            if problem is None and shape_problem is not None:
                problem = shape_problem(document)
            if problem is None:
                unchanged = _fingerprint(document)
            else:
                keep_aside(path, data, problem)
        yield document
        if unchanged is not None and _fingerprint(document) == unchanged:
            return  # nothing changed: leave the file (and its mtime) alone
        atomic_write_json(path, document, mode=mode)


def _fingerprint(document: dict[str, Any]) -> str:
    # A serialization, not a deep copy: cheaper, and order changes count.
    return json.dumps(document, ensure_ascii=False, allow_nan=True)


def keep_aside(path: Path, data: bytes, reason: str) -> KeptAside:
    """Copy `data` beside `path` as `<name>.corrupt-<UTC>` (an identical copy reused), warn and tell
    listeners; OSError: the caller must not replace the file."""
    return _told(KeptAside(path, _existing_copy(path, data) or _write_copy(path, data), reason))


def set_aside(path: Path, reason: str) -> KeptAside:
    """Rename a sidecar too large to read to `keep_aside`'s name, warn and tell listeners."""
    backup = corrupt_copy_name(path)
    os.replace(path, backup)
    return _told(KeptAside(path, backup, reason))


def _told(kept: KeptAside) -> KeptAside:
    logger.warning("%s (in %s)", kept.message, kept.original.parent)
    notify_kept_aside(kept)
    return kept


def _existing_copy(path: Path, data: bytes) -> Path | None:
    prefix = path.name + CORRUPT_INFIX
    try:
        with os.scandir(path.parent) as entries:
            candidates = [
                Path(entry.path)
                for entry in entries
                if entry.name.startswith(prefix)
                and entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_size == len(data)
            ]
    except OSError:
        return None
    for candidate in sorted(candidates):
        try:
            if candidate.read_bytes() == data:
                return candidate
        except OSError:
            continue
    return None


def _write_copy(path: Path, data: bytes) -> Path:
    backup = corrupt_copy_name(path)
    atomic_write_bytes(backup, data, mode=_KEPT_ASIDE_MODE)
    return backup


def corrupt_copy_name(path: Path) -> Path:
    """`<name>.corrupt-<UTC timestamp>` beside `path` (`-N` when taken)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    base = path.with_name(f"{path.name}{CORRUPT_INFIX}{stamp}")
    backup, suffix = base, 1
    while backup.exists():
        backup = base.with_name(f"{base.name}-{suffix}")
        suffix += 1
    return backup


_listeners: list[Callable[[KeptAside], None]] = []
_listeners_guard = threading.Lock()


def on_kept_aside(listener: Callable[[KeptAside], None]) -> Callable[[], None]:
    """Call `listener` for every file this process keeps aside; returns what stops it."""
    with _listeners_guard:
        _listeners.append(listener)

    def stop() -> None:
        with _listeners_guard, contextlib.suppress(ValueError):
            _listeners.remove(listener)

    return stop


def notify_kept_aside(kept: KeptAside) -> None:
    """Tell every listener of this process about `kept` (a child's relayed too)."""
    with _listeners_guard:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(kept)
        except Exception:  # a broken listener must not fail the write it reports on
            logger.exception("a kept-aside listener failed")
