"""Where every start of `memtab` enters, importing nothing of Memtab but `invocation` first: the
window hashes with Python's own implementations and holds the cycle collector off until it has
loaded; an agent's `memtab mcp` session runs the thin bridge (docs/formats.md §22.8)."""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Sequence

from memtab.invocation import bridged_mcp, mcp_session, requested_command

TYPE_CHECKING = False  # as typing's, which the bridge's process never loads
if TYPE_CHECKING:  # lazy: an agent's `memtab mcp` session does without `typing`
    from typing import TextIO


def use_builtin_hashes() -> None:
    """Make `hashlib` and `hmac` use Python's own implementations in this process (only before
    hashlib's first import)."""
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
        import signal  # lazy: its enums would cost the window's start before its first paint

        use_builtin_hashes()  # the bridge hashes one short line: OpenSSL's is not worth loading
        signal.signal(signal.SIGINT, _stopped_by_agent)
        status = _bridged(words)
        signal.signal(signal.SIGINT, signal.default_int_handler)
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


def _stopped_by_agent(_signal: int, _frame: object) -> None:
    """An agent ends its server with SIGINT (Claude Code does): the bridge's work is done, nothing
    half-written; it exits at once, quietly (the host serves on)."""
    raise SystemExit(0)


def _bridged(words: list[str]) -> int | None:
    """An agent's session bridged to its warm host: the exit status, or None when this process
    serves it."""
    try:
        # lazy: a session of `memtab mcp` imports the thin bridge alone (docs/formats.md §22.8)
        from memtab.agent_server.bridge.session import main as bridge
    except Exception as error:  # a broken install: this process tries, else says why
        print(f"memtab mcp: serving this session in its own process: {error!r}", file=sys.stderr)
        return None
    return bridge(words)


def _served_here(words: list[str]) -> int:
    """An agent's session served by this process; when Memtab cannot load, answered all the
    same (`bridge.fallback`). A terminal's stdin is a person's."""
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
    frames = sys.modules.get("memtab.agent_server.serving.frames")
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
