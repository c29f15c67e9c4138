"""Shell commands as the offline writer reads them: what they run, whether they build, test, lint,
type-check, format or install the project, and how to write them down."""

from __future__ import annotations

import re
import shlex

MAX_COMMAND_CHARS = 120

_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
SEPARATORS = frozenset(("&&", "||", ";", "&", ";;"))
_REDIRECT = re.compile(r"^[<>]+&?$|^&>+$")
# Looked for from where a run of blanks begins only (from each blank of a long run, the
# rest of the run was read again: quadratic).
_TRAILING_NOISE = re.compile(r"(?<!\s)\s*+(?:2>&1|>\s*+/dev/null)\s*+$")
MASKED = re.compile(r"\|\|\s*(?:true|:)\s*$|;\s*(?:true|exit 0)\s*$")
# A pipe into these hides the command's own exit status (and shows only part of it).
FILTER_PIPE = re.compile(r"\|\s*(?:head|tail|grep|less|more|tee|wc|sort|uniq|cut|awk|sed|jq)\b")
# Output cut to its end (the summary a test run or build ends with) — nothing else: the
# command's last pipes, each into `tail` or `tee` (`_tail_cut`).
_TAIL_SEGMENT = re.compile(r"\|\s*(?:tail|tee)\b[^|&;<>]*")
PIPE = re.compile(r"(?<!\|)\|(?!\|)")
# Code given inline or fed to an interpreter by a heredoc, or a script in a temp dir: a
# one-off, never a project command. (A heredoc that feeds `git commit -m` is just data.)
_INLINE_CODE = re.compile(
    r"(?:^|\s)(?:python3?|node|ruby|perl|php|bash|sh|zsh|bun|deno)\s+(?:-\w*[ce]\b|eval\b)"
    r"|\bmix run -e\b|(?:^|\s)(?:python3?|node|ruby|perl|php|bash|sh|zsh)\b"
    # what an interpreter is fed, up to where the next one is named (linear: no two read it)
    r"(?:(?!\s(?:python3?|node|ruby|perl|php|bash|sh|zsh)\b)[^|;&])*<<"
    r"|(?:^|\s)/(?:tmp|var/tmp)/\S+"
)


_SCRIPT_FILE = re.compile(r"^(?!/|~|\.\./)[\w./-]+\.(?:py|js|mjs|ts|sh|rb|php|pl|exs)$")
_TOOL_NAME = re.compile(r"^[a-z][a-z0-9_-]{1,30}$")
# A path in someone's home (also inside a `PATH=$PATH:/home/rob/go/bin` list, or `~/x`).
_HOME_PATH = re.compile(r"(?:^|[\s='\":])(?:~/|\$HOME/|/home/|/Users/|/root/|[A-Za-z]:\\Users\\)")
# A leading `NAME=value &&` (or `export NAME=value;`, or `NAME=value ` before the command):
# the shell set up before the command ran.
_LEADING_ASSIGNMENT = re.compile(
    r"""^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=(?P<value>"[^"]*"|'[^']*'|[^\s;&|]*)"""
    r"""\s*(?:&&|;)?\s*"""
)


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_INSTALLERS = word_set("npm pnpm yarn bun pip pip3 uv")


_EXPLORATORY = word_set(
    "ls cat head tail less more grep rg ag find fd echo printf pwd cd which whereis type wc "
    "tree stat file env printenv ps jq awk sort uniq diff du df date whoami uname true sleep "
    "gh curl wget open xdg-open man help history clear nl od xxd hexdump realpath dirname "
    "basename readlink id hostname uptime top htop lsof netstat ss ping test [ command"
)
_ASKS_ITS_VERSION = word_set("version --version -V -v help --help -h")
# A tool's subcommands that only show what is there.
_LISTS = word_set("list ls ps status inspect logs")
# Programs that change files or the shell, not the project's workflow: never a note.
_SYSTEM = word_set(
    "mkdir cp mv rm rmdir touch chmod chown ln kill pkill killall sleep export source set "
    "unset alias tmux screen ssh scp rsync tar zip unzip gzip gunzip xargs sudo time timeout "
    "nohup watch vim vi nano emacs code sed awk perl tee git gh unlink install brew apt "
    "apt-get dnf yum pacman systemctl service launchctl open xdg-open pbcopy pbpaste"
)
# Interpreters that run a script file: `python scripts/seed.py` runs the project's script.
_INTERPRETERS = word_set("python python3 node bash sh zsh ruby bun deno php perl")
# Coding agents' own CLIs: adding a tool or server to the agent is worth remembering.
_AGENT_CLIS = word_set("claude codex gemini mux xum cursor-agent opencode aider")
_AGENT_SETUP = word_set("mcp plugin plugins config add install")
_GIT_READ_ONLY = word_set(
    "status log diff show branch rev-parse remote blame ls-files grep describe shortlog "
    "reflog fetch config"
)
PROJECT_TOOLS = word_set(
    "make just task ninja cmake meson bazel bazelisk gradle gradlew mvn mvnw ant sbt "
    "pytest tox nox ruff mypy pyright black isort flake8 pylint coverage pre-commit "
    "npm pnpm yarn bun deno npx bunx tsc eslint prettier jest vitest playwright biome "
    "cargo go dotnet swift mix rspec rake bundle phpunit composer gleam zig uv poetry "
    "pipenv pip pip3 hatch pdm docker docker-compose podman nextest hugo xcodebuild"
)
# For tools that do many things, the subcommands that build/test/lint/install.
_PROJECT_SUBCOMMANDS: dict[str, frozenset[str]] = {
    name: word_set(subcommands)
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
        "mix": "test compile deps.get format credo dialyzer",
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
# Every program of a known kind: any other is a workflow tool or a wrapper.
_KNOWN_PROGRAMS = _SYSTEM | _INTERPRETERS | PROJECT_TOOLS | _AGENT_CLIS | _EXPLORATORY
# Runners whose next word names the real tool, for families (`bun x jest`, `npm run lint`).
_RUNNERS = word_set("run x exec dlx compose -m")
_SCRIPT_WORDS = re.compile(r"test|build|lint|check|ci|setup|bootstrap|install|format|fmt", re.I)

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("install", re.compile(r"\b(?:install|i|ci|sync|restore|bootstrap|setup|deps\.get)\b")),
    ("tests", re.compile(r"test|pytest|jest|vitest|rspec|phpunit|spec\b|nextest|playwright")),
    ("lint", re.compile(r"lint|ruff check|eslint|clippy|flake8|pylint|biome|\bvet\b|credo")),
    ("type check", re.compile(r"mypy|\btsc\b|pyright|typecheck|type-check|dialyzer")),
    ("format", re.compile(r"\bfmt\b|format|prettier|\bblack\b|isort")),
    ("build", re.compile(r"build|compile|bundle|package")),
)


def command_segments(command: str) -> list[list[str]]:
    """The simple commands of a shell line, as word lists: split at `&&`, `||`, `;`, `&`;
    of a pipeline only the first command; redirections, `VAR=value` prefixes and `cd`
    commands dropped. Only the first line counts (heredoc bodies are data)."""
    first_line = command.split("\n", 1)[0]
    tokens = _tokens(first_line)
    if tokens is None:  # unbalanced quotes
        tokens = first_line.split()
    segments: list[list[str]] = []
    current: list[str] = []
    in_pipe_tail = False
    skip_next = False
    for index, token in enumerate(tokens):
        if skip_next:
            skip_next = False
            continue
        if token in SEPARATORS:
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


def _tokens(line: str) -> list[str] | None:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return None


def _chain(tokens: list[str], splits: tuple[str, ...]) -> list[list[str]] | None:
    """A chain's parts; None when they depend on each other (`||`, `&`, a pipe or input)."""
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token in splits:
            parts.append([])
        elif token in SEPARATORS or token == "|" or token.startswith("<"):
            return None
        else:
            parts[-1].append(token)
    return parts


def without_machine_env(command: str) -> str:
    """A command without the leading environment it set up from someone's home
    (`PATH=$PATH:/usr/local/go/bin:/home/rob/go/bin && cd go && go build ./...` → `cd go && go build
    ./...`): that is one machine's shell, not how the project runs the command."""
    text = command
    while (match := _LEADING_ASSIGNMENT.match(text)) and _HOME_PATH.search(match["value"]):
        rest = text[match.end() :]
        if not rest.strip():
            return command  # nothing but the assignment
        text = rest
    return text


def main_words(command: str) -> list[str]:
    """The words of the command that matters: the last one that is not exploration
    (`make db-up && pytest -q; echo done` → pytest)."""
    segments = command_segments(command)
    found = (words for words in reversed(segments) if not _segment_is_exploratory(words))
    return next(found, segments[-1] if segments else [])


def display_command(command: str) -> str | None:
    """How a command is written into memory: its one line without trailing output redirection and
    without the looking around chained to it (`hugo --minify && echo done && cat public/sitemap.xml`
    → `hugo --minify`), or None when it spans lines or is too long to write whole."""
    text = command.strip()
    if "\n" in text:
        return None
    text = _without_exploration(_TRAILING_NOISE.sub("", text))
    return text if 0 < len(text) <= MAX_COMMAND_CHARS else None


def _without_exploration(text: str) -> str:
    """A `&&` / `;` chain without its exploratory parts (`cd` is kept: it says where the
    rest runs); the text unchanged when it has none, or is not such a chain."""
    tokens = _tokens(text)
    parts = _chain(tokens, ("&&", ";")) if tokens is not None else None
    if tokens is None or parts is None:
        return text
    kept = [
        words
        for words in parts
        if words and (words[0] == "cd" or not _segment_is_exploratory(_without_redirects(words)))
    ]
    tidy = len(kept) < len([words for words in parts if words]) or any(
        _REDIRECT.match(token) for token in tokens
    )
    if not kept or not tidy:
        return text
    return " && ".join(shlex.join(_without_redirects(words)) for words in kept)


def chained_commands(command: str) -> list[str]:
    """The commands of a plain `&&` chain, each alone and without output redirections (`mise run fmt
    && mise run lint` → both: the chain succeeding means each did); the command itself when it is
    one command, or its parts depend on each other (`cd`, `||`, `;`, a pipe, a heredoc)."""
    tokens = _tokens(command.split("\n", 1)[0])
    if tokens is None or "&&" not in tokens or "\n" in command:
        return [command]
    parts = _chain(tokens, ("&&",))
    if parts is None or any(
        not words or words[0] == "cd" or _ENV_ASSIGNMENT.match(words[0]) for words in parts
    ):
        return [command]
    return [shlex.join(_without_redirects(words)) for words in parts]


def _without_redirects(words: list[str]) -> list[str]:
    """Words of a simple command without output redirections (`2>&1`, `> out.txt`)."""
    kept: list[str] = []
    skip_next = False
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if skip_next:
            skip_next = False
        elif _REDIRECT.match(word):
            skip_next = True
        elif not (word.isdigit() and _REDIRECT.match(following)):
            kept.append(word)
    return kept


def command_label(command: str) -> str | None:
    """The command whole when it fits, else its family (`git commit`), else None."""
    return display_command(command) or command_family(command) or None


# A flag that makes a test run rewrite what it checks against (golden files, snapshots):
# another task than checking, written as a command of its own (`go test ./compiler/
# -update` beside `go test ./...`).
_UPDATE_FLAGS = word_set("-update --update -update-golden --update-golden --update-snapshots")


def command_family(command: str) -> str:
    """A key shared by retries of one command: program plus subcommand (plus the tool a
    runner runs), so `pytest tests -x` and `pytest tests -x -q` are one family; a run that
    updates golden files or snapshots is a family of its own (`go test -update`)."""
    words = main_words(command)
    key: list[str] = []
    for word in words:
        if word.startswith("-") and word != "-m":
            continue
        key.append(program_name(word) if not key else word)
        wanted = 3 if len(key) >= 2 and key[1] in _RUNNERS else 2
        if len(key) >= wanted:
            break
    updates = sorted(_UPDATE_FLAGS.intersection(words))
    return " ".join(key + updates[:1])


def program_name(word: str) -> str:
    return word.rsplit("/", 1)[-1].removesuffix(".exe")


def git_hook_stage(command: str | None) -> str | None:
    """ "commit" or "push" when a shell command makes a git commit or pushes (`git add x &&
    git commit -m …`, `git -C repo push`): the two steps a project's git hooks check."""
    if command is None:
        return None
    for words in command_segments(command):
        if words and program_name(words[0]) == "git":
            rest = [word for word in words[1:] if not word.startswith("-")]
            for stage in ("commit", "push"):
                if stage in rest[:2]:
                    return stage
    return None


def skips_hooks(command: str | None) -> bool:
    """Whether a commit or push skips the project's git hooks (`git commit --no-verify`,
    `git commit -n`, `git push --no-verify`)."""
    for words in command_segments(command or ""):
        if words and program_name(words[0]) == "git":
            stage = git_hook_stage(shlex.join(words))
            if "--no-verify" in words or (stage == "commit" and "-n" in words):
                return stage is not None
    return False


def is_exploratory(command: str) -> bool:
    """Whether every part of a command only looks around (`ls`, `cat`, `git status`)."""
    return all(_segment_is_exploratory(words) for words in command_segments(command))


def _segment_is_exploratory(words: list[str]) -> bool:
    if not words:
        return True
    program = program_name(words[0])
    if program == "git":
        sub = next((w for w in words[1:] if not w.startswith("-")), "")
        return sub in _GIT_READ_ONLY or sub == ""
    if program == "sed":
        return "-n" in words[1:3]
    if len(words) == 2 and words[1] in _ASKS_ITS_VERSION:
        return True  # `hugo version`, `node --version`: looks at the tool, runs nothing
    subcommands = [word for word in words[1:3] if not word.startswith("-")]
    if _LISTS & set(subcommands):
        return True  # `docker compose ps`, `dotnet user-secrets list`: shows what is there
    return program in _EXPLORATORY


def is_project_command(command: str) -> bool:
    """Whether a command builds, tests, lints, type-checks, formats or installs the project."""
    if is_one_off(command):
        return False
    words = main_words(command)
    if not words:
        return False
    program = program_name(words[0])
    if program in ("python", "python3", "py"):
        return len(words) > 2 and words[1] == "-m" and program_name(words[2]) in PROJECT_TOOLS
    if words[0].startswith("./") or ("/" in words[0] and words[0].endswith((".sh", ".py"))):
        return bool(_SCRIPT_WORDS.search(program))
    if program not in PROJECT_TOOLS:
        return False
    allowed = _PROJECT_SUBCOMMANDS.get(program)
    if allowed is None:
        return True
    sub = next((w for w in words[1:] if not w.startswith("-")), "")
    return sub in allowed


def is_worth_keeping(command: str) -> bool:
    """Whether a command that worked is worth a note: one that builds, tests, lints or installs the
    project, runs one of its tools' other tasks (`mix ecto.migrate`, `npm run dev`), runs a script
    of the project (`./scripts/seed.sh`, `python tools/probe.py`) or sets up the agent itself
    (`claude mcp add …`)."""
    if is_one_off(command) or is_exploratory(command):
        return False
    if is_project_command(command):
        return True
    words = main_words(command)
    if not words:
        return False
    program = program_name(words[0])
    rest = [word for word in words[1:] if not word.startswith("-")]
    if program in PROJECT_TOOLS:
        return bool(rest)
    if program in _AGENT_CLIS:
        return bool(rest) and rest[0] in _AGENT_SETUP
    return is_project_script(words)


def is_project_script(words: list[str]) -> bool:
    """Whether a simple command runs a script file of the project: `./x.sh`, `scripts/x`,
    or an interpreter given a relative script path."""
    first = words[0]
    if first.startswith("./") and not first.startswith("../"):
        return True
    if program_name(first) in _INTERPRETERS and len(words) > 1:
        # `bash -n x.sh` only checks the script, `python -m x` runs a module: not scripts.
        return bool(_SCRIPT_FILE.match(words[1]))
    return False


def tool_program(command: str) -> str | None:
    """The program of a command that runs a workflow tool not known to Memtab (`bd ready` → bd): not
    exploration, a system utility, git, an interpreter, a project tool or a script. Several of its
    subcommands working in one session make it part of the project's workflow."""
    if is_one_off(command) or is_exploratory(command):
        return None
    words = main_words(command)
    if len(words) < 2 or words[0].startswith((".", "/", "~")) or "=" in words[0]:
        return None
    program = program_name(words[0])
    if program in _KNOWN_PROGRAMS or not _TOOL_NAME.match(program) or words[1].startswith("-"):
        return None
    return program


def runs_a_task(command: str) -> bool:
    """Whether a command has a task runner's shape: `<program> run <task>` (`mise run
    lint`). One such run that worked says how the project runs that task; another
    unknown program is part of the workflow only once the session leaned on it."""
    words = main_words(command)
    return len(words) >= 3 and words[1] == "run" and not words[2].startswith("-")


def unwrapped(command: str) -> str | None:
    """The project command a wrapper runs (`rtk bun run test` → `bun run test`): the words
    after a first one that is a program of no known kind; None for anything else. When the
    wrapped call fails and the bare command then works, the wrapper is the lesson."""
    words = main_words(command)
    if len(words) < 3 or words[1].startswith("-") or "=" in words[0]:
        return None
    if program_name(words[0]) in _KNOWN_PROGRAMS or not _TOOL_NAME.match(program_name(words[0])):
        return None
    inner = shlex.join(words[1:])
    return inner if is_project_command(inner) else None


def is_one_off(command: str) -> bool:
    """Code passed inline (`python -c`, `node -e`), a heredoc, a script in /tmp, an
    absolute path in someone's home (it runs on one machine only), or an install of a
    named package (`npm install --save-dev happy-dom` changes the project; the project's
    install command is the bare `npm install`)."""
    if _INLINE_CODE.search(command) or _HOME_PATH.search(command):
        return True
    words = main_words(command)
    if len(words) < 2 or program_name(words[0]) not in _INSTALLERS:
        return False
    rest = words[2:] if words[1] != "pip" else words[3:]
    sub = words[1] if words[1] != "pip" else (words[2] if len(words) > 2 else "")
    if sub not in ("install", "i", "add"):
        return False
    packages = [w for w in rest if not w.startswith("-") and w not in (".", "..")]
    requirements = any(w in ("-r", "--requirement", "-e", "--editable") for w in rest)
    return bool(packages) and not requirements


def is_throwaway(command: str, throwaway: set[str]) -> bool:
    """A one-off (`is_one_off`), or a command naming a file the session threw away."""
    return is_one_off(command) or bool(mentioned_files(command) & throwaway)


# Options that leave a step out (`./deploy.sh appstore --skip-tests`): they name no kind.
_LEAVES_OUT = re.compile(r"^--?(?:skip|no|without|disable|exclude)[-_]", re.IGNORECASE)


def command_kind(command: str) -> str | None:
    """ "tests", "lint", "type check", "format", "build" or "install", when clear."""
    words = [word for word in main_words(command) if not _LEAVES_OUT.match(word)]
    lowered = " ".join(words).lower()
    return next((kind for kind, pattern in _KINDS if pattern.search(lowered)), None)


def unfiltered(command: str) -> str | None:
    """A command whose output was only cut to its end (`go test ./... 2>&1 | tail -30`)
    without that cut, or None for any other command. Its status is tail's, but its output
    still shows how it ended (`outcomes.output_shows_success`)."""
    cut = _tail_cut(command)
    if cut is None or MASKED.search(command):
        return None
    rest = command[:cut].rstrip().removesuffix("2>&1").strip()
    return rest if rest and not PIPE.search(rest) else None


def _tail_cut(command: str) -> int | None:
    """Where the pipes into `tail` or `tee` that end `command` begin, or None: found from
    the end, a pipe at a time (a pattern for the whole chain, tried from each of its pipes,
    read a long one again and again)."""
    start = len(command)
    while (pipe := command.rfind("|", 0, start)) >= 0:
        if _TAIL_SEGMENT.fullmatch(command, pipe, start) is None:
            break
        start = pipe
    return start if start < len(command) else None


# `| head`, `| head -20`, `| head -n 20`: the output's first lines (10 by default).
_HEAD_CUT = re.compile(r"(?<!\s)\s*+(?:2>&1\s*+)?\|\s*+head(?:\s+-n\s*(\d+)|\s+-(\d+))?\s*+$")
_HEAD_DEFAULT_LINES = 10


def uncut(command: str, output: str) -> str | None:
    """A command without the pipe that cut its output, when its output still shows how it ended: cut
    to its end (`unfiltered`), or piped into `| head -N` that cut nothing (the output is shorter
    than N lines: `mise run lint 2>&1 | head -50` printing two lines)."""
    kept = unfiltered(command)
    if kept is not None:
        return kept
    match = _HEAD_CUT.search(command)
    if match is None or MASKED.search(command):
        return None
    lines = int(match.group(1) or match.group(2) or _HEAD_DEFAULT_LINES)
    rest = command[: match.start()].strip()
    return None if not rest or PIPE.search(rest) or len(output.splitlines()) >= lines else rest


def status_is_known(command: str) -> bool:
    """Whether the exit status is the command's own: not masked (`|| true`), not a pipe
    into a filter (`| tail -5` reports tail's status)."""
    return not MASKED.search(command) and not FILTER_PIPE.search(command)


def mentioned_files(command: str) -> set[str]:
    """Base names of the files a command's words name (`python scripts/x.py` → x.py)."""
    names = set()
    for words in command_segments(command):
        for position, word in enumerate(words):
            if "/" in word or (position and "." in word.strip(".")):
                names.add(word.rstrip("/").rsplit("/", 1)[-1])
    return names


def removed_files(command: str) -> set[str]:
    """Base names of the files an `rm` in the command deletes."""
    names = set()
    for words in command_segments(command):
        if words and program_name(words[0]) in ("rm", "unlink"):
            names |= {w.rsplit("/", 1)[-1] for w in words[1:] if not w.startswith("-")}
    return names


# A package manager's verbs that add a package and those that take one away (`composer require`
# / `composer remove`, `npm install` / `npm uninstall`, `cargo add` / `cargo remove`, `go get`).
_ADDS = frozenset({"require", "add", "install", "i", "get"})
_REMOVES = frozenset({"remove", "rm", "uninstall", "un"})


def packages_changed(command: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """The package manager, the packages the command adds and those it removes (`None`: it
    does neither)."""
    added: set[str] = set()
    removed: set[str] = set()
    manager = ""
    for words in command_segments(command):
        if len(words) < 3 or words[1] not in _ADDS | _REMOVES:
            continue
        manager = program_name(words[0])
        named = {w.split("@")[0] if not w.startswith("@") else w for w in words[2:]}
        (added if words[1] in _ADDS else removed).update(w for w in named if w[:1] not in "-.")
    if not added and not removed:
        return None
    return manager, frozenset(added), frozenset(removed)


# What fetches from the network, and what runs what it is given: a download run as code.
_FETCHERS = (
    r"curl|wget|fetch|http|https|xh|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod"
    r"|nc|ncat|lwp-request|GET"
)
_RUNNERS_OF_CODE = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:ba|z|da|k|c|tc|fi)?sh|python[0-9.]*|node|perl|ruby"
    r"|php|iex|invoke-expression|pwsh|powershell"
)
# `curl … | sh`, `wget -O- … | sudo bash -s --`, `iwr … | iex`: a fetcher piped (at any depth)
# into a runner; `bash <(curl …)`, `sh -c "$(wget -O- …)"`, `eval "$(curl …)"`, `. <(curl …)`:
# a fetcher's output given to a runner. Bounded: from each fetcher at most 8 pipes of 400
# characters are read (a line of many fetchers is read in linear time).
_DOWNLOAD_RUN = re.compile(
    rf"(?i)(?<![\w-])(?:{_FETCHERS})(?![\w-])[^|\n]{{0,400}}+(?:\|[^|\n]{{0,400}}+){{0,8}}?"
    rf"\|\s*(?:{_RUNNERS_OF_CODE})(?![\w-])"
    rf"|(?<![\w-])(?:{_RUNNERS_OF_CODE}|eval|source|\.)\s+(?:-\S+\s+)*[\"']?(?:<\(|\$\(|`)\s*"
    rf"(?:{_FETCHERS})(?![\w-])"
)


def runs_a_download(text: str) -> bool:
    """Whether `text` (a command, or a note naming one) runs what it fetches from the network:
    piped into a shell or an interpreter (`curl -s https://x/i.sh | sh`), or handed to one
    (`bash <(curl …)`, `sh -c "$(wget -O- …)"`, `iwr … | iex`)."""
    return _DOWNLOAD_RUN.search(text) is not None
