"""`memtab leaks`: memories in the wrong place, and secrets (docs/formats.md §19.7)."""

from __future__ import annotations

from memtab.cli.common import command
from memtab.cli.health.trust_report import exit_status, found_report, place_in_words, say_found
from memtab.fs.terminal_text import printable
from memtab.humanize import plural
from memtab.store.home import Home
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.leaks.records import LeaksReport


@command(
    "leaks", status=lambda report: exit_status(report.problems, report.leaks), writes_home=False
)
def run_leaks(
    home: Home, *, workspace: str | None = None, json: bool = False, no_sources: bool = False
) -> LeaksReport | int:
    """memories in the wrong place (another project's, global), and secrets

    Find memories in one project's memory (or global memory, or team memory shared with
    collaborators) that name another project's paths, repository or hosts, or a person's home
    folder, and secret-like values anywhere; each says where the memory belongs. Exits 1 when
    something was found, 0 when not, 2 when the memory could not be read.

    Args:
        workspace (ID): what this workspace's sessions see (global, its project's and its own
            memory, and the other agents' memory of its project); default: every memory file of
            the home
        json: print the report as JSON
        no_sources: mux's memory only, not the other agents' (Claude Code, Codex, loki-mode)
    """
    engine = LeaksEngine(home, sources=not no_sources)
    return found_report(
        home,
        "leaks",
        lambda reuse: engine.find(workspace, reuse=reuse),
        json=json,
        printed=lambda: engine.printed_report(workspace),
        printed_of=engine.printed_of,
    )


@run_leaks.text
def _show_leaks(report: LeaksReport) -> None:
    for leak in report.leaks:
        print(f"{place_in_words(leak.place)}: [{leak.kind}] names {printable(leak.names)}")
        print(f"    {printable(leak.place.text.strip())}")
        for place in leak.elsewhere:
            if place.path == leak.place.path:
                print(f"    and line {place.line}: {printable(place.text.strip())}")
            else:
                print(f"    and {place_in_words(place)}")
        print(f"    {printable(leak.why)}")
        print(f"    belongs in: {printable(leak.belongs)}")
    say_found(report.leaks, plural(len(report.leaks), "leak"), "leaks", report.files_read)
