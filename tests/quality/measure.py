"""The offline writer's precision and recall on the quality corpus, per part and language.

    .venv/bin/python tests/quality/measure.py            # the measured part (split.txt)
    .venv/bin/python tests/quality/measure.py --tune     # the part tuned on
    .venv/bin/python tests/quality/measure.py --notes    # … and every note, right or wrong

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
from quality.scoring import Score, notes_for_transcript


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", action="store_true", help="the part tuned on")
    parser.add_argument("--notes", action="store_true", help="print every note")
    args = parser.parse_args(argv)
    cases = WRITER_CASES if args.tune else MEASURE_CASES
    total = Score()
    by_language: dict[str, Score] = defaultdict(Score)
    sessions: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases:
            notes = notes_for_transcript(case.path, Path(scratch))
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
