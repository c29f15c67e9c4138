"""`memtab duplicates`: memories that say the same thing (docs/formats.md §19.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtab.cli.common import command
from memtab.cli.health.trust_report import exit_status, found_report, place_in_words, say_found
from memtab.fs.terminal_text import printable
from memtab.humanize import plural
from memtab.store.home import Home
from memtab.trust.duplicates.kept import load_kept, report_context
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judging.asking import ModelJudge
from memtab.trust.memories import MemoryEngine
from memtab.trust.report import DUPLICATE_CANDIDATES

if TYPE_CHECKING:  # lazy: the engine only for a run that finds (below)
    from memtab.trust.duplicates.engine import DuplicatesEngine


@command(
    "duplicates",
    status=lambda report: exit_status(report.problems, report.groups),
    writes_home=False,
)
def run_duplicates(
    home: Home,
    *,
    workspace: str | None = None,
    json: bool = False,
    no_sources: bool = False,
    offline: bool = False,
    all_: bool = False,
) -> DuplicatesReport | int:
    """memories that say the same thing, across agents and scopes

    Find memories that say the same thing: the same text (a copy, Codex's import of a Claude
    Code memory, a note under other frontmatter) and one line written in two memories (in
    global and in a project). The same note or rule in other words is only a candidate, listed
    apart and never counted; a configured model decides it. Exits 1 when something was found, 0
    when not, 2 when the memory could not be read.

    Args:
        workspace (ID): what this workspace's sessions see (global, its project's and its own
            memory, and the other agents' memory of its project); default: every memory file of
            the home
        json: print the report as JSON
        no_sources: mux's memory only, not the other agents' (Claude Code, Codex, loki-mode)
        offline: the offline engine alone: do not ask the configured model to judge what it
            found, nor the pairs it did not confirm
        all_: show the groups kept as they are too (the window's Keep)
    """
    kept = () if all_ else load_kept(home)
    light = MemoryEngine(home, sources=not no_sources)

    def make() -> DuplicatesEngine:
        # lazy: the engine and its readers (~0.3 s) for a run that finds, never a warm one's
        from memtab.trust.duplicates.engine import DuplicatesEngine

        return DuplicatesEngine(home, sources=not no_sources)

    engine = light.followed_by(make)

    def judged(found: DuplicatesReport, by: ModelJudge) -> DuplicatesReport:
        # lazy: as the engine (only a run a model judges)
        from memtab.trust.judging.duplicates import judge_duplicates, wider_duplicates

        return judge_duplicates(found, by, engine().said, wider_duplicates(found, engine().read))

    return found_report(
        home,
        "duplicates",
        lambda reuse: engine().find(workspace, kept=kept, reuse=reuse),
        judged,
        json=json,
        offline=offline,
        printed=lambda: light.printed(workspace, "duplicates", lambda _: report_context(kept)),
        printed_of=lambda report: engine().printed_of(report),
    )


@run_duplicates.text
def _show_duplicates(report: DuplicatesReport) -> None:
    for group in report.groups:
        _print_group(group)
    for group in report.dismissed:
        reason = f" — {printable(group.reason)}" if group.reason else ""
        print(f"dismissed by {printable(group.judged_by)}: {printable(group.why)}{reason}")
    if report.candidates:
        print(f"{DUPLICATE_CANDIDATES} ({len(report.candidates)}, not counted):")
        for group in report.candidates:
            _print_group(group)
    found = f"{plural(len(report.groups), 'group')} of duplicates"
    say_found(report.groups, found, "duplicates", report.files_read)
    if report.kept:
        print(f"({plural(report.kept, 'group')} kept as they are not shown: --all shows them)")
    if report.judged:
        print(report.judged)


def _print_group(group: DuplicateGroup) -> None:
    alike = "" if group.kind == "copy" else f" {round(group.similarity * 100)}%"
    print(f"{group.kind}{alike} · {printable(group.why)}")
    for member in group.members:
        print(f"    {place_in_words(member)}")
        if member.text:
            print(f"        {printable(member.text.strip())}")
    if group.reason:
        print(f"    judged by {group.judged_by}: {printable(group.reason)}")
