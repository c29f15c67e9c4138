"""A child process for the crash test: saves files in a loop until it is killed.

Usage: python crash_writer.py <directory> <size> <name>...
Each round rewrites every file with the other of two known contents (`A`*size, `B`*size).
"""

from __future__ import annotations

import sys
from pathlib import Path

from memtab.fs.atomic import atomic_write_bytes


def main() -> None:
    directory, size, names = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    contents = (b"A" * size, b"B" * size)
    round_number = 0
    while True:
        for name in names:
            atomic_write_bytes(directory / name, contents[round_number % 2])
        if round_number == 0:
            print("writing", flush=True)
        round_number += 1


if __name__ == "__main__":
    main()
