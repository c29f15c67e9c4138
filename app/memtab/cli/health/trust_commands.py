"""`memtab duplicates`, `memtab contradictions`, `memtab leaks`: memory every agent can trust
(docs/formats.md §19.5–19.7). Exit 0: nothing found, 1: something was, 2: the memory could not be
read."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from memtab.cli.common import command
from memtab.cli.failure import Kind, failed
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.terminal_text import printable
from memtab.humanize import plural
from memtab.llm.settings import resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStoreError
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import Contradiction, ContradictionsReport
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judging.asking import ModelJudge
from memtab.trust.judging.contradictions import judge_contradictions, wider_contradictions
from memtab.trust.judging.duplicates import judge_duplicates, wider_duplicates
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.leaks.records import LeaksReport
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace
from memtab.trust.report import CONTRADICTION_CANDIDATES, DUPLICATE_CANDIDATES

R = TypeVar("R")
COULD_NOT_READ = 2


def _found(
    home: Home,
    command: str,
    find: Callable[[], R],
    judge: Callable[[R, ModelJudge], R] | None = None,
    *,
    json: bool,
    offline: bool = False,
) -> R | int:
    """`find`'s report, judged by the configured model (`judge`, `trust.judging`) unless
    `offline`, no model is configured or settings name none usable; or the exit status of
    its failure (said as `memtab check`'s)."""
    try:
        report = find()
    except (HomeError, MemoryStoreError, PathError, OSError) as error:
        words = f"cannot read the memory: {error}"
        kind: Kind = "system" if isinstance(error, OSError) else "refused"
        return failed(words, kind, json=json, command=command, error=error, status=COULD_NOT_READ)
    if judge is None or offline:
        return report
    try:
        settings = resolve_provider_settings()
    except (SettingsFileError, ProviderError):
        return report
    if settings.is_offline:
        return report
    model = ModelJudge(home, settings, files=getattr(report, "files_read", 0))
    try:
        return judge(report, model)
    finally:
        model.close()


@command(
    "duplicates", status=lambda report: _done(report.problems, report.groups), writes_home=False
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
    engine = DuplicatesEngine(home, sources=not no_sources)
    kept = () if all_ else load_kept(home)
    return _found(
        home,
        "duplicates",
        lambda: engine.find(workspace, kept=kept),
        lambda found, by: judge_duplicates(
            found, by, engine.said, wider_duplicates(found, engine.read)
        ),
        json=json,
        offline=offline,
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
    _say_found(report.groups, found, "duplicates", report.files_read)
    if report.kept:
        print(f"({plural(report.kept, 'group')} kept as they are not shown: --all shows them)")
    if report.judged:
        print(report.judged)


def _print_group(group: DuplicateGroup) -> None:
    alike = "" if group.kind == "copy" else f" {round(group.similarity * 100)}%"
    print(f"{group.kind}{alike} · {printable(group.why)}")
    for member in group.members:
        print(f"    {_at(member)}")
        if member.text:
            print(f"        {printable(member.text.strip())}")
    if group.reason:
        print(f"    judged by {group.judged_by}: {printable(group.reason)}")


@command(
    "contradictions",
    status=lambda report: _done(report.problems, report.contradictions),
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
    engine = ContradictionsEngine(home, sources=not no_sources)
    return _found(
        home,
        "contradictions",
        lambda: engine.find(workspace),
        lambda found, by: judge_contradictions(
            found, by, wider_contradictions(found, engine.compared), engine.contradiction_of
        ),
        json=json,
        offline=offline,
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
    _say_found(report.contradictions, many, "contradictions", report.files_read)
    if report.cut:
        print(report.cut)
    if report.judged:
        print(report.judged)


def _print_contradiction(found: Contradiction) -> None:
    print(f"{found.kind} · {printable(found.about)} · {printable(found.why)}")
    sides = [(found.first, "first"), (found.second, "second")]
    for side, name in [*sides, *((other, "") for other in found.others)]:
        newer = "  (newer)" if found.newer == name else ""
        print(f"    {_at(side.place)}{newer}")
        print(f"        {printable(side.place.text.strip())}")
        if side.elsewhere:
            more = plural(len(side.elsewhere) + (side.more_places or 0), "more place")
            print(f"        and in {more}, newest first:")
        for said in side.elsewhere:
            print(f"        {_at(said.place)}")
        if side.more_places:
            print(f"        … and {plural(side.more_places, 'more place')}")
    if found.more_values:
        print(f"    … and {plural(found.more_values, 'more value')}")
    if found.reason:
        print(f"    judged by {found.judged_by}: {printable(found.reason)}")


@command("leaks", status=lambda report: _done(report.problems, report.leaks), writes_home=False)
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
    return _found(home, "leaks", lambda: engine.find(workspace), json=json)


@run_leaks.text
def _show_leaks(report: LeaksReport) -> None:
    for leak in report.leaks:
        print(f"{_at(leak.place)}: [{leak.kind}] names {printable(leak.names)}")
        print(f"    {printable(leak.place.text.strip())}")
        for place in leak.elsewhere:
            if place.path == leak.place.path:
                print(f"    and line {place.line}: {printable(place.text.strip())}")
            else:
                print(f"    and {_at(place)}")
        print(f"    {printable(leak.why)}")
        print(f"    belongs in: {printable(leak.belongs)}")
    _say_found(report.leaks, plural(len(report.leaks), "leak"), "leaks", report.files_read)


def _say_found(found: Sequence[object], words: str, what: str, files_read: int) -> None:
    files = plural(files_read, "memory file")
    print(f"{words} in {files}." if found else f"No {what} in {files}.")


def _done(problems: Sequence[str], found: Sequence[object]) -> int:
    """The exit status (module doc), what could not be read said on stderr."""
    for problem in problems:
        print(f"memtab: not read: {problem}", file=sys.stderr)
    return 1 if found else 0


def _at(place: MemoryPlace) -> str:
    """ "path:line  (where in words)"."""
    line = f":{place.line}" if place.line is not None else ""
    return f"{place.path}{line}  ({where_in_words(place)})"
