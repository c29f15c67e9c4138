"""Where the warm Memtab of a home waits for sessions and who may reach it (docs/formats.md §22.8):
a socket per Memtab, `--home` and `KEY_VARIABLES` values, in a private runtime folder; a peer served
only with the host's uid (else each session serves itself)."""

from __future__ import annotations

import hashlib
import os
import socket
import stat
import struct
import sys
from collections.abc import Mapping, Sequence

import memtab
from memtab import __version__

# A bridge and a host of different protocols never talk.
PROTOCOL = 1
SHARED_VARIABLE = "MEMTAB_MCP_SHARED"
"""`off` (or `0`, `no`, `false`): every agent session serves itself, as before hosting."""
# What decides the home (§1), config and cache dirs, log and other agents' memory (§17): a host
# serves only sessions agreeing on these.
KEY_VARIABLES = (
    "HOME",
    "MEMTAB_HOME",
    "XUM_ROOT",
    "MUX_ROOT",
    "MEMTAB_CONFIG_DIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "MEMTAB_LOG_DIR",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "LOKI_DIR",
    "GEMINI_CLI_HOME",
)
# Read with `~` expanded: a relative value of these and TMPDIR names a place in the reader's
# directory.
_EXPANDED_VARIABLES = frozenset(
    {"MEMTAB_HOME", "XUM_ROOT", "MUX_ROOT", "MEMTAB_CONFIG_DIR", "MEMTAB_LOG_DIR"}
    | {"CLAUDE_CONFIG_DIR", "CODEX_HOME", "LOKI_DIR", "GEMINI_CLI_HOME"}
)
PATH_VARIABLES = (*KEY_VARIABLES, "TMPDIR")
# The agents' own variables an origin carries, never one that looks like a credential.
SESSION_PREFIXES = ("CLAUDE_", "CODEX_", "XUM_", "MUX_", "MEMTAB_", "LOKI_", "GEMINI_")
# An agent's own limits (`agent_server/service.py`): carried, not a key.
CLIENT_LIMIT_VARIABLES = ("MAX_MCP_OUTPUT_TOKENS",)
_SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH")
MAX_ORIGIN_VALUE_CHARS = 4096
# sun_path holds 108 bytes on Linux, its NUL included.
MAX_SOCKET_PATH_BYTES = 107
_VERSION_WORD = "".join(c if c.isalnum() or c in ".+_-" else "_" for c in __version__)[:24]
_BOUND_BESIDE_BYTES = 8  # the host binds `<socket>.<pid>` first, then renames it
_PEER_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid
_OFF = frozenset({"off", "0", "no", "false"})


class RendezvousError(Exception):
    """No private place for the socket: the message says why, in words."""


class PlantedError(RendezvousError):
    """The runtime folder holds another user's entry: the session serves itself."""


def shared_unavailable(env: Mapping[str, str]) -> str | None:
    """Why this system or `env` keeps every session in its own process; None when a host may
    serve."""
    if env.get(SHARED_VARIABLE, "").strip().lower() in _OFF:
        return f"{SHARED_VARIABLE}=off"
    if not hasattr(socket, "AF_UNIX"):
        return "this system has no Unix sockets"
    if not hasattr(socket, "SO_PEERCRED"):
        return "Memtab cannot read who connects to a socket on this system (no SO_PEERCRED)"
    return None


def origin_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables a session's origin carries, no credential, each capped."""
    chosen: dict[str, str] = {}
    for name, value in environ.items():
        if (
            name in KEY_VARIABLES
            or name in CLIENT_LIMIT_VARIABLES
            or (name.startswith(SESSION_PREFIXES) and not any(w in name for w in _SECRET_WORDS))
        ):
            chosen[name] = value[:MAX_ORIGIN_VALUE_CHARS]
    return dict(sorted(chosen.items()))


def resolved_env(environ: Mapping[str, str], cwd: str) -> dict[str, str]:
    """`environ` with each relative path variable made absolute against the session's `cwd` (blank,
    or no `cwd`: as is)."""
    resolved = dict(environ)
    if not cwd:
        return resolved
    for name in PATH_VARIABLES:
        value = environ.get(name, "").strip()
        if not value:
            continue
        path = os.path.expanduser(value) if name in _EXPANDED_VARIABLES else value
        if not os.path.isabs(path):
            resolved[name] = os.path.normpath(os.path.join(cwd, path))
    return resolved


def working_directory() -> str:
    """This process's directory, "" when it has none (removed under it)."""
    try:
        return os.getcwd()
    except OSError:
        return ""


def install_identity() -> tuple[str, str]:
    """This Memtab: its Python (the bundle when frozen) and its package folder."""
    return sys.executable, os.path.dirname(os.path.abspath(memtab.__file__))


def last_option(words: Sequence[str], name: str) -> str | None:
    """The last value of option `name` (`--name V` or `--name=V`) in a command line, or None."""
    value = None
    for index, word in enumerate(words):
        if word == name and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith(f"{name}="):
            value = word.removeprefix(f"{name}=")
    return value


def home_option(words: Sequence[str]) -> str | None:
    """The last `--home` of a `memtab mcp` command line, made absolute; None without one."""
    value = last_option(words, "--home")
    return os.path.abspath(os.path.expanduser(value)) if value else None


def socket_key(home: str | None, env: Mapping[str, str]) -> str:
    """What tells hosts apart (see the module's docstring), as 16 hex digits."""
    python, package = install_identity()
    words = [str(PROTOCOL), __version__, python, package, home or ""]
    words += [f"{name}={env[name]}" if name in env else name for name in KEY_VARIABLES]
    return hashlib.sha256("\0".join(words).encode("utf-8", "surrogatepass")).hexdigest()[:16]


class Rendezvous:
    """The files of one host: its socket, the lock bridges take to start it, its log."""

    __slots__ = ("folder", "key", "log", "socket", "start_lock")

    def __init__(self, folder: str, key: str) -> None:
        stem = os.path.join(folder, f"mcp-{_VERSION_WORD}-{key}")
        self.folder = folder
        self.key = key
        self.socket = stem + ".sock"
        self.start_lock = stem + ".start"
        self.log = stem + ".log"


def host_rendezvous(home: str | None, env: Mapping[str, str]) -> Rendezvous:
    """Where a host of `home` run with `env` waits; RendezvousError when no host can run here."""
    reason = shared_unavailable(env)
    if reason is not None:
        raise RendezvousError(reason)
    return rendezvous(home, env)


def rendezvous(home: str | None, env: Mapping[str, str]) -> Rendezvous:
    """The files of the host serving `home` with `env` (relative paths this process's);
    RendezvousError."""
    resolved = resolved_env(env, working_directory())
    key = socket_key(home, resolved)
    return Rendezvous(runtime_folder(resolved, len(Rendezvous("", key).socket)), key)


def runtime_folder(env: Mapping[str, str], name_bytes: int = 32) -> str:
    """The private folder the sockets are in (made 0700); RendezvousError with every place's
    problem."""
    uid = os.geteuid()
    candidates = []
    base = env.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(base):
        candidates.append(os.path.join(base, "memtab"))
    candidates.append(os.path.join(env.get("TMPDIR") or "/tmp", f"memtab-{uid}"))
    problems = []
    for folder in candidates:
        if len(os.fsencode(folder)) + name_bytes + _BOUND_BESIDE_BYTES > MAX_SOCKET_PATH_BYTES:
            problems.append(f"{folder} is too long a path for a socket")
            continue
        try:
            _make_private(folder, uid)
        except PlantedError:
            raise
        except RendezvousError as error:
            problems.append(str(error))
            continue
        return folder
    raise RendezvousError("; ".join(problems))


def _make_private(folder: str, uid: int) -> None:
    """`folder` exists, is a folder (not a link) the user owns and nobody else may enter."""
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise RendezvousError(f"cannot create {folder}: {error.strerror or error}") from None
    try:
        info = os.lstat(folder)
    except OSError as error:
        raise RendezvousError(f"cannot read {folder}: {error.strerror or error}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise RendezvousError(f"{folder} is not a folder")
    if info.st_uid != uid:
        raise RendezvousError(f"{folder} belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o077:
        try:  # the user's own folder, opened up since: closed again
            os.chmod(folder, 0o700)
        except OSError as error:
            raise RendezvousError(f"cannot make {folder} private: {error.strerror}") from None
    planted = _anothers_entry(folder, uid)
    if planted is not None:
        raise PlantedError(planted)


def _anothers_entry(folder: str, uid: int) -> str | None:
    """Why `folder` may not be used (another user's entry in it), or None."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                owner = entry.stat(follow_symlinks=False).st_uid
                if owner != uid:
                    return (
                        f"{folder} holds {entry.name}, which belongs to another user (uid "
                        f"{owner}): someone could write there while it was open to others; "
                        "remove it (or the folder) to share a warm server again"
                    )
    except FileNotFoundError:  # gone as it was read: nothing of another's in it
        return None
    except OSError as error:
        raise RendezvousError(f"cannot read {folder}: {error.strerror or error}") from None
    return None


def peer_credentials(connection: socket.socket) -> tuple[int, int]:
    """The pid and uid at the other end of a Unix socket, as the kernel recorded them."""
    raw = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEER_CREDENTIALS.size)
    pid, uid, _gid = _PEER_CREDENTIALS.unpack(raw)
    return pid, uid
