"""The model's answers between runs, by pair and content (`questions.Pair.key`), so a pair is
asked once (`trust.judging`; docs/formats.md §19.10).

In the trust caches' format (`per_file.memo_of`, sealed, private): `(version, "<home path>",
"judge", (key…), (verdict…), (reason…), (model…))`, the newest `MAX_KEPT`; a file not of that
shape is none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memtab.kept.per_file import CACHE_VERSION, MAGIC, memo_of, only
from memtab.store.home import Home
from memtab.trust.judging.questions import VERDICTS, VerdictKind
from memtab.trust.judging.replies import MAX_REASON

MAX_KEPT = 50_000
"""Answers kept (the newest): a net of 1,000 files' statements, asked over many runs."""


@dataclass(frozen=True)
class Verdict:
    """The model's answer to one pair: its verdict, its reason, and the model that gave it."""

    verdict: VerdictKind
    reason: str
    model: str


class JudgedPairs:
    """The answers kept of one home (see the module doc)."""

    ENGINE = "judge"

    def __init__(self, home: Home) -> None:
        self.memo = memo_of(home, self.ENGINE)
        self._home = str(home.root)
        self._answers: dict[bytes, Verdict] | None = None
        self._changed = False

    def _load(self) -> dict[bytes, Verdict]:
        if self._answers is None:
            self._answers = self.memo.read_sealed(MAGIC, self._read) or {}
        return self._answers

    def _read(self, held: tuple[Any, ...]) -> dict[bytes, Verdict]:
        if len(held) != 7:
            raise ValueError("not the shape written")
        version, home, engine, keys, verdicts, reasons, models = held
        if (version, home, engine) != (CACHE_VERSION, self._home, self.ENGINE):
            return {}
        if not (only(bytes, keys) and only(str, verdicts) and only(str, reasons)):
            raise TypeError("not the types written")
        if not only(str, models) or not len(keys) == len(verdicts) == len(reasons) == len(models):
            raise TypeError("not the types written")
        if any(len(key) != 16 for key in keys) or not all(models):
            raise ValueError("not a pair's key, or no model")
        if not set(verdicts) <= set(VERDICTS) or any(len(r) > MAX_REASON for r in reasons):
            raise ValueError("not a verdict, or a reason longer than any kept")
        return {
            key: Verdict(verdict, reason, model)
            for key, verdict, reason, model in zip(keys, verdicts, reasons, models, strict=True)
        }

    def get(self, key: bytes) -> Verdict | None:
        return self._load().get(key)

    def put(self, key: bytes, verdict: Verdict) -> None:
        answers = self._load()
        answers.pop(key, None)
        answers[key] = verdict
        self._changed = True

    def save(self) -> None:
        if not self._changed:
            return
        kept = list(self._load().items())[-MAX_KEPT:]
        self.memo.write_sealed(
            MAGIC,
            (
                CACHE_VERSION,
                self._home,
                self.ENGINE,
                tuple(key for key, _ in kept),
                tuple(v.verdict for _, v in kept),
                tuple(v.reason for _, v in kept),
                tuple(v.model for _, v in kept),
            ),
        )
        self._changed = False
