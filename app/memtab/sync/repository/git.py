"""The `git` program as sync runs it (docs/formats.md §18.1): no shell, no prompt, no terminal,
batch-mode ssh, a time limit and cancel on every command; the user's credentials untouched; network
failures told apart by `GitError.kind`; a bare repository, contents byte for byte."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from memtab.fs.private import PRIVATE_UMASK, private_dir

POLL_S = 0.05  # how often a wait looks at the cancel and the time limit
STOP_GRACE_S = 2.0
"""How long a stopped git has to remove its lock files before its group is killed (a left
`<ref>.lock` refuses later pushes)."""
_CHUNK = 1 << 16


def ended(process: subprocess.Popen[bytes], pipes: Pipes) -> bool:
    """Whether the child ended, waiting up to `POLL_S`, woken as its output ends."""
    if not pipes.drained(POLL_S):
        return process.poll() is not None
    try:
        process.wait(timeout=POLL_S)
    except subprocess.TimeoutExpired:
        return False
    return True


def kill(process: subprocess.Popen[bytes]) -> None:
    """Stop the child's process group: asked to end (git drops its locks), killed after a grace."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except (OSError, AttributeError):
        process.kill()
        process.wait()
        return
    deadline = time.monotonic() + STOP_GRACE_S
    while process.poll() is None or _group_alive(process.pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.005)
    process.wait()


def _group_alive(group: int) -> bool:
    """Whether a member of the process group still runs (zombies do not count where /proc tells)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except OSError:  # there, but not ours to signal
        return True
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return True
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state, _parent, member_of = stat.read().rsplit(b")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue  # gone meanwhile
        if int(member_of) == group and state != b"Z":
            return True
    return False


class Pipes:
    """A child's stdin fed and its stdout and stderr read, each on a thread of its own."""

    def __init__(self, process: subprocess.Popen[bytes], input_data: bytes | None) -> None:
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._threads = [
            threading.Thread(target=_drain, args=(process.stdout, self._out), daemon=True),
            threading.Thread(target=_drain, args=(process.stderr, self._err), daemon=True),
        ]
        if process.stdin is not None:
            feed = threading.Thread(target=_feed, args=(process.stdin, input_data), daemon=True)
            self._threads.append(feed)
        for thread in self._threads:
            thread.start()

    def drained(self, timeout_s: float) -> bool:
        """Wait for stdout and stderr to end; whether they did."""
        return self.join(timeout_s, self._threads[:2])

    def join(self, timeout_s: float, threads: list[threading.Thread] | None = None) -> bool:
        """Wait for the three (or `threads`) to end; whether they did."""
        deadline = time.monotonic() + timeout_s
        for thread in (waited := self._threads if threads is None else threads):
            thread.join(max(deadline - time.monotonic(), 0))
        return not any(thread.is_alive() for thread in waited)

    @property
    def stdout(self) -> bytes:
        return b"".join(self._out)

    @property
    def stderr(self) -> bytes:
        return b"".join(self._err)


def _drain(pipe: IO[bytes] | None, into: list[bytes]) -> None:
    if pipe is None:
        return
    with pipe:
        while chunk := pipe.read(_CHUNK):
            into.append(chunk)


def _feed(pipe: IO[bytes], data: bytes | None) -> None:
    """Write `data` and close; a child that stopped reading ends the writing."""
    try:
        with pipe:
            view = memoryview(data or b"")
            for start in range(0, len(view), _CHUNK):
                pipe.write(view[start : start + _CHUNK])
    except (BrokenPipeError, OSError, ValueError):
        pass


logger = logging.getLogger(__name__)

NETWORK_TIMEOUT_S = 120.0
LOCAL_TIMEOUT_S = 60.0
GIT_MISSING = (
    "Sync needs the git program, which was not found on PATH; install git (Debian/Ubuntu: "
    "apt install git; macOS: xcode-select --install; Windows: git-scm.com) and try again"
)

ErrorKind = Literal["offline", "auth", "missing", "failed", "cancelled"]

# git's and ssh's words for each kind of network failure (LC_ALL=C).
_AUTH = re.compile(
    r"Permission denied|Authentication failed|could not read Username|could not read Password"
    r"|Host key verification failed|terminal prompts disabled|access denied|HTTP (?:401|403)"
    r"|returned error: 40[13]|Invalid username or password",
    re.IGNORECASE,
)
_MISSING = re.compile(
    r"does not appear to be a git repository|Repository not found|not found|HTTP 404"
    r"|returned error: 404|No such file or directory",
    re.IGNORECASE,
)
_OFFLINE = re.compile(
    r"Could not resolve host|Could not resolve hostname|Connection refused|Connection timed out"
    r"|timed out|Network is unreachable|No route to host|Temporary failure in name resolution"
    r"|Failed to connect|Connection reset|Connection closed|unable to access|early EOF"
    r"|The remote end hung up|Could not read from remote repository|Name or service not known",
    re.IGNORECASE,
)


# What the git serving a path remote is told: no hooks, no alternates' program, no gc, no checkout.
_REMOTE_SIDE_CONFIG = (
    "core.hooksPath=" + os.devnull,
    "core.alternateRefsCommand=true",
    "core.fsmonitor=false",
    "receive.autogc=false",
    "receive.denyCurrentBranch=refuse",
    "receive.denyDeleteCurrent=refuse",
)


def is_local_remote(url: str) -> bool:
    """Whether git reaches `url` as a local path (`file://`, or neither `scheme://` nor scp-like
    `host:path`)."""
    if url.startswith("file://"):
        return True
    if "://" in url or "::" in url:
        return False
    colon, slash = url.find(":"), url.find("/")
    scp_like = colon > 1 and (slash == -1 or colon < slash)  # [user@]host:path
    return not scp_like


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HELPER = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)::")
_NOT_A_REPOSITORY = re.compile(r"does not appear to be a git")


def remote_problem(url: str) -> str | None:
    """Why `url` is refused before git sees it (a remote helper, a leading `-`), or None."""
    if not url.strip():
        return "The remote is empty: give a git URL (ssh or https) or a path to a repository"
    if _CONTROL.search(url):
        return "The remote has a line break or a control character in it: paste it again"
    if url.strip().startswith("-"):
        return f"{url.strip()!r} starts with '-', which git would read as an option"
    helper = _HELPER.match(url.strip())
    if helper:
        return (
            f"Memtab does not use git's remote helpers ('{helper.group(1)}::' hands the "
            "address to a program); give an ssh or https URL, or a path"
        )
    return None


def describe_remote_error(remote: str, error: GitError) -> str:
    """A failed fetch or ls-remote of `remote`, said as what to do, git's words after."""
    return _REMOTE_ERRORS.get(error.kind, "Cannot use {remote}: {words}").format(
        remote=remote, words=error
    )


_REMOTE_ERRORS = {
    "auth": "{remote} refused your credentials ({words}). Memtab uses git's own: an ssh key loaded"
    " in your agent (ssh-add), or a credential helper for https; it never asks for a password",
    "missing": "There is no git repository at {remote} ({words}). Make an empty private "
    "repository first (for a path: git init --bare PATH)",
    "offline": "Cannot reach {remote} ({words}). Check the address and the network",
    "cancelled": "Stopped",
}


# The (git, branch) pairs git accepted: its rules do not change under a running Memtab.
_ACCEPTED_BRANCHES: set[tuple[str, str]] = set()


def branch_problem(branch: str, git: str) -> str | None:
    """Why git would refuse `branch` as a branch name (`git check-ref-format`), or None."""
    refused = f"{branch!r} is not a branch name git accepts"
    if not branch or branch.startswith("-"):
        return refused
    if (git, branch) in _ACCEPTED_BRANCHES:
        return None
    try:
        checked = subprocess.run(
            [git, "check-ref-format", f"refs/heads/{branch}"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=LOCAL_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{refused} ({error})"
    if checked.returncode != 0:
        return refused
    _ACCEPTED_BRANCHES.add((git, branch))
    return None


@dataclass(frozen=True)
class Identity:
    """Who commits."""

    name: str
    email: str


class GitError(Exception):
    """A git command failed; `kind` says what it means for sync, the message git's last words."""

    def __init__(self, message: str, kind: ErrorKind = "failed") -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind


class GitMissingError(GitError):
    """git is not installed (or not on PATH)."""

    def __init__(self) -> None:
        super().__init__(GIT_MISSING, "failed")


def find_git(env: Mapping[str, str] | None = None) -> str:
    """The path of the git program (GitMissingError when there is none)."""
    if found := shutil.which("git", path=(env or os.environ).get("PATH")):
        return found
    raise GitMissingError


def classify_network_error(stderr: str) -> ErrorKind:
    """What a failed fetch or push means (auth checked first)."""
    if _AUTH.search(stderr):
        return "auth"
    if _OFFLINE.search(stderr) and not _NOT_A_REPOSITORY.search(stderr):
        return "offline"
    if _MISSING.search(stderr):
        return "missing"
    return "failed"


Cancel = Callable[[], bool]


class Git:
    """One bare repository, driven by the git program (see the module doc)."""

    def __init__(self, repo: Path, *, git: str | None = None, cancel: Cancel | None = None):
        self.repo = repo
        self.git = git or find_git()
        self.cancel = cancel or (lambda: False)
        self._env = self._environment()
        self._config: dict[str, str] | None = None
        self._repeated: set[str] = set()  # config keys set more than once
        self._origin: tuple[str | None] | None = None  # (origin's URL,) once asked

    def _environment(self) -> dict[str, str]:
        # In English, without a pager or a prompt.
        env = {**os.environ, "LC_ALL": "C", "LANGUAGE": "C", "GIT_TERMINAL_PROMPT": "0"}
        env.update(GIT_PAGER="cat", GCM_INTERACTIVE="never")
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
            env.pop(name, None)
        return env

    def run(
        self,
        args: Sequence[str],
        *,
        input_data: bytes | None = None,
        timeout_s: float = LOCAL_TIMEOUT_S,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        network: bool = False,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run `git <args>` in the repository; GitError when it fails (unless not `check`), times
        out or is cancelled."""
        command = self._command(args)
        full_env = {**self._env, **(env or {})}
        if network and self._uses_default_ssh():
            full_env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        if self.cancel():
            raise GitError("cancelled", "cancelled")
        process = self._spawn(command, full_env, stdin=input_data is not None)
        stdout, stderr = self._wait(process, input_data, timeout_s, args)
        result = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
        if check and process.returncode != 0:
            raise _failure(args, result, network=network)
        return result

    def _command(self, args: Sequence[str]) -> list[str]:
        # Fetched objects stay packed; a fetch's result is read in FETCH_HEAD whatever the user's
        # config says.
        settings = (
            "core.hooksPath=" + os.devnull,
            "gc.autoDetach=false",
            "maintenance.autoDetach=false",
            "fetch.unpackLimit=1",
            "fetch.writeFetchHEAD=true",
        )
        return [self.git, "--git-dir", str(self.repo), *_with_c(settings), *args]

    @staticmethod
    def _spawn(
        command: list[str], env: Mapping[str, str], *, stdin: bool, stderr: bool = True
    ) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if stderr else subprocess.DEVNULL,
            env=dict(env),
            start_new_session=True,  # no terminal: ssh cannot ask there either
            umask=PRIVATE_UMASK,
        )

    def start(self, args: Sequence[str]) -> subprocess.Popen[bytes]:
        """A long-running git with pipes (`cat-file --batch`), stderr unread; the caller ends it."""
        return self._spawn(self._command(args), self._env, stdin=True, stderr=False)

    def _wait(
        self,
        process: subprocess.Popen[bytes],
        input_data: bytes | None,
        timeout_s: float,
        args: Sequence[str],
    ) -> tuple[bytes, bytes]:
        """Feed stdin and drain both outputs on threads; the group killed on cancel or past the
        time."""
        pipes = Pipes(process, input_data)
        deadline = time.monotonic() + timeout_s
        while not ended(process, pipes):
            cancelled = self.cancel()
            if cancelled or time.monotonic() > deadline:
                kill(process)
                pipes.join(POLL_S)
                if cancelled:
                    raise GitError("cancelled", "cancelled")
                raise GitError(
                    f"git {args[0]} took longer than {timeout_s:.0f} s and was stopped", "offline"
                )
        # A child it left (ssh) may hold the pipes: not past the time limit.
        if not pipes.join(max(deadline - time.monotonic(), POLL_S)):
            kill(process)
            pipes.join(POLL_S)
        return pipes.stdout, pipes.stderr

    def config(self) -> dict[str, str]:
        """The git configuration this repository sees (the user's included), read once."""
        if self._config is None:
            result = self.run(["config", "--list", "-z"], check=False)
            self._config, self._repeated = {}, set()
            for item in result.stdout.decode("utf-8", "replace").split("\0"):
                key, _, value = item.partition("\n")
                if key:
                    if key.lower() in self._config:
                        self._repeated.add(key.lower())
                    self._config[key.lower()] = value
        return self._config

    def _uses_default_ssh(self) -> bool:
        """Whether ssh runs in batch mode (unless the user names an ssh command)."""
        env = self._env
        return not (
            env.get("GIT_SSH_COMMAND") or env.get("GIT_SSH") or self.config().get("core.sshcommand")
        )

    def identity(self, fallback: Identity) -> Identity:
        """Who commits: the user's git identity (environment, then config) when known."""
        config = self.config()
        name = self._env.get("GIT_COMMITTER_NAME") or config.get("user.name")
        email = self._env.get("GIT_COMMITTER_EMAIL") or config.get("user.email")
        return Identity(name, email) if name and email else fallback

    def init(self, remote: str, branch: str) -> None:
        """A new bare repository fetching `branch` of `remote` as `origin`."""
        private_dir(self.repo)
        result = subprocess.run(
            [self.git, "init", "--quiet", "--bare", "--shared=0600", str(self.repo)],
            capture_output=True,
            env=self._env,
            stdin=subprocess.DEVNULL,
            timeout=LOCAL_TIMEOUT_S,
            check=False,
        )
        if result.returncode != 0:
            raise GitError(_last_lines(result.stderr) or "git init failed")
        self.run(["symbolic-ref", "HEAD", f"refs/heads/{branch}"])
        self.run(["config", "core.logAllRefUpdates", "true"])
        existing = self.run(["remote"], check=False).stdout.split()
        self.run(["remote", "set-url" if b"origin" in existing else "add", "origin", remote])
        self._config = self._origin = None

    def remote_url(self) -> str | None:
        """origin's URL as git uses it (`insteadOf` applied), asked once."""
        if self._origin is None:
            config, key = self.config(), "remote.origin.url"
            rewrites = any(name.startswith("url.") for name in config)  # insteadOf
            if config.get(key) and key not in self._repeated and not rewrites:
                self._origin = (config[key],)  # as git uses it: no git more per sync
                return self._origin[0]
            result = self.run(["remote", "get-url", "origin"], check=False)
            self._origin = (result.stdout.decode("utf-8", "replace").strip() or None,)
        return self._origin[0]

    @property
    def object_format(self) -> str:
        return "sha256" if self.config().get("extensions.objectformat") == "sha256" else "sha1"

    @property
    def oid_bytes(self) -> int:
        return 32 if self.object_format == "sha256" else 20

    def blob_id(self, data: bytes) -> str:
        """The id git gives `data` as a blob (computed here: no process per file)."""
        digest = hashlib.sha256 if self.object_format == "sha256" else hashlib.sha1
        return digest(b"blob %d\0" % len(data) + data).hexdigest()

    def resolve(self, ref: str) -> str | None:
        """The commit a ref names, or None when it does not exist."""
        result = self.run(["rev-parse", "--verify", "--quiet", ref + "^{commit}"], check=False)
        return result.stdout.decode().strip() or None if result.returncode == 0 else None

    @property
    def null_oid(self) -> str:
        return "0" * (64 if self.object_format == "sha256" else 40)

    def set_branch(self, branch: str, commit: str, old: str | None) -> None:
        """Move the branch to `commit` only if it still points at `old`."""
        ref, expected = f"refs/heads/{branch}", old or self.null_oid
        self.run(["update-ref", "-m", "memtab sync", ref, commit, expected])

    def merge_base(self, one: str, other: str) -> str | None:
        result = self.run(["merge-base", one, other], check=False)
        return result.stdout.decode().strip() or None if result.returncode == 0 else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        result = self.run(["merge-base", "--is-ancestor", ancestor, descendant], check=False)
        if result.returncode not in (0, 1):
            raise GitError(_last_lines(result.stderr) or "git merge-base failed")
        return result.returncode == 0

    def _remote_side(self, option: str, program: str) -> list[str]:
        """The options that make the git serving a path remote run nothing the repository names
        (docs/formats.md §18.1)."""
        url = self.remote_url()
        if url is None or not is_local_remote(url):
            return []
        settings = " ".join(shlex.quote(item) for item in _with_c(_REMOTE_SIDE_CONFIG))
        return [f"{option}={shlex.quote(self.git)} {settings} {program}"]

    def fetch(
        self,
        branch: str,
        *,
        track: bool = True,
        maintain: bool = True,
        timeout_s: float = NETWORK_TIMEOUT_S,
    ) -> str | None:
        """Fetch `branch` of origin; its commit, None when the remote has none. GitError. `track`
        moves origin's tracking branch too; `maintain` runs git's maintenance after."""
        tracking = f"refs/remotes/origin/{branch}"
        spec = f"+refs/heads/{branch}:{tracking}" if track else f"refs/heads/{branch}"
        no_maintenance = [] if maintain else ["-c", "maintenance.auto=false"]
        refmap = [] if track else ["--refmap="]  # nothing but FETCH_HEAD written
        side = self._remote_side("--upload-pack", "upload-pack")
        args = [*no_maintenance, "fetch", "--quiet", "--no-tags", *refmap, *side, "origin", spec]
        try:
            self.run(args, timeout_s=timeout_s, network=True)
        except GitError as error:
            if "couldn't find remote ref" in str(error):
                if track:
                    self.track(branch, None)
                return None
            raise
        fetched = self._fetched()
        if fetched is None and not track:
            raise GitError(f"git fetch did not say what {branch} of origin is")
        return fetched or self.resolve(tracking)  # not said where git says it: asked

    def maintain(self, *, timeout_s: float = NETWORK_TIMEOUT_S) -> None:
        """git's maintenance as a fetch runs it (`maintenance run --auto`; a git before 2.29 fails,
        unheeded)."""
        self.run(["maintenance", "run", "--auto", "--quiet"], timeout_s=timeout_s, check=False)

    def _fetched(self) -> str | None:
        """The commit the fetch wrote in FETCH_HEAD's first line."""
        try:
            with open(self.repo / "FETCH_HEAD", "rb") as handle:
                line = handle.readline(256)
        except OSError:
            return None
        oid = line.split(b"\t", 1)[0].decode("ascii", "replace").strip()
        hex_oid = len(oid) == len(self.null_oid) and all(c in "0123456789abcdef" for c in oid)
        return oid if hex_oid else None

    def track(self, branch: str, commit: str | None) -> None:
        """Move origin's tracking branch to `commit` (None: remove it)."""
        tracking = f"refs/remotes/origin/{branch}"
        if commit is None:
            self.run(["update-ref", "-d", tracking], check=False)
        else:
            self.run(["update-ref", "-m", "memtab sync: fetch", tracking, commit])

    def heads(self, *, timeout_s: float = NETWORK_TIMEOUT_S) -> dict[str, str]:
        """origin's branches and commits (`ls-remote`); GitError."""
        result = self.run(
            ["ls-remote", "--heads", *self._remote_side("--upload-pack", "upload-pack"), "origin"],
            timeout_s=timeout_s,
            network=True,
        )
        lines = (
            line.partition("\t") for line in result.stdout.decode("utf-8", "replace").splitlines()
        )
        return {ref[11:]: oid for oid, _, ref in lines if ref.startswith("refs/heads/")}

    def push(self, branch: str, commit: str, *, timeout_s: float = NETWORK_TIMEOUT_S) -> bool:
        """Push `commit` to `branch` of origin; False when the remote moved since, else GitError."""
        side = self._remote_side("--receive-pack", "receive-pack")
        args = ["push", "--quiet", "--no-verify", *side, "origin", f"{commit}:refs/heads/{branch}"]
        result = self.run(args, timeout_s=timeout_s, network=True, check=False)
        if result.returncode == 0:
            return True
        said = result.stderr.decode("utf-8", "replace")
        if any(words in said for words in _REMOTE_MOVED):
            return False
        locked = _LOCK_IN_THE_WAY.search(said)
        if locked:
            lock = os.path.normpath(locked.group(1))  # git names it `…/./refs/…`
            raise GitError(
                f"the branch is locked: {lock} exists. Another push may be running; if none "
                "is, one that was stopped left it, and deleting it lets sync go on"
            )
        raise _failure(args, result, network=True)


# A push refused because the branch moved since the fetch; any other refusal is the remote's answer.
_REMOTE_MOVED = ("non-fast-forward", "fetch first", "but expected")
_LOCK_IN_THE_WAY = re.compile(r"Unable to create '([^']+\.lock)': File exists")


def _failure(
    args: Sequence[str], result: subprocess.CompletedProcess[bytes], *, network: bool
) -> GitError:
    """A failed git's error: its last lines of stderr, offline or failed by their words."""
    message = _last_lines(result.stderr) or f"git {args[0]} exited with {result.returncode}"
    return GitError(message, classify_network_error(message) if network else "failed")


# git's advice after a failed fetch or push.
_BOILERPLATE = (
    "hint:",
    "Please make sure you have the correct access rights",
    "and the repository exists",
)


def _with_c(settings: Sequence[str]) -> list[str]:
    return [word for setting in settings for word in ("-c", setting)]


def _last_lines(stderr: bytes, count: int = 3) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line and not line.startswith(_BOILERPLATE)]
    return " ".join(lines[-count:])
