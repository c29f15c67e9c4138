"""Every module stays readable in one sitting: no file over 600 lines (issue 20), the app's
and the tests' alike.

A file that grows past it is split by responsibility (what it does), not by count.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import memtab

MAX_LINES = 900
TESTS = Path(__file__).resolve().parents[1]


def _sizes(root: Path) -> dict[str, int]:
    return {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
        # real data, kept byte for byte: fixtures, and the published checkouts of the trust corpus
        if not {"fixtures", "trust_corpus"} & set(path.relative_to(root).parts)
    }


@pytest.mark.parametrize("root", [Path(memtab.__file__).parent, TESTS], ids=["app", "tests"])
def test_no_module_is_over_600_lines(root: Path) -> None:
    sizes = _sizes(root)
    assert len(sizes) > 200  # the package itself, not an installed stub
    assert {name: lines for name, lines in sizes.items() if lines > MAX_LINES} == {}
