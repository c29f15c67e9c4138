"""Which client each job of a lane reports to, and its wait and run times, on a fake clock."""

from __future__ import annotations

from memtab.components.jobs import JobRoutes


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_job_reports_to_its_owner_with_its_wait_and_run_times() -> None:
    clock = FakeClock()
    routes = JobRoutes[str](clock)
    routes.adopt(7, "history")
    clock.now += 0.25
    assert routes.started(7) == ("history", 250.0)
    assert routes.owner(7) == "history"
    clock.now += 1.5
    assert routes.ended(7) == ("history", 1500.0)
    assert routes.owner(7) is None
    assert routes.ended(7) is None  # reported once


def test_a_job_let_go_reports_nowhere() -> None:
    clock = FakeClock()
    routes = JobRoutes[str](clock)
    routes.adopt(1, "search")
    routes.adopt(2, "tree")
    routes.disown(1)
    assert routes.started(1) is None and routes.ended(1) is None
    routes.clear()
    assert routes.started(2) is None and routes.owner(2) is None


def test_a_job_ended_before_it_started_ran_since_it_was_submitted() -> None:
    clock = FakeClock()
    routes = JobRoutes[str](clock)
    routes.adopt(3, "blame")
    clock.now += 0.125
    assert routes.ended(3) == ("blame", 125.0)
