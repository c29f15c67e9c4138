"""The PyInstaller bundle's entry point: the `memtab` command, frozen.

`multiprocessing.freeze_support()` comes first: consolidation runs in a spawned child
process, which in a bundle starts this same program with multiprocessing's own arguments;
freeze_support() runs the child's work there and exits instead of opening a second Memtab.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from memtab.launch import main

    sys.exit(main())
