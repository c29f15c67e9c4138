"""Command lines in a memory's code: which are commands, and what each one runs.

Only well-formed command lines count: a code span or a line of a shell block that a POSIX
shell would split without error, whose first word is a program name. Inline code is a
command when its program is a well-known developer tool (`known_programs.py`) or one's
companion named after it (`dotnet-trace collect`, `cargo-nextest run`), when it
gives its program an option and an operand (`picocom -b 115200 /dev/ttyACM0`, `atlas
schema inspect --url "$DATABASE_URL"`: a variable's expansion, an option's own value
`-reports:cov.xml` too), or when an operand is a path as only a path is written (`maestro
test flows/`, `lint ./src`, `x run ci/app.yml`, `tfsec .`): a span like `about get` or
`reset --hard` is a sub-command quoted in prose, not a program. A
line of a block marked as shell (```bash, ```sh…) is a command whatever its program; a
`$ ` prompt marks one in any block. Chains (`&&`, `||`, `;`, `|`) are split; `cd DIR &&`
sets the directory of what follows; `sudo`, `env`, `time`, assignments (`FOO=1 make`)
are looked through.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from memtab.check.known_programs import CODE_PROGRAMS, KNOWN_PROGRAMS, SHELL_BUILTINS
from memtab.check.markdown import Line

SHELL_BLOCKS = frozenset(
    {"sh", "bash", "shell", "zsh", "ksh", "fish", "console", "shell-session", "terminal", "cmd"}
)
# Blocks whose lines are a session: commands after a prompt, output otherwise.
SESSION_BLOCKS = frozenset({"console", "shell-session", "terminal"})
# A shell's prompt: `$ `, `% `, `❯ `, after a virtualenv's `(venv)` and the `user@host:dir`,
# `user@host dir` or `[user@host dir]` bash and zsh write before it.
_PROMPT = re.compile(
    r"^\s*+(?:\(\S++\)\s*+)?"
    r"(?:(?:\[[^\]\n]{1,200}+\]|[\w.-]{1,64}+@[\w.-]{1,64}+(?::[^\s$%]{0,200}+)?"
    r"(?:\s[^\s$%]{1,200}+)?)\s*+)?[$%❯›]\s+"
)
# PowerShell's prompt (`PS C:\src\app> `) and blocks: its cmdlets and aliases are no
# programs on PATH, so only well-known tools' commands are read there.
_POWERSHELL_PROMPT = re.compile(r"^\s*+PS [^>\n]{1,200}+>\s+")
POWERSHELL_BLOCKS = frozenset({"powershell", "pwsh", "ps1", "posh"})
_PROGRAM = re.compile(r"^[A-Za-z0-9][\w.+-]*$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "|&", ";;"})
_WRAPPERS = frozenset({"sudo", "doas", "env", "time", "nohup", "nice", "command", "exec"})
_MAX_COMMAND_CHARS = 500
# A line without quotes, escapes, substitutions or groups is split by these alone.
_NEEDS_SHELL_RULES = re.compile(r"['\"\\`$(){}]|^#")
_PLAIN_TOKEN = re.compile(r"&&|\|\||;;|\|&|\d*[<>]+&?|&>+|[;|&]|[^\s;|&<>]+")
_REDIRECTION = re.compile(r"^(?:\d*[<>]|&>)")


@dataclass(frozen=True)
class Command:
    """One simple command of a chain: its words (the program first), the directory a
    `cd` before it in the chain moved to (None: where the chain started)."""

    words: tuple[str, ...]
    directory: str | None

    @property
    def program(self) -> str:
        return self.words[0]

    @property
    def arguments(self) -> tuple[str, ...]:
        return self.words[1:]


def commands_of(line: Line) -> Iterator[Command]:
    """The commands a line's code holds (see the module doc)."""
    if line.block is not None:
        text = line.text
        prompted = _PROMPT.match(text)
        if prompted is not None:
            yield from _chain(text[prompted.end() :])
        elif (powershell := _POWERSHELL_PROMPT.match(text)) is not None:
            yield from _known(text[powershell.end() :])
        elif line.block in POWERSHELL_BLOCKS:
            yield from _known(text)
        elif line.block in SHELL_BLOCKS and line.block not in SESSION_BLOCKS:
            yield from _chain(text)
        return
    for span in line.spans:
        prompted = _PROMPT.match(span)
        if prompted is not None:
            yield from _chain(span[prompted.end() :])
        elif (powershell := _POWERSHELL_PROMPT.match(span)) is not None:
            yield from _known(span[powershell.end() :])
        elif _may_be_a_command(span):  # a well-known tool's command, not a quoted name
            yield from _known(span)
        elif _OPTION.search(span) or (("/" in span or " ." in span) and " " in span.strip()):
            yield from _with_options(span)


# Commands that make what they are given, so it need not be there before them: each operand
# of the first, the last operand of the second (a copy's, move's or link's destination), git's
# new repository or worktree, and the file a redirection writes.
_MAKE_EACH = frozenset({"mkdir", "touch", "tee", "truncate"})
_MAKE_LAST = frozenset({"cp", "mv", "ln", "rsync", "install", "scp"})
_GIT_MAKES = frozenset({"init", "clone", "worktree"})
_REDIRECTED_TO = re.compile(r"(?<![<&\d])\d?>>?\|?\s*([^\s;&|<>()'\"`]+)")


def made_paths(line: Line) -> frozenset[str]:
    """The paths the line's own commands make (`mkdir -p build/out`, `touch .env`, `cp a b`'s
    `b`, `> out.log`), as written without `./` or a trailing `/`: named to be made, not as
    they are."""
    made: set[str] = set()
    for piece in [line.text] if line.block is not None else line.spans:
        prompted = _PROMPT.match(piece)
        text = piece[prompted.end() :] if prompted is not None else piece
        made.update(found.group(1) for found in _REDIRECTED_TO.finditer(text))
        for command in _chain(text):
            operands = [word for word in command.arguments if not word.startswith("-")]
            if command.program in _MAKE_EACH:
                made.update(operands)
            elif operands[1:] and (
                command.program in _MAKE_LAST
                or (command.program == "git" and operands[0] in _GIT_MAKES)
            ):
                made.add(operands[-1])
    return frozenset(path.removeprefix("./").rstrip("/") for path in made)


def _known(text: str) -> Iterator[Command]:
    """The commands of `text` that run a well-known tool with an argument."""
    yield from (c for c in _chain(text) if _well_known(c.program) and len(c.words) > 1)


def _well_known(program: str) -> bool:
    """A well-known tool, or a companion named after one (`dotnet-ef`, `git-lfs`)."""
    companion_of = program.partition("-")[0] if _PROGRAM_NAME.match(program) else ""
    return program in CODE_PROGRAMS or companion_of in KNOWN_PROGRAMS


# An option word (`-b`, `--force`, `--out=x`, .NET's `-reports:x`): what a command line
# gives, and prose does not.
_OPTION = re.compile(r"(?<!\S)--?[A-Za-z][\w-]*+(?:[=:]\S*+)?(?!\S)")
# An operand a program is given: a number, a path, a file name, a variable's expansion
# (`115200`, `/dev/ttyACM0`, `k.pem`, `cov.cobertura.xml`, `$DATABASE_URL`). A sub-command
# quoted with its flag (git's `reset --hard`) gives none.
_OPERAND = re.compile(
    r"^(?:\d[\d.:]*|[\w.~-]*/[\w./~-]*|[\w-]++(?:\.[\w-]++)*\.[A-Za-z]\w*+|\$\{?[A-Za-z_]\w*\}?\S*)$"
)
# A path only a path is written as, an operand alone proving a command line: a folder
# (`flows/`), one from here, home or the root (`./src`, `~/x`, `/dev/x`), a file in a folder
# (`app/main.go`); never a pair of words (`and/or`, `client/server`) nor a name with a dot
# (`import os.path`, `use Node.js`).
_PATH_OPERAND = re.compile(
    r"^(?:\.{0,2}/|~/)[\w./~-]*$|^[\w.-]+(?:/[\w.-]+)*/$|^(?:[\w.-]+/)+[\w-]+\.[A-Za-z]\w{0,7}$"
    r"|^\.\.?$"
)
# A program as a command line names it: lowercase, no file extension (`x.py` is a path).
_PROGRAM_NAME = re.compile(r"^[a-z][a-z0-9_+-]*+$")


def _with_options(text: str) -> Iterator[Command]:
    """The commands of `text` that give a program named as one an option and an operand,
    or a path written as only a path is."""
    for command in _chain(text):
        if _PROGRAM_NAME.match(command.program) and (
            (
                any(_OPTION.fullmatch(word) for word in command.arguments)
                and any(_OPERAND.match(word) for word in _operands(command.arguments))
            )
            or any(_PATH_OPERAND.match(word) for word in command.arguments)
        ):
            yield command


def _operands(arguments: tuple[str, ...]) -> Iterator[str]:
    """Each argument, and the value an option holds (`-reports:cov.xml`'s `cov.xml`)."""
    for word in arguments:
        yield word
        if word.startswith("-"):
            cut = min((at for at in (word.find("="), word.find(":")) if at > 0), default=0)
            if cut:
                yield word[cut + 1 :]


def _may_be_a_command(span: str) -> bool:
    """Whether inline code may name a well-known tool (cheap, before the shell split)."""
    words = span.split()
    return len(words) > 1 and (not CODE_PROGRAMS.isdisjoint(words) or _well_known(words[0]))


def _chain(text: str) -> Iterator[Command]:
    text = text.strip()
    if not text or text.startswith("#") or len(text) > _MAX_COMMAND_CHARS:
        return
    if text.endswith("\\"):  # a continued line: the rest is on the next one
        text = text[:-1]
    if _NEEDS_SHELL_RULES.search(text) is None:  # no quotes: split as the shell would
        tokens = _PLAIN_TOKEN.findall(text.split(" #", 1)[0])
    else:
        try:
            lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            tokens = list(lexer)
        except ValueError:  # unbalanced quotes: not a command line
            return
    directory: str | None = None
    for words in _split(tokens):
        command = _simple(words)
        if command is None:
            return  # a subshell, a redirection-only part: not a plain command line
        if command[0] == "cd":
            directory = command[1] if len(command) == 2 else None
            if directory is None:
                return
            continue
        if command[0] in SHELL_BUILTINS:
            continue
        if not _PROGRAM.match(command[0]):
            if "/" in command[0]:  # ./scripts/x.sh: a path, checked as one
                continue
            return
        yield Command(tuple(command), directory)


def _split(tokens: list[str]) -> Iterator[list[str]]:
    words: list[str] = []
    for token in tokens:
        if token in _SEPARATORS:
            if words:
                yield words
            words = []
        else:
            words.append(token)
    if words:
        yield words


def _simple(words: list[str]) -> list[str] | None:
    """The words from the program on: assignments and wrappers dropped, redirections
    cut. None when this is not a simple command (a subshell, a function)."""
    index = 0
    while index < len(words):
        word = words[index]
        if _ASSIGNMENT.match(word):
            index += 1
        elif word in _WRAPPERS:
            index += 1
            while index < len(words) and words[index].startswith("-"):
                index += 2 if words[index] in ("-u", "-g", "-n") else 1
        else:
            break
    rest = words[index:]
    if not rest or any(w in ("(", ")", "{", "}") for w in rest[:1]):
        return None
    cut = next((i for i, w in enumerate(rest) if _REDIRECTION.match(w) or w in "()"), len(rest))
    return rest[:cut] or None
