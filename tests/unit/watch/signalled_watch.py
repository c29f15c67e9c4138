"""`memtab watch` that signals itself at a chosen moment once its first pass is done, for the
tests of its stop: `python signalled_watch.py MOMENT SIGNAL HOME`.

MOMENT `in-its-wait`: on the main thread, while the recorder's wait holds its wake event's lock
(a Python handler runs there, between two bytecodes). `on-another-thread`: delivered to a thread
not the main one, while the main thread sleeps in that wait (a process's signal lands on any
thread that does not block it). It says on stderr when it has signalled.
"""

from __future__ import annotations

import inspect
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any

from memtab.cli.background import watch_commands
from memtab.launch import main
from memtab.watch.recorder import Recorder

_MAIN = threading.main_thread()


def _in_its_wait(number: signal.Signals) -> None:
    """Trace the main thread: the first line of an Event's wait it runs after the ready line,
    holding the event's lock, raises the signal (its handler runs before `raise_signal` returns)."""
    lines, first = inspect.getsourcelines(threading.Event.wait)
    holding_from = first + next(i for i, text in enumerate(lines) if "with self._cond" in text) + 1
    ready, wait = watch_commands._say_ready.__code__, threading.Event.wait.__code__
    armed = [False]

    def in_wait(frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "line" and frame.f_lineno >= holding_from:
            sys.settrace(None)
            print(f"{number.name} inside the wait's lock", file=sys.stderr, flush=True)
            signal.raise_signal(number)
            return None
        return in_wait

    def calls(frame: FrameType, _event: str, _arg: Any) -> Any:
        if frame.f_code is ready:
            armed[0] = True
        elif frame.f_code is wait and armed[0]:
            return in_wait
        return None

    sys.settrace(calls)


def _on_another_thread(number: signal.Signals) -> None:
    """Once ready, a thread of its own signals itself when the main thread sleeps in its wait."""
    say_ready = watch_commands._say_ready

    def sleeping_in_wait() -> bool:
        frame = sys._current_frames().get(_MAIN.ident or 0)
        return frame is not None and frame.f_code is threading.Condition.wait.__code__

    def signal_this_thread() -> None:
        while not sleeping_in_wait():
            time.sleep(0.05)
        time.sleep(0.2)  # past the last bytecode before it sleeps: nothing wakes it in this test
        print(f"{number.name} to a thread not the main one", file=sys.stderr, flush=True)
        signal.pthread_kill(threading.get_ident(), number)

    def ready(recorder: Recorder) -> None:
        say_ready(recorder)
        threading.Thread(target=signal_this_thread, name="signaller").start()

    watch_commands._say_ready = ready


if __name__ == "__main__":
    moment, name, home = sys.argv[1:]
    {"in-its-wait": _in_its_wait, "on-another-thread": _on_another_thread}[moment](
        signal.Signals[name]
    )
    sys.exit(main(["watch", "--home", home]))
