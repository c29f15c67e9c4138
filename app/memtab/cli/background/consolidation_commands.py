"""Headless consolidation: `memtab consolidate` (one workspace, with `--plan-out`/`--apply-plan` to
review before applying) and `memtab sweep` (launch sweep)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

from memtab.cli.common import (
    Exclusive,
    as_cli_error,
    command,
    format_table,
    open_store,
    print_json,
)
from memtab.cli.options import CliError
from memtab.consolidation.declined import DeclinedMatcher, DeclinedOp, forget_declined
from memtab.consolidation.engine.runner import RunLimits
from memtab.consolidation.errors import ConsolidationError, RunFailedError
from memtab.consolidation.guard import DRY_RUN_NOTE
from memtab.consolidation.records import ConsolidationPlan, PlannedOp
from memtab.consolidation.review.plan import read_plan, write_plan
from memtab.consolidation.service import ConsolidationService
from memtab.consolidation.sweep import SweepReport, run_launch_sweep
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.records import Record
from memtab.humanize import absolute_time, files_changed_text, plural
from memtab.llm.settings import ProviderName, ProviderSettings, resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.store.home import Home
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    JournalOp,
    RunScope,
    Trigger,
    changed_files,
)
from memtab.store.sidecars.registry import load_registry

CliTrigger = Literal["manual", "archive"]
# A run never takes more model steps than this (mux's cap); --max-steps may only lower it.
MAX_STEPS = RunLimits.max_steps


def _service(
    home: Home,
    provider: ProviderName | None,
    model: str | None,
    base_url: str | None,
    max_steps: int,
    timeout: float,
) -> ConsolidationService:
    if not 1 <= max_steps <= MAX_STEPS:
        raise CliError(f"--max-steps must be between 1 and {MAX_STEPS}")
    if timeout <= 0:
        raise CliError("--timeout must be positive")
    with as_cli_error(ProviderError, SettingsFileError):
        settings: ProviderSettings = resolve_provider_settings(provider, model, base_url)
    limits = RunLimits(max_steps=max_steps, timeout_s=timeout)
    return ConsolidationService(home, settings=settings, limits=limits)


# --- consolidate ----------------------------------------------------------------------------


def format_op(op: JournalOp) -> str:
    """One journal op on one line: `[applied ]`, `[rejected]` or `[proposed]` (a dry run's
    change), command, path(s), and why it was refused."""
    target = f"{op.path} -> {op.new_path}" if op.new_path else op.path
    label = "applied " if op.applied else "proposed" if op.note == DRY_RUN_NOTE else "rejected"
    line = f"[{label}] {op.command} {target}"
    if op.note and op.note != DRY_RUN_NOTE:
        line += f" — {op.note}"
    return line


def usage_line(record: ConsolidationRecord) -> str:
    if record.input_tokens is None and record.output_tokens is None:
        return "usage: no model tokens (offline consolidator)"
    return (
        f"usage: {record.input_tokens or 0:,} input + {record.output_tokens or 0:,} output tokens"
    )


def parse_accepted(text: str | None) -> tuple[int, ...] | None:
    """`1,3` → (1, 3); None or `all` → None (every proposed op)."""
    if text is None or text.strip().lower() == "all":
        return None
    numbers = []
    for part in text.split(","):
        try:
            numbers.append(int(part.strip()))
        except ValueError:
            raise CliError(f"--accept takes op numbers like 1,3 (not {part.strip()!r})") from None
    return tuple(numbers)


def print_plan(plan: ConsolidationPlan) -> None:
    """Each op of a plan with its number, words and diff; the ops of one unit together,
    under what the unit does (they are accepted together)."""
    units = {unit.indexes[0]: unit for unit in plan.units if len(unit.ops) > 1}
    grouped = {index for unit in units.values() for index in unit.indexes}
    for op in plan.ops:
        if op.index in grouped and op.index not in units:
            continue  # printed with its unit
        unit = units.get(op.index)
        if unit is None:
            _print_op(op, "")
            continue
        print(f"    {unit.description} — {unit.numbers()}, accepted together:")
        for part in unit.ops:
            _print_op(part, "  ")
    if not plan.ops:
        print("(no changes proposed)")
    if plan.scope is not None:
        print(f"scope: {plan.scope} alone")
    print(f"summary: {plan.summary}")


def _print_op(op: PlannedOp, indent: str) -> None:
    mark = "proposed" if op.proposed else "refused "
    print(f"{indent}{op.index:>2}. [{mark}] {op.description}")
    if not op.proposed and op.note:
        print(f"{indent}      {op.note}")
    for file in op.files:
        if file.diff:
            print(f"{indent}      " + file.diff.replace("\n", f"\n{indent}      "))


@command("consolidate", Exclusive("plan_out", "apply_plan"), writes_home=True)
def run_consolidate(
    home: Home,
    *,
    workspace: str,
    provider: ProviderName | None = None,
    model: str | None = None,
    base_url: str | None = None,
    max_steps: int = MAX_STEPS,
    timeout: float = RunLimits.timeout_s,
    dry_run: bool = False,
    plan_out: str | None = None,
    apply_plan: str | None = None,
    accept: str | None = None,
    trigger: CliTrigger = "manual",
    scope: RunScope | None = None,
    json: bool = False,
) -> int:
    """consolidate a workspace's memory now (combine, prune, promote)

    Args:
        workspace (ID):
        provider: model provider (default: MEMTAB_PROVIDER, the settings file, else offline)
        model (M): model id sent to the provider
        base_url (URL): provider base URL (e.g. Ollama)
        max_steps (N): model steps, 1 to %(default)s (the default)
        timeout (SECONDS): wall-clock limit of one run
        dry_run: propose changes without applying or journaling
        plan_out (FILE): write the plan (each proposed op with its diff) to FILE; change nothing
        apply_plan (FILE): apply a plan written by --plan-out
        accept (N,N): with --apply-plan: the op numbers to apply (default: every proposed op)
        scope: consolidate that scope alone (its files only; journaled as such)
        json: print the journal record
    """
    if accept is not None and apply_plan is None:
        raise CliError("--accept goes with --apply-plan")
    if dry_run and (plan_out or apply_plan):
        raise CliError("--dry-run cannot be combined with --plan-out or --apply-plan")
    if scope and apply_plan:
        raise CliError("--scope goes with a run or --plan-out: a plan keeps its own scope")
    service = _service(home, provider, model, base_url, max_steps, timeout)
    found = load_registry(service.home).require_workspace(workspace)
    if plan_out:
        return _plan_out(service, found.id, Path(plan_out), trigger, scope, json=json)
    if apply_plan:
        accepted = parse_accepted(accept)
        try:
            plan = read_plan(Path(apply_plan))
            if plan.workspace_id != found.id:
                raise CliError(f"the plan is for workspace {plan.workspace_id}, not {found.id}")
            record = service.apply_plan(plan, accepted)
        except ConsolidationError as error:
            raise _failed(error, json=json) from None
        return _print_record(record, json=json)
    if not json:
        what = f"the {scope} scope of " if scope else ""
        print(
            f"Consolidating {what}{found.display_name} ({found.id}) with "
            f"{service.describe_provider()}{' (dry run)' if dry_run else ''}…",
            file=sys.stderr,
        )
    try:
        record = service.run(found.id, trigger=trigger, dry_run=dry_run, scope=scope)
    except ConsolidationError as error:
        raise _failed(error, json=json, dry_run=dry_run) from None
    return _print_record(record, json=json, dry_run=dry_run)


def _failed(error: ConsolidationError, *, json: bool, dry_run: bool = False) -> CliError:
    """The error line of a run that did not go through; a run that changed something
    first prints what it applied (its journal record) before it — under `--json` inside
    the failure's one object."""
    record = error.record if isinstance(error, RunFailedError) else None
    trace = error.trace_path if isinstance(error, RunFailedError) else None
    if trace is not None and not json:
        print(f"Trace: {trace}", file=sys.stderr)
    if record is not None and json:
        return CliError(str(error), output=record.to_json())
    if record is not None:
        _print_record(record, json=json, dry_run=dry_run)
    return CliError(str(error))


def _plan_out(
    service: ConsolidationService,
    workspace_id: str,
    path: Path,
    trigger: Trigger,
    scope: RunScope | None,
    *,
    json: bool,
) -> int:
    with as_cli_error(ConsolidationError):
        plan = service.plan(workspace_id, trigger=trigger, scope=scope)
        write_plan(path, plan)
    if json:
        print_json(plan.to_json())
        return 0
    print_plan(plan)
    example = ",".join(str(index) for index in plan.units[0].indexes) if plan.units else "1"
    print(
        f"(plan written to {path}; nothing was changed. Apply it with: memtab consolidate "
        f"--workspace {workspace_id} --apply-plan {path} [--accept {example}])"
    )
    return 0


def _print_record(record: ConsolidationRecord, *, json: bool, dry_run: bool = False) -> int:
    if json:
        print_json(record.to_json())
        return 0
    for op in record.ops:
        print(format_op(op))
    if not record.ops:
        print("(no changes)")
    else:  # as every view counts a run (formats §9.6)
        applied = (op for op in record.ops if op.applied)
        print(f"result: {files_changed_text(len(changed_files(applied)))}")
    print(usage_line(record))
    print(f"summary: {record.summary}")
    if dry_run:
        print("(dry run: nothing was changed or journaled)")
    return 0


# --- declined ---------------------------------------------------------------------------------


class DeclinedListing(Record, write_only=True):
    """`memtab declined --json`: the declines in force (docs/formats.md §9.7)."""

    declined: tuple[DeclinedOp, ...]


class DeclinedForgotten(Record, write_only=True):
    """`memtab declined --forget --json`: how many declines were forgotten."""

    forgotten: int


@command("declined", writes_home=False)
def run_declined(
    home: Home, *, workspace: str, forget: bool = False
) -> DeclinedListing | DeclinedForgotten:
    """changes declined in review, not proposed again until their files change

    List the changes you declined in a consolidation review of this workspace's scopes. A later
    run does not propose one again while the files it touches are unchanged; --forget clears them
    all (docs/formats.md §9.7).

    Args:
        workspace (ID): the workspace
        forget: forget them: the next run may propose them again
        json: print them as JSON
    """
    store, _ = open_store(home, workspace)
    if forget:
        return DeclinedForgotten(forgotten=forget_declined(home, store))
    return DeclinedListing(declined=tuple(DeclinedMatcher.of(home, store).in_force()))


@run_declined.text
def _print_declined(result: DeclinedListing | DeclinedForgotten) -> None:
    if isinstance(result, DeclinedForgotten):
        print(f"Forgot {plural(result.forgotten, 'declined change')}")
    elif not result.declined:
        print("No declined change is held back")
    else:
        rows = [["DECLINED", "CHANGE"]]
        rows += [
            [absolute_time(op.declined_at)[:16], op.description or op.path]
            for op in result.declined
        ]
        print(format_table(rows))


# --- sweep ----------------------------------------------------------------------------------


@command("sweep", writes_home=True)
def run_sweep(
    home: Home,
    *,
    provider: ProviderName | None = None,
    model: str | None = None,
    base_url: str | None = None,
    max_steps: int = MAX_STEPS,
    timeout: float = RunLimits.timeout_s,
) -> SweepReport:
    """run the launch sweep: consolidate up to 3 idle workspaces that need it

    Run the launch sweep as mux does at start-up: consolidate up to 3 workspaces idle for 24 h
    with memory writes since their last run. Like mux, it considers only the workspaces listed
    in extensionMetadata.json (mux's record of recent use), in that file's order; other
    registered workspaces are reported as skipped. The window never sweeps on its own
    (docs/formats.md §9.5): mux sweeps only homes whose user turned its memory-consolidation
    experiment on, and then at every mux start itself, and a sweep applies changes nobody
    reviews; run this when you want one (e.g. from a login script).

    Args:
        provider: model provider (default: MEMTAB_PROVIDER, the settings file, else offline)
        model (M): model id sent to the provider
        base_url (URL): provider base URL (e.g. Ollama)
        max_steps (N): model steps, 1 to %(default)s (the default)
        timeout (SECONDS): wall-clock limit of one run
        json: print the sweep report
    """
    return run_launch_sweep(_service(home, provider, model, base_url, max_steps, timeout))


@run_sweep.text
def print_sweep(report: SweepReport) -> None:
    """The sweep report as two short tables."""
    print(f"Started {plural(len(report.runs), 'run')}.")
    if report.runs:
        rows = []
        for run in report.runs:
            said = run.record.summary if run.record is not None else (run.error or "")
            rows.append(["  " + run.workspace_id, "ok" if run.ok else "failed", said])
        print(format_table(rows))
    if report.skipped:
        print("Skipped:")
        print(format_table([["  " + s.workspace_id, s.reason] for s in report.skipped]))
