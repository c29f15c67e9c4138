"""This machine's name, without importing `socket` where the OS says it otherwise (it is heavy at
import)."""

from __future__ import annotations

import os


def host_name() -> str:
    """The kernel's node name (what `gethostname` reads on Linux and macOS); elsewhere
    `socket.gethostname()`."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # lazy: only where os.uname is missing (see the module docstring)

    return socket.gethostname()
