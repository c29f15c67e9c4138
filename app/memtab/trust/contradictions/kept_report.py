"""What a warm `memtab contradictions --json` asks of the engine: the report the last run over
the same memory kept (`kept.reports`), and what it depends on besides the memory. Light to
import, so a warm run prints what the last one printed without the engine or the claims'
readers (their patterns compiled: ~0.1 s of CPU)."""

from __future__ import annotations

from memtab.check.documents import Listed
from memtab.kept.reports import KeptPrinted
from memtab.trust.contradictions.times import BlamedTimes
from memtab.trust.memories import MemoryEngine


class KeptContradictions(MemoryEngine):
    """The contradictions engine's base (`engine.ContradictionsEngine`): its report as kept."""

    time_bound = 5.0
    """The search for disagreements stops after this many seconds (the answer says so)."""

    def printed_report(self, workspace_id: str | None = None) -> KeptPrinted | None:
        """What `--json` printed of the report a run over the same memory kept (`printed`),
        no record rebuilt; None when a file changed or none was kept."""
        return self.printed(workspace_id, "contradictions", self._context)

    def _context(self, listed: Listed) -> object:
        """What a report depends on besides the memory: the time bound, the histories its
        lines are blamed by (which side is newer)."""
        return ("contradictions", self.time_bound, BlamedTimes(self.home).histories(listed))
