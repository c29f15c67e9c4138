"""The check: is what a memory says still true of the code? (docs/formats.md §19)

`CheckEngine.check()` checks every memory file a home holds (or a workspace sees) against
its project's checkout, its links and the other files' facts, into a `CheckReport`. It
blocks on disk and runs git (the window calls it from a worker; `cancel` stops it between
files). What the rules found in each file, and what they asked of the disk, the checkout
and PATH, is kept between checks and processes (`check.kept`): a next check runs the
rules only on a file whose text or one of whose answers changed.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from memtab.check.checkout import (
    INDEX_KINDS,
    Answer,
    Answered,
    Asked,
    Checkout,
    CheckoutCache,
    Question,
    cut_walks,
)
from memtab.check.documents import Document, Listed, checkout_of, list_memory, seen_together
from memtab.check.findings import Found, dressed, finding, found_in, place
from memtab.check.kept import (
    DAY_MS,
    ENGINE,
    RULES_VERSION,
    KeptCheck,
    Missing,
    Unpacker,
    Worked,
    kept_checks,
    pack,
    stale_until,
    where_of,
)
from memtab.check.markdown import scan_markdown
from memtab.check.programs import program_finder
from memtab.check.records import CheckReport, Finding, Place
from memtab.check.rules import codex_summary
from memtab.check.rules.code_facts import code_disagreements
from memtab.check.rules.facts import Fact, disagree, facts_of, what
from memtab.check.rules.hidden_text import hidden_text_findings
from memtab.check.rules.links import MEMORY_QUESTIONS, MemoryNames, broken_imports, broken_links
from memtab.check.rules.paths import NamedPath, is_missing, moved_to, named_paths, rewritten
from memtab.check.rules.recall import index_findings, recall_found
from memtab.check.rules.runnable import aliases_in, run_problems
from memtab.check.settings import load_stale_days
from memtab.file_protocol.file_ref import SourceError
from memtab.fs.atomic import compact_json
from memtab.fs.clock import Clock, now_ms
from memtab.fs.memo import RACY_MARGIN_NS, collection_paused
from memtab.humanize import plural
from memtab.kept.per_file import KeptOnDisk, PerFile
from memtab.kept.reports import report_key
from memtab.kept.texts import KeptTexts
from memtab.markdown import text_lines
from memtab.sources.codex.summary import VERSION_LINE
from memtab.sources.config import SourceContext
from memtab.sources.history import run_git
from memtab.store.history.versions import ScopeHistory, index_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
_NO_CHECKOUT = object()
"""The answer to a question of a checkout that is no longer one: equal to no answer."""


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
        kept: bool = True,
        keep_report: bool = False,
    ) -> None:
        """`kept`: what was worked out of each file is kept in Memtab's cache dir too, for
        the next process (else in this engine only); `keep_report`: each whole check's report
        too, for `printed` (`check.kept`: the CLI's)."""
        self.home = home
        self._env = dict(os.environ if env is None else env)
        self._clock = clock
        self._given_finder = find_program
        self._find_program = find_program or program_finder(self._env)
        self.stale_days = load_stale_days(self._env) if stale_days is None else stale_days
        self._sources = sources
        self._asked = Asked(self._answer)
        self._checkouts = CheckoutCache(self._asked)
        self._now: dict[Path, Checkout | None] = {}  # each checkout, got once per check
        self._signed: dict[str, bytes] = {}  # each checkout's signature, by its root's text
        self._memory_names = MemoryNames()
        self._unpack = Unpacker()
        disk = KeptOnDisk.of_home(home, ENGINE, pack=pack, unpack=self._unpack) if kept else None
        self._roots: dict[int, str] = {}  # each scope's roots in words, for one check
        self._kept: PerFile[Worked] = PerFile(disk)
        self._texts = KeptTexts(home, hold=False) if kept else None
        self._reports = kept_checks(home) if keep_report else None
        self._listing: tuple[str | None, Listed, bytes | None] | None = None
        self._last_kept: tuple[CheckReport, KeptCheck] | None = None
        self._renames: dict[str, tuple[object, dict[str, str]]] = {}
        self._ignored: dict[tuple[Path, object, frozenset[str]], frozenset[str]] = {}
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
        with self._running, collection_paused():
            listed, key = self._listed(workspace_id)
            collected = listed.collect(self._texts)
            everything = workspace_id is None and self._sources
            if self._texts is not None:
                self._texts.finish(everything=workspace_id is None)
            with self._lock:
                self._problems = collected.problems
            if read is not None:
                read.extend(collected.documents)
            return self._report(collected.documents, everything, cancel, progress, key)

    def printed(self, workspace_id: str | None = None) -> KeptCheck | None:
        """The report a check over the same memory kept (`keep_report`), as `--json` prints
        it, when everything else that check read is as it was (`check.kept`); else None.
        No memory file is opened."""
        with self._running, collection_paused():
            listed, key = self._listed(workspace_id)
            held = self._reports.get(key) if self._reports is not None and key else None
            kept = KeptCheck(*held) if held is not None else None
            if kept is None or self._clock() >= kept.until_ms or not self._still(kept):
                self._listing = (workspace_id, listed, key)  # the check that follows lists no more
                return None
            if self._texts is not None:
                self._texts.finish(everything=False)  # the other agents' texts it recalled
            return kept

    def _listed(self, workspace_id: str | None) -> tuple[Listed, bytes | None]:
        """The memory listed, and the key of a report kept of it (None: none is kept of
        it, or a file changed within the racy margin); as `printed` just listed it, if so."""
        listing, self._listing = self._listing, None
        if listing is not None and listing[0] == workspace_id:
            return listing[1], listing[2]
        registry = load_registry(self.home)
        context = SourceContext.load(self.home, env=self._env, registry=registry)
        sources = context if self._sources else None
        listed = list_memory(self.home, registry, workspace_id, sources=sources, texts=self._texts)
        if self._reports is None:
            return listed, None
        stamps = listed.stamps(self._clock() * 1_000_000 - RACY_MARGIN_NS)
        if stamps is None:
            return listed, None
        everything = workspace_id is None and self._sources
        context_of = ("check", RULES_VERSION, workspace_id, everything, self.stale_days)
        return listed, report_key(stamps, context_of)

    def _still(self, kept: KeptCheck) -> bool:
        """Whether every answer `kept`'s check got is the same now, and each project's
        checkout there or not as it was."""
        self._begin()
        if any((checkout_of(project) is not None) != there for project, there in kept.checkouts):
            return False
        return self._holding(kept.asked, kept.signatures) is not None

    # --- the report ---------------------------------------------------------------------

    def _report(
        self,
        documents: tuple[Document, ...],
        everything: bool,
        cancel: threading.Event | None,
        progress: Progress | None,
        key: bytes | None = None,
    ) -> CheckReport:
        self._begin()
        total = len(documents)

        def between(done: int) -> bool:
            if progress is not None and done:
                progress(done, total)
            return cancel is not None and cancel.is_set()

        worked = self._kept.of_all(
            documents,
            self._work,
            everything=everything,
            context=RULES_VERSION,
            restate=self._restate,
            between=between,
        )
        self._unpack.forget()
        self._roots = {}
        cancelled = len(worked) < total
        if progress is not None and not cancelled and total:
            progress(total, total)
        results = list(zip(documents, worked, strict=False))
        aliases = frozenset().union(*(w.aliases for _, w in results if w.aliases))
        findings: list[Finding] = []
        for document, work in results:
            findings += (
                dressed(document, found)
                for found in work.found
                if found.kind != "missing-program" or found.subject not in aliases
            )
            findings += index_findings(document)
        findings += self._missing_paths(results)
        findings += self._disagreements(results)
        findings += self._stale([document for document, _ in results])
        findings += self._projects_missing([document for document, _ in results])
        report = CheckReport(
            findings=tuple(sorted(findings, key=lambda f: f.sort_key)),
            files_checked=len(results),
            projects=tuple(sorted({d.project for d, _ in results if d.project})),
            problems=(*self._problems, *cut_walks(a for work in worked for a in work.asked)),
            cancelled=cancelled,
            stale_days=self.stale_days,
        )
        if key is not None and self._reports is not None and not cancelled:
            kept = self._kept_check(report, results)
            self._reports.put(key, tuple(kept))
            self._last_kept = (report, kept)
        return report

    def printed_of(self, report: CheckReport) -> KeptCheck | None:
        """What `--json` prints of `report` when it is the one just kept (`keep_report`): its
        JSON made once, for the memo and stdout alike."""
        last = self._last_kept
        return last[1] if last is not None and last[0] is report else None

    def _begin(self) -> None:
        """A check begins: every answer is asked again (the user may have made a file,
        installed a program)."""
        self._asked.forget()
        self._now = {}
        self._signed = {}
        self._memory_names = MemoryNames()
        self._find_program = self._given_finder or program_finder(self._env)

    def _kept_check(self, report: CheckReport, results: list[tuple[Document, Worked]]) -> KeptCheck:
        """What `printed` answers a next check over the same memory with."""
        documents = [document for document, _ in results]
        projects = sorted({d.project for d in documents if d.project is not None})
        return KeptCheck(
            printed=compact_json(report.to_json()),
            problems=tuple(report.problems),
            found=bool(report.findings),
            until_ms=stale_until(documents, self._clock(), self.stale_days),
            asked=tuple(dict.fromkeys(a for _, work in results for a in work.asked)),
            signatures=tuple(
                sorted(dict(s for _, work in results for s in work.signatures).items())
            ),
            checkouts=tuple((p, checkout_of(p) is not None) for p in projects),
        )

    # --- one file ---------------------------------------------------------------------

    def _work(self, document: Document) -> Worked:
        """What the rules find in `document`, and what they asked to find it."""
        checkout = self._checkout(document.checkout)
        with self._asked.recording() as asked:
            found, missing, facts, aliases = self._rules(document, checkout)
        roots = sorted({str(q[1]) for q, _ in asked if q[0] in INDEX_KINDS})
        signatures = tuple((root, self._checkouts.signature(Path(root)) or b"") for root in roots)
        return Worked(
            where_of(document, self._roots),
            found,
            missing,
            facts,
            aliases,
            tuple(asked),
            signatures,
        )

    def _restate(self, document: Document, kept: Worked) -> Worked | None:
        """What was kept of `document` if it holds now: the same where, every answer the
        same (those of an index whose checkout's signature changed asked of the new one),
        restated with the new signatures; else None (its rules run again)."""
        if kept.where != where_of(document, self._roots):
            return None
        now = self._holding(kept.asked, kept.signatures)
        if now is None:
            return None
        return kept if now == kept.signatures else replace(kept, signatures=now)

    def _holding(
        self, asked: Iterable[Answered], signatures: tuple[tuple[str, bytes], ...]
    ) -> tuple[tuple[str, bytes], ...] | None:
        """The checkouts' signatures now when every answer of `asked` is the same now (those
        of an index whose checkout's signature changed asked of the new one); else None."""
        now = tuple((root, self._signature(root)) for root, _ in signatures)
        changed = {
            root for (root, new), (_, old) in zip(now, signatures, strict=True) if new != old
        }
        for answered in asked:
            question = answered[0]
            if question[0] in INDEX_KINDS and question[1] not in changed:
                continue
            if not self._asked.holds(answered):
                return None
        if changed and any(not signature for _, signature in now):
            return None
        return now

    def _rules(
        self, document: Document, checkout: Checkout | None
    ) -> tuple[tuple[Found, ...], tuple[Missing, ...], tuple[Fact, ...], frozenset[str]]:
        text = document.text
        lines = text_lines(text)
        scanned = scan_markdown(text)
        found: list[Found] = []
        missing: list[Missing] = []

        def on_line(line: int | None, kind: str, **said: object) -> Found:
            return found_in(text, lines, line, kind, **said)  # type: ignore[arg-type]

        if checkout is not None and not document.record:
            for named in named_paths(scanned, checkout, self._env.get("HOME")):
                if is_missing(checkout, named):
                    new = moved_to(checkout, named)
                    missing.append(
                        Missing(_asked(named), _missing_path(on_line, checkout, named, new))
                    )
            for problem in run_problems(scanned, checkout, find_program=self._which):
                also = f" (and on {plural(len(problem.also), 'more line')})" if problem.also else ""
                found.append(
                    on_line(
                        problem.line,
                        problem.kind,
                        subject=problem.subject,
                        message=problem.message + also,
                        why=problem.why,
                        related=problem.also,
                    )
                )
        facts = facts_of(scanned)
        if checkout is not None and not document.record:
            for said in code_disagreements(facts, checkout):
                found.append(
                    on_line(
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
            found.append(
                on_line(
                    unversioned.line,
                    "codex-summary-version",
                    subject=VERSION_LINE,
                    message=codex_summary.MESSAGE,
                    why=codex_summary.WHY,
                    fix=unversioned.fix,
                )
            )
        links = broken_links(
            document,
            scanned,
            exists=self._memory_exists,
            renamed=self._renamed_asked,
            named_under=self._named_under,
            headings=lambda path: self._memory("memory-headings", str(path)),  # type: ignore[arg-type, return-value]
            checkout=None if document.record else checkout,
        )
        imports = broken_imports(document, scanned, exists=self._memory_exists)
        for link in itertools.chain(links, imports):
            found.append(
                on_line(
                    link.line,
                    "broken-link",
                    subject=link.target,
                    message=link.message,
                    why=link.why,
                    fix=link.fix,
                )
            )
        found += hidden_text_findings(text, lines)
        found += recall_found(document)
        aliases = frozenset(aliases_in(scanned)) if "alias " in text else frozenset()
        return tuple(found), tuple(missing), tuple(facts), aliases

    # --- what the rules ask, and how a question kept is answered again -------------------

    def _checkout(self, root: Path | None) -> Checkout | None:
        """The checkout at `root` as this check sees it (got once per check)."""
        if root is None:
            return None
        if root in self._now:
            return self._now[root]
        try:
            checkout: Checkout | None = self._checkouts.get(root)
        except OSError as error:
            logger.info("Check: cannot index %s: %s", root, error)
            checkout = None
        self._now[root] = checkout
        return checkout

    def _signature(self, root: str) -> bytes:
        """The signature of the checkout at `root` now (empty: none), got once per check."""
        signed = self._signed.get(root)
        if signed is None:
            path = Path(root)
            signed = b"" if self._checkout(path) is None else self._checkouts.signature(path) or b""
            self._signed[root] = signed
        return signed

    def _answer(self, question: Question) -> Answer:
        """A question kept from an earlier check, asked now."""
        kind = question[0]
        if kind == "which":
            return self._find_program(str(question[1]))
        if kind in MEMORY_QUESTIONS:
            return MEMORY_QUESTIONS[kind](self._memory_names, *question[1:])
        if kind == "renamed":
            return self._renamed_key(str(question[1]), str(question[2]))
        checkout = self._checkout(Path(str(question[1])))
        if checkout is None:
            return _NO_CHECKOUT
        return checkout.answer(str(kind), *question[2:])

    def _which(self, program: str) -> str | None:
        return self._asked.ask(("which", program), lambda: self._find_program(program))  # type: ignore[return-value]

    def _memory(self, kind: str, *asked: str) -> Answer:
        answer = MEMORY_QUESTIONS[kind]
        return self._asked.ask((kind, *asked), lambda: answer(self._memory_names, *asked))

    def _memory_exists(self, path: Path) -> bool:
        return self._memory("memory-exists", str(path))  # type: ignore[return-value]

    def _named_under(self, root: Path, name: str) -> tuple[Path, ...]:
        return tuple(map(Path, self._memory("memory-named", str(root), name)))  # type: ignore[call-overload]

    def _renamed_asked(self, document: Document, virtual: str) -> str | None:
        key = document.history_key
        if key is None:
            return None
        return self._asked.ask(("renamed", key, virtual), lambda: self._renamed_key(key, virtual))  # type: ignore[return-value]

    # --- paths: one `git check-ignore` per checkout --------------------------------------

    def _missing_paths(self, results: list[tuple[Document, Worked]]) -> list[Finding]:
        wanted: dict[Path, set[str]] = {}
        for document, work in results:
            checkout = self._checkout(document.checkout) if work.missing else None
            if checkout is not None and checkout.git:
                wanted.setdefault(checkout.root, set()).update(m.asked for m in work.missing)
        ignored = {root: self._ignored_of(root, paths) for root, paths in wanted.items() if paths}
        findings: list[Finding] = []
        for document, work in results:
            skip = ignored.get(document.checkout, frozenset()) if document.checkout else ()
            findings += (dressed(document, m.found) for m in work.missing if m.asked not in skip)
        return findings

    def _ignored_of(self, root: Path, paths: set[str]) -> frozenset[str]:
        key = (root, self._checkouts.signature(root), frozenset(paths))
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

    def _renamed_key(self, key: str, virtual: str) -> str | None:
        """The virtual path `virtual` of the scope history `key` was renamed to (following
        renames), if any."""
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

    def _disagreements(self, results: list[tuple[Document, Worked]]) -> list[Finding]:
        by_key: dict[tuple[str, str], list[tuple[Document, Fact]]] = {}
        for document, work in results:
            if document.record:
                continue  # what a session found then, no claim that it holds now
            for fact in work.facts:
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
        lines: dict[str, list[str]] = {}  # each file cited split once: one may be cited often

        def place_of(document: Document, line: int) -> Place:
            split = lines.get(document.key)
            if split is None:
                split = lines[document.key] = text_lines(document.text)
            return place(document, line, split)

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
                    related=tuple(place_of(doc, fact.line) for doc, fact in partners),
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
    on_line: Callable[..., Found], checkout: Checkout, named: NamedPath, new: str | None
) -> Found:
    first, folder, _ = named.relative.partition("/")
    there = f" (its first folder, {first}/, is there)" if folder else ""
    why = f"It names a path of the checkout {checkout.root}{there}, and {named.nothing_at}."
    found: Found = on_line(
        named.line,
        "missing-path",
        subject=named.relative,
        message=f"`{named.relative}` is not in {os.path.basename(checkout.root)}",
        why=why,
    )
    if new is None:
        return found
    why += f" The only one of that name is at {new}: it was probably moved there."
    new_written = rewritten(named.written, named.relative, new)
    fix = (
        f"Name {new} instead of {named.relative}",
        found.text.replace(named.written, new_written),
    )
    return on_line(
        named.line,
        "missing-path",
        subject=named.relative,
        message=found.message,
        why=why,
        fix=fix,
    )
