"""What sync's presenters read of the jobs' records, as protocols: `operations.sync`
returns the records (a `SyncLook`, a `SetupState`, a `ScopeChoice`) and imports
components, so components name only the fields they read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from memtab.sync.repository.layout import SyncedScope, Target

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), never needed to show a line
    from memtab.sync.service import SyncReport


class SyncLookView(Protocol):
    """Where sync stands after a job (`operations.sync.look.SyncLook`)."""

    @property
    def targets(self) -> tuple[str, ...]: ...
    @property
    def conflicts(self) -> Sequence[object]: ...
    @property
    def report(self) -> SyncReport | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def last_sync_at(self) -> int | None: ...
    @property
    def offline_since(self) -> int | None: ...
    @property
    def to_send(self) -> tuple[str, ...]: ...
    @property
    def to_receive(self) -> tuple[str, ...]: ...
    @property
    def configured(self) -> bool: ...


class SetupStateView(Protocol):
    """Sync's set-up as the dialog shows it (`operations.sync.setup.SetupState`)."""

    @property
    def target(self) -> Target | None: ...
    @property
    def others(self) -> Sequence[Target]: ...
    @property
    def last_sync_at(self) -> int | None: ...
    @property
    def conflicts(self) -> int: ...
    @property
    def problem(self) -> str | None: ...


class ScopeChoiceView(Protocol):
    """A scope the dialog offers (`operations.sync.setup.ScopeChoice`)."""

    @property
    def scope(self) -> SyncedScope: ...
