"""Solved problems: a failed project command (or `git commit`, whose hooks are project rules) and
what made it work — the steps the offline writer's digest (`extract.TranscriptDigest`) holds while
it waits for the calls that may fix a failure, and how one is judged."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.shell.command_scope import (
    does_less,
    in_project,
    relative_path,
    runs_elsewhere,
    without_passthrough,
)
from memtab.writer.offline.shell.commands import (
    command_family,
    command_label,
    command_segments,
    display_command,
    git_hook_stage,
    is_exploratory,
    is_project_command,
    is_throwaway,
    program_name,
    removed_files,
    runs_a_task,
    skips_hooks,
    status_is_known,
    tool_program,
    uncut,
    unwrapped,
    without_machine_env,
    word_set,
)
from memtab.writer.offline.shell.outcomes import (
    error_signature,
    output_shows_failure,
    output_shows_success,
    repair_hint,
    says_nothing,
)

MAX_SOLVING_STEPS = 3

_SHELL_TOOL_NAME = re.compile(r"bash|shell|exec|terminal|command", re.IGNORECASE)
EDIT_TOOL_NAME = re.compile(r"edit|write|patch|str_replace|create_file|insert", re.IGNORECASE)
_PATCH_FILE = re.compile(r"^\*\*\* (Update|Add|Delete) File: (.+)$", re.MULTILINE)
_TARGET_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file")


@dataclass(frozen=True)
class SolvedProblem:
    """A failed command, its error, and what made it work."""

    action: str
    signature: str
    solving_steps: tuple[str, ...] = ()
    """Rendered steps between the failure and the success: "`make db-up`", "editing `x.py`"."""
    worked_with: str | None = None
    """The command that then worked, when it differs from the one that failed."""
    family: str = ""
    """The command's program and subcommand (`pytest tests`), shared by its retries."""

    @property
    def key(self) -> str:
        """Its key among `Findings.origins`."""
        return f"{self.action}\n{self.signature}"


@dataclass(frozen=True, slots=True)
class Step:
    """One tool call, classified: what the rules need of it (never its output)."""

    name: str
    command: str | None  # the shell command, for a shell tool
    family: str
    succeeded: bool
    failed: bool
    target: str  # the file a non-shell call works on
    signature: str  # what went wrong, for a failed call
    deleted: frozenset[str]  # base names of files this call deletes
    origin: str  # the id of the message the call is in
    # The command without the pipe that cut its output, when what is shown of it says it
    # passed (`commands.uncut`): its exit status is the pipe's, its output still tells.
    passed_as: str | None = None
    # The command a failed call's output says repairs it (`outcomes.repair_hint`).
    repair: str | None = None
    # Run in a folder outside the session's project (`project_dirs.runs_elsewhere`): not
    # the project's command — its hooks and failures belong to that other repository.
    elsewhere: bool = False


def as_run_here(command: str, project_dir: str | None, worktrees: Collection[str] = ()) -> str:
    """A shell command as the project runs it: paths inside the project or one of the
    session's worktrees relative to it (`project_dirs.in_project`), one machine's shell
    set-up left out (`commands.without_machine_env`)."""
    return without_machine_env(in_project(command.strip(), project_dir, worktrees))


def read_step(
    call: TranscriptToolCall,
    origin: str,
    project_dir: str | None = None,
    worktrees: Collection[str] = (),
) -> Step:
    failed = call.is_error or (call.exit_code is not None and call.exit_code != 0)
    command = call.command if _SHELL_TOOL_NAME.search(call.name) else None
    # A Codex code-mode cell that printed only its command's output ("Script completed"):
    # the cell ended, how the command did is told only by that output.
    status_told = call.exit_code is not None or not isinstance(call.input, str)
    command = as_run_here(command, project_dir, worktrees) if command else None
    target = _target(call)
    target = relative_path(target, project_dir) or target  # as the project names it
    family = command_family(command) if command else f"tool:{call.name}:{target}"
    deleted: set[str] = set()
    if command is not None:
        deleted |= removed_files(command)
    elif isinstance(call.input, str):
        deleted |= {
            path.strip().rsplit("/", 1)[-1]
            for verb, path in _PATCH_FILE.findall(call.input)
            if verb == "Delete"
        }
    signature = error_signature(failure_text(call)) if failed else ""
    hint = repair_hint(failure_text(call)) if failed else None
    output = call.output or ""
    passed_as = uncut(command, output) if command is not None and not failed else None
    if passed_as is not None and not (output_shows_success(output) or says_nothing(output)):
        if output_shows_failure(output):
            # its status is the pipe's (`rtk bun run test 2>&1 | tail -20`), what it shows
            # says it failed ("error: unrecognized subcommand 'bun'"): a failure of its own
            command, failed = passed_as, True
            signature, hint = error_signature(output), repair_hint(output)
        passed_as = None
    return Step(
        call.name,
        command,
        family,
        call.has_output and not failed and (status_told or output_shows_success(output)),
        failed,
        target,
        signature,
        frozenset(deleted),
        origin,
        passed_as,
        hint[1] if hint is not None else None,
        command is not None and project_dir is not None and runs_elsewhere(command),
    )


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


def can_teach(step: Step, throwaway: set[str]) -> bool:
    """A failure worth a lesson: a project command (or a commit, whose hooks are the project's
    rules, or a project command run through a wrapper) with its own exit status, not a one-off."""
    command = step.command
    if command is None or not status_is_known(command) or is_throwaway(command, throwaway):
        return False
    if step.elsewhere:
        return False  # another repository's failure
    return is_project_command(command) or step.family == "git commit" or bool(unwrapped(command))


def find_solution(
    failed: Step, signature: str, later: Sequence[Step], throwaway: set[str]
) -> tuple[SolvedProblem, Step] | None:
    """The solved problem of a failed step and the step that then worked, or None."""
    assert failed.command is not None
    action = command_label(failed.command)
    inner = unwrapped(failed.command)  # `rtk bun run test` failed: did `bun run test` work?
    inner_family = command_family(inner) if inner else None
    between: list[Step] = []
    for step in later:
        command = step.command
        if step.family == inner_family and command is not None and step.succeeded:
            if does_less(command, failed.command):
                return None  # a part of it passed (`bun test one.test.ts`): nothing solved
            worked = command_label(command) if status_is_known(command) else step.passed_as
            if action is None or worked is None:
                return None
            return SolvedProblem(action, signature, (), worked, failed.family), step
        if step.family == failed.family and command is not None:
            if step.failed:
                if _numbers_as_zero(step.signature) != _numbers_as_zero(signature):
                    # failed again otherwise: what came before changed its error, and the
                    # session never shows this one fixed by a command that then worked
                    return None
                between = []  # failed again: what came before did not fix it
                continue
            if not step.succeeded:
                return None
            if not status_is_known(command):
                if step.passed_as is None:
                    return None
                command = step.passed_as  # cut by `| tail`, its output says it passed
            if does_less(command, failed.command):
                # `bun test` failed, then `bun test src/App.test.tsx` passed (the tests of
                # that file pass), or a commit failed in a hook and went through with the
                # hooks skipped: what failed is not shown fixed
                return None
            # the same task again, only without the words the failed run handed it (`pnpm
            # lint -- --no-warn-ignored x.tsx`, then `pnpm lint`): a rerun, not a lesson
            dropped_args = without_passthrough(command) == command
            again = dropped_args and as_kept(command) == as_kept(failed.command)
            worked = command_label(command) if not again else None
            worked = worked if worked != action else None  # says nothing new
            if worked is not None and display_command(command) is None:
                return None  # only its family could be written: the difference is lost
            steps = solving_steps(between, throwaway)
            if action is None or not (worked or any(s.startswith("`") for s in steps)):
                # The same command ran again, perhaps after edits: that is the work
                # itself (code fixed until the tests pass), not a lesson to keep.
                return None
            return SolvedProblem(action, signature, steps, worked, failed.family), step
        between.append(step)
    return None


def _numbers_as_zero(text: str) -> str:
    """An error as compared with a later one (timings, line numbers and ports aside)."""
    return _DIGITS.sub("0", text)


_DIGITS = re.compile(r"\d+")


def as_kept(command: str) -> str:
    """A command as a note would keep it (`pnpm lint -- x.tsx 2>&1` → `pnpm lint`): two
    runs that read the same here are the same command run again."""
    return display_command(without_passthrough(command)) or command


def solving_steps(between: Sequence[Step], throwaway: set[str]) -> tuple[str, ...]:
    rendered: list[str] = []
    for step in between:
        if not step.succeeded:
            continue
        if step.command is not None:
            command = step.command
            if is_exploratory(command) or not status_is_known(command):
                continue
            if is_throwaway(command, throwaway) or not can_solve(command):
                continue
            label = command_label(command)
            text = f"`{label}`" if label else ""
        elif EDIT_TOOL_NAME.search(step.name) and step.target:
            text = f"editing `{step.target}`"
        else:
            continue
        if text and text not in rendered:
            rendered.append(text)
    return tuple(rendered[-MAX_SOLVING_STEPS:])


# git's commands that only move the session's own changes around (stage, shelve, switch,
# commit them): between a failure and its success they fix nothing of the project.
_GIT_BOOKKEEPING = word_set(
    "add stash commit checkout switch restore reset rm mv push pull fetch branch tag merge "
    "rebase cherry-pick status log diff show"
)


def can_solve(command: str) -> bool:
    """Whether a command that worked between a failure and its success may be part of its
    fix: not git's bookkeeping (`git add -A`, `git stash`) nor a workflow tool's call (`bd
    update spotter-a0y.1 --status in_progress`; a task it runs, `mise run fmt`, may) — what
    the session did besides."""
    if tool_program(command) is not None and not runs_a_task(command):
        return False
    for words in command_segments(command):
        if words and program_name(words[0]) == "git":
            sub = next((word for word in words[1:] if not word.startswith("-")), "")
            if sub in _GIT_BOOKKEEPING:
                return False
    return True


def failure_text(call: TranscriptToolCall) -> str:
    parts = [call.output or "", call.error if call.error != call.output else ""]
    return "\n".join(part for part in parts if part)


def broken_hook_note(step: Step, signature: str, later: Sequence[Step]) -> str | None:
    """A commit (or push) the project's hook failed, made next with the hooks skipped
    (`--no-verify`), whose output names the repair: the hook is broken, not the change —
    the note keeps what is wrong, how to mend it, and that the checks were skipped (never
    "skip the hooks" as a way that works). None when the steps show no such thing."""
    stage = git_hook_stage(step.command)
    if stage is None or step.repair is None or "`" in signature + step.repair:
        return None
    if not any(
        other.succeeded and git_hook_stage(other.command) == stage and skips_hooks(other.command)
        for other in later
    ):
        return None
    return (
        f"`git {stage}` fails in the project's hook: `{signature}` — its output says to "
        f"run `{step.repair}`; the session's {stage}s skipped the hooks (`--no-verify`), "
        "so their checks did not run."
    )
