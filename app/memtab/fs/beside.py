"""A call run on a thread beside the caller's work, its result or exception taken where the caller
waits (work that releases the interpreter)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Beside(Generic[T]):
    """`call()` on a daemon thread started at once; `result()` returns what it returned or raises
    what it raised."""

    def __init__(self, call: Callable[[], T], name: str) -> None:
        self._call = call
        self._returned: list[T] = []
        self._raised: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._returned.append(self._call())
        except BaseException as error:  # re-raised by `result`, where the caller waits
            self._raised = error

    def result(self) -> T:
        self._thread.join()
        if self._raised is not None:
            raise self._raised
        return self._returned[0]
