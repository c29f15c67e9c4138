"""Benchmarks of the three-way view on a file near the 100 KiB cap, both sides having
changed a word in every third line (the costly case: every such line is compared word
by word).

Run: .venv/bin/python -m pytest --bench tests/bench/test_three_way_bench.py -s
Targets: the texts are prepared on a worker in under 1 s; showing them (the GUI thread's
part: the text laid out wrapped, the line tints, the word marks) under 200 ms, once per
conflict opened (measured 23 Nov 2026 on the 2-core box: 550–720 ms and 120–220 ms; the
unwrapped view without marks took 50–110 ms to show).
"""

from __future__ import annotations

import random
import time

from pytestqt.qtbot import QtBot

from memtab.components.merge import three_way_texts
from memtab.gui.toolkit.text.three_way import ThreeWayView

PROSE = (
    "the agent keeps its memory in markdown files under the project and reads them at the "
    "start of each session before it runs tests builds the code or opens a pull request"
)
VOCABULARY = PROSE.split(" ")


def _texts() -> tuple[bytes, bytes, bytes]:
    rng = random.Random(36)
    lines = [
        "- " + " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(20, 60)))
        for _ in range(480)
    ]

    def edited(who: str, offset: int) -> bytes:
        out = []
        for number, line in enumerate(lines):
            words = line.split(" ")
            if number % 3 == offset:
                words[rng.randrange(1, len(words))] = who
            out.append(" ".join(words))
        return ("\n".join(out) + "\n").encode()

    return ("\n".join(lines) + "\n").encode(), edited("mine", 0), edited("theirs", 1)


def test_a_100_kb_conflict(qtbot: QtBot) -> None:
    base, mine, theirs = _texts()
    started = time.perf_counter()
    texts = three_way_texts(base, mine, theirs)
    prepared = time.perf_counter() - started
    view = ThreeWayView()
    qtbot.addWidget(view)
    view.resize(1366, 700)
    view.show()
    qtbot.waitExposed(view)
    started = time.perf_counter()
    view.set_texts(texts)
    view.repaint()
    shown = time.perf_counter() - started
    print(
        f"\nthree-way, {len(base) // 1024} KB, {len(texts.mine_words)} + "
        f"{len(texts.theirs_words)} lines with marked words: prepared {prepared * 1000:.0f} ms "
        f"(worker), shown {shown * 1000:.0f} ms (GUI thread)"
    )
    assert len(base) > 90_000 and texts.mine_words and texts.theirs_words
