"""What a pytest-xdist worker sends its controller: what the controller reads, no more;
and a worker's own terminal reporter, whose output nobody reads, does nothing.

A worker serializes each of a test's three reports and sends it to the controller, which
rebuilds it. A report's `keywords` are the names of the test, its folders, marks and
parameters (~10 strings, half of a passed report's), and the controller reads them only
to fold skipped tests in its summary, so a passed report goes without them: 2,000 empty
tests on one worker took the worker 2.26 → 2.11 s of CPU and the controller 0.87 → 0.82 s
(medians of three runs alternated with the reports whole, load 8.5–9.8), ~0.1 ms a test.
A skipped or failed report keeps them, and so does a report serialized outside a worker.

Each message is also a write to a pipe that wakes the controller's reading thread, which
hands it to its main thread: six a test (the test's start and end, its three reports, the
scheduler's "done"). At a verbosity of 0 or less the controller shows nothing of a test's
start or end (pytest's terminal writes its progress from the reports), nor of a passed
setup or teardown with nothing captured, so those stay on the worker unless `--durations`
or `--junitxml` reads them: 4,000 empty tests cost the controller 2.94 → 1.75 s of CPU
and the worker 5.96 → 5.59 s (means of four runs alternated, load 2–4).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import pytest

# The start and end of a test: the controller's terminal writes them only past -v.
_UNREAD_EVENTS = frozenset({"logstart", "logfinish"})
# A report's fields as pytest and xdist serialize them; one with any other (a plugin's,
# Hypothesis's failing example on a teardown) is sent.
_REPORT_FIELDS = frozenset(
    {
        "nodeid", "location", "keywords", "outcome", "longrepr", "when", "user_properties",
        "sections", "duration", "start", "stop", "$report_type",
        "item_index", "worker_id", "testrun_uid",
    }
)  # fmt: skip


@pytest.hookimpl(wrapper=True)
def pytest_report_to_serializable(
    config: pytest.Config, report: pytest.CollectReport | pytest.TestReport
) -> Generator[None, dict[str, Any] | None, dict[str, Any] | None]:
    data = yield
    if data is not None and data.get("outcome") == "passed" and hasattr(config, "workerinput"):
        data["keywords"] = {}
    return data


def unread(name: str, fields: dict[str, Any]) -> bool:
    """Whether the controller reads nothing of an event (`name`, with its `fields`) at a
    verbosity of 0 or less."""
    if name in _UNREAD_EVENTS:
        return True
    if name != "testreport":
        return False
    report = fields["data"]
    return (
        report.get("when") in ("setup", "teardown")
        and report.get("outcome") == "passed"
        and not report.get("sections")
        and not report.get("user_properties")
        and report.keys() <= _REPORT_FIELDS
    )


class _NoTerminal:
    """What stands for a worker's terminal reporter: its writer, no hooks. A worker's output
    goes to /dev/null (xdist's controller writes the run's), and the reporter's work for
    each report (its status, its stats, a dot written and flushed) cost the worker ~0.09
    ms a test (4,000 empty tests, `-n 1`: 4.94 → 4.58 s, four runs alternated, load ~5).
    Whatever asks for a terminal reporter still finds one: Hypothesis adds a failing
    example's patch to a report only then, and an assertion's explanation asks for its
    writer's highlighting."""

    def __init__(self, writer: object) -> None:
        self._tw = writer


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """On a worker, its terminal reporter is a `_NoTerminal`; and as its controller reads no
    test's start, end or passed quiet phase, those are held back (xdist's own object sends
    them: its `sendevent` is wrapped)."""
    # Live logging (`log_cli`) writes through the reporter and turns -v on: all stays.
    live_logging = config.getini("log_cli") or config.getoption("log_cli_level", None)
    if not hasattr(config, "workerinput") or live_logging:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and not isinstance(reporter, _NoTerminal):
        config.pluginmanager.unregister(reporter)
        config.pluginmanager.register(_NoTerminal(reporter._tw), "terminalreporter")
    if (
        config.get_verbosity(pytest.Config.VERBOSITY_TEST_CASES) > 0
        or config.getoption("durations", None) is not None
        or config.getoption("xmlpath", None)
    ):
        return
    for plugin in config.pluginmanager.get_plugins():
        send = getattr(plugin, "sendevent", None)
        if callable(send) and hasattr(plugin, "workerid"):
            plugin.sendevent = _held_back(send)


def _held_back(send: Callable[..., None]) -> Callable[..., None]:
    def sendevent(name: str, **fields: Any) -> None:
        if not unread(name, fields):
            send(name, **fields)

    return sendevent
