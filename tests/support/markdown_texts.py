"""Markdown texts every reader of lines is tested on (tests/unit/test_markdown_users.py,
tests/gui/editor/test_highlighter_lines.py): real memory files and the corners."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL_FILES = sorted((ROOT / "tests/fixtures/shared/memory-stores").rglob("*.md")) + sorted(
    (ROOT / "docs").glob("*.md")
)

# Where the readers used to part: a longer fence with an info-string line inside it, a
# `~~~` block holding backticks, a fence under a list item, an indented heading, inline
# triple backticks, a hash tag, an unclosed block at the end.
CORNERS = """\
---
description: corners
---
# Corners

````markdown
```python
# not a heading
```
````

~~~
```
# still code
~~~

- a list item
    ```bash
    make test
    ```

   ## Indented heading

```x``` is inline code, #tag is text.

## Last ##
```sh
# unclosed
"""


def _texts() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in REAL_FILES] + [
        ("corners", CORNERS)
    ]


TEXTS = _texts()
