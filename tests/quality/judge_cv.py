"""Would a learned judge choose the offline writer's notes better than its rules? A research
command over the tuned-on part ONLY; it changes nothing the writer does.

    .venv/bin/python tests/quality/judge_cv.py

The rules' candidates (`TranscriptDigest.candidates`: every note the rules propose, their soft
gates off, each with its structural `Evidence`) of every tuned-on case (`corpus.WRITER_CASES`;
a measured transcript is refused before it is read) are labelled by the case's items
(`Expected.matches`). It prints the candidate ceiling (the items any candidate matches: the
recall a judge could reach), then cross-validates an L2-regularised logistic regression over
structural features of each candidate (`features`; no word lists, no project names), fitted
by Newton's method in pure Python (deterministic), with 5 folds grouped by PROJECT
(`project_of`), so each fold's figures are on projects its model never saw. The threshold is
the one with the highest CV recall whose CV precision is at least `TARGET_PRECISION`; the
table sets the judge beside today's rules on the same sessions (the rules' figures are
in-sample: they were tuned on these sessions).

2026-11-23 (h28judge; docs/writer-quality.md): the judge did not beat the rules, in CV or on
a fresh blind block, so the writer keeps its rules; the wired judge is on branch h28judge.
"""

from __future__ import annotations

import math
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memtab.writer.job.run import load_writer_events
from memtab.writer.offline.answers import FIRM_WEIGHT
from memtab.writer.offline.extract import TranscriptDigest
from memtab.writer.offline.findings import Evidence
from memtab.writer.offline.notes import (
    MAX_NOTES_PER_RUN,
    Note,
    PlannedNote,
    planned_notes,
)
from memtab.writer.offline.shell.commands import command_kind
from quality.corpus import MEASURED, WRITER_CASES, WriterCase
from quality.scoring import Score, notes_written, unpacked

FOLDS = 5
L2 = 1.0  # on the weights, not the bias; the features are all in 0..1
NEWTON_STEPS = 12
TARGET_PRECISION = 0.82
THRESHOLDS = tuple(round(0.01 * step, 2) for step in range(5, 96))
DIGITS = 6  # weights are rounded so the file is the same on every machine


KINDS = ("goal", "directive", "decision", "command", "tool", "fix", "finding")
SOURCES = ("final", "answer", "report", "saved", "hooks")
COMMAND_KINDS = ("tests", "lint", "type check", "format", "build", "install")
MAX_REASONS = 3

_PATH = re.compile(r"\b[\w.-]+/[\w./-]+|\b[\w-]+\.[a-z]{1,5}\b")
_VERSION = re.compile(r"\bv?\d+\.\d+(?:\.\d+)?\b")
_NUMBER = re.compile(r"\d")
_CODE = re.compile(r"`[^`]+`")


def features(note: Note, evidence: Evidence, kind_counts: Counter[str]) -> dict[str, float]:
    """What the judge reads of one candidate (`kind_counts`: the session's candidates by
    kind). Structural first: what it is, where and how often it was said, what the rules
    made of it; of its text only its shape (length, code, a path, a number, a version)."""
    values: dict[str, float] = {"bias": 1.0}
    for kind in KINDS:
        values[f"kind={kind}"] = float(evidence.kind == kind)
    for source in SOURCES:
        values[f"said in={source}"] = float(evidence.source == source)
    command = evidence.kind == "command"
    shown_kind = command_kind(note.text.strip("`")) if command else None
    for kind in COMMAND_KINDS:
        values[f"command kind={kind}"] = float(shown_kind == kind)
    values["command kind=other"] = float(command and shown_kind is None)
    text = note.text
    values.update(
        {
            "rules keep it": float(evidence.rules_kept),
            "times said or run": math.log2(1 + min(evidence.said, 64)) / 6,
            "position in session": evidence.position,
            "firm statement": float(evidence.weight >= FIRM_WEIGHT),
            "said after a failure": float(evidence.after_failure),
            "place in its answer": min(evidence.rank_in_answer, 5) / 5,
            "english": float(evidence.english),
            "fact marker": float(evidence.marked),
            "passed the fact rules": float(evidence.passed_fact_rules),
            "session length": math.log2(1 + evidence.session_steps) / 10,
            "session changed the project": float(evidence.changed_project),
            "candidates of its kind": math.log2(1 + kind_counts[evidence.kind]) / 8,
            "length": min(len(text), 400) / 400,
            "has code": float(bool(_CODE.search(text))),
            "has a path": float(bool(_PATH.search(text))),
            "has a number": float(bool(_NUMBER.search(text))),
            "has a version": float(bool(_VERSION.search(text))),
            "opens with code": float(text.startswith("`")),
            "names a file it read": float(evidence.names_read_file),
            "names a file it edited": float(evidence.names_edited_file),
        }
    )
    return values


def candidate_features(
    planned: Sequence[PlannedNote], evidence: dict[tuple[str, str], Evidence]
) -> list[dict[str, float] | None]:
    """Each planned note's features (None: a note without evidence)."""
    kind_counts = Counter(found.kind for found in evidence.values())
    return [
        None if found is None else features(each.note, found, kind_counts)
        for each in planned
        for found in [evidence.get((each.kind, each.key))]
    ]


def score(weights: dict[str, float], values: dict[str, float]) -> float:
    """How likely a candidate is a note worth keeping, 0..1."""
    return _sigmoid(sum(weights.get(name, 0.0) * value for name, value in values.items()))


def surest_above(
    scores: Sequence[float], threshold: float, limit: int = MAX_NOTES_PER_RUN
) -> list[int]:
    """What a run would keep: the indices of the scores at or above `threshold`, the `limit`
    highest (the earlier of equal ones), in their order."""
    passing = [index for index, value in enumerate(scores) if value >= threshold]
    return sorted(sorted(passing, key=lambda index: (-scores[index], index))[:limit])


@dataclass
class Session:
    """One tuned-on case: its candidates' features and labels, and today's rules' notes."""

    case: WriterCase
    project: str
    notes: list[Note]
    values: list[dict[str, float]]
    labels: list[bool]
    rules: list[Note]


def project_of(case: WriterCase) -> str:
    """The project a case's transcript comes from: the repository part of its file name
    (`135yshr-meow__entire-checkpoints-v1__…` → meow; `spotter-otel-tracing.jsonl.gz` →
    spotter), so one project's Claude Code and Codex sessions share a fold."""
    name = case.path.name
    if "__" in name:
        return name.split("__")[0].rsplit("-", 1)[-1].lower()
    return name.split("-")[0].lower()


def build_sessions(cases: Sequence[WriterCase], scratch: Path) -> list[Session]:
    """Each case's candidates (the same bounded pass as a real run) and labels."""
    sessions = []
    for case in cases:
        if case.path in MEASURED:
            raise ValueError(f"a measured transcript must never be trained on: {case.path.name}")
        digest = TranscriptDigest(candidates=True)
        load_writer_events(unpacked(case.path, scratch), observe=digest.add)
        wide = digest.candidates()
        rules_notes = notes_written(digest.findings())
        planned = planned_notes("", wide)
        scored = [
            (p.note, values)
            for p, values in zip(planned, candidate_features(planned, wide.evidence), strict=True)
            if values is not None
        ]
        notes = [note for note, _ in scored]
        values = [v for _, v in scored]
        labels = [any(item.matches(note) for item in case.expected) for note in notes]
        sessions.append(Session(case, project_of(case), notes, values, labels, rules_notes))
    return sessions


# --- the model ------------------------------------------------------------------------


def fit(rows: Sequence[tuple[dict[str, float], bool]], names: Sequence[str]) -> dict[str, float]:
    """L2-regularised logistic regression by Newton's method (deterministic)."""
    size = len(names)
    matrix = [[values.get(name, 0.0) for name in names] for values, _ in rows]
    targets = [1.0 if label else 0.0 for _, label in rows]
    penalty = [0.0 if name == "bias" else L2 for name in names]
    weights = [0.0] * size
    for _ in range(NEWTON_STEPS):
        gradient = [penalty[j] * weights[j] for j in range(size)]
        hessian = [[0.0] * size for _ in range(size)]
        for j in range(size):
            hessian[j][j] = penalty[j] + 1e-9
        for x, y in zip(matrix, targets, strict=True):
            p = _sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))
            nonzero = [(j, v) for j, v in enumerate(x) if v]
            for j, v in nonzero:
                gradient[j] += (p - y) * v
            curvature = p * (1 - p)
            for j, vj in nonzero:
                row = hessian[j]
                for k, vk in nonzero:
                    row[k] += curvature * vj * vk
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
    return {name: round(weight, DIGITS) for name, weight in zip(names, weights, strict=True)}


def _sigmoid(total: float) -> float:
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, total))))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix·x = vector (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: (abs(rows[r][col]), -r))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        rest = sum(rows[r][k] * solution[k] for k in range(r + 1, size))
        solution[r] = (rows[r][size] - rest) / rows[r][r]
    return solution


# --- cross-validation -----------------------------------------------------------------


def folds_of(sessions: Sequence[Session], folds: int = FOLDS) -> dict[str, int]:
    """Each project's fold: the biggest projects first, each to the fold with fewest sessions."""
    sizes = Counter(session.project for session in sessions)
    fold_sizes = [0] * folds
    assigned: dict[str, int] = {}
    for project, size in sorted(sizes.items(), key=lambda item: (-item[1], item[0])):
        fold = min(range(folds), key=lambda f: (fold_sizes[f], f))
        assigned[project] = fold
        fold_sizes[fold] += size
    return assigned


def row(score: Score) -> str:
    """Precision and recall as the tables print them."""
    return (
        f"{score.precision:.2f} ({score.right}/{score.written}) / "
        f"{score.recall:.2f} ({score.found}/{score.expected})"
    )


def cross_validate(sessions: Sequence[Session], names: Sequence[str]) -> list[list[float]]:
    """Each session's candidates scored by the model of the folds its project is not in."""
    fold_of = folds_of(sessions)
    scores: list[list[float]] = [[] for _ in sessions]
    for fold in range(FOLDS):
        train = [
            (values, label)
            for session in sessions
            if fold_of[session.project] != fold
            for values, label in zip(session.values, session.labels, strict=True)
        ]
        weights = fit(train, names)
        for index, session in enumerate(sessions):
            if fold_of[session.project] == fold:
                scores[index] = [score(weights, values) for values in session.values]
    return scores


def score_at(
    sessions: Sequence[Session], scores: Sequence[Sequence[float]], threshold: float
) -> dict[str, Score]:
    """Precision and recall of what a run keeps (`judge.surest_above`), overall and by
    language."""
    tallies: dict[str, Score] = defaultdict(Score)
    for session, session_scores in zip(sessions, scores, strict=True):
        kept = surest_above(session_scores, threshold)
        for key in ("all", session.case.language):
            tallies[key].add(session.case, [session.notes[index] for index in kept])
    return tallies


def report_cv(sessions: Sequence[Session], report: Callable[[str], None]) -> float:
    """Report the candidate ceiling and the judge's CV beside the rules'; the threshold CV
    chose."""
    names = sorted({name for s in sessions for values in s.values for name in values})
    items = sum(len(s.case.expected) for s in sessions)
    reachable = sum(
        any(item.matches(note) for note in s.notes) for s in sessions for item in s.case.expected
    )
    report(
        f"{len(sessions)} sessions, {len({s.project for s in sessions})} projects, "
        f"{sum(len(s.notes) for s in sessions)} candidates "
        f"({sum(sum(s.labels) for s in sessions)} match an item)\n"
        f"ceiling: candidates match {reachable}/{items} items ({reachable / items:.2f})"
    )
    scores = cross_validate(sessions, names)
    by_threshold = {t: score_at(sessions, scores, t) for t in THRESHOLDS}
    report("\nthreshold | CV precision / recall (folds grouped by project)")
    for threshold, tallies in by_threshold.items():
        report(f"{threshold:.2f} | {row(tallies['all'])}")
    reaching = [t for t in THRESHOLDS if by_threshold[t]["all"].precision >= TARGET_PRECISION]
    if reaching:
        threshold = max(reaching, key=lambda t: (by_threshold[t]["all"].found, -t))
    else:
        report(f"no threshold reaches CV precision {TARGET_PRECISION}: the most precise one")
        threshold = max(THRESHOLDS, key=lambda t: (by_threshold[t]["all"].precision, -t))
    judged = by_threshold[threshold]
    rules: dict[str, Score] = defaultdict(Score)
    for session in sessions:
        for key in ("all", session.case.language):
            rules[key].add(session.case, session.rules)
    report(f"\nthreshold {threshold:.2f}\n| language | judge (CV) | rules (in-sample) |")
    for key in sorted(judged, key=lambda k: (k != "all", k)):
        report(f"| {key} | {row(judged[key])} | {row(rules[key])} |")
    return threshold


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        sessions = build_sessions(WRITER_CASES, Path(scratch))
    report_cv(sessions, print)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
