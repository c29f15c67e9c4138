"""A trust command's whole report kept for its next run over the same memory (docs/formats.md
§19.10), git's index's way: keyed by a digest of every file's `lstat` as listed, none changed
within git's racy margin (`check.documents.Listed.stamps`), of what else the report depends on
(the engine's `context`: the projects' names, the history's state) and of the code that made it;
so a run in which nothing changed is answered from it without opening a file, and one in which a
file, the engine or its version changed never is. One sealed memo per home and command
(`KeptAnswer`): private, written by rename, ignored when damaged. Beside it, what a command prints
of it as JSON (`KeptPrinted`), so a warm `--json` run neither rebuilds the report's records nor
imports its engine: kept as the very bytes a cold run printed to a pipe, made once for both."""

from __future__ import annotations

import functools
import hashlib
import logging
import marshal
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from memtab.fs.atomic import compact_json
from memtab.fs.memo import DIGESTED_MARSHAL
from memtab.fs.records import Record
from memtab.kept.per_file import KeptAnswer
from memtab.store.home import Home

logger = logging.getLogger(__name__)
R = TypeVar("R", bound=Record)


@functools.cache
def code_identity() -> bytes:
    """A digest of Memtab's code as installed: each module's path, size and time, so a report
    kept by another version of any engine, reader or rule is never taken for this one's."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.blake2b(digest_size=16)
    for folder, subfolders, names in os.walk(package):
        subfolders.sort()
        for name in sorted(names):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.digest()


def report_key(stamps: bytes, context: object) -> bytes:
    """The key of a report over the memory listed as `stamps` (`Listed.stamps`) in `context`
    (plain data: what else it depends on), by the code that makes it."""
    digest = hashlib.blake2b(code_identity(), digest_size=16)
    digest.update(stamps)
    digest.update(marshal.dumps(context, DIGESTED_MARSHAL))  # type: ignore[arg-type]  # plain
    return digest.digest()


class KeptPrinted(NamedTuple):
    """What a command prints of a kept report: its JSON document (`Record.to_json`) as
    `compact_json` writes it, what could not be read, and whether it found anything (its
    exit status)."""

    printed: bytes
    problems: tuple[str, ...]
    found: bool


def kept_printed(home: Home, command: str, key: bytes) -> KeptPrinted | None:
    """What `command` printed of the report kept for `key` (`report_key`), or None."""
    held = _printed_answer(home, command).get(key)
    return None if held is None else KeptPrinted(*held)


def _printed_answer(home: Home, command: str) -> KeptAnswer:
    return KeptAnswer.of_home(home, f"{command}-printed", valid=_a_printed_report)


class KeptReport(Generic[R]):
    """One command's report of one home, kept for its next run (see the module doc): `record`
    the report's class, `parts` the classes of the records it holds, `findings` the name of
    its field of what it found."""

    def __init__(
        self,
        home: Home,
        command: str,
        record: type[R],
        parts: Iterable[type[Record]],
        *,
        findings: str,
    ) -> None:
        self._record = record
        self._findings = findings
        classes: tuple[type[Record], ...] = (record, *parts)
        self._classes = {
            cls.__name__: (cls, tuple(declared.name for declared in cls.fields()))
            for cls in classes
        }
        self._answer = KeptAnswer.of_home(home, f"{command}-report", valid=_a_packed_record)
        self._printed = _printed_answer(home, command)
        self._last: tuple[R, KeptPrinted] | None = None

    def get(self, key: bytes) -> R | None:
        """The report kept for `key`, or None."""
        held = self._answer.get(key)
        if held is None:
            return None
        try:
            report = self._unpacked(held)
        except (KeyError, TypeError, ValueError) as error:
            logger.info("The kept report is not one this engine makes (%s): worked out", error)
            report = None
        if type(report) is not self._record:
            self._answer.forget()
            return None
        return report

    def put(self, key: bytes, report: R) -> None:
        """Keep `report` for `key`, and what its command prints of it (`printed_of`)."""
        self._answer.put(key, self._packed(report))
        problems = tuple(getattr(report, "problems", ()))
        found = bool(getattr(report, self._findings))
        printed = KeptPrinted(compact_json(report.to_json()), problems, found)
        self._printed.put(key, tuple(printed))
        self._last = (report, printed)

    def printed_of(self, report: R) -> KeptPrinted | None:
        """What its command prints of `report` when it is the one just kept (`put`): its JSON
        made once, for the memo and stdout alike."""
        last = self._last
        return last[1] if last is not None and last[0] is report else None

    def _packed(self, value: object) -> object:
        """A report as plain tuples `marshal` writes: a record as `("r", its class's name, its
        fields' values)`, a tuple, frozenset or dict tagged `t`, `f`, `d`; each kind told
        apart by its exact type first (a report holds tens of thousands of values)."""
        kind = type(value)
        if kind in _VALUES:
            return value
        packed = self._packed
        known = self._classes.get(kind.__name__)
        if known is not None and known[0] is kind:
            return ("r", kind.__name__, tuple([packed(getattr(value, n)) for n in known[1]]))
        if isinstance(value, Record):
            fields = kind.fields()  # type: ignore[attr-defined]
            return ("r", kind.__name__, tuple([packed(getattr(value, f.name)) for f in fields]))
        if isinstance(value, tuple | list):
            return ("t", tuple([packed(item) for item in value]))
        if isinstance(value, frozenset | set):
            return ("f", tuple([packed(item) for item in value]))
        if isinstance(value, dict):
            return ("d", tuple([(packed(k), packed(v)) for k, v in value.items()]))
        raise TypeError(f"a report holds no {kind.__name__}")

    def _unpacked(self, held: Any) -> Any:
        """`_packed`'s inverse, making only the records of this report's classes (a value
        that is no tuple is a scalar: most are, so they are told apart before a call)."""
        if type(held) is not tuple:
            if type(held) in _SCALARS:
                return held
            raise TypeError("not a value a report holds")
        unpacked = self._unpacked
        if held[0] == "r":
            _, name, values = held
            cls, names = self._classes[name]
            if len(values) != len(names):
                raise ValueError("not the fields of its record")
            return cls.unchecked(**dict(zip(names, map(self._value, values), strict=True)))
        tag, items = held
        if tag == "t":
            return tuple(map(self._value, items))
        if tag == "f":
            return frozenset(map(unpacked, items))
        if tag == "d":
            return {unpacked(key): unpacked(value) for key, value in items}
        raise ValueError("not a value a report holds")

    def _value(self, held: Any) -> Any:
        if type(held) is tuple:
            return self._unpacked(held)
        if type(held) not in _VALUES:
            raise TypeError("not a value a report holds")
        return held


_SCALARS = (str, int, float, bool, bytes, type(None))
_VALUES = frozenset(_SCALARS)
"""What a record's field holds once unpacked, but records and their containers."""


def _a_packed_record(held: Any) -> bool:
    return type(held) is tuple and len(held) == 3 and held[0] == "r"


def _a_printed_report(held: Any) -> bool:
    return (
        type(held) is tuple
        and len(held) == 3
        and type(held[0]) is bytes
        and type(held[1]) is tuple
        and all(type(problem) is str for problem in held[1])
        and type(held[2]) is bool
    )
