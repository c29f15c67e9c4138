"""What the offline writer finds in a transcript: directives, working commands, failures.

Input is the event JSON a writer run sends to its model (`TranscriptEvent.to_json()`,
already redacted), so the offline writer sees exactly what a model would. Three kinds of
findings, all conservative — a memory file full of noise is worse than a short one:

- Directives: sentences of the human's own messages (not sub-agents', not injected
  context) that state a standing rule: "remember …", "always …", "never …", "prefer …",
  "from now on …". Questions and pasted blocks are skipped; `<private>` text never counts.
- Commands that work: shell commands that succeeded and build, test, lint, type-check,
  format or install the project (`make check`, `pytest -q`, `bun run docs:build`, …).
  Exploration (`ls`, `cat`, `git status`) and masked commands (`… || true`) never count.
- Failures: a failed command (or a failed tool call such as a refused file write) with
  its error signature — the exception or first error line, never raw output — and, when
  the same command (or tool on the same target) later succeeded, what ran in between.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memtab.transcripts import ToolCall as TranscriptToolCall

MAX_COMMAND_CHARS = 120
MAX_SIGNATURE_CHARS = 160
MAX_DIRECTIVE_CHARS = 300
MIN_DIRECTIVE_CHARS = 12
MAX_FIX_STEPS = 3

# --- directives -----------------------------------------------------------------------

_PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.DOTALL | re.IGNORECASE)
_HARNESS_TAGS = re.compile(
    r"<(command-[a-z-]+|local-command-[a-z-]+|system-reminder|user-prompt-submit-hook)>"
    r".*?(?:</\1>|\Z)",
    re.DOTALL,
)
_FENCED_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]\s*")
_LIST_MARKER = re.compile(r"^(?:[-*+•]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LEADING_FILLER = re.compile(
    r"^(?:(?:please|also|and|but|so|ok|okay|oh|note|btw)\b[,:]?\s+)+", re.IGNORECASE
)
_DIRECTIVE_START = re.compile(
    r"^(?:remember\b|always\b|never\b|prefer\b|from now on\b|going forward\b"
    r"|in (?:the )?future\b|do not ever\b|don'?t ever\b)",
    re.IGNORECASE,
)
_DIRECTIVE_ANYWHERE = re.compile(
    r"\b(?:from now on|going forward|remember (?:that|to)|(?:you|we) (?:should|must) "
    r"(?:always|never)|(?:i|we) (?:always |really |strongly )?prefer)\b",
    re.IGNORECASE,
)
_REWRITE_PREFIXES = re.compile(
    r"^(?:remember(?: that)?|from now on|going forward|in (?:the )?future)\b[,:]?\s*",
    re.IGNORECASE,
)

# --- commands -------------------------------------------------------------------------

_SHELL_TOOL_NAME = re.compile(r"bash|shell|exec|terminal|command", re.IGNORECASE)
_MASKED = re.compile(r"\|\|\s*(?:true|:)\s*$|;\s*(?:true|exit 0)\s*$")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
_FILTER_PIPE = re.compile(r"\|\s*(?:head|tail|grep|less|more|tee|wc|sort|uniq|cut|awk|sed)\b")
_SEPARATORS = frozenset(("&&", "||", ";", "&", ";;"))
_REDIRECT = re.compile(r"^[<>]+&?$|^&>+$")
_TRAILING_NOISE = re.compile(r"\s*(?:2>&1|>\s*/dev/null)\s*$")


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_EXPLORATORY = _word_set(
    "ls cat head tail less more grep rg ag find fd echo printf pwd cd which whereis type wc "
    "tree stat file env printenv ps jq awk sort uniq diff du df date whoami uname true sleep "
    "gh curl wget open xdg-open man help history clear nl od xxd hexdump realpath dirname "
    "basename readlink id hostname uptime top htop lsof netstat ss ping test ["
)
_GIT_READ_ONLY = _word_set(
    "status log diff show branch rev-parse remote blame ls-files grep describe shortlog "
    "reflog fetch config"
)
_PROJECT_TOOLS = _word_set(
    "make just task ninja cmake meson bazel bazelisk gradle gradlew mvn mvnw ant sbt "
    "pytest tox nox ruff mypy pyright black isort flake8 pylint coverage pre-commit "
    "npm pnpm yarn bun deno npx bunx tsc eslint prettier jest vitest playwright biome "
    "cargo go dotnet swift mix rspec rake bundle phpunit composer gleam zig uv poetry "
    "pipenv pip pip3 hatch pdm docker docker-compose podman nextest"
)
# For tools that do many things, the subcommands that build/test/lint/install.
_PROJECT_SUBCOMMANDS: dict[str, frozenset[str]] = {
    name: _word_set(subcommands)
    for name, subcommands in {
        "npm": "run test build install ci lint exec x t",
        "pnpm": "run test build install i lint exec dlx t",
        "yarn": "run test build install lint exec dlx",
        "bun": "run test build install i x",
        "deno": "task test lint fmt check compile",
        "cargo": "build test check clippy fmt nextest bench b t c",
        "go": "build test vet generate mod",
        "dotnet": "build test restore format",
        "swift": "build test",
        "mix": "test compile deps.get format",
        "uv": "run sync pip build lock",
        "poetry": "run install build lock",
        "pipenv": "run install sync",
        "pip": "install",
        "pip3": "install",
        "hatch": "run build test fmt",
        "pdm": "run install sync build",
        "docker": "compose build",
        "podman": "compose build",
        "bundle": "exec install",
        "composer": "install test",
        "gleam": "build test",
        "zig": "build test",
    }.items()
}
# Runners whose next word names the real tool, for families (`bun x jest`, `npm run lint`).
_RUNNERS = _word_set("run x exec dlx compose -m")
_SCRIPT_WORDS = re.compile(r"test|build|lint|check|ci|setup|bootstrap|install|format|fmt", re.I)

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("install", re.compile(r"\b(?:install|i|ci|sync|restore|bootstrap|setup|deps\.get)\b")),
    ("tests", re.compile(r"test|pytest|jest|vitest|rspec|phpunit|spec\b|nextest|playwright")),
    ("lint", re.compile(r"lint|ruff check|eslint|clippy|flake8|pylint|biome|\bvet\b")),
    ("type check", re.compile(r"mypy|\btsc\b|pyright|typecheck|type-check")),
    ("format", re.compile(r"\bfmt\b|format|prettier|\bblack\b|isort")),
    ("build", re.compile(r"build|compile|bundle|package")),
)

# --- failures -------------------------------------------------------------------------

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
# pytest's `E   ` assertion prefix and a quoting `> `.
# pytest's `E   ` assertion prefix, or a quoting `> `.
_SIGNATURE_PREFIX = re.compile(r"^(?:E\s{2,}|>\s+)")
# Failures that are the agent fumbling its own editing tools, not lessons about the project.
_AGENT_MECHANICS = re.compile(
    r"has not been read yet|string to replace not found|no changes to make|found \d+ matches"
    r"|doesn't want to proceed|user rejected|interrupted by user|inputvalidationerror"
    r"|unknown tool",
    re.IGNORECASE,
)
_EDIT_TOOL_NAME = re.compile(r"edit|write|patch|str_replace|create_file|insert", re.IGNORECASE)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.MULTILINE)
_TARGET_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file", "pattern", "url")


@dataclass(frozen=True)
class Failure:
    """A failed action, its error signature, and what made it work (if anything did)."""

    action: str
    signature: str
    resolved: bool = False
    fix_steps: tuple[str, ...] = ()
    """Rendered steps between the failure and the success: "`make db-up`", "editing `x.py`"."""
    worked_with: str | None = None
    """The successful action, when it differs from `action`."""
    family: str = ""
    """For a command: its program and subcommand (`pytest tests`), shared by its retries."""


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
    failures: list[Failure] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.directives or self.commands or self.failures)


@dataclass(frozen=True)
class _Step:
    """One tool call, classified."""

    action: str  # what to show: the command, or "<Tool> <target>"
    family: str  # calls in one family are retries of each other
    shell: bool
    succeeded: bool
    failed: bool
    masked: bool
    signature: str
    call: TranscriptToolCall


# --- entry point ----------------------------------------------------------------------


def extract_findings(items: Sequence[Mapping[str, Any]]) -> Findings:
    """Findings from the writer's event JSON items (oldest first)."""
    findings = Findings()
    steps: list[_Step] = []
    for item in items:
        if item.get("sidechain") is True:
            continue
        role = item.get("role")
        if role == "user" and isinstance(item.get("text"), str):
            for directive in directives_in(item["text"]):
                if directive not in findings.directives:
                    findings.directives.append(directive)
        elif role == "assistant":
            steps.extend(step for call in _calls(item) if (step := _step(call)) is not None)
    findings.commands = _working_commands(steps)
    findings.failures = _failures(steps)
    return findings


# --- directives -----------------------------------------------------------------------


def directives_in(text: str) -> list[str]:
    """The standing rules a human message states, rewritten as short imperative bullets."""
    text = _FENCED_CODE.sub(" ", _HARNESS_TAGS.sub(" ", _PRIVATE.sub(" ", text)))
    text = _INTERRUPTED.sub("", text.strip())
    found: list[str] = []
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if not line or line.startswith((">", "$", "#", "|")) or raw_line.startswith("    "):
            continue
        line = _LIST_MARKER.sub("", line)
        for sentence in _SENTENCE_END.split(line):
            directive = _directive(sentence.strip())
            if directive and directive not in found:
                found.append(directive)
    return found


def _directive(sentence: str) -> str | None:
    if not MIN_DIRECTIVE_CHARS <= len(sentence) <= MAX_DIRECTIVE_CHARS:
        return None
    if sentence.endswith("?"):
        return None
    core = _LEADING_FILLER.sub("", sentence)
    if not (_DIRECTIVE_START.match(core) or _DIRECTIVE_ANYWHERE.search(core)):
        return None
    rewritten = _REWRITE_PREFIXES.sub("", core).strip() or core
    if len(rewritten) < MIN_DIRECTIVE_CHARS // 2:
        return None
    rewritten = rewritten[0].upper() + rewritten[1:]
    if rewritten[-1] not in ".!":
        rewritten += "."
    return " ".join(rewritten.split())


# --- tool calls -----------------------------------------------------------------------


def _calls(item: Mapping[str, Any]) -> list[TranscriptToolCall]:
    calls: list[TranscriptToolCall] = []
    for raw in item.get("toolCalls") or ():
        if not isinstance(raw, dict):
            continue
        tool_input = raw.get("input")
        output = raw.get("output")
        exit_code = raw.get("exitCode")
        calls.append(
            TranscriptToolCall(
                id=str(raw.get("toolCallId") or ""),
                name=str(raw.get("toolName") or ""),
                input=tool_input if isinstance(tool_input, dict | str) else {},
                output=output if isinstance(output, str) else None,
                is_error=raw.get("isError") is True,
                error=error if isinstance(error := raw.get("error"), str) else "",
                exit_code=exit_code if isinstance(exit_code, int) else None,
            )
        )
    return calls


def _step(call: TranscriptToolCall) -> _Step | None:
    if "memory" in call.name.lower():
        return None  # the agent's own memory tool: not a lesson about the project
    failed = call.is_error or (call.exit_code is not None and call.exit_code != 0)
    succeeded = call.has_output and not failed
    command = call.command if _SHELL_TOOL_NAME.search(call.name) else None
    if command is not None:
        command = command.strip()
        if not command:
            return None
        return _Step(
            action=display_command(command),
            family=command_family(command),
            shell=True,
            succeeded=succeeded,
            failed=failed,
            masked=bool(_MASKED.search(command)),
            signature=error_signature(_failure_text(call)) if failed else "",
            call=call,
        )
    target = _target(call)
    action = f"{call.name} {target}" if target else call.name
    return _Step(
        action=_elide(action, MAX_COMMAND_CHARS),
        family=f"tool:{call.name}:{target}",
        shell=False,
        succeeded=succeeded,
        failed=failed,
        masked=False,
        signature=error_signature(_failure_text(call)) if failed else "",
        call=call,
    )


def _failure_text(call: TranscriptToolCall) -> str:
    parts = [call.output or "", call.error if call.error != call.output else ""]
    return "\n".join(part for part in parts if part)


def _target(call: TranscriptToolCall) -> str:
    """The file (or pattern, URL) a non-shell call works on: its path argument, or the
    first file a patch (`*** Update File: x`) touches."""
    if isinstance(call.input, str):
        patched = _PATCH_FILE.search(call.input)
        return patched.group(1).strip() if patched else ""
    for key in _TARGET_KEYS:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip() and "\n" not in value:
            return value.strip()
    return ""


def command_segments(command: str) -> list[list[str]]:
    """The simple commands of a shell line, as word lists: split at `&&`, `||`, `;`, `&`;
    of a pipeline only the first command; redirections, `VAR=value` prefixes and `cd`
    commands dropped. Only the first line counts (heredoc bodies are data)."""
    lexer = shlex.shlex(command.split("\n", 1)[0], posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes
        tokens = command.split("\n", 1)[0].split()
    segments: list[list[str]] = []
    current: list[str] = []
    in_pipe_tail = False
    skip_next = False
    for index, token in enumerate(tokens):
        if skip_next:
            skip_next = False
            continue
        if token in _SEPARATORS:
            segments.append(current)
            current, in_pipe_tail = [], False
            continue
        if token == "|":
            in_pipe_tail = True
            continue
        if _REDIRECT.match(token):
            skip_next = True  # its target: a file, or the fd of `2>&1`
            continue
        if in_pipe_tail:
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token.isdigit() and _REDIRECT.match(following):
            continue  # the fd of `2>&1`
        if not current and _ENV_ASSIGNMENT.match(token):
            continue
        current.append(token)
    segments.append(current)
    return [words for words in segments if words and words[0] != "cd"]


def _main_words(command: str) -> list[str]:
    """The words of the command that matters: the last one that is not exploration
    (`make db-up && pytest -q; echo done` → pytest)."""
    segments = command_segments(command)
    for words in reversed(segments):
        if not _segment_is_exploratory(words):
            return words
    return segments[-1] if segments else []


def display_command(command: str) -> str:
    """How a command is written into memory: its first line, without trailing output
    redirection noise, cut to a readable length."""
    first, _, rest = command.strip().partition("\n")
    text = _TRAILING_NOISE.sub("", first.strip())
    if rest.strip():
        text += " …"
    return _elide_middle(text, MAX_COMMAND_CHARS)


def command_family(command: str) -> str:
    """A key shared by retries of one command: program plus subcommand (plus the tool a
    runner runs), so `pytest tests -x` and `pytest tests -x -q` are one family."""
    words = _main_words(command)
    key: list[str] = []
    for word in words:
        if word.startswith("-") and word != "-m":
            continue
        key.append(_program_name(word) if not key else word)
        wanted = 3 if len(key) >= 2 and key[1] in _RUNNERS else 2
        if len(key) >= wanted:
            break
    return " ".join(key)


def _program_name(word: str) -> str:
    name = word.rsplit("/", 1)[-1]
    return name.removesuffix(".exe")


def _is_exploratory(command: str) -> bool:
    """Whether every part of a command only looks around (`ls`, `cat`, `git status`)."""
    return all(_segment_is_exploratory(words) for words in command_segments(command))


def _segment_is_exploratory(words: list[str]) -> bool:
    if not words:
        return True
    program = _program_name(words[0])
    if program == "git":
        sub = next((w for w in words[1:] if not w.startswith("-")), "")
        return sub in _GIT_READ_ONLY or sub == ""
    if program == "sed":
        return "-n" in words[1:3]
    return program in _EXPLORATORY


def is_project_command(command: str) -> bool:
    """Whether a command builds, tests, lints, type-checks, formats or installs the project."""
    words = _main_words(command)
    if not words:
        return False
    program = _program_name(words[0])
    if program in ("python", "python3", "py"):
        return len(words) > 2 and words[1] == "-m" and _program_name(words[2]) in _PROJECT_TOOLS
    if words[0].startswith("./") or ("/" in words[0] and words[0].endswith((".sh", ".py"))):
        return bool(_SCRIPT_WORDS.search(program))
    if program not in _PROJECT_TOOLS:
        return False
    allowed = _PROJECT_SUBCOMMANDS.get(program)
    if allowed is None:
        return True
    sub = next((w for w in words[1:] if not w.startswith("-")), "")
    return sub in allowed


def command_kind(command: str) -> str | None:
    """ "tests", "lint", "type check", "format", "build" or "install", when clear."""
    lowered = " ".join(_main_words(command)).lower()
    for kind, pattern in _KINDS:
        if pattern.search(lowered):
            return kind
    return None


def _shows_for_working(step: _Step) -> bool:
    command = step.call.command or ""
    return (
        step.shell
        and step.succeeded
        and not step.masked
        and "\n" not in command.strip()
        and not _FILTER_PIPE.search(command)
        and len(command) <= MAX_COMMAND_CHARS
        and is_project_command(command)
    )


def _working_commands(steps: Sequence[_Step]) -> list[WorkingCommand]:
    seen: set[str] = set()
    commands: list[WorkingCommand] = []
    for step in steps:
        if not _shows_for_working(step) or step.action in seen:
            continue
        seen.add(step.action)
        commands.append(WorkingCommand(step.action, command_kind(step.call.command or "")))
    return commands


# --- failures -------------------------------------------------------------------------


def _failures(steps: Sequence[_Step]) -> list[Failure]:
    failures: list[Failure] = []
    seen: set[tuple[str, str]] = set()
    for index, step in enumerate(steps):
        if not step.failed or step.masked:
            continue
        if not step.shell and _AGENT_MECHANICS.search(_failure_text(step.call)):
            continue
        if step.shell and _is_exploratory(step.call.command or ""):
            continue  # `ls missing`, `grep` finding nothing: not lessons
        signature = step.signature or _fallback_signature(step.call)
        key = (step.family, signature.lower())
        if key in seen:
            continue
        seen.add(key)
        failures.append(_resolve(step, signature, steps[index + 1 :]))
    return failures


def _fallback_signature(call: TranscriptToolCall) -> str:
    if call.exit_code is not None:
        return f"exit code {call.exit_code}"
    return "failed"


def _resolve(failed: _Step, signature: str, later: Sequence[_Step]) -> Failure:
    family = failed.family if failed.shell else ""
    between: list[_Step] = []
    for step in later:
        if step.family == failed.family and step.succeeded and not step.masked:
            worked = step.action if step.action != failed.action else None
            return Failure(failed.action, signature, True, _fix_steps(between), worked, family)
        between.append(step)
    return Failure(failed.action, signature, family=family)


def _fix_steps(between: Sequence[_Step]) -> tuple[str, ...]:
    rendered: list[str] = []
    for step in between:
        if not step.succeeded or step.masked:
            continue
        if step.shell:
            if _is_exploratory(step.call.command or ""):
                continue
            text = f"`{step.action}`"
        elif _EDIT_TOOL_NAME.search(step.call.name) and _target(step.call):
            text = f"editing `{_target(step.call)}`"
        else:
            continue
        if text not in rendered:
            rendered.append(text)
    return tuple(rendered[-MAX_FIX_STEPS:])


def error_signature(text: str) -> str:
    """The line that says what went wrong: an exception or `error:` line first, then a
    line with a failure word; generic "exit code" lines, code frames and stack lines are
    skipped. Cut to a readable length; "" when nothing fits."""
    best: tuple[int, str] | None = None
    previous_was_jest_header = False
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
    return _elide(line, MAX_SIGNATURE_CHARS)


def _elide_middle(text: str, limit: int) -> str:
    """Cut the middle out: the end of a long command (`… && ./check.sh`) is what failed."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    tail = limit - 1 - head
    return text[:head].rstrip() + "…" + text[-tail:].lstrip()


def _elide(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
