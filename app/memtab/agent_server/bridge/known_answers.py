"""What the host answered a session's `initialize` and `tools/list`, kept by the bridge so the next
session set up the same way is answered at once, before any host has loaded (docs/formats.md
§22.8): a file per setup in Memtab's cache dir, served only while this Memtab install and the files
the host made them from are as they were; standard library only."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence

from memtab import __version__
from memtab.agent_server.bridge.rendezvous import PROTOCOL, install_identity, origin_env

FOLDER_NAME = "mcp-answers"
MAX_ENTRY_BYTES = 1024 * 1024
MAX_ENTRIES = 256
"""Setups kept (a project, an agent, its options each): past it the oldest go."""
FORMAT = 1
_CONFIG_DIR_VARIABLE = "MEMTAB_CONFIG_DIR"  # `fs/config/config_dir.py`'s
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

# What Claude Code sets anew in each session's environment and Memtab never reads: left out of a
# setup, or no session of it would ever be answered before its host.
PER_SESSION_VARIABLES = frozenset(
    {
        "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS",
        "CLAUDE_CODE_MESSAGING_SOCKET",
        "CLAUDE_CODE_CHILD_NOTES_DIR",
    }
)

Stamp = list[int] | None
"""A path as `stamp` saw it: its type and, for a file, what a rewrite changes; None: absent."""


def answers_folder(env: Mapping[str, str]) -> str:
    """Where the answers are kept: `mcp-answers` in Memtab's cache dir, found as `cache_dir` finds
    it on Linux (the one system hosts run on; `test_known_answers.py` holds them equal)."""
    configured = env.get(_CONFIG_DIR_VARIABLE, "").strip()
    if configured:
        base = os.path.join(os.path.abspath(os.path.expanduser(configured)), "cache")
    else:
        xdg = env.get("XDG_CACHE_HOME", "")
        root = xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache")
        base = os.path.join(root, "memtab")
    return os.path.join(base, FOLDER_NAME)


def stamp(path: str, *, folder_changes: bool = False) -> Stamp:
    """`path` as a change shows: its type and, for a file, what a rewrite alters; for a folder that
    it is the same one (`folder_changes`: and what adding or removing an entry alters)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    whole = [stat.S_IFMT(info.st_mode), info.st_dev, info.st_ino]
    if stat.S_ISDIR(info.st_mode) and not folder_changes:
        return whole
    return [*whole, info.st_size, info.st_mtime_ns]


def install_stamps() -> list[Stamp]:
    """This install as an upgrade changes it: the program, the package's first file, and the folder
    the package is in (an install or upgrade there renames a distribution's record)."""
    _python, package = install_identity()
    return [
        stamp(sys.executable),
        stamp(os.path.join(package, "__init__.py")),
        stamp(os.path.dirname(package), folder_changes=True),
    ]


def setup_key(words: Sequence[str], cwd: str, env: Mapping[str, str], asked: object) -> str:
    """What tells one session's setup from another's: this Memtab, the command's words, directory
    and variables (`origin_env` but `PER_SESSION_VARIABLES`), and the client's `initialize` but for
    its own version."""
    client: object = asked
    if isinstance(asked, dict):
        info = asked.get("clientInfo")
        named = info.get("name") if isinstance(info, dict) else None
        client = {**asked, "clientInfo": named}
    python, package = install_identity()
    variables = {n: v for n, v in origin_env(env).items() if n not in PER_SESSION_VARIABLES}
    setup = [FORMAT, PROTOCOL, __version__, python, package, list(words), cwd, variables]
    text = json.dumps([*setup, client], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Answers:
    """A host's results for one setup: to `initialize` and to `tools/list` (None: not asked)."""

    __slots__ = ("initialize", "tools")

    def __init__(self, initialize: dict[str, object], tools: dict[str, object] | None) -> None:
        self.initialize = initialize
        self.tools = tools


class KnownAnswers:
    """The answers kept for one setup (`key`) in `folder`: read once, written when they changed."""

    def __init__(self, folder: str, key: str) -> None:
        self.folder = folder
        self.path = os.path.join(folder, f"{key}.json")
        self._read = False
        self._kept: dict[str, object] | None = None

    def read(self) -> Answers | None:
        """What is kept, when this install and every file the answers were made from are as they
        were then (else None: the host answers)."""
        if not self._read:
            self._read = True
            kept = _read_entry(self.path)
            if kept is not None and _still_true(kept):
                self._kept = kept
        if self._kept is None:
            return None
        initialize = _object(self._kept.get("initialize"))
        if initialize is None:
            return None
        return Answers(initialize, _object(self._kept.get("tools")))

    def keep(self, answers: Answers, made_from: Sequence[str]) -> None:
        """Keep what the host answered, made from the files `made_from` (unless kept already); no
        tools list keeps the one kept before, if it still holds."""
        kept = self.read()
        tools = answers.tools if answers.tools is not None or kept is None else kept.tools
        entry = {
            "install": install_stamps(),
            "madeFrom": [[path, stamp(path)] for path in made_from],
            "initialize": answers.initialize,
            "tools": tools,
        }
        if entry == self._kept:
            return
        with contextlib.suppress(OSError):
            _write_entry(self.folder, self.path, entry)
            self._kept = entry


def _still_true(kept: dict[str, object]) -> bool:
    """Whether this install and every file the kept answers were made from are as they were."""
    made_from = kept.get("madeFrom")
    return (
        kept.get("install") == install_stamps()
        and isinstance(made_from, list)
        and all(
            isinstance(pair, list) and len(pair) == 2 and stamp(str(pair[0])) == pair[1]
            for pair in made_from
        )
    )


def _object(value: object) -> dict[str, object] | None:
    return value if isinstance(value, dict) else None


def _read_entry(path: str) -> dict[str, object] | None:
    """The entry at `path`: a private regular file within the cap, a JSON object; else None."""
    try:
        handle = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_uid != os.geteuid()
            or info.st_mode & 0o077
            or info.st_size > MAX_ENTRY_BYTES
        ):
            return None
        data = os.read(handle, MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(handle)
    try:
        entry = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _write_entry(folder: str, path: str, entry: dict[str, object]) -> None:
    """Write `entry` whole or not at all (a private file renamed into place), in a private folder
    of the user's; the oldest setups past `MAX_ENTRIES` go."""
    _private_folder(folder)
    data = json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass")
    temporary = f"{path}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):  # one this process left, or a planted link
        os.unlink(temporary)
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
    finally:
        os.close(handle)
    try:
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _forget_the_oldest(folder)


def _private_folder(folder: str) -> None:
    """`folder` (and its parents) made; it must be the user's own folder, not a link, closed to
    others (OSError otherwise)."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        raise OSError(f"{folder} is not the user's own folder")
    if info.st_mode & 0o077:
        os.chmod(folder, 0o700)


def _forget_the_oldest(folder: str) -> None:
    with os.scandir(folder) as entries:
        kept = [entry for entry in entries if entry.name.endswith(".json")]
    if len(kept) <= MAX_ENTRIES:
        return
    kept.sort(key=lambda entry: entry.stat(follow_symlinks=False).st_mtime_ns)
    for entry in kept[: len(kept) - MAX_ENTRIES]:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
