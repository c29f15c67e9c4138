"""A check's obvious fixes as the memory tool's calls: the ops of a plan the user reviews
like a consolidation's (`consolidation.review.plan_check.plan_from_calls` makes the plan; `memtab
check --plan-out`, later the window's Check panel).

Only fixes of mux's files can be plan ops (the memory tool reaches no other agent's
file), one `str_replace` per line (the whole line, so it is unique in its file and a fix
never touches another line); a line with two fixes gets the first, and the next check
finds the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memtab.check.records import Finding

REASON_ARGUMENT = "reason"
"""The call's argument a plan shows as why the change is proposed (as a consolidator's)."""


def fix_calls(findings: Iterable[Finding], *, limit: int) -> list[dict[str, Any]]:
    """The tool calls of the plannable fixes among `findings`, at most `limit` (a run's
    mutation budget), in the findings' order."""
    calls: list[dict[str, Any]] = []
    taken: set[tuple[str, str | None, int | None]] = set()
    for finding in findings:
        fix = finding.fix
        if fix is None or not fix.plannable or finding.agent != "mux":
            continue
        place = (finding.path, finding.workspace, finding.line)
        if place in taken:
            continue
        taken.add(place)
        calls.append(
            {
                "command": "str_replace",
                "path": finding.path,
                "old_str": fix.old_str,
                "new_str": fix.new_str,
                REASON_ARGUMENT: f"{finding.message}. {fix.description}.",
            }
        )
        if len(calls) >= limit:
            break
    return calls


def plannable_count(findings: Iterable[Finding]) -> int:
    """How many findings have a fix a plan could make."""
    return sum(1 for f in findings if f.fix is not None and f.fix.plannable and f.agent == "mux")
