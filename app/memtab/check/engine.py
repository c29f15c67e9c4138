"""The check: is what a memory says still true of the code? (docs/formats.md §19)

`CheckEngine.check()` reads every memory file a home holds (or one workspace sees,
`check.documents`), checks each against its project's checkout — paths it names, script
targets, programs (`check.rules.paths`, `check.rules.runnable`) — its links
(`check.rules.links`) and, for Codex's summary, its `v1` line (`check.rules.codex_summary`),
then compares facts across files (`check.rules.facts`), finds stale
files, and says once per project that is not on this disk. Its result is a `CheckReport` of
`Finding` records.

It blocks on disk and runs git: the CLI calls it, the window will call it from a worker
thread. `cancel` (a threading.Event) stops it between files (the report says
`cancelled`); `progress(done, total)` is told as files are checked. An engine keeps what
it learnt: each checkout's index until it changes (`CheckoutCache`), and each file's
findings until its text or checkout changes: a second check reads every file but checks
only those that changed. It keeps no file's text between checks (~2 MiB less resident
with 3,000 files). One check runs at a time per engine; the window keeps one engine per
home.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.check.checkout import Checkout, CheckoutCache
from memtab.check.documents import Document, checkout_of, collect, seen_together
from memtab.check.findings import finding, place
from memtab.check.markdown import scan_markdown
from memtab.check.programs import program_finder
from memtab.check.records import CheckReport, Finding, FindingKind
from memtab.check.rules import codex_summary
from memtab.check.rules.code_facts import code_disagreements
from memtab.check.rules.facts import Fact, disagree, facts_of, what
from memtab.check.rules.hidden_text import hidden_text_findings
from memtab.check.rules.links import broken_links
from memtab.check.rules.paths import NamedPath, is_missing, moved_to, named_paths, rewritten
from memtab.check.rules.recall import index_findings, recall_findings
from memtab.check.rules.runnable import aliases_in, run_problems
from memtab.check.settings import load_stale_days
from memtab.file_protocol.file_ref import SourceError
from memtab.fs.clock import Clock, now_ms
from memtab.humanize import plural
from memtab.sources.codex.summary import VERSION_LINE
from memtab.sources.config import SourceContext
from memtab.sources.history import run_git
from memtab.store.history.versions import ScopeHistory, index_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)

DAY_MS = 24 * 60 * 60 * 1000
_NONE: frozenset[str] = frozenset()  # one empty set for the many files that define no alias
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class _Checked:
    """What the rules of one file found (kept by `_checked_as`: the file and its text,
    16 bytes) and what it was checked against. Kept for every file: tuples (most are
    empty, and an empty tuple is one object); the files where nothing was found share
    one (`CheckEngine._clean_as`)."""

    checkout: Checkout | None
    aliases: frozenset[str]
    findings: tuple[Finding, ...]
    missing: tuple[tuple[NamedPath, str | None], ...]
    facts: tuple[Fact, ...]


class CheckEngine:
    """Checks a home's memory against the code (see the module doc)."""

    def __init__(
        self,
        home: Home,
        *,
        env: Mapping[str, str] | None = None,
        clock: Clock = now_ms,
        find_program: Callable[[str], str | None] | None = None,
        stale_days: int | None = None,
        sources: bool = True,
    ) -> None:
        self.home = home
        self._env = dict(os.environ if env is None else env)
        self._clock = clock
        self._given_finder = find_program
        self._find_program = find_program or program_finder(self._env)
        self.stale_days = load_stale_days(self._env) if stale_days is None else stale_days
        self._sources = sources
        self._checkouts = CheckoutCache()
        self._checked: dict[bytes, _Checked] = {}  # by `_checked_as`
        self._clean: dict[tuple[Path | None, frozenset[str]], _Checked] = {}  # `_clean_as`
        self._renames: dict[str, tuple[object, dict[str, str]]] = {}
        self._ignored: dict[tuple[Path, object, frozenset[str]], frozenset[str]] = {}
        # The aliases each file defines, by the text that defines them (`_aliases`): only
        # for files that define some, most define none (3,000 entries were ~0.3 MB).
        self._alias_cache: dict[str, tuple[bytes, frozenset[str]]] = {}
        self._problems: tuple[str, ...] = ()  # what the last check could not read
        self._lock = threading.Lock()  # the engine's state, between threads
        self._running = threading.Lock()  # one check at a time

    # --- what the window and the CLI call ---------------------------------------------

    def check(
        self,
        workspace_id: str | None = None,
        *,
        cancel: threading.Event | None = None,
        progress: Progress | None = None,
        read: list[Document] | None = None,
    ) -> CheckReport:
        """Check every memory file of the home, or those `workspace_id` sees. Raises
        HomeError for an unusable registry or an unknown workspace. One check at a time
        per engine (a second call waits for the first). `read`: given the documents this
        check read (kept by the caller, not by the engine)."""
        with self._running:
            registry = load_registry(self.home)
            context = SourceContext.load(self.home, env=self._env, registry=registry)
            collected = collect(
                self.home, registry, workspace_id, sources=context if self._sources else None
            )
            with self._lock:
                self._problems = collected.problems
            if read is not None:
                read.extend(collected.documents)
            return self._report(collected.documents, cancel, progress)

    # --- the report ---------------------------------------------------------------------

    def _report(
        self,
        documents: tuple[Document, ...],
        cancel: threading.Event | None,
        progress: Progress | None,
    ) -> CheckReport:
        findings: list[Finding] = []
        results: list[tuple[Document, _Checked]] = []
        cancelled = False
        checked_as = {document.key: _checked_as(document) for document in documents}
        wanted = set(checked_as.values())
        with self._lock:  # what no file is now is forgotten
            self._checked = {k: v for k, v in self._checked.items() if k in wanted}
        aliases = self._aliases(documents, checked_as)
        # What is installed is looked up again by each check (the user may install it).
        self._find_program = self._given_finder or program_finder(self._env)
        for checkout in self._checkouts.all():
            checkout.memo.clear()
            checkout.definitions.clear()
        for done, document in enumerate(documents):
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            checked = self._check_document(document, checked_as[document.key], aliases)
            results.append((document, checked))
            if progress is not None:
                progress(done + 1, len(documents))
        for _, checked in results:
            findings += checked.findings
        findings += self._missing_paths(results)
        findings += self._disagreements(results)
        findings += self._stale([document for document, _ in results])
        findings += self._projects_missing([document for document, _ in results])
        return CheckReport(
            findings=tuple(sorted(findings, key=lambda f: f.sort_key)),
            files_checked=len(results),
            projects=tuple(sorted({d.project for d, _ in results if d.project})),
            problems=self._problems,
            cancelled=cancelled,
            stale_days=self.stale_days,
        )

    def _check_document(
        self, document: Document, digest: bytes, aliases: frozenset[str]
    ) -> _Checked:
        checkout = self._checkout(document.checkout)
        cached = self._checked.get(digest)
        if cached is not None and cached.checkout is checkout and cached.aliases == aliases:
            return cached
        scanned = scan_markdown(document.text)
        findings: list[Finding] = []
        missing: list[tuple[NamedPath, str | None]] = []
        if checkout is not None and not document.record:
            for named in named_paths(scanned, checkout):
                if is_missing(checkout, named):
                    missing.append((named, moved_to(checkout, named)))
            for problem in run_problems(
                scanned, checkout, find_program=self._find_program, aliases=aliases
            ):
                also = f" (and on {plural(len(problem.also), 'more line')})" if problem.also else ""
                findings.append(
                    finding(
                        document,
                        problem.line,
                        problem.kind,  # type: ignore[arg-type]
                        subject=problem.subject,
                        message=problem.message + also,
                        why=problem.why,
                        related=tuple(place(document, line) for line in problem.also),
                    )
                )
        facts = facts_of(scanned)
        if checkout is not None and not document.record:
            for said in code_disagreements(facts, checkout):
                findings.append(
                    finding(
                        document,
                        said.fact.line,
                        "code-disagrees",
                        subject=f"{said.fact.kind}:{said.fact.key}",
                        message=said.message,
                        why=f"The checkout's {said.readme} is its own word on how it runs: "
                        "the memory was probably true once and the code moved on.",
                    )
                )
        unversioned = codex_summary.missing_version_line(document)
        if unversioned is not None:
            findings.append(
                finding(
                    document,
                    unversioned.line,
                    "codex-summary-version",
                    subject=VERSION_LINE,
                    message=codex_summary.MESSAGE,
                    why=codex_summary.WHY,
                    fix=unversioned.fix,
                )
            )
        for link in broken_links(document, scanned, self._renamed):
            findings.append(
                finding(
                    document,
                    link.line,
                    "broken-link",
                    subject=link.target,
                    message=f"The link to `{link.target}` leads nowhere",
                    why=f"No memory file is at {link.resolved}: it was renamed, moved or deleted.",
                    fix=link.fix,
                )
            )
        findings += recall_findings(document) + index_findings(document)
        findings += hidden_text_findings(document)
        checked = _Checked(checkout, aliases, tuple(findings), tuple(missing), tuple(facts))
        if not (checked.findings or checked.missing or checked.facts):
            checked = self._clean_as(checked)
        self._checked[digest] = checked
        return checked

    def _clean_as(self, checked: _Checked) -> _Checked:
        """One `_Checked` for every file of a checkout whose rules found nothing (most
        files): the one kept for its checkout and aliases, unless the checkout's index
        was made again since."""
        slot = (checked.checkout.root if checked.checkout is not None else None, checked.aliases)
        kept = self._clean.get(slot)
        if kept is not None and kept.checkout is checked.checkout:
            return kept
        self._clean[slot] = checked
        return checked

    def _checkout(self, root: Path | None) -> Checkout | None:
        if root is None:
            return None
        try:
            return self._checkouts.get(root)
        except OSError as error:
            logger.info("Check: cannot index %s: %s", root, error)
            return None

    def _aliases(
        self, documents: Iterable[Document], checked_as: Mapping[str, bytes]
    ) -> frozenset[str]:
        """The shell aliases any of the documents defines (`alias docker=podman`): the
        user has them. A text is read for them once: a file none of whose texts defined
        one is not read again while it is the text last checked (`_checked`); the texts
        that define some are remembered with them, never forgotten (so a file changed
        back to such a text, even after a cancelled check, still has them)."""
        found: set[str] = set()
        for document in documents:
            digest = checked_as[document.key]
            known = self._alias_cache.get(document.key)
            if known is not None and known[0] == digest:
                found |= known[1]
                continue
            if known is None and digest in self._checked:
                continue  # read as it is when last checked: it defines none
            text = document.text
            if "alias " in text and (aliases := frozenset(aliases_in(scan_markdown(text)))):
                self._alias_cache[document.key] = (digest, aliases)
                found |= aliases
        return frozenset(found)

    # --- paths: one `git check-ignore` per checkout --------------------------------------

    def _missing_paths(self, results: list[tuple[Document, _Checked]]) -> list[Finding]:
        wanted: dict[Path, set[str]] = {}
        for _, checked in results:
            if checked.checkout is not None and checked.checkout.git:
                paths = wanted.setdefault(checked.checkout.root, set())
                paths.update(_asked(named) for named, _ in checked.missing)
        ignored = {root: self._ignored_of(root, paths) for root, paths in wanted.items() if paths}
        findings = []
        for document, checked in results:
            if checked.checkout is None:
                continue
            skip = ignored.get(checked.checkout.root, frozenset())
            for named, new in checked.missing:
                if _asked(named) not in skip:
                    findings.append(_missing_path(document, checked.checkout, named, new))
        return findings

    def _ignored_of(self, root: Path, paths: set[str]) -> frozenset[str]:
        checkout = self._checkouts.get(root)
        key = (root, id(checkout), frozenset(paths))
        cached = self._ignored.get(key)
        if cached is not None:
            return cached
        listed = "\0".join(sorted(paths)) + "\0"
        try:
            output = run_git(
                root,
                ["check-ignore", "-z", "--stdin", "--no-index"],
                stdin=listed.encode("utf-8", "surrogateescape"),
                accept=(0, 1),
            )
        except SourceError as error:
            logger.info("Check: cannot ask git what %s ignores: %s", root, error)
            return frozenset()
        found = frozenset(path for path in output.split("\0") if path)
        self._ignored[key] = found
        return found

    # --- links: what history says was renamed --------------------------------------------

    def _renamed(self, document: Document, virtual: str) -> str | None:
        if document.history_key is None:
            return None
        key = document.history_key
        index = index_path(self.home, key)
        try:
            stamp: object = (index.stat().st_mtime_ns, index.stat().st_size)
        except OSError:
            return None
        cached = self._renames.get(key)
        if cached is None or cached[0] != stamp:
            moves = {
                version.path: version.moved_to
                for version in ScopeHistory(self.home, key).versions()
                if version.moved_to
            }
            cached = (stamp, moves)
            self._renames[key] = cached
        moves = cached[1]
        current, seen = virtual, {virtual}
        while current in moves and moves[current] not in seen:
            current = moves[current]
            seen.add(current)
        return current if current != virtual else None

    # --- across files -------------------------------------------------------------------

    def _disagreements(self, results: list[tuple[Document, _Checked]]) -> list[Finding]:
        by_key: dict[tuple[str, str], list[tuple[Document, Fact]]] = {}
        for document, checked in results:
            for fact in checked.facts:
                by_key.setdefault((fact.kind, fact.key), []).append((document, fact))
        anchored: dict[
            tuple[str, int, str], tuple[Document, Fact, list[tuple[Document, Fact]]]
        ] = {}
        for occurrences in by_key.values():
            if len({fact.value for _, fact in occurrences}) < 2:
                continue  # every memory says the same
            for index, (one_doc, one) in enumerate(occurrences):
                for other_doc, other in occurrences[index + 1 :]:
                    if one.value == other.value or not disagree(one, other):
                        continue
                    if not seen_together(one_doc, other_doc):
                        continue
                    (anchor_doc, anchor), partner = _older_first((one_doc, one), (other_doc, other))
                    slot = (anchor_doc.key, anchor.line, f"{anchor.kind}:{anchor.key}")
                    anchored.setdefault(slot, (anchor_doc, anchor, []))[2].append(partner)
        findings = []
        for anchor_doc, anchor, partners in anchored.values():
            others = "; ".join(
                f"{doc.path}:{fact.line} says {fact.value}" for doc, fact in partners[:3]
            )
            findings.append(
                finding(
                    anchor_doc,
                    anchor.line,
                    "disagreement",
                    subject=f"{anchor.kind}:{anchor.key}",
                    message=f"This says {what(anchor)} is {anchor.value}; {others}",
                    why=f"The memories disagree on {what(anchor)}; at most one of them is "
                    "still true. This file changed longer ago, so it is more likely the "
                    "one out of date.",
                    related=tuple(place(doc, fact.line) for doc, fact in partners),
                )
            )
        return findings

    def _stale(self, documents: Iterable[Document]) -> list[Finding]:
        if self.stale_days <= 0:
            return []
        now = self._clock()
        limit = self.stale_days * DAY_MS
        findings = []
        for document in documents:
            if document.last_used_ms is None or now - document.last_used_ms <= limit:
                continue
            days = (now - document.last_used_ms) // DAY_MS
            # ISO's four-digit year, which strftime's %Y does not pad (glibc: "976-02-23")
            day = time.gmtime(document.last_used_ms // 1000)
            since = f"{day.tm_year:04d}-{day.tm_mon:02d}-{day.tm_mday:02d}"
            findings.append(
                finding(
                    document,
                    None,
                    "stale",
                    subject=since,
                    message=f"Not used or changed in {days} days",
                    why=f"No agent has read or written it since {since} (memory-meta.json), "
                    f"nor was it changed; a memory unused for {self.stale_days} days is "
                    "stale (settings.json check.stale_days). Is it still true, and still "
                    "worth keeping?",
                )
            )
        return findings

    def _projects_missing(self, documents: Iterable[Document]) -> list[Finding]:
        by_project: dict[str, list[Document]] = {}
        for document in documents:
            if document.project is not None:
                by_project.setdefault(document.project, []).append(document)
        findings = []
        for project, members in sorted(by_project.items()):
            if checkout_of(project) is not None:
                continue
            mux = [d for d in members if d.agent == "mux"]
            anchor = mux[0] if mux else members[0]
            path = "/memories/project" if mux else anchor.path.rsplit(":", 1)[0]
            counts = _counted_by_agent(members)
            missing = finding(
                anchor,
                None,
                "project-missing",
                subject=project,
                message=f"The project {project} is not on this disk",
                why=f"{counts} belong to it. What they say about its files, scripts and "
                "commands can only be checked against its checkout: it may have moved "
                "(register where it is now), or live on another machine.",
            )
            findings.append(missing.replaced(path=path, workspace=None, scope="project"))
        return findings


def _checked_as(document: Document) -> bytes:
    """What an engine keeps of a file it checked, to know it and its text again: a
    16-byte BLAKE2b digest of its key and `Document.packed` (the same text packs to the
    same bytes) — not the text, nor the key (~110 bytes a file)."""
    digest = hashlib.blake2b(document.key.encode("utf-8", "surrogatepass"), digest_size=16)
    digest.update(b"\0")
    digest.update(document.packed)
    return digest.digest()


def _asked(named: NamedPath) -> str:
    """A path as git check-ignore is asked about it (a folder with its `/`: `logs/`
    patterns match only folders)."""
    return named.relative + "/" if named.directory else named.relative


def _older_first(
    one: tuple[Document, Fact], other: tuple[Document, Fact]
) -> tuple[tuple[Document, Fact], tuple[Document, Fact]]:
    key_one = (one[0].modified_ms, one[0].path, one[1].line)
    key_other = (other[0].modified_ms, other[0].path, other[1].line)
    return (one, other) if key_one <= key_other else (other, one)


_AGENT_NAMES = {
    "mux": "mux",
    "claude-code": "Claude Code",
    "codex": "Codex",
    "loki": "loki-mode",
    "gemini": "Gemini CLI",
}


def _counted_by_agent(documents: list[Document]) -> str:
    counts: dict[str, int] = {}
    for document in documents:
        counts[document.agent] = counts.get(document.agent, 0) + 1
    parts = [f"{plural(n, 'memory file')} of {_AGENT_NAMES[a]}" for a, n in counts.items()]
    return ", ".join(parts)


def _missing_path(
    document: Document, checkout: Checkout, named: NamedPath, new: str | None
) -> Finding:
    kind: FindingKind = "missing-path"
    what_it_is = "folder" if named.directory else "file or folder"
    why = (
        f"It names a path of the checkout {checkout.root} (its first folder, "
        f"{named.relative.split('/', 1)[0]}/, is there), and no {what_it_is} is at "
        f"{named.relative}."
    )
    fix = None
    if new is not None:
        why += f" The only one of that name is at {new}: it was probably moved there."
        lines = document.text.split("\n")
        text = lines[named.line - 1].removesuffix("\r") if named.line <= len(lines) else ""
        new_written = rewritten(named.written, named.relative, new)
        fix = (f"Name {new} instead of {named.relative}", text.replace(named.written, new_written))
    return finding(
        document,
        named.line,
        kind,
        subject=named.relative,
        message=f"`{named.relative}` is not in {os.path.basename(checkout.root)}",
        why=why,
        fix=fix,
    )
