"""`memtab check`: is what the memory says still true of the code? (docs/formats.md §19). Exit 0:
nothing found, 1: something was, 2: the check could not be made."""

from __future__ import annotations

import sys
from pathlib import Path

from memtab.check.engine import CheckEngine
from memtab.check.kept import KeptCheck
from memtab.check.recalled import RecallChecks
from memtab.check.records import CheckReport, Finding
from memtab.check.settings import MAX_STALE_DAYS
from memtab.checked.cache import CheckCache
from memtab.cli.common import as_cli_error, command, print_json, print_json_bytes
from memtab.cli.failure import Kind, failed
from memtab.cli.options import CliError
from memtab.humanize import plural
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStoreError
from memtab.store.sidecars.registry import load_registry

COULD_NOT_CHECK = 2


@command("check", writes_home=False)
def run_check(
    home: Home,
    *,
    workspace: str | None = None,
    json: bool = False,
    plan_out: str | None = None,
    stale_days: int | None = None,
    no_sources: bool = False,
) -> int:
    """check the memory against the code: missing files, scripts and programs, broken links,
    disagreeing facts, stale memory

    Check what the memory says against each project's checkout: paths that do not exist,
    make/just/npm/pnpm/yarn/uv targets that are not defined, programs that are not installed,
    links between memory files that lead nowhere, two memories that disagree on a port, version
    or setting, and memory no agent used for a while. A project that is not on this disk is one
    finding. Exits 1 when something was found, 0 when not, 2 when the check could not be made.

    Args:
        workspace (ID): check what this workspace sees (global, its project's and its own
            memory); default: every memory file of the home, each once
        json: print the report as JSON
        plan_out (FILE): with --workspace: write the obvious fixes as a plan to review and apply
            with `memtab consolidate --apply-plan FILE`
        stale_days (N): memory unused for N days is stale (default: settings.json
            check.stale_days, else 90; 0: never)
        no_sources: check mux's memory only, not the other agents' (Claude Code, Codex,
            loki-mode)
    """
    if plan_out and not workspace:
        raise CliError("--plan-out needs --workspace ID: a plan changes one workspace's scopes")
    if stale_days is not None and not 0 <= stale_days <= MAX_STALE_DAYS:
        raise CliError(f"--stale-days must be from 0 to {MAX_STALE_DAYS}")
    # As agents recall memory (default settings, every source): kept for their answers.
    cached = stale_days is None and not no_sources
    printable = json and not plan_out  # a warm run prints what the last one did
    engine = CheckEngine(home, stale_days=stale_days, sources=not no_sources, keep_report=printable)
    try:
        # The kept report is the check cache's too (written with it): while that is there
        kept = engine.printed(workspace) if printable and _recalled(home, cached) else None
        if kept is not None:
            return _printed_again(kept)
        if cached:
            report = RecallChecks(home, engine=engine).check_now(workspace)
        else:
            report = engine.check(workspace)
        kept = engine.printed_of(report) if printable else None
        if kept is not None:  # its JSON made once, for the memo and stdout alike
            return _printed_again(kept)
    except (HomeError, MemoryStoreError, PathError, OSError) as error:
        words = f"cannot check: {error}"
        kind: Kind = "system" if isinstance(error, OSError) else "refused"
        return failed(words, kind, json=json, command="check", error=error, status=COULD_NOT_CHECK)
    plan_note = (
        _write_plan(home, workspace, report, Path(plan_out)) if workspace and plan_out else None
    )
    if json:
        print_json(report.to_json())
    else:
        for finding in report.findings:
            _print_finding(finding)
        files = plural(report.files_checked, "memory file")
        found = plural(len(report.findings), "finding") if report.findings else "No findings"
        print(f"{found} in {files}.")
        if report.cancelled:
            print("(cancelled before every file was checked)")
    if plan_note:
        print(plan_note, file=sys.stderr if json else sys.stdout)
    for problem in report.problems:
        print(f"memtab: not checked: {problem}", file=sys.stderr)
    return 1 if report.findings else 0


def _printed_again(kept: KeptCheck) -> int:
    """Print what was kept of a check's report (`check.kept`); its exit status."""
    print_json_bytes(kept.printed)
    for problem in kept.problems:
        print(f"memtab: not checked: {problem}", file=sys.stderr)
    return 1 if kept.found else 0


def _recalled(home: Home, cached: bool) -> bool:
    """Whether the check cache a check as agents recall memory writes is there (or none is
    written): a kept report answers only then, as its check wrote the cache."""
    return not cached or CheckCache(home).path.exists()


def _write_plan(home: Home, workspace_id: str, report: CheckReport, path: Path) -> str:
    """Write the plan of the report's fixes; what was written, in words."""
    # lazy: the consolidation engine (~1.4 MiB, ~0.3 s) with the first fix, never a check's
    from memtab.consolidation.errors import ConsolidationError
    from memtab.consolidation.review.check_fixes import plan_fixes
    from memtab.consolidation.review.plan import write_plan

    workspace = load_registry(home).require_workspace(workspace_id)
    with as_cli_error(ConsolidationError):
        fixes = plan_fixes(home, workspace, report.findings)
        write_plan(path, fixes.plan)
    plan, later = fixes.plan, fixes.later
    more = f"; {plural(later, 'more fix', 'more fixes')} after these are applied" if later else ""
    return (
        f"(plan of {plural(len(plan.proposed), 'fix', 'fixes')} written to {path}{more}. "
        f"Review and apply it with: memtab consolidate --workspace {workspace.id} "
        f"--apply-plan {path})"
    )


def _print_finding(finding: Finding) -> None:
    where = finding.path + (f":{finding.line}" if finding.line is not None else "")
    context = ""
    if finding.workspace:
        context = f" (workspace {finding.workspace})"
    elif finding.project and finding.kind != "project-missing":
        context = f" (project {finding.project})"
    print(f"{where}{context}: [{finding.kind}] {finding.message}")
    print(f"    {finding.why}")
    if finding.fix is not None:
        print(f"    fix: {finding.fix.description}")
    for related in finding.related:
        print(f"    see {related.path}:{related.line}: {related.text.strip()}")
