"""What the offline writer finds in a transcript: the user's directives, working commands,
solved problems, findings. The whole transcript is read once, oldest event first, keeping bounded
state (`TranscriptDigest`): however long the session, its start is seen."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from memtab.markdown import classify, fenced_blocks
from memtab.transcripts.claude import background_task, ended_task
from memtab.transcripts.codex import polled_session, running_session
from memtab.transcripts.events import TranscriptEvent, TranscriptToolCall
from memtab.writer.offline.answers import (
    FIRM_WEIGHT,
    best_facts,
    fact_weight,
    facts_in_text,
    is_agent_report,
    stands_alone,
)
from memtab.writer.offline.corrections import corrections_in, is_corrected_by
from memtab.writer.offline.directives import directives_in, ended, is_claimed, withdrawn
from memtab.writer.offline.findings import (
    Findings,
    OriginKind,
    ToolUses,
    WorkflowTool,
    WorkingCommand,
)
from memtab.writer.offline.shell.command_scope import (
    is_narrowed,
    without_passthrough,
    worktree_added,
)
from memtab.writer.offline.shell.commands import (
    chained_commands,
    command_family,
    command_kind,
    display_command,
    git_hook_stage,
    is_one_off,
    is_worth_keeping,
    main_words,
    mentioned_files,
    packages_changed,
    status_is_known,
    tool_program,
)
from memtab.writer.offline.shell.lockfiles import (
    ProjectManagers,
    files_restored,
    restores_manifest_of,
)
from memtab.writer.offline.shell.outcomes import hooks_note, hooks_that_passed, output_shows_success
from memtab.writer.offline.solved_problems import (
    SolvedProblem,
    Step,
    as_run_here,
    broken_hook_note,
    can_teach,
    find_solution,
    read_step,
)

_QUESTION_TOOL = re.compile(r"^ask_?user_?questions?$", re.IGNORECASE)


def is_question(call: TranscriptToolCall) -> bool:
    """A call of the agent's tool for asking the user a question."""
    return bool(_QUESTION_TOOL.match(call.name))


MIN_MEMORY_CHARS = 20
MAX_MEMORY_CHARS = 240

_MEMORY_FILE = re.compile(r"/\.claude/projects/[^/]+/memory/(?!MEMORY\.md$)[^/]+\.md$")
_WRITE_TOOL = re.compile(r"^(?:write|create_file)$", re.IGNORECASE)
# No run of blanks is read twice: the opening line holds no line break of the head, the
# description is its line to the end (trimmed after), a `type:` key is looked for in its line.
_FRONTMATTER = re.compile(r"\A---[^\S\n]*+\n(?P<head>.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_DESCRIPTION = re.compile(r"^description:\s*+(?P<text>.+)", re.MULTILINE)
_TYPE = re.compile(r"^[^\S\n]*type:\s*[\"']?(?P<type>\w+)", re.MULTILINE)


class SavedMemory(NamedTuple):
    """A memory the agent saved: a directive (its `feedback` type) or a finding."""

    kind: Literal["directive", "finding"]
    text: str


_PLACEHOLDER = re.compile(r"<[A-Za-z_ -]+>|\{\{|\bTODO\b")


def memories_saved(call: TranscriptToolCall) -> list[SavedMemory]:
    """The memory one call saved (`memory_saved`), in a language the writer claims
    (`is_claimed`): a memory is prose, and one in a language no session checked cannot be
    told from the session's news."""
    saved = memory_saved(call)
    return [saved] if saved is not None and is_claimed(saved.text) else []


def memory_saved(call: TranscriptToolCall) -> SavedMemory | None:
    """The note an agent's own memory write holds: the memory file's description, one
    sentence; None for any other call, a failed write, or a file with no usable one."""
    if not _WRITE_TOOL.match(call.name) or call.is_error or not isinstance(call.input, dict):
        return None
    path, content = call.input.get("file_path"), call.input.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    if not _MEMORY_FILE.search(path.replace("\\", "/")):
        return None
    head = _FRONTMATTER.match(content)
    described = _DESCRIPTION.search(head["head"]) if head else None
    if described is None:
        return None
    text = " ".join(described["text"].rstrip().strip("\"'").split())
    if not MIN_MEMORY_CHARS <= len(text) <= MAX_MEMORY_CHARS or _PLACEHOLDER.search(text):
        return None
    text = ended(text)
    typed = _TYPE.search(head["head"]) if head else None
    if typed is not None and typed["type"].casefold() == "feedback":
        return SavedMemory("directive", text)
    return SavedMemory("finding", text) if stands_alone(text) else None


_AGENT_TOOL_NAMES = frozenset(("Task", "Agent"))
_SHELLS = frozenset(("bash", "sh", "shell", "zsh", "console"))  # a fence's language
# Tool calls written out as text: the sub-agent described calls instead of making them.
_CALLS_AS_TEXT = re.compile(
    r"<(?:function_calls|invoke|tool_call|tool_response|function_response)\b"
)
# Claude Code's trailer on a sub-agent's report (`agentId: a4e4e30 (for resuming …)`).
_AGENT_TRAILER = re.compile(r"^agentId: \S+.*$", re.MULTILINE)


def command_a_bash_agent_ran(call: TranscriptToolCall) -> str | None:
    """The command a `Bash` sub-agent's report says it ran and that passed (`cd
    /home/me/app && bunx tsc --noEmit`, reported "completed successfully with no
    errors"), or None: another kind of call, several commands, a command the prompt did not
    ask for, calls written out as text, or a report that does not say it passed."""
    if call.name not in _AGENT_TOOL_NAMES or call.is_error or not isinstance(call.input, dict):
        return None
    if call.input.get("subagent_type") != "Bash":
        return None
    prompt = call.input.get("prompt")
    report = _AGENT_TRAILER.sub("", call.output or "")
    if not isinstance(prompt, str) or _CALLS_AS_TEXT.search(report):
        return None
    lines = report.splitlines()
    blocks = [
        (block.start, block.end)
        for block in fenced_blocks(classify(lines, frontmatter=False))
        if block.fence.info in _SHELLS and block.end is not None
    ]
    if len(blocks) != 1:
        return None  # none closed, or several commands
    start, end = blocks[0]
    assert end is not None
    command = "\n".join(lines[start + 1 : end]).strip()
    words = main_words(command)
    if "\n" in command or not words or " ".join(words) not in " ".join(prompt.split()):
        return None
    after = "\n".join(lines[end + 1 :])
    return command if after.strip() and output_shows_success(after) else None


# A memory the agent saved itself outweighs any fact read in its prose (at most
# FIRM_WEIGHT + 1, `answers.fact_weight`).
SAVED_MEMORY_WEIGHT = FIRM_WEIGHT + 2
# Bounds on what a digest keeps, so memory stays flat on a transcript of any length.
MAX_KEPT = 50  # of each kind: a run that suggests hundreds of notes teaches nothing
MAX_KEPT_FILES = 2000
# A solution must follow its failure closely: after this many tool calls, what made the command
# work can no longer be told apart from everything else the agent did meanwhile.
MAX_CALLS_TO_SOLVE = 8

# An error saying a path is not there: the agent guessed wrong, nothing to learn.
_MISSING_PATH = re.compile(
    r"no such file or directory|does not exist|doesn't exist|cannot find the path|enoent"
    r"|can't open file|cannot access|not a directory|path not found",
    re.IGNORECASE,
)
# A call Claude Code never ran because another call of the same turn failed first.
_NEVER_RAN = re.compile(r"^\s*<tool_use_error>Sibling tool call errored</tool_use_error>\s*$")


MAX_ORIGINS = 4  # message ids kept per finding: where first said, a solved problem's two ends


# --- entry point ----------------------------------------------------------------------


def extract_findings(events: Iterable[TranscriptEvent]) -> Findings:
    """Findings from transcript events (oldest first); sub-agent events are skipped."""
    digest = TranscriptDigest()
    for event in events:
        digest.add(event)
    return digest.findings()


class TranscriptDigest:
    """What the offline writer keeps of a transcript read once, event by event, in bounded memory
    however long the transcript is (the writer's budget window shows a model only the newest events;
    this sees them all)."""

    def __init__(self) -> None:
        self._directives: list[str] = []
        self._facts: list[str] = []
        self._fact_weights: dict[str, int] = {}
        self._corrections: list[str] = []
        self._hooks: dict[str, str] = {}  # the note on the hooks of a commit, of a push
        # Mid-work, right after a call that failed, the agent explains that failure ("Branch
        # creation hit the sandbox because …"): the moment's trouble, not a lasting fact — what
        # the session learnt from it is a `SolvedProblem`.
        self._after_failure = False
        self._project_dir: str | None = None  # where the session started (`event.cwd`)
        self._worktrees: list[str] = []  # the checkouts it added (`worktree_added`)
        self._commands: dict[str, tuple[WorkingCommand, frozenset[str]]] = {}
        self._solved_problems: list[tuple[SolvedProblem, frozenset[str]]] = []
        self._solved_keys: set[tuple[str, str]] = set()
        self._throwaway: set[str] = set()
        # The packages the session added, and those it then undid (removed, or its manager's
        # files restored): (manager, package).
        self._added: set[tuple[str, str]] = set()
        self._undone: set[tuple[str, str]] = set()
        # Workflow tools: program → subcommand → the shortest invocation that worked, and
        # the message it is in.
        self._tools = ToolUses()
        # Codex commands still running when their call returned, by session id.
        self._running: dict[str, tuple[TranscriptToolCall, str]] = {}
        # Claude Code commands sent to the background, by task id (see `_session_end`).
        self._background: dict[str, tuple[TranscriptToolCall, str]] = {}
        # The newest steps: a failure is judged once the calls that may fix it are seen.
        self._recent: deque[Step] = deque()
        # Where each kept finding was said: (kind, key) → message ids (docs/formats.md §20.1).
        self._origins: dict[tuple[str, str], tuple[str, ...]] = {}
        # The package managers the project's lockfiles name (`npm install` in a pnpm project).
        self._managers = ProjectManagers()

    def add(self, event: TranscriptEvent) -> None:
        if event.sidechain:
            return
        origin = event.message_id or event.id
        self._project_dir = event.cwd or self._project_dir
        if event.role in ("user", "assistant") and event.text:
            self._forget_corrected(event.text, by_the_user=event.role == "user")
            self._keep_corrections(event.text, origin)
        if event.role == "user" and event.text:
            self._after_failure = False
            self._user_text(event.text, origin)
        elif event.role == "assistant":
            if event.completed_turn or not self._after_failure:
                found = facts_in_text(event.text, concluded=event.completed_turn)
                self._keep_facts(found, origin, told_the_user=event.completed_turn)
            for call in event.tool_calls:
                self._call(call, origin)
            if event.tool_calls:
                self._after_failure = event.tool_calls[-1].is_error

    def findings(self) -> Findings:
        """What was found in the events added so far (the digest can go on after)."""
        throwaway = self._throwaway
        solved_problems = [
            solved for solved, files in self._solved_problems if not files & throwaway
        ]
        pending = list(self._recent)
        judged_keys = set(self._solved_keys)  # the pending steps are judged again when they leave
        for index, step in enumerate(pending):
            solved = self._judge(step, pending[index + 1 :])
            if (
                solved is not None
                and not solved[1] & throwaway
                and solved[0] not in solved_problems
            ):
                solved_problems.append(solved[0])
        self._solved_keys = judged_keys
        origins = dict(self._origins)
        managers = self._managers
        return Findings(
            directives=list(self._directives),
            commands=[
                cmd
                for cmd, files in self._commands.values()
                if not files & throwaway and not managers.contradicts(cmd.command)
            ],
            solved_problems=[
                solved
                for solved in solved_problems
                if not any(map(managers.contradicts, _commands_named(solved)))
                and not any(map(self._adds_undone, _commands_named(solved)))
            ],
            findings=[
                *self._corrections,
                *(
                    fact
                    for fact in best_facts(self._facts, self._fact_weights)
                    if fact not in self._corrections
                ),
                *self._hooks.values(),
            ],
            tools=self._workflow_tools(origins),
            origins=origins,
        )

    def _workflow_tools(
        self, origins: dict[tuple[str, str], tuple[str, ...]]
    ) -> list[WorkflowTool]:
        """The workflow tools (`findings.ToolUses`), their origins added to `origins`."""
        tools: list[WorkflowTool] = []
        for tool, ids in self._tools.tools():
            tools.append(tool)
            origins[("tool", tool.program)] = _origin_ids(ids)
        return tools

    def _keep(self, kept: list[str], found: Iterable[str], kind: OriginKind, origin: str) -> None:
        """Keep new findings of one kind (`_add_unique`), each with the message it came from."""
        for item in _add_unique(kept, found, MAX_KEPT):
            self._origins.setdefault((kind, item), (origin,))

    def _keep_facts(
        self, found: Iterable[str], origin: str, *, told_the_user: bool, report: bool = False
    ) -> None:
        """Keep new findings with how sure each is (`answers.best_facts` keeps the surest);
        of a sub-agent's report, which mostly describes the code it read, only firm ones."""
        found = [fact for fact in found if is_claimed(fact)]  # `is_claimed`: checked languages
        weights = {fact: fact_weight(fact, told_the_user=told_the_user) for fact in found}
        found = [fact for fact, weight in weights.items() if not report or weight >= FIRM_WEIGHT]
        self._keep(self._facts, found, "finding", origin)
        for fact in found:
            if fact in self._facts:
                self._fact_weights[fact] = max(weights[fact], self._fact_weights.get(fact, 0))

    def _keep_corrections(self, text: str, origin: str) -> None:
        """Keep the values the user or the agent set right ("the lookback is 7 days, not 3"):
        findings apart from the few surest of the agent's prose, for someone got them wrong
        once; rare enough not to crowd the notes."""
        found = [fact for fact in corrections_in(text) if is_claimed(fact)]
        self._keep(self._corrections, found, "finding", origin)

    def _forget_corrected(self, text: str, *, by_the_user: bool) -> None:
        """Take back what was kept before `text` holding a value `text` says is wrong (the agent
        guessed port 8000; the user: "it isn't on 8000, it's 8123"): a note keeps no guess. The
        user's own rules only the user sets right."""
        kinds: list[tuple[OriginKind, list[str]]] = [
            ("finding", self._facts),
            ("finding", self._corrections),
        ]
        if by_the_user:
            kinds.append(("directive", self._directives))
        for kind, kept in kinds:
            for note in [note for note in kept if is_corrected_by(note, text)]:
                kept.remove(note)
                self._fact_weights.pop(note, None)
                self._origins.pop((kind, note), None)

    # --- reading ---------------------------------------------------------------------

    def _user_text(self, text: str, origin: str) -> None:
        # The user's own rule is kept in every language `directives` reads: its words are
        # the user's, not the writer's judgement (`is_claimed`, docs/formats.md §10.2).
        for rule in withdrawn(text, self._directives):
            self._directives.remove(rule)
            self._origins.pop(("directive", rule), None)
        self._keep(self._directives, directives_in(text), "directive", origin)

    def _call(self, call: TranscriptToolCall, origin: str) -> None:
        if is_question(call):
            return  # the user's answers were the structural notes least often right
        if call.command:
            self._managers.ran(call.command)
        self._managers.saw(_call_texts(call))
        if is_agent_report(call):
            found = facts_in_text(call.output or "", concluded=True)
            self._keep_facts(found, origin, told_the_user=False, report=True)
            return
        ran = command_a_bash_agent_ran(call)
        if ran is not None:  # a `Bash` sub-agent's report: the run's only trace here
            for part in chained_commands(as_run_here(ran, self._project_dir, self._worktrees)):
                self._note_working(part, origin)
        saved = memories_saved(call)  # the agent's own: surer than any fact read in prose
        for memory in saved:  # a `feedback` one is the user's guidance, distilled
            kept = self._directives if memory.kind == "directive" else self._facts
            self._keep(kept, [memory.text], memory.kind, origin)
            if memory.kind == "finding":
                self._fact_weights[memory.text] = SAVED_MEMORY_WEIGHT
        if saved:
            return
        if _NEVER_RAN.match(call.output or ""):
            return  # it did nothing: neither a failure nor a success
        finished = self._session_end(call, origin)
        if finished is None:
            return
        call, origin = finished
        step = read_step(call, origin, self._project_dir, self._worktrees)
        if step.succeeded and step.command is not None:
            worktree = worktree_added(step.command, self._project_dir)
            if worktree is not None and len(self._worktrees) < MAX_KEPT_FILES:
                self._worktrees.append(worktree)
        self._throwaway |= step.deleted
        if len(self._throwaway) > MAX_KEPT_FILES:
            self._throwaway = set(list(self._throwaway)[-MAX_KEPT_FILES:])
        self._note_command(step)
        if step.failed and step.command is not None:
            self._forget_failed(step.command, step.family)
        stage = git_hook_stage(step.command)
        if step.elsewhere:
            stage = None  # a commit in another repository: its hooks are not the project's
        if step.succeeded and stage is not None and stage not in self._hooks:
            self._note_hooks(stage, hooks_note(stage, hooks_that_passed(call.output or "")), origin)
        self._recent.append(step)
        if len(self._recent) > MAX_CALLS_TO_SOLVE:
            oldest = self._recent.popleft()
            judged = self._judge(oldest, list(self._recent))
            if judged is not None and len(self._solved_problems) < MAX_KEPT:
                self._solved_problems.append(judged)

    def _session_end(
        self, call: TranscriptToolCall, origin: str
    ) -> tuple[TranscriptToolCall, str] | None:
        """A Codex command still running when its call returned is judged when a poll of its session
        says how it ended (`write_stdin`: "Process exited with code 1"): the command with the poll's
        output and exit code, in the message it was run from."""
        task = background_task(call)
        if task is not None and len(self._background) < MAX_KEPT:
            self._background[task] = (call.replaced(output=None), origin)  # output not kept
        polled = ended_task(call)
        if polled is not None:
            return self._background_end(*polled)
        session = running_session(call)
        if session is not None:
            if session in self._running or len(self._running) < MAX_KEPT:
                # its output is not kept: the poll that ends it brings the end of it
                self._running[session] = (call.replaced(output=None), origin)
            return None
        session = polled_session(call)
        if session is None:
            return call, origin
        started = self._running.get(session)
        if started is None or call.exit_code is None:
            return None
        del self._running[session]
        ended = started[0].replaced(
            output=call.output, exit_code=call.exit_code, is_error=call.is_error
        )
        return ended, started[1]

    def _background_end(
        self, task: str, exit_code: int, output: str
    ) -> tuple[TranscriptToolCall, str] | None:
        """A background command a `TaskOutput` poll says ended (`transcripts.ended_task`): the
        command with that exit code and output, in the message it was run from; the note it kept
        when it started is taken back when it failed."""
        started = self._background.pop(task, None)
        if started is None:
            return None
        call, origin = started
        if exit_code != 0:
            self._forget_command(call.command or "", origin)
        return call.replaced(output=output, exit_code=exit_code, is_error=exit_code != 0), origin

    def _note_command(self, step: Step) -> None:
        command = step.command
        if command is None or not step.succeeded:
            return
        if not status_is_known(command):
            command = step.passed_as
            if command is None:
                return
        for part in chained_commands(command):
            self._forget_undone(part)
            self._note_working(part, step.origin)

    def _forget_undone(self, command: str) -> None:
        """Take back the notes of a command that added a package this one removes (`composer
        require --dev x`, then `composer remove --dev x`) or whose manager's files it restores
        (`go get x`, then `git checkout -- go.mod go.sum`): what the session undid is no way to
        work, nor a fix."""
        changed = packages_changed(command)
        manager, added, removed = changed if changed is not None else ("", frozenset(), frozenset())
        restored = files_restored(command)
        undone = {(manager, package) for package in removed} | {
            (by, package) for by, package in self._added if restores_manifest_of(restored, by)
        }
        self._added = (self._added - undone) | {(manager, package) for package in added}
        self._undone = (self._undone | undone) - self._added
        for family, (kept, _files) in list(self._commands.items()):
            if self._adds_undone(kept.command):
                del self._commands[family]
                self._origins.pop(("command", kept.command), None)

    def _adds_undone(self, command: str) -> bool:
        """Whether `command` adds a package the session then undid."""
        changed = packages_changed(command)
        return changed is not None and any((changed[0], p) in self._undone for p in changed[1])

    def _forget_command(self, command: str, origin: str) -> None:
        """Take back the note a command kept when it started in the background (in message
        `origin`): it ended failing (`mix test` sent to the background, then `exit_code` 2).
        A note an earlier run of it kept stays."""
        command = as_run_here(command, self._project_dir, self._worktrees)
        for part in chained_commands(command):
            family = command_family(without_passthrough(part))
            known = self._commands.get(family)
            if known is None or known[0].command != display_command(without_passthrough(part)):
                continue
            if self._origins.get(("command", known[0].command)) == (origin,):
                del self._commands[family]
                del self._origins[("command", known[0].command)]

    def _forget_failed(self, command: str, family: str) -> None:
        """Take back the note of a command that worked before and has now failed (`npm run
        build` passed, then failed): a command kept as working worked after its last failure."""
        known = self._commands.get(family)
        if known is None:
            return
        for part in chained_commands(command):
            same = known[0].command == display_command(part)  # as run: its own arguments too
            if same and command_family(without_passthrough(part)) == family:
                del self._commands[family]
                self._origins.pop(("command", known[0].command), None)
                return

    def _note_working(self, command: str, origin: str) -> None:
        """Keep a command that worked, when it is worth a note (its family's shortest)."""
        command = without_passthrough(command)
        shown = display_command(command)
        if shown is None or is_one_off(command) or is_narrowed(command):
            return
        if mentioned_files(command) & self._throwaway:
            return
        family = command_family(command)
        if not is_worth_keeping(command) and tool_program(command) is None:
            return
        program = tool_program(command)
        if program is not None:
            self._tools.note(program, family, shown, origin)
            return
        known = self._commands.get(family)
        if known is None and len(self._commands) >= MAX_KEPT:
            return
        if known is None or len(shown) < len(known[0].command):
            if known is not None:
                self._origins.pop(("command", known[0].command), None)
            self._commands[family] = (
                WorkingCommand(shown, command_kind(command)),
                frozenset(mentioned_files(command)),
            )
            self._origins[("command", shown)] = (origin,)

    def _note_hooks(self, key: str, note: str | None, origin: str) -> None:
        """Keep a note on the project's hooks (`outcomes.hooks_note`,
        `solved_problems.broken_hook_note`), the first of its key."""
        if note is not None and key not in self._hooks:
            self._hooks[key] = note
            self._origins[("finding", note)] = (origin,)

    def _judge(
        self, step: Step, later: Sequence[Step]
    ) -> tuple[SolvedProblem, frozenset[str]] | None:
        """The solved problem of a failed step, from the steps after it; None when it teaches
        nothing."""
        if not step.failed or not can_teach(step, self._throwaway):
            return None
        signature = step.signature
        if not signature or _MISSING_PATH.search(signature):
            return None  # nothing to say about it, or a guess at a path that is not there
        key = (step.family, signature.lower())
        if key in self._solved_keys:
            return None
        found = find_solution(step, signature, later, self._throwaway)
        if found is None:
            stage = git_hook_stage(step.command)
            self._note_hooks(
                f"broken {stage}", broken_hook_note(step, signature, later), step.origin
            )
            return None
        solved, worked = found
        self._solved_keys.add(key)
        self._origins[("fix", solved.key)] = _origin_ids([step.origin, worked.origin])
        assert step.command is not None
        return solved, frozenset(mentioned_files(step.command))


def _add_unique(kept: list[str], found: Iterable[str], limit: int) -> list[str]:
    """Append the items not kept yet, up to `limit` in all; the ones appended."""
    added: list[str] = []
    for item in found:
        if len(kept) >= limit:
            break
        if item not in kept:
            kept.append(item)
            added.append(item)
    return added


def _origin_ids(ids: Iterable[str]) -> tuple[str, ...]:
    """Message ids once each, in order, at most `MAX_ORIGINS`."""
    return tuple(dict.fromkeys(ids))[:MAX_ORIGINS]


def _call_texts(call: TranscriptToolCall) -> list[str]:
    """A call's string arguments (a path it read) and its output: where a project's files show."""
    arguments = call.input.values() if isinstance(call.input, dict) else [call.input]
    return [text for text in (*arguments, call.output) if isinstance(text, str)]


def _commands_named(solved: SolvedProblem) -> list[str]:
    """The commands a fix note names as what worked: its steps' and the one that then worked."""
    steps = [step.strip("`") for step in solved.solving_steps if step.startswith("`")]
    return [*steps, *([solved.worked_with] if solved.worked_with else [])]
