"""A passed phase's report reaches xdist's controller without its keywords
(tests/support/worker_reports.py); any other keeps them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from support import worker_reports

KEYWORDS = {"test_it": 1, "slow": 1, "unit": 1}


def _serialized(outcome: str, *, on_a_worker: bool) -> dict[str, Any]:
    """What the hook returns for a report whose serialized form has `outcome`."""
    config = SimpleNamespace(workerinput={"workerid": "gw0"}) if on_a_worker else SimpleNamespace()
    report = pytest.TestReport(
        "t.py::test_it", ("t.py", 1, "test_it"), KEYWORDS, outcome, None, "call"
    )
    hook = worker_reports.pytest_report_to_serializable(config, report)  # type: ignore[arg-type]
    next(hook)
    with pytest.raises(StopIteration) as returned:
        hook.send({"outcome": outcome, "keywords": dict(KEYWORDS), "nodeid": report.nodeid})
    result: dict[str, Any] = returned.value.value
    return result


def test_a_passed_report_from_a_worker_goes_without_its_keywords() -> None:
    data = _serialized("passed", on_a_worker=True)
    assert data == {"outcome": "passed", "keywords": {}, "nodeid": "t.py::test_it"}


@pytest.mark.parametrize("outcome", ["skipped", "failed"])
def test_a_report_the_summary_reads_keeps_them(outcome: str) -> None:
    assert _serialized(outcome, on_a_worker=True)["keywords"] == KEYWORDS


def test_outside_a_worker_every_report_keeps_them() -> None:
    assert _serialized("passed", on_a_worker=False)["keywords"] == KEYWORDS
