"""The base of Memtab's small slotted classes: a repr that shows their fields.

Records the window defines before its first paint are plain slotted classes, not
NamedTuples (building a NamedTuple's class costs ~0.67 M instructions); this gives them back
the readable repr a NamedTuple had, for logs and test failures.
"""

from __future__ import annotations


class Slotted:
    """A class whose fields are its `__slots__`, shown by name in its repr."""

    __slots__: tuple[str, ...] = ()

    def __repr__(self) -> str:
        shown = ", ".join(_field(self, name) for name in type(self).__slots__)
        return f"{type(self).__name__}({shown})"


def _field(record: Slotted, name: str) -> str:
    try:
        return f"{name}={getattr(record, name)!r}"
    except AttributeError:  # a slot not set yet (a repr in a failing constructor's log)
        return f"{name}=<unset>"
