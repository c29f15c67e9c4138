"""Where sync stands, in the words of the status bar's corner (`sync_line`): "In sync",
"↑2 ↓1", "Syncing…", "Offline", "3 conflicts", with a tooltip naming what waits and why; and
why the last sync did not sync (`why_not_synced`), which the quit question says too."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.sync.look import SyncLook
from memtab.humanize import plural, relative_time


@dataclass(frozen=True)
class SyncLine:
    """What the widget shows: its text, tooltip, and whether a click opens conflicts."""

    text: str
    tooltip: str
    conflicts: int = 0
    visible: bool = True


def sync_line(
    look: SyncLook, *, syncing: bool, copies: int, now_ms: int, progress: str = ""
) -> SyncLine:
    """The status line for where sync stands (pure: the tests read it)."""
    conflicts = len(look.conflicts) + copies
    if not look.configured:
        if not copies:
            return SyncLine("", "", visible=False)
        return SyncLine(
            _conflicts_text(conflicts),
            "Conflict copies a file-sync tool made beside their originals; click to resolve.",
            conflicts,
        )
    remotes = ", ".join(look.targets)
    if syncing:
        return SyncLine("Syncing…", progress or f"Syncing memory with {remotes}", conflicts)
    if conflicts:
        parts = []
        if look.conflicts:
            parts.append(f"{plural(len(look.conflicts), 'file')} edited on two machines")
        if copies:
            parts.append(
                f"{plural(copies, 'conflict copy', 'conflict copies')} of a file-sync tool"
            )
        return SyncLine(
            _conflicts_text(conflicts),
            f"{'; '.join(parts)}. Click to resolve them; neither side's text is lost.",
            conflicts,
        )
    failure = look.error or _failure(look)
    if failure:
        return SyncLine("Sync failed", f"{failure}\nClick to sync again.")
    arrows, waiting = _arrows(look), _waiting(look)
    offline = _offline(look)
    if offline is not None or look.offline_since is not None:
        since = (
            f" since {relative_time(look.offline_since, now_ms)}"
            if look.offline_since is not None
            else ""
        )
        words = f"\n{offline}" if offline else ""
        return SyncLine(
            f"Offline · {arrows}" if arrows else "Offline",
            f"The remote cannot be reached{since}; changes wait here and go out at the "
            f"next sync.{waiting}{words}\nClick to try now.",
        )
    if look.last_sync_at is None:
        return SyncLine(
            f"Not synced yet · {arrows}" if arrows else "Not synced yet",
            f"Memory syncs with {remotes}.{waiting}\nClick to sync now.",
        )
    when = relative_time(look.last_sync_at, now_ms)
    return SyncLine(
        arrows or "In sync",
        f"Memory synced with {remotes} {when}.{waiting}\nClick to sync now.",
    )


def _arrows(look: SyncLook) -> str:
    """ "↑2 ↓1": files to send, files to bring in (none: empty)."""
    parts = [f"↑{len(look.to_send)}"] if look.to_send else []
    if look.to_receive:
        parts.append(f"↓{len(look.to_receive)}")
    return " ".join(parts)


def _waiting(look: SyncLook) -> str:
    """What the arrows count, in words (each on a line of its own, after a line break)."""
    lines = []
    if look.to_send:
        count = len(look.to_send)
        lines.append(
            f"↑{count}: {plural(count, 'file')} changed here {_wait(count)} to be sent "
            f"({_names(look.to_send)})"
        )
    if look.to_receive:
        count = len(look.to_receive)
        lines.append(
            f"↓{count}: {plural(count, 'file')} changed on another machine {_wait(count)} "
            f"to be brought in ({_names(look.to_receive)})"
        )
    return "".join(f"\n{line}" for line in lines)


def _wait(count: int) -> str:
    return "waits" if count == 1 else "wait"


_NAMED = 3


def _names(paths: tuple[str, ...]) -> str:
    names = ", ".join(path.rsplit("/", 1)[-1] for path in paths[:_NAMED])
    return names if len(paths) <= _NAMED else f"{names} and {len(paths) - _NAMED} more"


def _conflicts_text(count: int) -> str:
    return plural(count, "conflict")


def why_not_synced(look: SyncLook) -> str | None:
    """Why the last sync could not sync, in git's words and the engine's (None: it did)."""
    return look.error or _failure(look) or _offline(look)


def _failure(look: SyncLook) -> str | None:
    if look.report is None:
        return None
    errors = [f"{t.target}: {t.error}" for t in look.report.targets if t.status == "failed"]
    return "\n".join(errors) or None


def _offline(look: SyncLook) -> str | None:
    if look.report is None:
        return None
    words = [t.offline for t in look.report.targets if t.status == "offline" and t.offline]
    offline = any(t.status == "offline" for t in look.report.targets)
    return "\n".join(words) if offline else None
