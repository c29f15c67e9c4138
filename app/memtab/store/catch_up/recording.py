"""Whether what other programs change is being recorded in history, and why not
(`memtab/history/recording.json`, docs/formats.md §14.5); kept at a fixed size so a full disk still
takes its news."""

from __future__ import annotations

import errno
import logging
from pathlib import Path
from typing import Annotated

from memtab.fs.atomic import atomic_write_bytes, encode_utf8, json_document, overwrite_in_place
from memtab.fs.clock import Clock, now_ms
from memtab.fs.jsonfile import JsonError, read_json
from memtab.fs.private import PRIVATE_FILE_MODE
from memtab.fs.records import Key, OmitNone, OrNone, PositiveTime, Record
from memtab.store.history.recorder import history_problem
from memtab.store.home import Home

logger = logging.getLogger(__name__)

STATE_BYTES = 1024  # the file's size, always: room for a reason of a few hundred characters
_FULL_OR_READ_ONLY = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})


class RecordingState(Record):
    """`memtab/history/recording.json` (docs/formats.md §14.5): whether the last pass could write
    history; if not, why, since when, and who found it."""

    recording: bool
    reason: Annotated[OrNone[str], OmitNone] = None
    since_ms: Annotated[PositiveTime, Key("since"), OmitNone] = None
    by: Annotated[OrNone[str], OmitNone] = None


def recording_state(home: Home) -> RecordingState | None:
    """What the last recording pass said, or None (none has, or it cannot be read)."""
    try:
        return RecordingState.read(read_json(home.recording_path))
    except (OSError, JsonError):
        return None


def unrecorded_reason(error: BaseException, home: Home) -> str | None:
    """Why history could not be written, naming the place, when `error` is the system refusing
    Memtab's files or a full or read-only disk; None for anything else."""
    if not isinstance(error, OSError) or isinstance(error, TimeoutError):
        return None
    where = error.filename if isinstance(error.filename, str) else None
    ours = where is not None and Path(where).is_relative_to(home.memtab_dir)
    if not ours and error.errno not in _FULL_OR_READ_ONLY:
        return None
    return history_problem(error, home.history_dir)


def note_recording(
    home: Home, reason: str | None, *, by: str, clock: Clock = now_ms
) -> RecordingState | None:
    """After a recording pass: note `reason` it could not write history (None: it could), writing
    only a change; the state now."""
    current = recording_state(home)
    if reason is None:
        if current is not None and current.recording:
            return current
        state = RecordingState(recording=True, by=by)
    else:
        kept = current.since_ms if current is not None and not current.recording else None
        state = _fitting(
            RecordingState(recording=False, reason=reason, since_ms=kept or clock(), by=by)
        )
        if current is not None and not current.recording and current.reason == state.reason:
            return current
    _write(home, state)
    return state


def _write(home: Home, state: RecordingState) -> None:
    data = encode_utf8(json_document(state.to_json()))
    data = data[:-1] + b" " * (STATE_BYTES - len(data)) + b"\n"
    try:
        atomic_write_bytes(home.recording_path, data, mode=PRIVATE_FILE_MODE)
    except OSError as error:
        try:
            overwrite_in_place(home.recording_path, data)
        except OSError:
            news = "recorded again" if state.recording else f"not recorded ({state.reason})"
            why = error.strerror or error
            logger.warning("%s cannot say that history is %s: %s", home.recording_path, news, why)


def _fitting(state: RecordingState) -> RecordingState:
    """`state` with its reason cut (and `…` added) until its JSON fits `STATE_BYTES`."""
    kept = state.reason or ""
    while len(encode_utf8(json_document(state.to_json()))) > STATE_BYTES and kept:
        kept = kept[: len(kept) * 3 // 4]
        state = state.replaced(reason=kept + "…")
    return state


def not_recorded_words(state: RecordingState, since: str) -> str:
    """What the window and doctor say while history is not recorded."""
    found = f", found by {state.by}" if state.by else ""
    return (
        f"History is not being recorded: {state.reason} (since {since}{found}); what other "
        "programs change is recorded once history can be written again"
    )
