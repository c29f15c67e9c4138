"""The offline writer's precision and recall on the quality corpus, per part and language.

    .venv/bin/python tests/quality/measure.py            # the measured part (split.txt)
    .venv/bin/python tests/quality/measure.py --tune     # the part tuned on
    .venv/bin/python tests/quality/measure.py --notes    # … and every note, right or wrong
    .venv/bin/python tests/quality/measure.py --by-extractor   # … and per extractor

Precision = notes that match a gold item / notes written; recall = gold items matched by a
note / gold items (tests/quality/scoring.py `Score`). docs/writer-quality.md reports them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quality.corpus import MEASURE_CASES, WRITER_CASES
from quality.provenance import traced_notes
from quality.scoring import Score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", action="store_true", help="the part tuned on")
    parser.add_argument("--notes", action="store_true", help="print every note")
    parser.add_argument(
        "--by-extractor", action="store_true", help="notes written and right, per extractor"
    )
    args = parser.parse_args(argv)
    cases = WRITER_CASES if args.tune else MEASURE_CASES
    total = Score()
    by_language: dict[str, Score] = defaultdict(Score)
    sessions: dict[str, int] = defaultdict(int)
    # per extractor (`provenance.py`): notes written, right, labelled items no other one found
    by_extractor: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases:
            traced = traced_notes(case.path, Path(scratch))
            notes = [note for note, _ in traced]
            for note, source in traced:
                by_extractor[source][0] += 1
                by_extractor[source][1] += any(item.matches(note) for item in case.expected)
            for item in case.expected:
                finders = {source for note, source in traced if item.matches(note)}
                if len(finders) == 1:
                    by_extractor[finders.pop()][2] += 1
            score = Score()
            for each in (score, total, by_language[case.language]):
                each.add(case, notes)
            sessions[case.language] += 1
            print(
                f"{case.name[:70]:70} right {score.right}/{score.written}"
                f"  found {score.found}/{score.expected}"
            )
            if args.notes:
                for note in notes:
                    mark = "+" if any(item.matches(note) for item in case.expected) else "-"
                    print(f"    {mark} [{note.section}] {note.text}")
                for _, item in score.missing:
                    print(f"    missed: {' … '.join(item.fragments)}")
    part = "tuned-on" if args.tune else "measured"
    print(f"\n{part} part | language | sessions | labelled items | precision | recall")
    for language, score in sorted(by_language.items()):
        print(_row(LANGUAGES.get(language, language), sessions[language], score))
    print(_row("all", sum(sessions.values()), total))
    if args.by_extractor:
        print(f"\n{part} part | extractor | notes written | right | precision | only it found")
        for source, (written, right, alone) in sorted(
            by_extractor.items(), key=lambda kv: -kv[1][0]
        ):
            print(f"| {source} | {written} | {right} | {right / written:.2f} | {alone} |")
    return 0


LANGUAGES = {
    "en": "English",
    "ja": "Japanese",
    "zh": "Chinese",
    "ko": "Korean",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "pt": "Portuguese",
}


def _row(language: str, sessions: int, score: Score) -> str:
    return (
        f"| {language} | {sessions} | {score.expected} | "
        f"{score.precision:.2f} ({score.right}/{score.written}) | "
        f"{score.recall:.2f} ({score.found}/{score.expected}) |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
