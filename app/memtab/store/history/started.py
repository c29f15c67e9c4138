"""A run in progress writes down its intent before its first change (`started/<run id>.jsonl`,
docs/formats.md §14.3); a file a kill left is logged by `interrupted`."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.history.records import RunHeader, StartedAttempt, StartedEnd
from memtab.store.home import Home
from memtab.store.sidecars.journal import RunScope

logger = logging.getLogger(__name__)

STARTED_SUFFIX = ".jsonl"


class StartedRun:
    """The started-run file of one run; every write raises OSError, so a run that cannot record its
    intent changes nothing."""

    def __init__(
        self,
        home: Home,
        *,
        run_id: str,
        trigger: str,
        workspace_id: str,
        project_path: str | None,
        started_at: int,
        provider: str | None = None,
        model: str | None = None,
        plan_id: str | None = None,
        planned: int | None = None,
        scope: RunScope | None = None,
    ) -> None:
        self.home = home
        self.header = RunHeader(
            id=run_id,
            trigger=trigger,
            workspace_id=workspace_id,
            project_path=project_path,
            started_at=started_at,
            provider=provider,
            model=model,
            plan_id=plan_id,
            planned=planned,
            scope=scope,
        )
        self.path = home.started_runs_dir / f"{run_id}{STARTED_SUFFIX}"
        self._file: JsonLinesFile[dict[str, Any]] = JsonLinesFile(
            self.path, self.path, dict, own=home.memtab_dir
        )
        self._attempts = 0

    def begin(self) -> None:
        """Record the run (before its first change)."""
        self._file.append_locked([{"run": self.header.to_json()}])

    def attempt(
        self,
        command: str,
        path: str,
        new_path: str | None,
        arguments: Mapping[str, Any],
        before: Mapping[str, str | None],
    ) -> None:
        """Record the change about to be made: the call and what its files hold now."""
        self._attempts += 1
        line = StartedAttempt(
            attempt=self._attempts,
            command=command,
            path=path,
            new_path=new_path,
            arguments=dict(arguments),
            before=dict(before),
        )
        self._file.append_locked([line.to_json()])

    def end(self, status: str, summary: str, error: str | None, fingerprint: str | None) -> None:
        """Record how the run ended (best effort: the runs log is what counts)."""
        end = StartedEnd(
            status=status, summary=summary, error=error, journal_fingerprint=fingerprint
        )
        try:
            self._file.append_locked([{"end": end.to_json()}])
        except OSError as problem:
            logger.warning("Could not record the end of run %s: %s", self.header.id, problem)

    def close(self) -> None:
        """The run is in the runs log: the file goes."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def started_dir(home: Home) -> Path:
    return home.started_runs_dir


def started_run_names(home: Home) -> list[str]:
    """The started-run files there are, by name (sorted; none when there is no folder)."""
    try:
        names = os.listdir(started_dir(home))
    except OSError:
        return []
    return sorted(name for name in names if name.endswith(STARTED_SUFFIX))
