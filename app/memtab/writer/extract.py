"""What the offline writer finds in a transcript: directives, working commands, fixes, findings.

Input is the transcript's events as data (`TranscriptEvent`s, sub-agent chatter left out),
the same window a model would be shown. Four kinds of findings, all conservative — a
memory file full of noise is worse than a short one:

- Directives: the human's standing rules, in any of eight languages (`directives`).
- Commands that work: shell commands that succeeded — with their own exit status, not a
  pipe's — and build, test, lint, type-check, format or install the project (`make check`,
  `pytest -q`, `bun run docs:build`), written whole, one per family (the shortest).
  Exploration (`ls`, `cat`, `git status`) and throwaways never count: a script the session
  deleted, code given inline (`python -c`), anything under /tmp, an install of one named
  package.
- Fixes: a failed project command (or `git commit`, whose hooks are project rules) is a
  lesson only when a later step in the transcript fixed the same problem soon after, and
  the note says what fixed it: the commands (and edits) in between, or the other
  invocation that worked. Running the same command again is not a fix, nor is editing
  code until it passes (that is the work, not a lesson); a failed guess (a file or path
  that does not exist) is not a lesson, and neither is an agent fumbling its own tools.
- Findings: facts about the project the agent stated in its final answers (`answers`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from memtab.transcripts import TranscriptEvent, TranscriptToolCall
from memtab.writer.answers import findings_in_answers
from memtab.writer.commands import (
    command_family,
    command_kind,
    command_label,
    display_command,
    is_exploratory,
    is_one_off,
    is_project_command,
    mentioned_files,
    removed_files,
    status_is_known,
)
from memtab.writer.directives import directives_in

MAX_SIGNATURE_CHARS = 160
MAX_FIX_STEPS = 3
# A fix must follow its failure closely: after this many tool calls, what made the command
# work can no longer be told apart from everything else the agent did meanwhile.
MAX_CALLS_TO_FIX = 8

_SHELL_TOOL_NAME = re.compile(r"bash|shell|exec|terminal|command", re.IGNORECASE)
_EDIT_TOOL_NAME = re.compile(r"edit|write|patch|str_replace|create_file|insert", re.IGNORECASE)
_PATCH_FILE = re.compile(r"^\*\*\* (Update|Add|Delete) File: (.+)$", re.MULTILINE)
_TARGET_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file")
# An error saying a path is not there: the agent guessed wrong, nothing to learn.
_MISSING_PATH = re.compile(
    r"no such file or directory|does not exist|doesn't exist|cannot find the path|enoent"
    r"|can't open file|cannot access|not a directory|path not found",
    re.IGNORECASE,
)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_GENERIC_ERROR_LINE = re.compile(
    r"^(?:command exited with code -?\d+|exit code:? -?\d+|process exited with code -?\d+"
    r"|traceback \(most recent call last\):|error:?|failed:?)$",
    re.IGNORECASE,
)
_NOISE_LINE = re.compile(
    r"^(?:\s*>?\s*\d+\s*\|)|^\s*at\s+\S.*[:(]\d+|^\s*File \".*\", line \d+|^[\s^~|_=*#-]*$"
)
_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Failure|Fault|Interrupt)\b:?(?:\s|$)"
)
_ERROR_PREFIX_LINE = re.compile(
    r"^(?:(?:error|fatal|panic|uncaught|unhandled)(?:\[[^\]]*\])?:\s*\S|npm err!\s)", re.I
)
_STRONG_PHRASES = re.compile(
    r"command not found|no such file or directory|permission denied|connection refused"
    r"|module not found|cannot find module|segmentation fault",
    re.IGNORECASE,
)
_WEAK_PHRASES = re.compile(
    r"fail|error|cannot|can't|could not|couldn't|unable|not found|denied|refused|missing"
    r"|requires?\b|invalid|timed? ?out|permission|not allowed|❌|✗|✘",
    re.IGNORECASE,
)
_JEST_HEADER = re.compile(r"^●\s.*fail", re.IGNORECASE)
# pytest's `E   ` assertion prefix, or a quoting `> `.
_SIGNATURE_PREFIX = re.compile(r"^(?:E\s{2,}|>\s+)")


@dataclass(frozen=True)
class Fix:
    """A failed command, its error, and what made it work."""

    action: str
    signature: str
    fix_steps: tuple[str, ...] = ()
    """Rendered steps between the failure and the success: "`make db-up`", "editing `x.py`"."""
    worked_with: str | None = None
    """The command that then worked, when it differs from the one that failed."""
    family: str = ""
    """The command's program and subcommand (`pytest tests`), shared by its retries."""


@dataclass(frozen=True)
class WorkingCommand:
    """A project command that succeeded, and what kind of command it is (if known)."""

    command: str
    kind: str | None = None


@dataclass
class Findings:
    """Everything the offline writer would record from one transcript window."""

    directives: list[str] = field(default_factory=list)
    commands: list[WorkingCommand] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.directives or self.commands or self.fixes or self.findings)


@dataclass(frozen=True)
class _Step:
    """One tool call, classified."""

    call: TranscriptToolCall
    command: str | None  # the shell command, for a shell tool
    family: str
    succeeded: bool
    failed: bool


# --- entry point ----------------------------------------------------------------------


def extract_findings(events: Sequence[TranscriptEvent]) -> Findings:
    """Findings from transcript events (oldest first); sub-agent events are skipped."""
    findings = Findings()
    steps: list[_Step] = []
    for event in events:
        if event.sidechain:
            continue
        if event.role == "user" and event.text:
            for directive in directives_in(event.text):
                if directive not in findings.directives:
                    findings.directives.append(directive)
        elif event.role == "assistant":
            steps.extend(_step(call) for call in event.tool_calls)
    throwaway = _throwaway_files(steps)
    findings.commands = _working_commands(steps, throwaway)
    findings.fixes = _fixes(steps, throwaway)
    findings.findings = findings_in_answers(events)
    return findings


def _step(call: TranscriptToolCall) -> _Step:
    failed = call.is_error or (call.exit_code is not None and call.exit_code != 0)
    command = call.command if _SHELL_TOOL_NAME.search(call.name) else None
    command = command.strip() if command else None
    family = command_family(command) if command else f"tool:{call.name}:{_target(call)}"
    return _Step(call, command, family, call.has_output and not failed, failed)


def _target(call: TranscriptToolCall) -> str:
    """The file a non-shell call works on: its path argument, or the first file a patch
    (`*** Update File: x`) touches."""
    if isinstance(call.input, str):
        patched = _PATCH_FILE.search(call.input)
        return patched.group(2).strip() if patched else ""
    for key in _TARGET_KEYS:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip() and "\n" not in value:
            return value.strip()
    return ""


def _throwaway_files(steps: Sequence[_Step]) -> set[str]:
    """Base names of the files the session deleted: a script it wrote for the moment and
    removed (or any it removed) is no command to keep."""
    deleted: set[str] = set()
    for step in steps:
        if step.command is not None:
            deleted |= removed_files(step.command)
            continue
        patch = step.call.input if isinstance(step.call.input, str) else ""
        deleted |= {
            path.strip().rsplit("/", 1)[-1]
            for verb, path in _PATCH_FILE.findall(patch)
            if verb == "Delete"
        }
    return deleted


def _is_throwaway(command: str, throwaway: set[str]) -> bool:
    return is_one_off(command) or bool(mentioned_files(command) & throwaway)


# --- commands that work ---------------------------------------------------------------


def _working_commands(steps: Sequence[_Step], throwaway: set[str]) -> list[WorkingCommand]:
    by_family: dict[str, WorkingCommand] = {}
    for step in steps:
        command = step.command
        if command is None or not step.succeeded or not status_is_known(command):
            continue
        shown = display_command(command)
        if shown is None or not is_project_command(command) or _is_throwaway(command, throwaway):
            continue
        known = by_family.get(step.family)
        if known is None or len(shown) < len(known.command):
            by_family[step.family] = WorkingCommand(shown, command_kind(command))
    return list(by_family.values())


# --- fixes ----------------------------------------------------------------------------


def _can_teach(step: _Step, throwaway: set[str]) -> bool:
    """A failure worth a lesson: a project command (or a commit, whose hooks are the
    project's rules) with its own exit status, not a one-off."""
    command = step.command
    if command is None or not status_is_known(command) or _is_throwaway(command, throwaway):
        return False
    return is_project_command(command) or step.family == "git commit"


def _fixes(steps: Sequence[_Step], throwaway: set[str]) -> list[Fix]:
    fixes: list[Fix] = []
    seen: set[tuple[str, str]] = set()
    for index, step in enumerate(steps):
        if not step.failed or not _can_teach(step, throwaway):
            continue
        signature = error_signature(_failure_text(step.call))
        if not signature or _MISSING_PATH.search(signature):
            continue  # nothing to say about it, or a guess at a path that is not there
        key = (step.family, signature.lower())
        if key in seen:
            continue
        fix = _fix(step, signature, steps[index + 1 : index + 1 + MAX_CALLS_TO_FIX], throwaway)
        if fix is not None:
            seen.add(key)
            fixes.append(fix)
    return fixes


def _fix(failed: _Step, signature: str, later: Sequence[_Step], throwaway: set[str]) -> Fix | None:
    assert failed.command is not None
    action = command_label(failed.command)
    between: list[_Step] = []
    for step in later:
        command = step.command
        if step.family == failed.family and command is not None:
            if step.failed:
                between = []  # failed again: what came before did not fix it
                continue
            if not step.succeeded or not status_is_known(command):
                return None
            worked = command_label(command) if command != failed.command else None
            worked = worked if worked != action else None  # says nothing new
            steps = _fix_steps(between, throwaway)
            if action is None or not (worked or any(s.startswith("`") for s in steps)):
                # The same command ran again, perhaps after edits: that is the work
                # itself (code fixed until the tests pass), not a lesson to keep.
                return None
            return Fix(action, signature, steps, worked, failed.family)
        between.append(step)
    return None


def _fix_steps(between: Sequence[_Step], throwaway: set[str]) -> tuple[str, ...]:
    rendered: list[str] = []
    for step in between:
        if not step.succeeded:
            continue
        if step.command is not None:
            command = step.command
            if is_exploratory(command) or not status_is_known(command):
                continue
            if _is_throwaway(command, throwaway):
                continue
            label = command_label(command)
            text = f"`{label}`" if label else ""
        elif _EDIT_TOOL_NAME.search(step.call.name) and _target(step.call):
            text = f"editing `{_target(step.call)}`"
        else:
            continue
        if text and text not in rendered:
            rendered.append(text)
    return tuple(rendered[-MAX_FIX_STEPS:])


def _failure_text(call: TranscriptToolCall) -> str:
    parts = [call.output or "", call.error if call.error != call.output else ""]
    return "\n".join(part for part in parts if part)


def error_signature(text: str) -> str:
    """The line that says what went wrong: an exception or `error:` line first, then a
    line with a failure word; generic "exit code" lines, code frames and stack lines are
    skipped. Cut to a readable length; "" when nothing fits."""
    best: tuple[int, str] | None = None
    previous_was_jest_header = False
    if text.count("\\n") > text.count("\n"):
        text = text.replace("\\n", "\n")  # output that reached us JSON-escaped, on one line
    for raw in _ANSI.sub("", text).splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        if _JEST_HEADER.match(line):
            previous_was_jest_header = True
            continue
        if _GENERIC_ERROR_LINE.match(line) or _NOISE_LINE.match(raw):
            continue
        score = _line_score(line, previous_was_jest_header)
        previous_was_jest_header = False
        if score and (best is None or score > best[0]):
            best = (score, raw)
            if score >= 3:
                break
    if best is None:
        return ""
    return _clean_signature(best[1])


def _line_score(line: str, after_jest_header: bool) -> int:
    if after_jest_header or _EXCEPTION_LINE.match(line) or _ERROR_PREFIX_LINE.match(line):
        return 3
    if _STRONG_PHRASES.search(line):
        return 3
    if _WEAK_PHRASES.search(line):
        return 2
    return 0


def _clean_signature(raw: str) -> str:
    line = _SIGNATURE_PREFIX.sub("", raw.strip())
    for marker in ("❌", "✗", "✘"):
        if marker in line:
            line = line.rsplit(marker, 1)[1]
    line = " ".join(line.split()).rstrip(":").strip()
    return line if len(line) <= MAX_SIGNATURE_CHARS else line[: MAX_SIGNATURE_CHARS - 1] + "…"
