"""A memory path is parsed once, where it enters Memtab (the CLI, the MCP server, the memory
tool, the window): the store's public methods take it parsed, never as text to parse again
(docs/formats.md §3.2)."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memtab.store.paths import PathError, Scope, VirtualPath
from memtab.store.restore import from_history
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore

# Text a public store method takes that is not a memory path, by parameter name.
NOT_PATHS = {
    "actor",
    "content",
    "done",
    "expected_sha256",
    "restored_from",
    "revert_of",
    "run_id",
    "version_id",
    "workspace_id",
}


def _public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    for owner in (MemoryStore, OrphanProjectStore):
        for name, member in inspect.getmembers(owner, callable):
            if not name.startswith("_"):
                yield f"{owner.__name__}.{name}", member
    for name, member in vars(from_history).items():
        own = inspect.isfunction(member) and member.__module__ == from_history.__name__
        if own and not name.startswith("_"):
            yield f"from_history.{name}", member


def _mentions(annotation: Any, wanted: type) -> bool:
    if annotation is wanted:
        return True
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return any(_mentions(arg, wanted) for arg in typing.get_args(annotation))
    return False


def test_no_public_store_method_takes_a_memory_path_as_text() -> None:
    takes_text = []
    takes_paths = 0
    for name, member in _public_callables():
        for parameter, annotation in typing.get_type_hints(member).items():
            if parameter == "return":
                continue
            takes_paths += _mentions(annotation, VirtualPath)
            if _mentions(annotation, str) and parameter not in NOT_PATHS:
                takes_text.append(f"{name}({parameter}: {annotation})")
    assert takes_text == []
    assert takes_paths > 20  # the check saw the methods it is about


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (lambda store: store.save(VirtualPath(None), "x", None), "/memories"),
        (lambda store: store.read(VirtualPath(Scope.GLOBAL)), "/memories/global"),
        (lambda store: store.delete(VirtualPath(Scope.PROJECT)), "/memories/project"),
        (lambda store: store.move(VirtualPath(Scope.GLOBAL, ("a.md",)), VirtualPath(None)), ""),
        (lambda store: store.set_pinned(VirtualPath(Scope.WORKSPACE), True), ""),
    ],
)
def test_a_root_is_refused_as_where_paths_are_parsed(
    store: MemoryStore, call: Callable[[MemoryStore], object], shown: str
) -> None:
    with pytest.raises(PathError, match=f"Invalid memory path '{shown}.*expected a path inside"):
        call(store)
