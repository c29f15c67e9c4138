"""`memtab watch` (the recorder that keeps history while no window runs, and hosts the agents' MCP
sessions) and `memtab events` (the bursts it recorded); docs/formats.md §14.5, §22.8."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from memtab.agent_server.bridge.rendezvous import RendezvousError, host_rendezvous
from memtab.cli.common import Exclusive, command, format_table
from memtab.cli.options import CliError
from memtab.fs.clock import now_ms
from memtab.fs.records import Inlined, Record
from memtab.humanize import absolute_time, plural, relative_time
from memtab.store.home import Home
from memtab.watch import guard
from memtab.watch.events import BURST_MIN_FILES, ChangeEvent, ListedEvent, change_events
from memtab.watch.guard import MASS_MIN_FILES
from memtab.watch.recorder import Recorder, RecorderBusyError, stopped_by_signals
from memtab.watch.service import ServiceRefusedError, platform_name, service_path
from memtab.watch.service import install as install_service
from memtab.watch.service import uninstall as uninstall_service
from memtab.watch.sources import RecorderLease, RecorderStatus

if TYPE_CHECKING:  # lazy: the annotation of what `_host_agents` loads when it runs
    from memtab.cli.share.mcp_sessions import HostThread

DAY_MS = 24 * 60 * 60 * 1000


@command("watch", Exclusive("install", "uninstall", "status"), writes_home=True)
def run_watch(
    home: Home,
    *,
    install: bool = False,
    uninstall: bool = False,
    status: bool = False,
    polling: bool = False,
    json: bool = False,
) -> Record | int:
    """record every change any program makes to every agent's memory, without the window (runs
    until stopped)

    Args:
        install: start it at login for this user, and now
        uninstall: stop starting it at login
        status: whether it runs, and since when
        polling: poll the disk every second (network drives)
    """
    if install or uninstall:
        try:
            result = install_service(home) if install else uninstall_service(home)
        except ServiceRefusedError as refused:
            raise CliError(f"Not installed: {refused}") from None
        if json:
            return result
        print(f"{'Installed' if install else 'Removed'} {result.path}")
        for ran in result.ran:
            state = "ok" if ran.status == 0 else f"exit {ran.status}"
            print(f"  $ {' '.join(ran.argv)}  ({state}){': ' + ran.said if ran.said else ''}")
        if result.note:
            print(result.note)
        return 0
    if status:
        return _print_status(home, RecorderLease(home).status(), json_out=json)
    return _record(home, polling=polling)


class WatchStatus(Record, write_only=True):
    """`memtab watch --status --json` (stable): the recorder, the login service, the home."""

    status: Annotated[RecorderStatus, Inlined]
    installed: bool
    entry: Path
    home: Path


def _print_status(home: Home, status: RecorderStatus, *, json_out: bool) -> WatchStatus | int:
    entry = service_path(home)
    installed = entry.exists()
    if json_out:
        return WatchStatus(status=status, installed=installed, entry=entry, home=home.root)
    if status.running:
        since = (
            f" since {absolute_time(status.since_ms)} ({relative_time(status.since_ms)})"
            if status.since_ms
            else ""
        )
        who = f" (pid {status.pid} on {status.host})" if status.pid else ""
        print(f"The recorder runs for {home.root}{since}{who}")
    else:
        print(f"No recorder runs for {home.root}")
    where = platform_name()
    print(
        f"Started at login: {'yes, ' + str(entry) if installed else 'no'}"
        + ("" if installed else f" (`memtab watch --install` sets it up on {where})")
    )
    return 0


def _say_ready(recorder: Recorder) -> None:
    print(
        f"History is up to date; watching {plural(len(recorder.watched), 'folder')} "
        f"({recorder.backend}) for changes",
        file=sys.stderr,
        flush=True,
    )


def _record(home: Home, *, polling: bool) -> int:
    recorder = Recorder(home, use_polling=polling, on_ready=_say_ready)
    print(f"Recording every change to the memory of {home.root} (Ctrl+C stops)", file=sys.stderr)
    with stopped_by_signals(recorder.stop):
        hosting = _host_agents(home)
        try:
            recorder.run()
        except RecorderBusyError as error:
            raise CliError(f"{error}: see `memtab watch --status`") from None
        finally:
            if hosting is not None:
                hosting.stop()
    return 0


def _host_agents(home: Home) -> HostThread | None:
    """Serve the agents' MCP sessions of `home` while the recorder runs (docs/formats.md
    §22.8): their `memtab mcp` finds this process warm."""
    try:  # asked first: where no host can run (macOS, Windows, off) the SDK is not loaded
        place = host_rendezvous(str(home.root), os.environ)
    except RendezvousError as error:
        print(f"Not hosting agents' MCP sessions: No shared server here: {error}", file=sys.stderr)
        return None
    # lazy: the MCP SDK and the host (~45 MiB, 0.5 s of CPU or more) only for a run that
    # hosts, not for `memtab events` or `watch --status`, which share this module
    from memtab.cli.share.mcp_sessions import start_hosting

    hosting = start_hosting(place, str(home.root))
    print(
        f"Hosting agents' MCP sessions of {home.root} at {hosting.host.rendezvous.socket}",
        file=sys.stderr,
    )
    return hosting


def _what(event: ChangeEvent, shown: ListedEvent) -> str:
    """`Claude Code removed 23 files at 14:02 · restored` (what was put back since); a
    mass change says so, and of how many files (`… · mass change: 745 of 931 files`)."""
    words = event.words()
    if shown.mass:
        words += f" · mass change: {event.file_count} of {shown.files_before} files"
    restored = event.restored_words()
    return f"{words} · {restored}" if restored else words


class EventListing(Record, write_only=True):
    """`memtab events --json`: the change events (docs/formats.md §14.5)."""

    events: tuple[ListedEvent, ...]


@command("events", writes_home=False)
def run_events(
    home: Home,
    *,
    days: int = 7,
    min_files: int = BURST_MIN_FILES,
    mass: bool = False,
    json: bool = False,
) -> EventListing | int:
    """what a program did to many files at once (restore one with `memtab restore --event ID`)

    Args:
        days: how far back (default 7)
        min_files: the fewest files an event has (default %(default)s)
        mass: only mass changes: one program deleting or rewriting much of a memory at once
    """
    since = now_ms() - days * DAY_MS if days > 0 else 0
    least = max(min_files, MASS_MIN_FILES if mass else 1)
    events = change_events(home, min_files=least, since_ms=since)
    before = guard.sizes(home, events)
    listed = [
        event.listed().replaced(
            files_before=before.get(event.id),
            mass=guard.is_mass(event.file_count, before.get(event.id, 0)),
        )
        for event in events
    ]
    if mass:
        listed = [event for event in listed if event.mass]
    if json:
        return EventListing(events=tuple(listed))
    if not listed:
        print("No mass changes" if mass else "No events")
        return 0
    by_id = {event.id: event for event in events}
    rows = [["EVENT", "WHEN", "WHAT"]]
    rows += [[shown.id, relative_time(shown.at), _what(by_id[shown.id], shown)] for shown in listed]
    print(format_table(rows))
    print("\nRestore one with: memtab restore --event EVENT", file=sys.stderr)
    return 0
