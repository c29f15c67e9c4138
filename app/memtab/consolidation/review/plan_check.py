"""A plan does exactly what was reviewed: each op is checked against what it shows. A plan file is
data anyone can edit: an op shown as "Removed 1 line from gotchas.md" whose `arguments` were changed
to delete environment.md must not delete it (docs/formats.md §9.4)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtab.consolidation.errors import PlanError
from memtab.consolidation.guard import ConsolidationGuard, MutationBudget, run_scopes
from memtab.consolidation.records import ConsolidationPlan, PlannedFile, PlannedOp
from memtab.consolidation.review.plan import copy_scopes, planned_ops, scratch_home
from memtab.store.errors import MemoryStoreError, ToolArgumentError
from memtab.store.files import FileContent
from memtab.store.history.blobs import sha256_of
from memtab.store.history.records import FileVersions, RunOp
from memtab.store.home import Home
from memtab.store.paths import SHARED_SCOPES, PathError, parse_file_path, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import parse_tool_request
from memtab.store.sidecars.journal import JournalOp, Trigger
from memtab.store.text.content_lines import content_lines

INVALID_CALL_NOTE = "invalid call"


class LineHolders:
    """Which memory files hold which of some wanted content lines (compared as
    `store.text.content_lines` compares them). Only the wanted lines are kept: the lines of
    the files a plan deletes, a few hundred at most, whatever the size of the home."""

    def __init__(self, wanted: Collection[str]) -> None:
        self.wanted = frozenset(wanted)
        self._held: dict[str, frozenset[str]] = {}

    def copy(self) -> LineHolders:
        twin = LineHolders(self.wanted)
        twin._held = dict(self._held)
        return twin

    def update(self, path: str, data: bytes | None) -> None:
        """File `path` holds `data` now (None: no file)."""
        self.update_text(path, data.decode("utf-8", "replace") if data is not None else None)

    def update_text(self, path: str, text: str | None) -> None:
        """File `path` holds `text` now (None: no file)."""
        held = self.wanted & content_lines(text) if text else None
        if held:
            self._held[path] = frozenset(held)
        else:
            self._held.pop(path, None)

    def read(self, store: MemoryStore, path: str) -> None:
        """Look at file `path` again (after an op changed it)."""
        try:
            self.update(path, store.read_whole(parse_file_path(path)))
        except (MemoryStoreError, PathError):
            self.update(path, None)

    def elsewhere(self, lines: Collection[str], *, excluding: Collection[str]) -> set[str]:
        """Those of `lines` some file other than `excluding` holds."""
        found: set[str] = set()
        for path, held in self._held.items():
            if path not in excluding:
                found |= held.intersection(lines)
        return found


@dataclass
class CheckedPlan:
    """What the check of a plan found (see the module doc)."""

    unchecked: dict[int, str] = field(default_factory=dict)
    """Op number → why it could not be checked (and so is not applied)."""
    kept_elsewhere: dict[int, frozenset[str]] = field(default_factory=dict)
    """Delete op number → the lines of what it deletes that stand in other files."""
    deleted_lines: dict[str, frozenset[str]] = field(default_factory=dict)
    """What each file a delete removes holds (its content lines), by path."""
    holders: LineHolders = field(default_factory=lambda: LineHolders(()))
    """Which real files held those lines when the check began."""


def deleted_paths(op: PlannedOp) -> tuple[str, ...]:
    """The files a planned op deletes."""
    return tuple(file.path for file in op.files if file.result_sha256 is None)


def base_problem(store: MemoryStore, planned: PlannedOp) -> str | None:
    """Why an op's files are not what the plan expected them to hold first, or None."""
    for file in planned.files:
        try:
            current = store.read_whole(parse_file_path(file.path))
        except (MemoryStoreError, PathError) as error:
            return f"cannot check {file.path}: {error}"
        current_sha = sha256_of(current) if current is not None else None
        if current_sha != file.base_sha256:
            if file.base_sha256 is None:
                return f"{file.path} exists now; the plan expected no file there"
            if current is None:
                return f"{file.path} no longer exists"
            return f"{file.path} changed since the plan was made"
    return None


def check_ops(store: MemoryStore, plan: ConsolidationPlan) -> CheckedPlan:
    """Check every proposed op of the plan against what it shows (see the module doc);
    PlanError naming the first op that does something else."""
    workspace = store.workspace
    if workspace is None:
        raise PlanError("a plan is applied to a workspace's scopes; none was given")
    for op in plan.proposed:
        _check_call(op)
    checked = CheckedPlan()
    for op in plan.proposed:
        for path in deleted_paths(op) if op.command == "delete" else ():
            try:
                data = store.read_whole(parse_file_path(path))
            except (MemoryStoreError, PathError):
                data = None
            text = data.decode("utf-8", "replace") if data is not None else ""
            checked.deleted_lines[path] = frozenset(content_lines(text))
    wanted = frozenset().union(*checked.deleted_lines.values())
    checked.holders = LineHolders(wanted)
    if wanted:
        _find_holders(store, checked.holders)
    named = _named_by(plan)
    contents: dict[str, str] = {}  # sha → text of every content the replay saw
    try:
        with scratch_home() as scratch_dir:
            scratch = Home(Path(scratch_dir) / "home")
            # Only what the ops name (their paths, and all below one that is a folder):
            # an op's arguments name its paths (checked above), so nothing else can change.
            copy_scopes(store, scratch, lambda path: _under(str(path), named))
            replay_store = MemoryStore(scratch, workspace, record_history=False)
            replayed = _replay(plan, replay_store, checked, contents)
    except OSError as error:  # the scratch copy itself (a full temporary directory)
        raise PlanError(
            f"the plan could not be checked ({error.strerror or error}); nothing was applied"
        ) from None
    rebuilt = planned_ops(scratch, replayed, [op.arguments for op in plan.ops], contents.get)
    for op in plan.proposed:
        if op.index not in checked.unchecked:
            _compare(op, rebuilt[op.index - 1])
    for unit in plan.units:
        if any(index in checked.unchecked for index in unit.indexes):
            continue  # a merge's words depend on every op of it
        for op in unit.ops:
            if op.description != rebuilt[op.index - 1].description:
                raise PlanError(_altered(op, f"it does “{rebuilt[op.index - 1].description}”"))
    return checked


def _named_by(plan: ConsolidationPlan) -> set[str]:
    """Every path a proposed op of the plan names."""
    return {p for op in plan.proposed for p in (op.path, op.new_path) if p is not None}


def _under(path: str, named: set[str]) -> bool:
    """Whether `path` is one of `named`, below one, or a folder holding one."""
    if path in named:
        return True
    return any(path.startswith(name + "/") or name.startswith(path + "/") for name in named)


def _find_holders(store: MemoryStore, holders: LineHolders) -> None:
    """Tell `holders` what every file of the store's scopes holds (read once each)."""
    for scope in SHARED_SCOPES:
        listing = store.list_scope(scope, read_files=False)
        for path, content in store.read_many(file.path for file in listing.files):
            if isinstance(content, FileContent) and not content.binary:
                holders.update_text(str(path), content.content)


def plan_from_calls(
    store: MemoryStore,
    calls: Sequence[Mapping[str, Any]],
    *,
    plan_id: str,
    created_at: int,
    summary: str,
    provider: str,
    model: str | None = None,
    trigger: Trigger = "manual",
) -> ConsolidationPlan:
    """A plan of given tool calls (a check's fixes), made as a run's plan is checked: each call
    replayed in order on a scratch copy of the workspace's scopes, its files, diff and words taken
    from what it did there. A call that does nothing there (its text is gone) is a refused op."""
    workspace = store.workspace
    if workspace is None:
        raise PlanError("a plan changes a workspace's scopes; none was given")
    draft = ConsolidationPlan(
        id=plan_id,
        created_at=created_at,
        home=str(store.home.root),
        workspace_id=workspace.id,
        trigger=trigger,
        summary=summary,
        ops=tuple(
            PlannedOp(
                index=number,
                command=str(call.get("command", "")),
                path=str(call.get("path", "")),
                arguments=dict(call),
                proposed=True,
            )
            for number, call in enumerate(calls, 1)
        ),
        provider=provider,
        model=model,
    )
    contents: dict[str, str] = {}
    refused = CheckedPlan()
    try:
        with scratch_home() as scratch_dir:
            scratch = Home(Path(scratch_dir) / "home")
            named = _named_by(draft)  # as check_ops will copy them
            copy_scopes(store, scratch, lambda path: _under(str(path), named))
            replay_store = MemoryStore(scratch, workspace, record_history=False)
            replayed = _replay(draft, replay_store, refused, contents)
    except OSError as error:
        raise PlanError(f"the plan could not be made ({error.strerror or error})") from None
    ops = planned_ops(scratch, replayed, calls, contents.get)
    ops = tuple(
        op.replaced(note=refused.unchecked[op.index]) if op.index in refused.unchecked else op
        for op in ops
    )
    return draft.replaced(ops=ops)


def _check_call(op: PlannedOp) -> None:
    """The op's arguments are a call of the command on the path(s) the plan shows."""
    try:
        request = parse_tool_request(op.arguments)
        path = str(parse_virtual_path(request.path))
        new_path = str(parse_virtual_path(request.new_path)) if request.new_path else None
    except (ToolArgumentError, PathError) as error:
        raise PlanError(_altered(op, f"its arguments are not a valid call ({error})")) from None
    if (request.command, path, new_path) != (op.command, op.path, op.new_path):
        target = f"{path} to {new_path}" if new_path else path
        raise PlanError(_altered(op, f"its arguments {request.command} {target}"))
    for file in op.files:  # a directory's delete changes the files under it
        if file.path not in (path, new_path) and not file.path.startswith(path + "/"):
            raise PlanError(
                _altered(op, f"it shows a change of {file.path}, which its arguments do not touch")
            )


def _replay(
    plan: ConsolidationPlan, store: MemoryStore, checked: CheckedPlan, contents: dict[str, str]
) -> list[RunOp]:
    """Every proposed op of the plan on the scratch store, in order (see the module doc).
    What each changed is read from the files it names (the scratch keeps no history: the
    check must not depend on a temporary directory's room); `contents` gets every content
    seen, by sha, for the diffs and words."""
    guard = ConsolidationGuard(
        store, budget=MutationBudget(len(plan.ops)), scopes=run_scopes(plan.scope)
    )
    holders = checked.holders.copy()
    replayed: list[RunOp] = []
    for op in plan.ops:
        refused = JournalOp(
            command=op.command, path=op.path, applied=False, new_path=op.new_path, note=op.note
        )
        problem = base_problem(store, op) if op.proposed else "not proposed"
        if problem is not None:
            if op.proposed:
                checked.unchecked[op.index] = problem
            replayed.append(RunOp.from_journal(refused))
            continue
        if op.command == "delete":
            gone = deleted_paths(op)
            lines = frozenset().union(*(checked.deleted_lines.get(path, ()) for path in gone))
            checked.kept_elsewhere[op.index] = frozenset(holders.elsewhere(lines, excluding=gone))
        paths = _named_files(store, op)
        before = {path: _read(store, path) for path in paths}
        attempts = len(guard.ops)
        guard.execute(op.arguments)
        done = guard.ops[-1] if len(guard.ops) > attempts else None
        if done is None or not done.applied:
            checked.unchecked[op.index] = (done.note if done else None) or INVALID_CALL_NOTE
            replayed.append(RunOp.from_journal(refused))
            continue
        paths += [path for path in _named_files(store, op) if path not in before]
        files = []
        for path in paths:
            after = _read(store, path)
            if after != before.get(path):
                files.append(_file_change(path, before.get(path), after, contents))
                holders.update(path, after)
        replayed.append(RunOp.from_journal(done, unit=op.unit).replaced(files=tuple(files)))
    return replayed


def _named_files(store: MemoryStore, op: PlannedOp) -> list[str]:
    """The files an op's call names: its path and new path, or the files under a
    directory it names."""
    found: list[str] = []
    for name in (op.path, op.new_path):
        if name is None:
            continue
        try:
            physical = store.physical(parse_virtual_path(name))
        except PathError:
            continue
        if physical.is_dir() and not physical.is_symlink():
            found += sorted(
                f"{name}/{file.relative_to(physical).as_posix()}"
                for file in physical.rglob("*")
                if file.is_file()
            )
        else:
            found.append(name)
    return found


def _read(store: MemoryStore, path: str) -> bytes | None:
    try:
        return store.read_whole(parse_file_path(path))
    except (MemoryStoreError, PathError):
        return None


def _file_change(
    path: str, before: bytes | None, after: bytes | None, contents: dict[str, str]
) -> FileVersions:
    """A file's change as a run's op records it (a deletion keeps what it deleted)."""
    shas = []
    for data in (before, after):
        sha = sha256_of(data) if data is not None else None
        if sha is not None and data is not None:
            contents[sha] = data.decode("utf-8", "replace")
        shas.append(sha)
    before_sha, after_sha = shas
    return FileVersions(
        path=path,
        before_version=None,
        before_sha256=before_sha,
        after_version="replayed",
        after_sha256=after_sha or before_sha or "",
        deleted=after is None,
    )


def _shown(file: PlannedFile) -> tuple[str, str | None, str | None, str]:
    return (file.path, file.base_sha256, file.result_sha256, file.diff)


def _compare(planned: PlannedOp, replayed: PlannedOp) -> None:
    """PlanError when the replayed op changed other files, or made other contents or
    another diff, than the plan shows."""
    shown = sorted(map(_shown, planned.files), key=str)
    made = sorted(map(_shown, replayed.files), key=str)
    if shown == made:
        return
    if [file[0] for file in shown] != [file[0] for file in made]:
        changed = ", ".join(file[0] for file in made) or "nothing"
        raise PlanError(_altered(planned, f"it changes {changed}"))
    if [file[:3] for file in shown] != [file[:3] for file in made]:
        raise PlanError(_altered(planned, "it leaves its files other than the plan says"))
    raise PlanError(_altered(planned, "its diff is not the change it makes"))


def _altered(op: PlannedOp, actual: str) -> str:
    shown = op.description or f"{op.command} {op.path}"
    return (
        f"op {op.index} of the plan does not do what it shows (“{shown}”): {actual}. The "
        "plan was changed after it was made; nothing was applied — make a new plan"
    )
