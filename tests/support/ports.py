"""A local port that refuses connections, and stays refusing while a test uses it.

Taking a free port from the OS and releasing it is a race once tests run side by side
(pytest-xdist): another worker's server may be given that port a moment later. A socket
bound to the port and never listening keeps it — no one else can take it — and the kernel
answers every connection to it with a reset: connection refused.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator


@contextlib.contextmanager
def refused_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections until the block ends."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield holder.getsockname()[1]
