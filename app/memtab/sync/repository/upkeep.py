"""Whether git's maintenance of a sync repository has work, known without starting a git.

A fetch runs `git maintenance run --auto` after its work, a commit runs it too: a process
each time (2–15 ms, more under load) that most times finds nothing to do. With no
maintenance task or strategy configured it runs one task, gc, whose condition is
documented (git-config: `gc.auto`, `gc.autoPackLimit`) and has not changed since `gc
--auto` came: more than about `gc.auto` loose objects (6,700; counted in `objects/17/`, a
256th of them), or more than `gc.autoPackLimit` packs not kept (50); `gc.auto` 0 turns
both off, and `maintenance.auto` false keeps git's commands from running it at all. A sync
checks that here (two listings) and starts the maintenance only when it holds; where the
configuration asks git for more than gc (a `maintenance.*` task or strategy), or a number
is written in a way git reads and this does not (`1k`), git is asked as before.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

GC_AUTO = 6700
GC_AUTO_PACK_LIMIT = 50
_HEX = frozenset("0123456789abcdef")
_CHOOSING_NO_TASK = frozenset({"maintenance.autodetach", "maintenance.auto"})
"""`maintenance.*` keys that choose no task (Memtab sets the first on every git it runs)."""
_FALSE = frozenset({"false", "no", "off", "0"})


def maintenance_due(repository: Path, config: Mapping[str, str], *, oid_hex: int = 40) -> bool:
    """Whether `git maintenance run --auto` would find work in `repository` (see the module
    doc); `config`: git's configuration as `git config --list` gives it (keys lowered),
    `oid_hex`: an object id's length in hex (64 in a sha256 repository)."""
    if config.get("maintenance.auto", "").strip().lower() in _FALSE:
        return False
    if any(key.startswith("maintenance.") and key not in _CHOOSING_NO_TASK for key in config):
        return True  # a task or strategy of the user's: git knows its conditions
    auto = _number(config.get("gc.auto"), GC_AUTO)
    pack_limit = _number(config.get("gc.autopacklimit"), GC_AUTO_PACK_LIMIT)
    if auto is None or pack_limit is None:
        return True  # a value git reads its own way (`1k`): git decides
    if auto <= 0:
        return False
    objects = repository / "objects"
    try:
        return _too_many_packs(objects / "pack", pack_limit) or _too_many_loose(
            objects / "17", auto, oid_hex - 2
        )
    except OSError:
        return True


def _number(value: str | None, default: int) -> int | None:
    if value is None:
        return default
    try:
        return int(value.strip())
    except ValueError:
        return None


def _too_many_packs(folder: Path, limit: int) -> bool:
    if limit <= 0:
        return False
    try:
        names = set(os.listdir(folder))
    except FileNotFoundError:
        return False
    # A pack is one git can use: its index and its data (git lists packs by their index).
    packs = [
        name[: -len(".idx")]
        for name in names
        if name.startswith("pack-") and name.endswith(".idx") and name[:-4] + ".pack" in names
    ]
    return sum(stem + ".keep" not in names for stem in packs) > limit


def _too_many_loose(folder: Path, auto: int, name_length: int) -> bool:
    threshold = -(-auto // 256)  # rounded up, as git does
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return False
    loose = sum(len(name) == name_length and _HEX.issuperset(name) for name in names)
    return loose > threshold
