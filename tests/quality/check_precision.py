"""The check's precision on real memory: `python tests/quality/check_precision.py`.

Runs `memtab check` on every case of `check_corpus.py` and scores each finding by the
verdict `check_judgements.tsv` holds for it (right: what it says is true of that memory
and that checkout; wrong: a false alarm). Prints precision per kind and overall, and the
findings nobody judged yet (`--unjudged` prints them as lines to paste into the file,
verdict `?`). `tests/quality/test_check_quality.py` runs the same and fails when a
finding is unjudged or precision falls below what docs/guide.md publishes.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: import the corpus as the tests do
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).parents[1])]
    __package__ = "tests.quality"

from tests.quality.check_corpus import CASES, JUDGEMENTS, Key, finding_key, run_case

VERDICTS = ("right", "wrong")


@dataclass(frozen=True)
class Judged:
    verdict: str
    note: str


def read_judgements(path: Path = JUDGEMENTS) -> dict[Key, Judged]:
    """`case \t path \t line \t kind \t subject \t verdict \t note` per line; `#` comments."""
    judged: dict[Key, Judged] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 7:
            raise ValueError(f"{path.name}:{number}: expected 7 tab-separated fields")
        case, file, line, kind, subject, verdict, note = fields
        judged[(case, file, line, kind, subject)] = Judged(verdict, note)
    return judged


@dataclass(frozen=True)
class Scored:
    found: list[tuple[Key, str]]  # every finding's key and message
    judged: dict[Key, Judged]

    @property
    def unjudged(self) -> list[tuple[Key, str]]:
        return [
            (k, m)
            for k, m in self.found
            if self.judged.get(k, Judged("?", "")).verdict not in VERDICTS
        ]

    @property
    def gone(self) -> list[Key]:
        """Judged findings the check no longer makes."""
        found = {key for key, _ in self.found}
        return [key for key in self.judged if key not in found]

    def counts(self) -> dict[str, tuple[int, int]]:
        """Per kind (and "all"): (right, judged)."""
        right: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for key, _ in self.found:
            verdict = self.judged.get(key)
            if verdict is None or verdict.verdict not in VERDICTS:
                continue
            for kind in (key[3], "all"):
                total[kind] += 1
                right[kind] += verdict.verdict == "right"
        return {kind: (right[kind], total[kind]) for kind in total}

    def precision(self, kind: str = "all") -> float:
        right, total = self.counts().get(kind, (0, 0))
        return right / total if total else 1.0


def score(scratch: Path) -> Scored:
    found: list[tuple[Key, str]] = []
    for case in CASES:
        for finding in run_case(case, scratch):
            found.append((finding_key(case.name, finding), finding.message))
    return Scored(found, read_judgements())


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="memtab-check-corpus-") as scratch:
        scored = score(Path(scratch))
    print("| kind | findings | right | precision |")
    print("|---|---|---|---|")
    for kind, (right, total) in sorted(scored.counts().items(), key=lambda i: i[0] == "all"):
        print(f"| {kind} | {total} | {right} | {right / total:.2f} |")
    if scored.unjudged:
        print(f"\n{len(scored.unjudged)} findings are not judged yet:")
        for key, message in scored.unjudged:
            line = "\t".join(key)
            print(f"{line}\t?\t{message}" if "--unjudged" in argv else f"  {line}  {message}")
    if scored.gone:
        print(f"\n{len(scored.gone)} judged findings are no longer made:")
        for key in scored.gone:
            print("  " + "\t".join(key))
    return 1 if scored.unjudged else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
