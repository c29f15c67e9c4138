"""watch_policy.coalesce: how changes coalesce, as decisions from the time given — the
window's watcher and `memtab watch` keep only the timer they are asked for."""

from __future__ import annotations

import pytest

from memtab.watch_policy.coalesce import Coalescer, Decision

# A timeline: (ms, items, settled) arrivals; each row says what is reported when, given a
# caller that starts its timer for `wait_ms` and takes the batch when it fires.
Arrival = tuple[float, list[str], bool]


def reported(coalescer: Coalescer, arrivals: list[Arrival]) -> list[tuple[float, list[str]]]:
    """What a caller reports, and when, for these arrivals (its timer run by hand)."""
    out: list[tuple[float, list[str]]] = []
    due: float | None = None
    for at, items, settled in [*arrivals, (float("inf"), [], False)]:
        if due is not None and due <= at:
            out.append((due, coalescer.take()))
            due = None
        if at == float("inf"):
            break
        decision = coalescer.add(at, items, settled=settled)
        if decision.report is not None:
            out.append((at, decision.report))
        else:
            due = at + decision.wait_ms
    return out


WINDOW = {"debounce_ms": 150, "max_latency_ms": 1000}
RECORDER = {"debounce_ms": 100, "max_latency_ms": 300, "leading_edge": False}


@pytest.mark.parametrize(
    ("options", "arrivals", "expected"),
    [
        pytest.param(
            WINDOW,
            [(0, ["a"], False), (100, ["a"], False)],
            [(250, ["a"])],
            id="a write going on waits for the debounce after its last event",
        ),
        pytest.param(
            WINDOW,
            [(0, ["a"], True)],
            [(0, ["a"])],
            id="a settled change while calm is reported at once",
        ),
        pytest.param(
            WINDOW,
            [(0, ["a"], True), (10, ["b"], True), (20, ["c"], True)],
            [(0, ["a"]), (10, ["b"]), (170, ["c"])],
            id="settled changes coming fast are batched",
        ),
        pytest.param(
            WINDOW,
            [(0, ["a"], False), (50, ["b"], True)],
            [(200, ["a", "b"])],
            id="a settled change joins a batch that is waiting",
        ),
        pytest.param(
            WINDOW,
            [(float(ms), [f"f{ms}"], False) for ms in range(0, 1200, 100)],
            [(1000, [f"f{ms}" for ms in range(0, 1000, 100)]), (1250, ["f1000", "f1100"])],
            id="a stream is flushed by the latency cap",
        ),
        pytest.param(
            RECORDER,
            [(0, ["global"], True)],
            [(100, ["global"])],
            id="the recorder has no leading edge: a pass records what settled",
        ),
        pytest.param(
            RECORDER,
            [(float(ms), ["global"], False) for ms in range(0, 400, 50)],
            [(300, ["global"]), (450, ["global"])],
            id="the recorder's latency cap",
        ),
    ],
)
def test_changes_are_reported_as_the_policy_says(
    options: dict[str, float], arrivals: list[Arrival], expected: list[tuple[float, list[str]]]
) -> None:
    assert reported(Coalescer(**options), arrivals) == expected  # type: ignore[arg-type]


def test_the_wait_is_counted_from_the_time_given() -> None:
    coalescer = Coalescer(debounce_ms=100, max_latency_ms=300)
    assert coalescer.wait_ms(0) is None
    assert coalescer.add(1000, ["a"]) == Decision(None, 100)
    assert coalescer.wait_ms(1060) == 40
    assert coalescer.add(1250, ["b"]) == Decision(None, 50)  # the cap: 1300
    assert coalescer.wait_ms(1400) == 0
    assert (coalescer.take(), coalescer.pending, coalescer.wait_ms(1400)) == (
        ["a", "b"],
        False,
        None,
    )


def test_a_stopped_watch_drops_what_waits() -> None:
    coalescer = Coalescer(debounce_ms=150, max_latency_ms=1000)
    coalescer.add(0, ["a"])
    coalescer.clear()
    assert (coalescer.pending, coalescer.take()) == (False, [])


def test_a_latency_under_the_debounce_is_refused() -> None:
    with pytest.raises(ValueError, match="debounce_ms"):
        Coalescer(debounce_ms=200, max_latency_ms=100)
