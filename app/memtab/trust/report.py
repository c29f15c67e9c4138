"""What the three questions found in one read of the memory (`together.TrustEngines`):
a plain value, light to import — the window holds it, a child process sends it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from memtab.trust.contradictions.records import Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak

DUPLICATE_CANDIDATES = "Might say the same — ask your model or compare"
CONTRADICTION_CANDIDATES = "Might disagree — ask your model or compare"
"""How the window and the CLI head what the words only suspect (a report's candidates)."""


@dataclass(frozen=True)
class TrustReport:
    """What the three engines found in one read of the memory."""

    duplicates: tuple[DuplicateGroup, ...] = ()
    contradictions: tuple[Contradiction, ...] = ()
    leaks: tuple[Leak, ...] = ()
    duplicate_candidates: tuple[DuplicateGroup, ...] = ()
    """Groups the words only suspect (`DuplicatesReport.candidates`): shown apart from the
    findings, never counted, never acted on in one click."""
    contradiction_candidates: tuple[Contradiction, ...] = ()
    """Disagreements the words only suspect (`ContradictionsReport.candidates`)."""
    files_read: int = 0
    kept: int = 0
    """Duplicate groups left out: kept as they are (`duplicates.kept`)."""
    problems: tuple[str, ...] = ()
    workspaces: Mapping[str, str] = field(default_factory=dict)
    """A workspace id of each project path the registry knows (its first)."""
