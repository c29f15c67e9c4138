"""`python -m memtab` is the same as the `memtab` command."""

import sys

from memtab.cli import main

sys.exit(main())
