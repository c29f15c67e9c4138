"""A call run on a thread of its own beside the caller's work, its result (or what it
raised) taken where the caller waits for it: the sync's push beside its fetch, history's
copies beside a batch's temps, a join's branch move beside its runs log. Each lets go of
the interpreter (a child process, hashing, compressing), so on a second core it costs no
time."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Beside(Generic[T]):
    """`call()` on a daemon thread named `name`, started at once; `result()` waits for it
    and returns what it returned, or raises what it raised (in the caller's thread)."""

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
