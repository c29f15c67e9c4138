"""How changes coalesce (docs/formats.md §14.5): a trailing debounce capped by a maximum latency, a
settled change passed at once while calm; decisions from the time given, the caller keeping the
timer."""

import collections
import threading
from collections.abc import Callable, Iterable
from typing import NamedTuple

LEADING_EDGE_MAX_RECENT = 1
"""A settled change passes at once while at most this many others came within the debounce."""


class Decision(NamedTuple):
    """What to do after a change arrived: report `report` now, or wait `wait_ms` and `take()`."""

    report: list[str] | None
    """The change's items, sorted, to report now (the leading edge); None: wait."""
    wait_ms: int
    """How long from now until the waiting batch is due (0 when reported now)."""


class Coalescer:
    """Collects changed items (paths, or what they concern) into batches; see the module doc."""

    def __init__(
        self, *, debounce_ms: float, max_latency_ms: float, leading_edge: bool = True
    ) -> None:
        if debounce_ms < 0 or max_latency_ms < debounce_ms:
            raise ValueError("need 0 <= debounce_ms <= max_latency_ms")
        self.debounce_ms = debounce_ms
        self.max_latency_ms = max_latency_ms
        self._leading_edge = leading_edge
        self._pending: set[str] = set()
        self._first_ms = 0.0  # when the oldest pending item arrived
        self._last_ms = 0.0  # when the newest did
        self._arrivals: collections.deque[float] = collections.deque()  # within the debounce

    @property
    def pending(self) -> bool:
        """Whether a batch is waiting."""
        return bool(self._pending)

    def add(self, now_ms: float, items: Iterable[str], *, settled: bool = False) -> Decision:
        """A change of `items` arrived at `now_ms`: report it now, or how long to wait."""
        arrivals = self._arrivals
        while arrivals and now_ms - arrivals[0] > self.debounce_ms:
            arrivals.popleft()
        calm = len(arrivals) <= LEADING_EDGE_MAX_RECENT and not self._pending
        arrivals.append(now_ms)
        if settled and calm and self._leading_edge:
            return Decision(sorted(set(items)), 0)
        if not self._pending:
            self._first_ms = now_ms
        self._pending.update(items)
        self._last_ms = now_ms
        wait = self.wait_ms(now_ms)
        assert wait is not None
        return Decision(None, wait)

    def wait_ms(self, now_ms: float) -> int | None:
        """How long until the waiting batch is due (0: now; None: none waits)."""
        if not self._pending:
            return None
        due = min(self._last_ms + self.debounce_ms, self._first_ms + self.max_latency_ms)
        return int(max(0.0, due - now_ms))

    def take(self) -> list[str]:
        """The waiting batch, sorted (empty when none), and nothing waits any more."""
        batch, self._pending = sorted(self._pending), set()
        return batch

    def clear(self) -> None:
        """Drop the waiting batch (the watch stopped)."""
        self._pending.clear()


LARGE_BATCH = 500
"""A batch larger than this is reported as the root alone: everyone rescans anyway."""


def reported_batch(
    batch: list[str], root: str, root_is_dir: Callable[[], bool]
) -> tuple[list[str], bool]:
    """What a due `batch` under `root` reports, and whether the root vanished (`root_is_dir` asked
    only then)."""
    if root in batch and not root_is_dir():
        return batch, True
    if len(batch) > LARGE_BATCH:
        return [root], False
    return batch, False


class PostedPaths:
    """Paths an observer thread posts for the GUI thread, with settledness and observer generation;
    thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._posted: list[tuple[list[str], bool, int]] = []

    def post(self, paths: list[str], settled: bool, generation: int) -> bool:
        """Add a posting; whether the inbox was empty (wake the GUI thread once per filling)."""
        with self._lock:
            was_empty = not self._posted
            self._posted.append((paths, settled, generation))
        return was_empty

    def take(self, generation: int) -> tuple[list[str], bool] | None:
        """What the observer of `generation` posted since the last take (others' dropped), several
        postings as a burst; None when nothing."""
        with self._lock:
            posted = [item for item in self._posted if item[2] == generation]
            self._posted.clear()
        if len(posted) == 1:
            paths, settled, _generation = posted[0]
            return paths, settled
        if posted:
            return [path for paths, _settled, _gen in posted for path in paths], False
        return None
