"""The base of Memtab's small slotted classes (cheaper to define than NamedTuples): a repr that
shows their fields."""

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
