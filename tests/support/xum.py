"""xum in another process, for tests: holding one of its locks, or changing a memory file
and memory-meta.json as it does (`support/xum_player.py`, run as a script)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

from support import xum_player
from support.processes import python_child

PLAYER = Path(xum_player.__file__).resolve()


def player_code(mode: str) -> str:
    """`python -c` code running the player script in `mode` with the child's arguments."""
    return (
        f"import runpy, sys; sys.argv = [sys.argv[0], {mode!r}, *sys.argv[1:]]; "
        f"runpy.run_path({str(PLAYER)!r}, run_name='__main__')"
    )


@contextlib.contextmanager
def xum_holding(lock: Path) -> Iterator[subprocess.Popen[str]]:
    """A live process playing xum, holding the lock file `lock` for the block."""
    with python_child(player_code("hold"), str(lock)) as child:
        yield child
