"""The three questions asked of one read of the memory: what the window shows.

`memtab duplicates`, `contradictions` and `leaks` each read every memory file; the
window asks all three after every change, so `TrustEngines` reads the memory once
(`memories.read_memories`) and hands the same documents to each engine, each keeping
what it worked out of every file by its text (`per_file.PerFile`, in Memtab's cache dir
between processes too): a second run reads every file again but works out again only the
changed files' words, claims and mentions. What the three found is a
`report.TrustReport`, with the projects' workspaces (where a project's memory can be
opened and written). The window asks in a child process (`components.trust.jobs`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from memtab.fs.memo import collection_paused
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.times import LineTime
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.memories import MemoryEngine
from memtab.trust.report import TrustReport


class TrustEngines(MemoryEngine):
    """Duplicates, contradictions and leaks over one read (see the module doc);
    thread-safe as each engine is (one run at a time)."""

    def __init__(
        self,
        home: Home,
        *,
        env: Mapping[str, str] | None = None,
        sources: bool = True,
        line_time: LineTime | None = None,
    ) -> None:
        super().__init__(home, env=env, sources=sources)
        self.duplicates = DuplicatesEngine(home, env=env, sources=sources)
        self.contradictions = ContradictionsEngine(
            home, env=env, sources=sources, line_time=line_time
        )
        self.leaks = LeaksEngine(home, env=env, sources=sources)

    @collection_paused()
    def find(self, workspace_id: str | None = None, *, kept: Collection[str] = ()) -> TrustReport:
        """What the memory of the home (or what `workspace_id`'s sessions see) holds of
        the three, the duplicate groups whose key is in `kept` left out. HomeError for an
        unusable registry or an unknown workspace."""
        collected, everything = self.memories(workspace_id)
        documents = collected.documents
        duplicates = self.duplicates.report_of(documents, everything=everything, kept=kept)
        contradictions = self.contradictions.found_in(documents, everything=everything)
        projects = self.leaks.known_projects(d.project for d in documents)
        registry = load_registry(self.home)
        workspaces: dict[str, str] = {}
        for workspace in registry.workspaces:
            if workspace.project_path:
                workspaces.setdefault(workspace.project_path, workspace.id)
        return TrustReport(
            duplicates=duplicates.groups,
            contradictions=tuple(contradictions.contradictions),
            leaks=tuple(self.leaks.leaks_of(documents, projects, everything=everything)),
            files_read=len(documents),
            kept=duplicates.kept,
            problems=collected.problems,
            workspaces=workspaces,
            duplicate_candidates=duplicates.candidates,
            contradiction_candidates=tuple(contradictions.candidates),
        )
