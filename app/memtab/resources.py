"""Where Memtab's bundled resources (prompts, demo seed, icons) live."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def resources_dir() -> Path:
    """The resources folder: inside an installed wheel, or the repository's `resources/`."""
    bundled = _PACKAGE_DIR / "_resources"
    if bundled.is_dir():
        return bundled
    return _PACKAGE_DIR.parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """A path under the resources folder (it may not exist)."""
    return resources_dir().joinpath(*parts)
