"""Signals that stop a long-running command (`memtab watch`) cleanly."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

_STOPPING = (signal.SIGTERM, signal.SIGINT)


@contextlib.contextmanager
def stopped_by_signals(stop: Callable[[], None]) -> Iterator[None]:
    """SIGTERM and SIGINT call `stop` on a thread of their own. A Python signal handler runs on
    the main thread between two of its bytecodes, maybe while it holds the very lock `stop`
    takes (an Event's): it would wait for itself forever. So the handler only writes a byte."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # a second signal before the first is read is no news

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(write_end, b"\0")

    def wait_and_stop() -> None:
        if os.read(read_end, 1) == b"\0":
            stop()

    waiting = threading.Thread(target=wait_and_stop, name="memtab-watch-signals", daemon=True)
    waiting.start()
    before = {number: signal.signal(number, on_signal) for number in _STOPPING}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        os.close(write_end)  # the waiting thread reads the end of the pipe and returns
        waiting.join()
        os.close(read_end)
