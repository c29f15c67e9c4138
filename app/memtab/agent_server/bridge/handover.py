"""A session the bridge began handed to this process's own server when the host is lost before
anything reached the agent (docs/formats.md §22.8)."""

from __future__ import annotations

import contextlib
import os

_CHUNK_BYTES = 64 * 1024


def carry_into_stdin(carried: bytes, stdin: int = 0) -> None:
    """Make `stdin` read `carried` first, then the agent's own stdin, through a fed pipe."""
    source = os.dup(stdin)
    readable, writable = os.pipe()
    os.dup2(readable, stdin)
    os.close(readable)
    os.set_blocking(source, True)
    import threading  # lazy: only a session handed back needs it

    feeder = threading.Thread(
        target=_feed, args=(carried, source, writable), name="memtab-mcp-carry", daemon=True
    )
    feeder.start()


def _feed(carried: bytes, source: int, sink: int) -> None:
    try:
        chunk = carried
        while chunk:
            view = memoryview(chunk)
            while view:
                view = view[os.write(sink, view) :]
            chunk = os.read(source, _CHUNK_BYTES)
    except OSError:  # the server stopped reading, or the agent's stdin broke: it ends
        pass
    finally:
        with contextlib.suppress(OSError):
            os.close(sink)
        with contextlib.suppress(OSError):
            os.close(source)
