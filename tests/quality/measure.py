"""The offline writer's precision and recall on the quality corpus, per part and language.

    .venv/bin/python tests/quality/measure.py            # the measured part (split.txt)
    .venv/bin/python tests/quality/measure.py --tune     # the part tuned on
    .venv/bin/python tests/quality/measure.py --notes    # … and every note, right or wrong

Precision = notes that match a gold item / notes written; recall = gold items matched by a
note / gold items (tests/quality/corpus.py `Score`). The README reports the measured part.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quality.corpus import MEASURE_CASES, WRITER_CASES, Score, notes_for_transcript


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", action="store_true", help="the part tuned on")
    parser.add_argument("--notes", action="store_true", help="print every note")
    args = parser.parse_args(argv)
    cases = WRITER_CASES if args.tune else MEASURE_CASES
    total = Score()
    by_language: dict[str, Score] = defaultdict(Score)
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases:
            notes = notes_for_transcript(case.path, Path(scratch))
            score = Score()
            for each in (score, total, by_language[case.language]):
                each.add(case, notes)
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
    for language, score in sorted(by_language.items()):
        print(f"{part} part, {language}: {_figures(score)}")
    print(f"{part} part, all: {_figures(total)}")
    return 0


def _figures(score: Score) -> str:
    return (
        f"precision {score.precision:.2f} ({score.right}/{score.written}), "
        f"recall {score.recall:.2f} ({score.found}/{score.expected})"
    )


if __name__ == "__main__":
    raise SystemExit(main())
