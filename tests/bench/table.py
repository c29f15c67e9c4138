"""Issue 15's table: every benchmark adds its row here, and the run ends by printing them
all (as Markdown, ready for the README's performance section), each with its floor
measured in the same run and the ratio to it where there is one.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One measure: what Memtab did, against its floor (if any) and its target."""

    measure: str
    value: str
    target: str
    floor: str = "—"
    ratio: float | None = None

    def cells(self) -> list[str]:
        ratio = f"{self.ratio:.2f}×" if self.ratio is not None else "—"
        return [self.measure, self.floor, self.value, ratio, self.target]


def mib(mb: float) -> float:
    """A size given in MB (10^6 bytes, as the issues' targets are) in MiB (2^20 bytes), the
    unit every RSS figure of the benches is measured in (/proc and getrusage give KiB)."""
    return mb * 10**6 / 2**20


def mib_target(mb: int) -> str:
    """A target given in MB, in the MiB the bench measures: `≤ 95.4 MiB (100 MB)`."""
    return f"≤ {mib(mb):.1f} MiB ({mb} MB)"


ROWS: dict[str, Row] = {}

# The write row belongs to the streaming-transcript work (tests/bench/test_write_bench.py).
PLACEHOLDERS = {
    "write": Row(
        "`memtab write` on a 200 MB transcript", "(test_write_bench)", f"{mib_target(100)} peak"
    )
}

ORDER = (
    "first-paint",
    "every-description",
    "paint-with-sources",
    "write-visible",
    "paint-20k",
    "headless-20k",
    "write",
    "rss-3k",
    "rss-20k",
)


def record(key: str, row: Row) -> None:
    """Add (or replace) a row of the table and print it at once."""
    ROWS[key] = row
    print(f"\n[bench] {' | '.join(row.cells())}")


def table_lines() -> list[str]:
    """The rows measured in this run, in the issue's order, as a Markdown table."""
    if not ROWS:
        return []
    rows = [ROWS.get(key) or PLACEHOLDERS.get(key) for key in ORDER]
    rows += [row for key, row in ROWS.items() if key not in ORDER]
    lines = ["| measure | floor (same run) | Memtab | ratio | target |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows if row is not None]
    return lines


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    """The 95th percentile by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]
