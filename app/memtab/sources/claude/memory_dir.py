"""What an auto memory directory holds besides personal memory (docs/formats.md §17.2): which
files are memory, the subtrees that are not the user's own, team memory's mounts, account memory,
and which folders are synced."""

from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.text.frontmatter import frontmatter_block

logger = logging.getLogger(__name__)

MEMORY_FILE_SUFFIXES = (".md", ".txt", ".json", ".jsonl")
TEAM_FOLDER = "team"
NOT_PERSONAL_FOLDERS = frozenset({TEAM_FOLDER, "logs", "sessions", "proposals"})
"""Top-level subtrees of an auto memory directory that are not the user's own memory."""
STORE_MANIFEST = ".memory-sync"
STORES_VARIABLE = "CLAUDE_MEMORY_STORES"
SKILLS_FOLDER = "skills"
SKILL_FILE = "SKILL.md"
SKILL_MAX_BYTES = 128 * 1024
"""A shared memory skill's `SKILL.md` over 128 KB is skipped by Claude Code."""
SKILL_IGNORED_KEYS = ("allowed-tools", "hooks", "model", "shell")
"""A shared memory skill's capability frontmatter, which Claude Code ignores."""
_IGNORED_KEY = re.compile(
    rf"^({'|'.join(re.escape(key) for key in SKILL_IGNORED_KEYS)})[ \t]*:", re.MULTILINE
)

_MOUNT_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_MOUNT_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def folded(segment: str) -> str:
    """A folder name as Claude Code compares it with its reserved names (`Team.` is `team`)."""
    return unicodedata.normalize("NFC", segment).rstrip(". ").lower()


def is_memory_file_name(name: str) -> bool:
    """Whether Claude Code takes a file of this name for a memory file."""
    return not name.startswith(".") and name.endswith(MEMORY_FILE_SUFFIXES)


def not_personal(segments: tuple[str, ...]) -> bool:
    """Whether a path inside an auto memory directory is not the user's own memory."""
    return len(segments) > 1 and folded(segments[0]) in NOT_PERSONAL_FOLDERS


def is_team_folder(name: str) -> bool:
    return folded(name) == TEAM_FOLDER


def is_remote_store(directory: Path) -> bool:
    """Whether Claude Code keeps `directory` as a store of its server (its manifest; no link)."""
    manifest = directory / STORE_MANIFEST
    return os.path.isfile(manifest) and not os.path.islink(manifest)


ACCOUNT_MEMORY_PATH = "memory/personal"
"""Where Claude Code keeps the memory synced to the user's account, in its config dir."""


def account_memory_directory(config_root: Path) -> Path:
    """Where Claude Code keeps the memory synced to the user's account."""
    return config_root / ACCOUNT_MEMORY_PATH


@dataclass(frozen=True)
class MemoryStore:
    """One store of `CLAUDE_MEMORY_STORES`: its mount, whether read-only, and its `promptIndex`."""

    mount: str
    read_only: bool
    scope: str  # "team" or "user"
    prompt_index: str | None = None
    prompt_index_max_bytes: int | None = None


def memory_stores(raw: str | None) -> tuple[MemoryStore, ...]:
    """The stores a `CLAUDE_MEMORY_STORES` value lists; () when unset or refused."""
    if raw is None or not raw.strip():
        return ()
    try:
        entries = parse_json(raw)
    except JsonError:
        logger.info("Claude Code: %s is not JSON; no team memory mounts read", STORES_VARIABLE)
        return ()
    if not isinstance(entries, list):
        return ()
    stores: list[MemoryStore] = []
    for entry in entries:
        store = _store(entry)
        if store is None:
            logger.info("Claude Code: an entry of %s was not taken: %r", STORES_VARIABLE, entry)
            return ()
        stores.append(store)
    return tuple(stores)


def _store(entry: object) -> MemoryStore | None:
    if isinstance(entry, str):
        entry = {"path": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        return None
    mode, scope, mount = entry.get("mode", "rw"), entry.get("scope", "team"), entry.get("mount")
    if mode not in ("rw", "ro") or scope not in ("team", "user"):
        return None
    if mount is None:
        mount = _MOUNT_UNSAFE.sub("-", entry["path"].rstrip("/").rsplit("/", 1)[-1])
    if not isinstance(mount, str) or not _MOUNT_NAME.match(mount):
        return None
    index, cap = entry.get("promptIndex"), entry.get("promptIndexMaxBytes")
    if index is not None and not (isinstance(index, str) and _is_relative_index(index)):
        return None
    if cap is not None and not (isinstance(cap, int) and not isinstance(cap, bool) and cap > 0):
        return None
    return MemoryStore(
        mount=mount,
        read_only=mode == "ro",
        scope=scope,
        prompt_index=index,
        prompt_index_max_bytes=cap,
    )


_INDEX_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")


def _is_relative_index(path: str) -> bool:
    """Whether Claude Code takes `path` as a store's `promptIndex`."""
    segments = path.split("/")
    return bool(path) and all(
        _INDEX_SEGMENT.match(segment) and segment not in (".", "..") for segment in segments
    )


def stores_setting(env: Mapping[str, str], settings_env: Mapping[str, object]) -> str | None:
    """`CLAUDE_MEMORY_STORES` as a session would have it: the user's settings' `env`, else
    Memtab's."""
    from_settings = settings_env.get(STORES_VARIABLE)
    if isinstance(from_settings, str):
        return from_settings
    return env.get(STORES_VARIABLE)


def read_only_mounts(stores: tuple[MemoryStore, ...]) -> tuple[str, ...]:
    """The team mounts its sessions may not write."""
    return tuple(store.mount for store in stores if store.scope == "team" and store.read_only)


def shared_skill_warning(head: str, size: int) -> tuple[str, str] | None:
    """What Claude Code does not take of a team mount's shared skill (`head`: its first bytes),
    in two words and in full."""
    if size > SKILL_MAX_BYTES:
        return "over limit", "Over 128 KB: Claude Code skips a shared memory skill this large"
    block = frontmatter_block(head) or ""
    present = {match.group(1) for match in _IGNORED_KEY.finditer(block)}
    keys = [key for key in SKILL_IGNORED_KEYS if key in present]
    if not keys:
        return None
    return "keys ignored", (
        f"Claude Code ignores {', '.join(keys)} in a shared memory skill (and runs none of "
        "its inline shell): a skill from team memory cannot widen what it may do"
    )
