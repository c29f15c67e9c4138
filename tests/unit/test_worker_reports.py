"""A worker sends xdist's controller what it reads (tests/support/worker_reports.py): a
passed phase's report without its keywords (any other keeps them), and neither a test's
start and end nor its passed setup and teardown with nothing captured."""

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


def _report(when: str, outcome: str = "passed", **fields: Any) -> dict[str, Any]:
    """A report as a worker sends it (`pytest_runtest_logreport` in xdist's worker)."""
    return {
        "nodeid": "t.py::test_it", "location": ("t.py", 1, "test_it"), "keywords": {},
        "outcome": outcome, "longrepr": None, "when": when, "user_properties": [],
        "sections": [], "duration": 0.001, "start": 1.0, "stop": 1.001,
        "$report_type": "TestReport", "item_index": 0, "worker_id": "gw0", "testrun_uid": "u",
    } | fields  # fmt: skip


def test_a_tests_start_and_end_and_its_quiet_passed_setup_and_teardown_are_unread() -> None:
    assert worker_reports.unread("logstart", {"nodeid": "t.py::test_it", "location": ()})
    assert worker_reports.unread("logfinish", {"nodeid": "t.py::test_it", "location": ()})
    assert worker_reports.unread("testreport", {"data": _report("setup")})
    assert worker_reports.unread("testreport", {"data": _report("teardown")})


@pytest.mark.parametrize(
    "report",
    [
        _report("call"),
        _report("setup", "failed"),
        _report("setup", "skipped"),
        _report("teardown", "failed"),
        _report("teardown", sections=[("Captured stdout teardown", "bye")]),
        _report("setup", user_properties=[("key", "value")]),
        _report("teardown", _hypothesis_failing_examples=["..."]),  # a plugin's own field
    ],
    ids=["call", "setup-failed", "setup-skipped", "teardown-failed", "captured", "props", "plugin"],
)
def test_a_report_the_controller_reads_is_sent(report: dict[str, Any]) -> None:
    assert not worker_reports.unread("testreport", {"data": report})
    assert not worker_reports.unread("runtest_protocol_complete", {"item_index": 0})


class _Interactor:
    """xdist's object on a worker that sends the controller its events."""

    workerid = "gw0"

    def __init__(self) -> None:
        self.sent: list[str] = []

    def sendevent(self, name: str, **fields: Any) -> None:
        self.sent.append(name)


class _PluginManager:
    """A worker's plugins: its terminal reporter, xdist's object and another."""

    def __init__(self, interactor: _Interactor) -> None:
        self.plugins: dict[str, object] = {
            "terminalreporter": SimpleNamespace(_tw="the writer"),
            "xdist's": interactor,
            "other": object(),
        }

    def get_plugin(self, name: str) -> object | None:
        return self.plugins.get(name)

    def get_plugins(self) -> list[object]:
        return list(self.plugins.values())

    def unregister(self, plugin: object) -> None:
        self.plugins = {name: p for name, p in self.plugins.items() if p is not plugin}

    def register(self, plugin: object, name: str) -> None:
        self.plugins[name] = plugin


def _configured(*, worker: bool = True, verbosity: int = 0, **options: Any) -> _Interactor:
    """The interactor's events, once `pytest_configure` saw a config with these settings,
    for a test's start, its quiet setup, its call and its end."""
    interactor = _Interactor()
    config = SimpleNamespace(
        get_verbosity=lambda _kind: verbosity,
        getoption=lambda name, default=None: options.get(name, default),
        getini=lambda name: False,
        pluginmanager=_PluginManager(interactor),
    )
    if worker:
        config.workerinput = {"workerid": "gw0"}
    worker_reports.pytest_configure(config)  # type: ignore[arg-type]
    interactor.sendevent("logstart", nodeid="t.py::test_it", location=())
    interactor.sendevent("testreport", data=_report("setup"))
    interactor.sendevent("testreport", data=_report("call"))
    interactor.sendevent("logfinish", nodeid="t.py::test_it", location=())
    return interactor


def test_a_worker_sends_only_what_its_controller_reads() -> None:
    assert _configured().sent == ["testreport"]


@pytest.mark.parametrize(
    "settings",
    [
        {"worker": False},
        {"verbosity": 1},
        {"durations": 0},
        {"xmlpath": "junit.xml"},
        {"log_cli_level": "INFO"},
    ],
    ids=["controller", "verbose", "durations", "junitxml", "live-logging"],
)
def test_every_event_is_sent_where_the_controller_reads_them(settings: dict[str, Any]) -> None:
    assert _configured(**settings).sent == ["logstart", "testreport", "testreport", "logfinish"]


def _terminal_reporter(*, live_logging: bool) -> object:
    """A worker's terminal reporter once `pytest_configure` ran, live logging on or off."""
    plugins = _PluginManager(_Interactor())
    config = SimpleNamespace(
        workerinput={"workerid": "gw0"},
        get_verbosity=lambda _kind: 0,
        getoption=lambda name, default=None: default,
        getini=lambda name: live_logging and name == "log_cli",
        pluginmanager=plugins,
    )
    worker_reports.pytest_configure(config)  # type: ignore[arg-type]
    return plugins.get_plugin("terminalreporter")


def test_a_workers_terminal_reporter_is_a_stand_in_with_its_writer() -> None:
    reporter = _terminal_reporter(live_logging=False)
    assert isinstance(reporter, worker_reports._NoTerminal)
    assert reporter._tw == "the writer"
    # Live logging writes through the reporter itself and turns -v on: it keeps it.
    assert not isinstance(_terminal_reporter(live_logging=True), worker_reports._NoTerminal)
