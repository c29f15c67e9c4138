"""Changes a user declined in review, not proposed again (docs/formats.md §9.7)."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

from memtab.consolidation.offline.provider import REASON_ARGUMENT
from memtab.consolidation.records import DECLINED_NOTE, ConsolidationPlan, PlannedOp
from memtab.fs.clock import now_ms
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.fs.records import OmitNone, OrNone, Record, ValidItems
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import sha256_of
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_file_path, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore

FILE_NAME = "declined-ops.json"
LOCK_NAME = "declined-ops"
MAX_DECLINED = 500
"""At most this many declines are kept (the oldest go first): a file read at every run."""


class DeclinedOp(Record):
    """One op of a declined change: the call, where, and what its files held."""

    scope_key: str
    """Whose files: `global`, `project:<project path>` or `workspace:<id>` (its path's scope)."""
    command: str
    path: str
    new_path: Annotated[OrNone[str], OmitNone] = None
    arguments_sha256: str
    files: dict[str, str | None]
    """Each file the op changes → the sha256 it held when the plan was made (None: none)."""
    description: str = ""
    declined_at: int
    plan_id: str = ""

    @property
    def key(self) -> tuple[str, str, str, str | None, str]:
        return (self.scope_key, self.command, self.path, self.new_path, self.arguments_sha256)


class DeclinedOps(Record):
    """`declined-ops.json`: `{"declined": [DeclinedOp, …]}`, oldest first."""

    declined: ValidItems[tuple[DeclinedOp, ...]] = ()


def declined_path(home: Home) -> Path:
    return home.memtab_dir / FILE_NAME


def arguments_sha256(arguments: Mapping[str, Any]) -> str:
    """The call's arguments, less the consolidator's reason (its words vary), hashed."""
    kept = {key: value for key, value in arguments.items() if key != REASON_ARGUMENT}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def scope_key(store: MemoryStore, raw_path: str) -> str | None:
    """Whose files `raw_path` names in this store (see `DeclinedOp.scope_key`)."""
    try:
        scope = parse_virtual_path(raw_path).scope
    except PathError:
        return None
    if scope is Scope.GLOBAL:
        return "global"
    if scope is Scope.PROJECT:
        return f"project:{store.project_path}" if store.project_path else None
    if scope is Scope.WORKSPACE and store.workspace is not None:
        return f"workspace:{store.workspace.id}"
    return None


def _current_sha(store: MemoryStore, raw_path: str) -> str | None:
    data = store.read_whole(parse_file_path(raw_path))
    return sha256_of(data) if data is not None else None


def still_holds(store: MemoryStore, op: DeclinedOp) -> bool:
    """Whether every file of the declined op holds what it held when it was declined."""
    try:
        return all(_current_sha(store, path) == sha for path, sha in op.files.items())
    except (MemoryStoreError, PathError):
        return False


def load_declined(home: Home) -> tuple[DeclinedOp, ...]:
    """Every decline written down (none when the file is missing or unusable)."""
    document = DeclinedOps.read(read_sidecar(declined_path(home)).document)
    return document.declined if document is not None else ()


class DeclinedMatcher:
    """The declines a run's guard checks each call against (see the module doc)."""

    def __init__(self, store: MemoryStore, declined: Sequence[DeclinedOp]) -> None:
        self.store = store
        self._by_key = {op.key: op for op in declined}

    @classmethod
    def of(cls, home: Home, store: MemoryStore) -> DeclinedMatcher:
        """The declines of `home` (read now), matched in `store` (the run's, or the
        scratch copy a plan is made on)."""
        return cls(store, load_declined(home))

    def in_force(self) -> list[DeclinedOp]:
        """The declines of this store's scopes whose files are unchanged."""
        return [op for op in self._by_key.values() if self._applies(op)]

    def refusal(
        self, command: str, path: str, new_path: str | None, arguments: Mapping[str, Any]
    ) -> str | None:
        """Why the guard refuses this call (it was declined, its files unchanged), or None."""
        key = scope_key(self.store, path)
        if key is None:
            return None
        op = self._by_key.get((key, command, path, new_path, arguments_sha256(arguments)))
        if op is None or not self._applies(op):
            return None
        when = datetime.fromtimestamp(op.declined_at / 1000).strftime("%Y-%m-%d %H:%M")
        return (
            f"{DECLINED_NOTE} ({when}): not proposed again until its file changes "
            "(`memtab declined --forget` proposes it again)"
        )

    def _applies(self, op: DeclinedOp) -> bool:
        return scope_key(self.store, op.path) == op.scope_key and still_holds(self.store, op)


def record_declined(
    home: Home, store: MemoryStore, plan: ConsolidationPlan, accepted: Collection[int]
) -> int:
    """Write down the ops of the changes `plan` proposed and the user left out of
    `accepted`; drop the declines of this store's scopes whose files changed since.
    Returns how many ops were written down. Raises OSError / LockUnavailableError."""
    left_out = [op for op in plan.proposed if op.index not in accepted]
    at = now_ms()
    new = [declined for op in left_out if (declined := _declined(store, plan, op, at))]
    if not new and not left_out:
        return 0
    keys = {op.key for op in new}
    with _edited(home) as document:
        read = DeclinedOps.read(document)
        kept = [
            op
            for op in (read.declined if read is not None else ())
            if op.key not in keys and (not _ours(store, op) or still_holds(store, op))
        ]
        joined = (kept + new)[-MAX_DECLINED:]
        document.clear()
        document.update(DeclinedOps(declined=tuple(joined)).to_json())
    return len(new)


@contextlib.contextmanager
def _edited(home: Home) -> Iterator[dict[str, Any]]:
    """The declines' file, changed under its lock: private, as the calls quote memory's
    text (0600 in the home's 0700 `memtab/`, docs/formats.md §16.2)."""
    private_folders(home.memtab_dir, below=home.memtab_dir)
    with edit_sidecar(
        declined_path(home), home.lock_path(LOCK_NAME), mode=PRIVATE_FILE_MODE
    ) as raw:
        yield raw


def forget_declined(home: Home, store: MemoryStore) -> int:
    """Forget the declines of this store's scopes; how many there were."""
    with _edited(home) as document:
        read = DeclinedOps.read(document)
        ops = read.declined if read is not None else ()
        kept = [op for op in ops if not _ours(store, op)]
        if len(kept) == len(ops):
            return 0
        document.clear()
        document.update(DeclinedOps(declined=tuple(kept)).to_json())
    return len(ops) - len(kept)


def forget_workspace_declined(home_root: str, workspace_id: str) -> int:
    """`forget_declined` for a workspace of the home at `home_root` (the review's button,
    on a worker)."""
    home = Home(Path(home_root))
    return forget_declined(home, MemoryStore.open(home, workspace_id))


def _ours(store: MemoryStore, op: DeclinedOp) -> bool:
    """Whether the decline is of this store's scopes (its workspace, project or global)."""
    return scope_key(store, op.path) == op.scope_key


def _declined(
    store: MemoryStore, plan: ConsolidationPlan, op: PlannedOp, at: int
) -> DeclinedOp | None:
    key = scope_key(store, op.path)
    if key is None:
        return None
    return DeclinedOp(
        scope_key=key,
        command=op.command,
        path=op.path,
        new_path=op.new_path,
        arguments_sha256=arguments_sha256(op.arguments),
        files={file.path: file.base_sha256 for file in op.files},
        description=op.description,
        declined_at=at,
        plan_id=plan.id,
    )
