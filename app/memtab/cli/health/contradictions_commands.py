"""`memtab contradictions`: lines of two memories a session sees together that disagree
(docs/formats.md §19.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtab.cli.common import command
from memtab.cli.health.trust_report import exit_status, found_report, place_in_words, say_found
from memtab.fs.terminal_text import printable
from memtab.humanize import plural
from memtab.store.home import Home
from memtab.trust.contradictions.kept_report import KeptContradictions
from memtab.trust.contradictions.records import Contradiction, ContradictionsReport
from memtab.trust.judging.asking import ModelJudge
from memtab.trust.report import CONTRADICTION_CANDIDATES

if TYPE_CHECKING:  # lazy: the engine only for a run that finds (below)
    from memtab.trust.contradictions.engine import ContradictionsEngine


@command(
    "contradictions",
    status=lambda report: exit_status(report.problems, report.contradictions),
    writes_home=False,
)
def run_contradictions(
    home: Home,
    *,
    workspace: str | None = None,
    json: bool = False,
    no_sources: bool = False,
    offline: bool = False,
) -> ContradictionsReport | int:
    """lines of two memories a session sees together that disagree

    Find lines, in any two memories a session sees together (global and a project's, a
    project's and its workspaces', every agent's), that state different values for one thing: a
    port, a version, a setting, a command, a path, a tool to use, always or never; each names
    every value said, the files and lines saying it and which is newer, one finding a thing
    however many lines disagree. Exits 1 when something was found, 0 when not, 2 when the
    memory could not be read.

    Args:
        workspace (ID): what this workspace's sessions see (global, its project's and its own
            memory, and the other agents' memory of its project); default: every memory file of
            the home
        json: print the report as JSON
        no_sources: mux's memory only, not the other agents' (Claude Code, Codex, loki-mode)
        offline: the offline engine alone: do not ask the configured model to judge what it
            found, nor the pairs it did not confirm
    """
    light = KeptContradictions(home, sources=not no_sources)

    def make() -> ContradictionsEngine:
        # lazy: the engine and its readers (~0.3 s) for a run that finds, never a warm one's
        from memtab.trust.contradictions.engine import ContradictionsEngine

        return ContradictionsEngine(home, sources=not no_sources)

    engine = light.followed_by(make)

    def judged(found: ContradictionsReport, by: ModelJudge) -> ContradictionsReport:
        # lazy: as the engine (only a run a model judges)
        from memtab.trust.judging.contradictions import judge_contradictions, wider_contradictions

        wider = wider_contradictions(found, engine().compared, engine().records)
        return judge_contradictions(found, by, wider, engine().contradiction_of)

    return found_report(
        home,
        "contradictions",
        lambda reuse: engine().find(workspace, reuse=reuse),
        judged,
        json=json,
        offline=offline,
        printed=lambda: light.printed_report(workspace),
        printed_of=lambda report: engine().printed_of(report),
    )


@run_contradictions.text
def _show_contradictions(report: ContradictionsReport) -> None:
    for found in report.contradictions:
        _print_contradiction(found)
    for found in report.dismissed:
        reason = f" · {printable(found.reason)}" if found.reason else ""
        print(f"dismissed by {printable(found.judged_by)}: {printable(found.about)}{reason}")
    if report.candidates:
        title = CONTRADICTION_CANDIDATES
        print(f"{title} ({len(report.candidates)}, not counted):")
        for found in report.candidates:
            _print_contradiction(found)
    many = plural(len(report.contradictions), "contradiction")
    say_found(report.contradictions, many, "contradictions", report.files_read)
    if report.cut:
        print(report.cut)
    if report.judged:
        print(report.judged)


def _print_contradiction(found: Contradiction) -> None:
    print(f"{found.kind} · {printable(found.about)} · {printable(found.why)}")
    sides = [(found.first, "first"), (found.second, "second")]
    for side, name in [*sides, *((other, "") for other in found.others)]:
        newer = "  (newer)" if found.newer == name else ""
        print(f"    {place_in_words(side.place)}{newer}")
        print(f"        {printable(side.place.text.strip())}")
        if side.elsewhere:
            more = plural(len(side.elsewhere) + (side.more_places or 0), "more place")
            print(f"        and in {more}, newest first:")
        for said in side.elsewhere:
            print(f"        {place_in_words(said.place)}")
        if side.more_places:
            print(f"        … and {plural(side.more_places, 'more place')}")
    if found.more_values:
        print(f"    … and {plural(found.more_values, 'more value')}")
    if found.reason:
        print(f"    judged by {found.judged_by}: {printable(found.reason)}")
