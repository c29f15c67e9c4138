"""A source's history from its own git repository (Codex's `memories/`): `git log` without a
shell, pager, prompts or the repository's hooks; none without git, saying why."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import Commit
from memtab.sources.model import Source
from memtab.store.files import MAX_FILE_BYTES

GIT_TIMEOUT_S = 5.0
_FIELD = "\x1f"
_RECORD = "\x1e"
# Settings a repository's own config could use to run programs; a log needs none of them.
_SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")


@dataclass(frozen=True)
class SourceHistory:
    """Newest first; `note` says why there is none (no git, not a repository, an error)."""

    commits: tuple[Commit, ...] = ()
    note: str | None = None


def source_history(
    source: Source, relative: str | None = None, *, limit: int = 50
) -> SourceHistory:
    """The commits of the source's repository (touching `relative`, when given)."""
    if not (source.root / ".git").exists():
        return SourceHistory(note=f"No history: {source.root} is not a git repository")
    arguments = [
        "log",
        f"--max-count={max(1, limit)}",
        f"--format={_RECORD}%H{_FIELD}%ct{_FIELD}%s",
        "--name-only",
        "--no-color",
    ]
    if relative:
        arguments += ["--", relative]
    try:
        output = run_git(source.root, arguments)
    except SourceError as error:
        return SourceHistory(note=f"No history: {error}")
    return SourceHistory(tuple(_parse_log(output)))


def file_at(source: Source, sha: str, relative: str) -> str:
    """The text of `relative` as of commit `sha` (at most the cap). SourceError if absent."""
    if not sha or not all(c in "0123456789abcdef" for c in sha.lower()):
        raise SourceError(f"Not a commit id: {sha!r}")
    return run_git(source.root, ["show", f"{sha}:{relative}"])[:MAX_FILE_BYTES]


def run_git(
    root: Path, arguments: list[str], *, stdin: bytes | None = None, accept: tuple[int, ...] = (0,)
) -> str:
    """git's output; SourceError with a one-line reason. `accept`: exit statuses that are not
    a failure."""
    git = shutil.which("git")
    if git is None:
        raise SourceError("git is not installed")
    # No GIT_DIR & co. from the caller's environment: the log is of `root`, nothing else.
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    environment.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        completed = subprocess.run(
            [git, "--no-pager", *_SAFE_CONFIG, "-C", str(root), *arguments],
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            env=environment,
            input=stdin if stdin is not None else b"",
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SourceError(f"git took longer than {GIT_TIMEOUT_S:.0f} s in {root}") from None
    except OSError as error:
        raise SourceError(f"cannot run git: {error.strerror or error}") from None
    if completed.returncode not in accept:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = message[-1] if message else f"git exited with status {completed.returncode}"
        raise SourceError(reason.removeprefix("fatal: "))
    return completed.stdout.decode("utf-8", "replace")


def _parse_log(output: str) -> list[Commit]:
    commits = []
    for record in output.split(_RECORD)[1:]:
        header, _, rest = record.partition("\n")
        fields = header.split(_FIELD)
        if len(fields) != 3:
            continue
        sha, timestamp, subject = fields
        try:
            committed_at_ms = int(timestamp) * 1000
        except ValueError:
            continue
        files = tuple(line for line in rest.splitlines() if line.strip())
        commits.append(Commit(sha, committed_at_ms, subject, files))
    return commits
