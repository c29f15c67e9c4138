"""How a command ended, read from its output: the line that says what went wrong
(`error_signature`, a fix's key and what its note quotes), whether the end of an output
cut by `| tail` says it passed (`output_shows_success`) or there was none (`says_nothing`),
and the hooks a `git commit` or `git push` ran (`hooks_that_passed`)."""

from __future__ import annotations

import re

from memtab.humanize import plural

MAX_SIGNATURE_CHARS = 160

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_GENERIC_ERROR_LINE = re.compile(
    r"^(?:command exited with code -?\d+|exit code:? -?\d+|process exited with code -?\d+"
    r"|traceback \(most recent call last\):|error:?|failed:?)$",
    re.IGNORECASE,
)
_NOISE_LINE = re.compile(
    r"^(?:\s*+>?\s*+\d++\s*+\|)|^\s*at\s+\S.*[:(]\d+|^\s*File \".*\", line \d+|^[\s^~|_=*#-]*$"
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


# How a test run or build says it passed, and the counts that say nothing failed.
_PASSED = re.compile(
    r"\b(?:\d+ passed|passed|pass|ok|success(?:ful(?:ly)?)?|succeeded|finished|compiled)\b|[✓✔]",
    re.IGNORECASE,
)
# Counts that say nothing failed: `0 failures`, `no (type) errors`, and a count given after its
# name (`Total errors: 0`, Dialyzer; `Failures: 0, Errors: 0`, Maven/JUnit).
_NONE_FAILED = re.compile(
    r"\b(?:0|no) (?:[a-z]+ )?(?:fail(?:ures?|ed)?|errors?|warnings?)\b"
    r"|\b(?:failures?|failed|errors?|warnings?)\s*[:=]\s*0\b(?![.\d])",
    re.IGNORECASE,
)
# A linter's all-clear (`0 issues.`, golangci-lint; `No problems found`) and a build's
# closing time (`Total in 325 ms`, Hugo; `Done in 1.2s`, Yarn; `built in 812ms`, Vite;
# `Checked 286 files in 128ms.`, Biome): how these tools say they passed, when no failure
# line is shown beside them.
_ALL_CLEAR = re.compile(  # within a line (`\W` ran over every line break of a blank run)
    r"^[^\w\n]*(?:0|no) (?:issues?|problems?)(?: found)?[^\w\n]*$"
    r"|^[^\w\n]*(?:total|done|built|checked \d+ files?) in \d+(?:\.\d+)?\s?(?:ms|s)\b",
    re.IGNORECASE | re.MULTILINE,
)
# A failure's mark; `not ok 3 …` is a TAP runner's (bats, node's test runner).
_FAILED_MARK = re.compile(r"\bFAIL(?:ED|URES?)?\b|\bpanic:|^not ok\b|✗|✘|❌", re.MULTILINE)


# A test runner's closing counts (`1290 pass` / `0 fail`, bun; `297 tests, 0 failures`,
# ExUnit; `5 passed; 0 failed`, cargo; `2 failed, 10 passed`, pytest): its verdict, which
# outweighs the errors its tests logged on the way (a test of error handling prints them).
_FAILURE_COUNT = re.compile(r"\b(\d+) fail(?:ed|ures?|ing)?\b", re.IGNORECASE)
_PASS_COUNT = re.compile(r"\b(\d+) (?:pass(?:ed|es|ing)?|tests?)\b", re.IGNORECASE)
VERDICT_LINES = 4


def closing_verdict(output: str) -> bool | None:
    """What a test runner's closing counts say (its last lines): True when tests passed
    and none failed, False when some failed, None when the output does not end on counts."""
    lines = [line for line in _ANSI.sub("", output).splitlines() if line.strip()]
    tail = "\n".join(lines[-VERDICT_LINES:])
    failures = [int(count) for count in _FAILURE_COUNT.findall(tail)]
    passes = [int(count) for count in _PASS_COUNT.findall(tail)]
    if not failures or not passes:
        return None
    return not any(failures) and any(passes)


def output_shows_success(output: str) -> bool:
    """Whether the end of a command's output says it passed: a test runner's closing
    counts (`closing_verdict`), or else a pass mark and no failure or error line anywhere
    in what is shown."""
    verdict = closing_verdict(output)
    if verdict is not None:
        return verdict
    shown = _NONE_FAILED.sub("", output)
    if _FAILED_MARK.search(shown) or error_signature(shown):
        return False
    return bool(_PASSED.search(shown) or _ALL_CLEAR.search(output))


# A compiler's error line (`src/a.tsx(17,16): error TS2339: …`, `x.go:3:1: error: …`).
_COMPILER_ERROR = re.compile(r"^\S+[:(]\d+[,:]\d+\)?:? error\b", re.MULTILINE)


def output_shows_failure(output: str) -> bool:
    """Whether what a command printed says it failed, when its exit status is not its own
    (an output cut by `| tail`): a test runner's closing counts with failures, a failure's
    mark (`FAIL`, `not ok`), an `error:` line or a compiler's error line — and no closing
    counts that say all passed."""
    verdict = closing_verdict(output)
    if verdict is not None:
        return not verdict
    plain = _ANSI.sub("", _NONE_FAILED.sub("", output))
    if _FAILED_MARK.search(plain) or _COMPILER_ERROR.search(plain):
        return True
    return any(_ERROR_PREFIX_LINE.match(line.strip()) for line in plain.splitlines())


# Claude Code's stand-in for a command that printed nothing.
_NO_OUTPUT = re.compile(r"^\s*+(?:\(Bash completed with no output\)\s*+)?$")


# The lines a package manager prints before it runs a script (`> web@0.13.2 lint /src/web`,
# `> eslint . --fix`): the script's own output is what follows them.
_SCRIPT_BANNER = re.compile(r"^> \S.*$", re.MULTILINE)


def says_nothing(output: str) -> bool:
    """Whether a command printed nothing at all (`go build ./...`, `gofmt -l`, `tsc
    --noEmit` when all is well), or only the banner of the package script it ran (`pnpm
    lint:fix` running a silent `eslint . --fix`): silence is how these tools pass, and a
    failure always prints — so an output cut by `| head` or `| tail` that is empty passed."""
    return bool(_NO_OUTPUT.match(_SCRIPT_BANNER.sub("", output)))


def error_signature(text: str) -> str:
    """The line that says what went wrong: an exception or `error:` line first, then a line with a
    failure word, else the line before the tool's own word on how to repair it (`repair_hint`);
    generic "exit code" lines, code frames and stack lines are skipped."""
    best: tuple[int, str] | None = None
    previous_was_jest_header = False
    text = _unescaped(text)
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
        hint = repair_hint(text)
        return _clean_signature(hint[0]) if hint is not None else ""
    return _clean_signature(best[1])


def _unescaped(text: str) -> str:
    if text.count("\\n") > text.count("\n"):
        return text.replace("\\n", "\n")  # output that reached us JSON-escaped, on one line
    return text


# A tool's own word on how to repair what failed: "run `pre-commit install -f --hook-type
# commit-msg` to fix this" (pre-commit), "Run 'mix format' to fix." — the command quoted.
_REPAIR_HINT = re.compile(
    r"""\b(?:run|try running)\s+(?P<q>[`'"])(?P<command>[^`'"\n]{2,120})(?P=q)"""
    r"""\s+to\s+(?:fix|repair|resolve)\b""",
    re.IGNORECASE,
)


def repair_hint(output: str) -> tuple[str, str] | None:
    """What a failed command's output says went wrong and the command it says repairs it
    (`bug: pre-commit's script is installed in migration mode`, `pre-commit install -f
    --hook-type commit-msg`): the line before the hint (a hook's `…Passed` report is not
    it), or the hint's own line when it says both; None when the output names no repair."""
    lines = [line.strip() for line in _ANSI.sub("", _unescaped(output)).splitlines()]
    for index, line in enumerate(lines):
        hint = _REPAIR_HINT.search(line)
        if hint is None:
            continue
        before = line[: hint.start()].strip()
        if before:
            return before, hint["command"].strip()
        for earlier in reversed(lines[:index]):
            if earlier and _hook_passed(earlier) is None and not _NOISE_LINE.match(earlier):
                return earlier, hint["command"].strip()
        return "", hint["command"].strip()
    return None


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


# npm's and pnpm's banner before the package script it runs: `> acme@1.0.0 lint`.
_PACKAGE_BANNER = re.compile(r"> (\S++) \S++\s*+")
MAX_HOOKS_NAMED = 6


def hooks_note(stage: str, hooks: list[str]) -> str | None:
    """The note on the hooks the first commit (or push) that ran them passed: the checks
    every commit (push) of the project must pass (None: it shows none)."""
    if not hooks:
        return None
    named = ", ".join(hooks[:MAX_HOOKS_NAMED])
    more = len(hooks) - MAX_HOOKS_NAMED
    if more > 0:
        named += f" and {plural(more, 'other')}"
    return f"`git {stage}` runs the project's pre-{stage} hooks: {named}."


def hooks_that_passed(output: str) -> list[str]:
    """The hooks a successful `git commit`'s or `git push`'s output says ran, in order:
    pre-commit's report of those that passed (`go fmt`, `go vet`, `golangci-lint`, …), or
    else the package scripts a hook manager such as husky ran, in code (`` `bun test src/` ``,
    `` `tsc --noEmit` ``); empty when it shows none."""
    plain = _ANSI.sub("", output)
    lines = plain.split("\n")
    names = [" ".join(name.split()) for line in lines if (name := _hook_passed(line))]
    if not names:
        names = [f"`{script}`" for script in _script_echoes(lines)]
    return list(dict.fromkeys(names))


# Read line by line, without a pattern: `^(\S.*?)\.{3,}Passed\s*$` tried every end of a long
# run of dots, and `^\$ (\S.*?)\s*$` every end of a long run of blanks.
def _hook_passed(line: str) -> str | None:
    """The hook a line of pre-commit's report says passed (`golangci-lint.......Passed`),
    or None."""
    text = line.rstrip()
    if not text.endswith("Passed"):
        return None
    dotted = text.removesuffix("Passed")
    name = dotted.rstrip(".")
    if len(dotted) - len(name) < 3 or not name or name[0] == "." or name[0].isspace():
        return None
    return name


def _script_echoes(lines: list[str]) -> list[str]:
    """The package scripts a hook ran, as the package manager echoes each before running
    it: bun's and yarn's `$ bun test src/`, npm's and pnpm's `> acme@1.0.0 lint` then (blank
    lines between) `> eslint .`."""
    found: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("$ ") and line[2:3].strip():
            found.append(line[2:].rstrip())
            continue
        banner = _PACKAGE_BANNER.fullmatch(line)
        if banner is None or "@" not in banner[1][1:-1]:
            continue
        while index < len(lines) and not lines[index].strip():
            index += 1
        if index < len(lines) and lines[index].startswith("> ") and lines[index][2:3].strip():
            found.append(lines[index][2:].rstrip())
            index += 1
    return found
