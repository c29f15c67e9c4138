"""Where every start of `memtab` enters: the console scripts, `python -m memtab` and the
bundle (packaging/memtab_entry.py) call `main()`, which runs `memtab.cli.main`.

It imports nothing of Memtab at its top but `memtab.invocation` (which imports nothing),
so it can decide what must be decided before the first import: the window's process (no
sub-command) hashes with Python's own implementations (sha256, blake2…), not OpenSSL's,
and an agent's session of `memtab mcp` runs the thin bridge to a warm Memtab
(`agent_server.bridge`, docs/formats.md §22.8) without loading the CLI — and, when neither
a host nor this process can serve it, is answered all the same (`bridge.fallback`).
Loading OpenSSL's `_hashlib` maps libcrypto — ~3 ms of the window's start and ~3 MiB it
keeps resident — for hashing that, in the window, runs on worker threads over small
files (~10 µs for a 2 KB file instead of ~2). The commands, which may hash a whole home,
keep OpenSSL's.

The window's process also holds Python's cycle collector off from its first import on: what
a start imports lives as long as the window, and the collector walked it 31 times before
the tree's first paint (4–6 ms of the start's CPU, ~2 %) for nothing. The cycles it freed
then (~70 KB, mostly the pure-Python classes `datetime` replaces with its C ones) would be
kept from then on, frozen with the rest as the window loads: the window imports `datetime`
only where it reads a time (a transcript's, the registry's). The window resumes collecting once
it has loaded (`gui.first_paint.app.tune_garbage_collection`); `--install-desktop` and
`--self-test`, which open no window, at once (`cli.main`).
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Sequence

from memtab.invocation import bridged_mcp, mcp_session, requested_command

TYPE_CHECKING = False  # as typing's, which the bridge's process never loads
if TYPE_CHECKING:  # lazy: `typing` costs an agent's session of `memtab mcp` ~10 ms
    from typing import TextIO


def use_builtin_hashes() -> None:
    """Make `hashlib` (and `hmac`) use Python's own hash implementations in this process:
    importing `_hashlib` fails, which hashlib and hmac handle by design. Only before
    hashlib is first imported; a process that has it keeps what it has."""
    if "hashlib" not in sys.modules and "_hashlib" not in sys.modules:
        # None in sys.modules is the import system's "no such module" (an ImportError).
        sys.modules["_hashlib"] = None  # type: ignore[assignment]


def main(argv: Sequence[str] | None = None) -> int:
    """Run `memtab` with `argv` (default: the process's arguments); its exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = requested_command(words)
    if command is None:
        use_builtin_hashes()
        gc.disable()  # the window's start: see the module docstring
    elif command == "mcp" and bridged_mcp(words):
        use_builtin_hashes()  # the bridge hashes one short line; OpenSSL's costs ~3 MiB
        status = _bridged(words)
        if status is not None:
            return status  # else no warm Memtab serves it: this process does, as always
        return _served_here(words)
    elif mcp_session(words):  # a line the bridge does not read: the CLI parses it
        return _served_here(words)
    return _run_memtab(words)


def _run_memtab(words: list[str]) -> int:
    """`memtab.cli.main` run with `words`."""
    # lazy: after use_builtin_hashes(): nothing may import hashlib before it decides
    from memtab.cli.main import main as run_memtab

    return run_memtab(words)


def _bridged(words: list[str]) -> int | None:
    """An agent's session bridged to its warm host: the exit status, or None when this
    process is to serve it (no host, or the bridge itself cannot load)."""
    try:
        # lazy: a session of `memtab mcp` imports the thin bridge alone (docs/formats.md
        # §22.8): ~25 ms and ~10 MiB instead of the CLI's and the SDK's ~0.5 s and ~70 MiB
        from memtab.agent_server.bridge.session import main as bridge
    except Exception as error:  # a broken install: this process tries, else says why
        print(f"memtab mcp: serving this session in its own process: {error!r}", file=sys.stderr)
        return None
    return bridge(words)


def _served_here(words: list[str]) -> int:
    """An agent's session served by this process, as before hosts; when Memtab cannot
    load or stops before serving, the agent is answered all the same, every answer saying
    why (`bridge.fallback`): an agent that must connect starts even then. A terminal's
    stdin is a person's, not an agent's: what stopped it is said as for any command."""
    if sys.stdin is None or sys.stdin.isatty():
        return _run_memtab(words)
    said = _Tail(sys.stderr)
    try:
        with contextlib.redirect_stderr(said):
            status = _run_memtab(words)
    except (Exception, SystemExit) as error:
        if _began_serving() or (isinstance(error, SystemExit) and not error.code):
            raise
        return _say_why(_stopped_words(error, said.last_line()))
    if status and not _began_serving():
        return _say_why(said.last_line() or f"memtab mcp stopped with status {status}")
    return status


def _began_serving() -> bool:
    """Whether this process's server took stdin (what it read is no one else's now)."""
    frames = sys.modules.get("memtab.agent_server.frames")
    return bool(getattr(frames, "STDIN_CLAIMED", False))


def _stopped_words(error: BaseException, last_line: str) -> str:
    if isinstance(error, SystemExit):  # argparse refused the command line: its words
        return last_line or f"its command line was refused (status {error.code})"
    if isinstance(error, ImportError):
        return f"Memtab could not load ({type(error).__name__}: {error}); reinstall Memtab"
    return f"Memtab stopped before serving ({type(error).__name__}: {error})"


def _say_why(reason: str) -> int:
    # lazy: only a session Memtab cannot serve needs the fallback (standard library alone)
    from memtab.agent_server.bridge.fallback import serve_reason

    for prefix in ("memtab: ", "memtab mcp: ", "error: "):  # argparse's "memtab: error: …"
        reason = reason.removeprefix(prefix)
    return serve_reason(reason)


class _Tail:
    """stderr as it is, keeping the last line written (a refusal's words)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._last = ""

    def write(self, text: str) -> int:
        lines = [line for line in text.splitlines() if line.strip()]
        if lines:
            self._last = lines[-1].strip()
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def last_line(self) -> str:
        return self._last

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
