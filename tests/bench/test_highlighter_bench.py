"""Benchmark: the editor's highlighter over a 100 KiB memory file.

Run: .venv/bin/python -m pytest --bench tests/bench/test_highlighter_bench.py -s
Prints the median time of highlighting the whole file (`rehighlight`, what opening it
costs) and of one line highlighted again (what a keystroke costs), and the one
classifier (`memtab.markdown.classify`) over the same lines, Qt-free. Reported, never
asserted (the line is on the editor's hot path: every keystroke).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest
from PySide6.QtGui import QPalette, QTextDocument
from pytestqt.qtbot import QtBot

from memtab.gui.editor.text.view import MarkdownHighlighter
from memtab.markdown import classify, text_lines

pytestmark = pytest.mark.bench

SECTION = """\
## Area {n}

- The handler lives in `src/area{n}/handler.py`; tests in `tests/area{n}/`.
- Run `make test` before pushing, `make lint` for style.
  A continuation line of the item above, indented.
1. A numbered step with **bold** words and a [link](notes/area{n}.md).

```bash
make db-up
pytest tests/area{n} -q  # a comment, not a heading
```

A paragraph that says what the area is for, in a sentence long enough to be a real line.
"""


def _text() -> str:
    parts = ["---\ndescription: a long memory file\n---\n# Notes\n\n"]
    n = 0
    while sum(map(len, parts)) < 100 * 1024:
        parts.append(SECTION.format(n=n))
        n += 1
    return "".join(parts)


def _median_ms(action: Callable[[], object], rounds: int) -> float:
    action()
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def test_highlighter_bench(qtbot: QtBot) -> None:
    text = _text()
    document = QTextDocument()
    highlighter = MarkdownHighlighter(document, QPalette())
    document.setPlainText(text)
    whole = _median_ms(highlighter.rehighlight, 10)
    middle = [document.findBlockByNumber(document.blockCount() // 2 + i) for i in range(20)]

    def twenty_lines() -> None:  # what a keystroke costs: its line (and those it changes)
        for block in middle:
            highlighter.rehighlightBlock(block)

    typed = _median_ms(twenty_lines, 200) / 20
    lines = text_lines(text)
    classified = _median_ms(lambda: classify(lines), 20)
    print(
        f"\nhighlighter, {len(text) // 1024} KiB, {len(lines)} lines: rehighlight {whole:.1f} ms,"
        f" one line again {typed * 1000:.0f} µs; classify alone {classified:.1f} ms"
    )
