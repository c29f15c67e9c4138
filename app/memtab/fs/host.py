"""This machine's name, as `socket.gethostname()` gives it, without importing `socket`
where the OS says it otherwise: `socket` makes its enums of address families, socket
kinds and flags (hundreds of members) at import, ~0.4 MiB the settled window kept for a
name a lock's holder file records and sync names a machine by.
"""

from __future__ import annotations

import os


def host_name() -> str:
    """This machine's name: the kernel's node name, which is what `gethostname` reads on
    Linux and macOS; elsewhere (Windows) `socket.gethostname()`."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # lazy: only where os.uname is missing (see the module docstring)

    return socket.gethostname()
