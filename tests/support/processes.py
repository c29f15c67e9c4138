"""Another process, for tests that need one: mux holding a lock, a second Memtab, an agent.

`python_child` runs a Python snippet in a child process that prints one line when it is
ready (holding its lock, say) and goes on until its stdin closes. Leaving the block ends
it — by closing its stdin, or by SIGKILL if it will not stop — and closes its pipes, so no
test leaves a running process or an open pipe behind (`filterwarnings = error` turns
either's ResourceWarning into a failure).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

# Long enough for a child on a loaded 2-core machine to exit once its stdin closes.
_EXIT_TIMEOUT_S = 10


@contextlib.contextmanager
def python_child(code: str, *args: str, ready: str = "held") -> Iterator[subprocess.Popen[str]]:
    """Run `python -c code *args`; wait for it to print `ready`; yield the process.

    The test may end it itself (`process.stdin.close()` and `wait`, or `kill`).
    """
    with subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            said = process.stdout.readline().strip()
            assert said == ready, f"the child said {said!r} instead of {ready!r}"
            yield process
        finally:
            end(process)


def end(process: subprocess.Popen[str]) -> None:
    """Close the child's stdin and wait for it to exit; kill it if it does not."""
    if process.poll() is not None:
        return
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        process.stdin.close()
    try:
        process.wait(_EXIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def exit_of(process: subprocess.Popen[Any], after: str, within_s: float = 30) -> tuple[int, str]:
    """`process`'s exit status and stderr once it exits (at most `within_s` `after` what ends
    it); else it is killed and its pipes read and closed, so that its failure stays this
    test's."""
    try:
        _, stderr = process.communicate(timeout=within_s)
    except subprocess.TimeoutExpired:
        process.kill()
        _, stderr = process.communicate()
        raise AssertionError(
            f"still running {within_s:g} s after {after}:\n{_text(stderr)}"
        ) from None
    return process.returncode, _text(stderr)


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""
