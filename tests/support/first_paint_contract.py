"""What the import contract "first-paint" (pyproject.toml) lets the window's start reach: the
first paint's module list, derived from the contract instead of kept by hand.

The contract names its source modules (`memtab.launch`, `memtab.gui.first_paint`) and the
edges it lets through on purpose (`ignore_imports`); every other import of theirs, at any
depth — at a module's top, inside a function or for annotations —, is the start's reach
(grimp's graph, as import-linter builds it). A module imported is imported with every
package above it, so those count too. tests/gui/test_startup_boundary.py compares it with
what a start really imports before its tree paints.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import grimp

import memtab

PYPROJECT = Path(memtab.__file__).parents[2] / "pyproject.toml"
CONTRACT_ID = "first-paint"


def contract() -> dict[str, object]:
    """The contract "first-paint" as pyproject.toml says it."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [found] = [entry for entry in contracts if entry.get("id") == CONTRACT_ID]
    return dict(found)


def _edge(text: str) -> tuple[str, str]:
    importer, imported = (part.strip() for part in text.split("->"))
    return importer, imported


@functools.cache
def first_paint_reach() -> frozenset[str]:
    """memtab's modules the contract lets the start reach (see the module docstring)."""
    terms = contract()
    graph = grimp.build_graph("memtab", cache_dir=None)
    for importer, imported in map(_edge, terms["ignore_imports"]):  # type: ignore[arg-type]
        if imported in graph.modules and graph.direct_import_exists(
            importer=importer, imported=imported
        ):
            graph.remove_import(importer=importer, imported=imported)
    sources: set[str] = set()
    for source in terms["source_modules"]:  # type: ignore[attr-defined]
        sources |= {source, *graph.find_descendants(source)}
    reached = set(sources)
    for source in sources:
        reached |= graph.find_upstream_modules(source)
    packages = {name.rsplit(".", depth)[0] for name in reached for depth in range(1, 6)}
    return frozenset(reached | {name for name in packages if name.startswith("memtab")})
