"""Completed assistant turns appended to workspaces' `chat.jsonl`, as they arrive.
`TranscriptMonitor` keeps one `TranscriptTail` per workspace."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memtab.store.home import Home
from memtab.transcripts import TranscriptEvent, TranscriptTail

logger = logging.getLogger(__name__)

_BACKWARD_CHUNK = 64 * 1024


def is_completed_turn(event: TranscriptEvent) -> bool:
    """The unit the writer counts: a finished assistant message of the main conversation."""
    return event.role == "assistant" and event.completed_turn and not event.sidechain


def end_of_last_line(path: Path) -> int:
    """The byte offset just after the last newline of `path` (0 if none or missing)."""
    try:
        with path.open("rb") as handle:
            position = handle.seek(0, os.SEEK_END)
            while position > 0:
                start = max(0, position - _BACKWARD_CHUNK)
                handle.seek(start)
                chunk = handle.read(position - start)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    return start + newline + 1
                position = start
    except OSError:
        return 0
    return 0


@dataclass
class _Followed:
    tail: TranscriptTail
    newest_timestamp: int  # ms; events at or before it are history after a restart
    restarts: int = 0


class TranscriptMonitor:
    """Follows mux transcripts of a home (see the module docstring)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._followed: dict[str, _Followed] = {}

    def follow_from_end(self, workspace_ids: Iterable[str]) -> None:
        """Start following these workspaces at the current end of their transcripts."""
        for workspace_id in workspace_ids:
            if workspace_id not in self._followed:
                self._follow(workspace_id, at_end=True)

    def workspace_ids_on_disk(self) -> list[str]:
        """Every workspace that has a session directory."""
        try:
            return sorted(
                entry.name
                for entry in os.scandir(self.home.sessions_dir)
                if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
            )
        except OSError:
            return []

    def new_turns(self, workspace_id: str) -> list[TranscriptEvent]:
        """Completed assistant turns appended since the last call, oldest first."""
        return self._read(workspace_id, is_completed_turn)

    def skip(self, workspace_id: str) -> None:
        """Consume what was appended without counting it (paused, or not eligible)."""
        if workspace_id not in self._followed:
            self._follow(workspace_id, at_end=True)
            return
        self._read(workspace_id, lambda event: False)

    def _follow(self, workspace_id: str, *, at_end: bool) -> _Followed:
        path = self.home.transcript_path(workspace_id)
        offset = end_of_last_line(path) if at_end else 0
        try:
            newest = int(path.stat().st_mtime * 1000) if at_end else 0
        except OSError:
            newest = 0
        followed = _Followed(TranscriptTail(path, "mux", offset=offset), newest)
        self._followed[workspace_id] = followed
        return followed

    def _read(
        self, workspace_id: str, keep: Callable[[TranscriptEvent], bool]
    ) -> list[TranscriptEvent]:
        """The new events `keep` wants, looked at one by one as the tail releases them."""
        followed = self._followed.get(workspace_id) or self._follow(workspace_id, at_end=False)
        seen_before = followed.newest_timestamp  # what a rewritten file may repeat
        newest = seen_before
        kept: list[TranscriptEvent] = []

        def look_at(event: TranscriptEvent) -> None:
            nonlocal newest
            if followed.tail.restarts != followed.restarts and (
                event.timestamp is None or event.timestamp <= seen_before
            ):
                return  # history the rewrite kept, not a new message
            if event.timestamp is not None:
                newest = max(newest, event.timestamp)
            if keep(event):
                kept.append(event)

        followed.tail.stream_new(look_at)
        if followed.tail.restarts != followed.restarts:
            followed.restarts = followed.tail.restarts
            logger.info(
                "The transcript of %s was rewritten; counting only messages newer than %d",
                workspace_id,
                seen_before,
            )
        followed.newest_timestamp = newest
        return kept
