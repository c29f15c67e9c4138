"""`python -m memtab` is the same as the `memtab` command (`memtab.launch`)."""

import sys

from memtab.launch import main

# The guard matters: consolidation's "spawn" children import this module again.
if __name__ == "__main__":
    sys.exit(main())
