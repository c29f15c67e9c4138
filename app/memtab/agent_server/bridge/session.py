"""`memtab mcp` in an agent's session (docs/formats.md §22.8): a bridge to the home's warm Memtab —
the one up, else one it starts while it answers what it knows — else the server in this process;
run by `memtab.launch` before anything else is imported."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from functools import partial

from memtab.agent_server.bridge.front import Front
from memtab.agent_server.bridge.greeting import SESSION, hello, session_origin
from memtab.agent_server.bridge.known_answers import answers_folder
from memtab.agent_server.bridge.pump import NoHostError, Pump, writes_option
from memtab.agent_server.bridge.reach import Starting, reach, running, serve_in_child
from memtab.agent_server.bridge.rendezvous import (
    RendezvousError,
    home_option,
    rendezvous,
    resolved_env,
    shared_unavailable,
    working_directory,
)

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


def main(words: Sequence[str]) -> int | None:
    """Bridge the session `memtab <words>` to its host; its exit status, or None when this process
    is to serve it."""
    if shared_unavailable(os.environ) is not None:  # chosen, or the system's: said by doctor
        return None
    home = home_option(words)
    cwd = working_directory()
    env = resolved_env(os.environ, cwd)
    try:
        place = rendezvous(home, env)
        greeting = hello(SESSION, session_origin(words, env))
        connect = partial(reach, place, greeting, home, env)
        reached = running(place, greeting)
        starting = Starting(connect) if reached is None else None
    except (RendezvousError, NoHostError, OSError) as error:
        print(f"memtab mcp: serving this session in its own process: {error}", file=sys.stderr)
        return None
    except Exception as error:  # a fault of the bridge's: the session is served all the same
        print(f"memtab mcp: serving this session in its own process: {error!r}", file=sys.stderr)
        return None
    pump = Pump(
        reached,
        connect,
        starting=starting,
        front=Front(answers_folder(env), words, cwd, env),
        instead=partial(serve_in_child, list(words), dict(os.environ)),
        writes=writes_option(words),
    )
    status = pump.run()
    if pump.carried is None:
        return status
    print(
        f"memtab mcp: serving this session in its own process: {pump.lost_because}", file=sys.stderr
    )
    carry_into_stdin(pump.carried)
    return None
