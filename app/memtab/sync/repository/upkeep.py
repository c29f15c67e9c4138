"""Whether git's maintenance of a sync repository has work (gc's documented `gc.auto` and
`gc.autoPackLimit` conditions), known without starting a git; other configurations ask git."""

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
    """Whether `git maintenance run --auto` would find work; `config` as `git config --list` gives
    it, `oid_hex` an id's length."""
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
    # A pack git can use: its index and its data.
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
