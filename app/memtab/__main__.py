"""`python -m memtab` is the same as the `memtab` command (`memtab.launch`)."""

import sys

from memtab.launch import main

# The guard matters: consolidation runs in child processes started with "spawn", which
# import this module again under another name.
if __name__ == "__main__":
    sys.exit(main())
