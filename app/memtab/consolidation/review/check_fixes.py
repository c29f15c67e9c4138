"""The check's fixes as a plan, reviewed and applied like a consolidation's (docs/formats.md
§19.4): what `memtab check --plan-out` writes and the Check panel's "Apply fix" reviews."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memtab.check.fixes import fix_calls, plannable_count
from memtab.check.records import Finding
from memtab.consolidation.guard import MUTATION_BUDGET
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.review.plan_check import plan_from_calls
from memtab.fs.clock import now_ms
from memtab.humanize import plural
from memtab.store.history.runs import CHECK_FIX_PROVIDER, new_run_id
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace


@dataclass(frozen=True)
class FixPlan:
    """A plan of fixes, and how many more fixes wait for the next one (the budget)."""

    plan: ConsolidationPlan
    later: int


def plan_fixes(home: Home, workspace: Workspace, findings: Iterable[Finding]) -> FixPlan:
    """A plan of the plannable fixes among `findings` for `workspace`'s scopes, made on a scratch
    copy (nothing changes until it is applied). ConsolidationError when it cannot be made."""
    findings = list(findings)
    calls = fix_calls(findings, limit=MUTATION_BUDGET)
    created = now_ms()
    plan = plan_from_calls(
        MemoryStore(home, workspace, record_history=False),
        calls,
        plan_id=new_run_id(created).replace("run-", "plan-", 1),
        created_at=created,
        summary=f"Fixes of what `memtab check` found: {plural(len(calls), 'change')}.",
        provider=CHECK_FIX_PROVIDER,
        model="memtab check",
    )
    return FixPlan(plan, plannable_count(findings) - len(calls))
