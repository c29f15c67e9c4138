"""Every Qt object Memtab's own objects hold, found by walking their attributes: a widget a
feature keeps while another's rebuild deleted it (a room lent to a tab that closed) is a
held object whose C++ side is gone — the next use of it fails "Internal C++ object …
already deleted" (issue 81 point 1).

The walk goes through what Memtab's classes keep (instance attributes, slots, containers,
partials, bound methods and closures of Memtab's functions), never into Qt's or other
libraries' objects, so it sees what the code can reach again."""

from __future__ import annotations

import functools
import types
from collections import deque
from collections.abc import Iterator

from shiboken6 import Shiboken

OWN = "memtab."


def _own(value: object) -> bool:
    return type(value).__module__.startswith(OWN)


def _members(value: object) -> Iterator[tuple[str, object]]:
    """What `value` holds that the code can reach again, each with how it is named."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"[{key!r}]", item
            yield f"<key {key!r}>", key
    elif isinstance(value, (list, tuple, set, frozenset, deque)):
        for index, item in enumerate(value):
            yield f"[{index}]", item
    elif isinstance(value, functools.partial):
        yield ".func", value.func
        for index, item in enumerate(value.args):
            yield f".args[{index}]", item
        for key, item in value.keywords.items():
            yield f".keywords[{key}]", item
    elif isinstance(value, types.MethodType):
        yield ".__self__", value.__self__
        yield ".__func__", value.__func__
    elif isinstance(value, types.FunctionType):
        if value.__module__ and value.__module__.startswith(OWN) and value.__closure__:
            names = value.__code__.co_freevars
            for name, cell in zip(names, value.__closure__, strict=True):
                try:
                    yield f"<closure {name}>", cell.cell_contents
                except ValueError:  # an empty cell
                    continue
    elif _own(value):
        for name, item in getattr(value, "__dict__", {}).items():
            yield f".{name}", item
        for cls in type(value).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                    yield f".{name}", getattr(value, name)


def deleted_qt_objects(root: object, name: str, *, depth: int = 12) -> list[str]:
    """The paths from `root` (called `name`) to every Qt object it holds whose C++ object
    is deleted."""
    found: list[str] = []
    seen = {id(root)}
    queue: deque[tuple[object, str, int]] = deque([(root, name, 0)])
    while queue:  # breadth first: each object named by its shortest path
        value, path, level = queue.popleft()
        if isinstance(value, Shiboken.Object) and not Shiboken.isValid(value):
            found.append(f"{path} ({type(value).__name__})")
            continue
        if level == depth:
            continue
        for step, item in _members(value):
            if id(item) not in seen:
                seen.add(id(item))
                queue.append((item, path + step, level + 1))
    return sorted(found)
