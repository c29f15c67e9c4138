"""Which commands, fixes and hooks are the project's, from real lines of sessions tuned on
(tests/fixtures/shared/claude-code: Safecast/safecast-map-MCP, yutakobayashidev/repiq,
dOwOd/exvs2-cost-calculator, FSM1/cipher-box): one machine's shell set-up is no part of a
command, a commit in another repository says nothing of the project's hooks, a package
script's file arguments are that moment's, and a check of the files it names is no way
the project runs its checks."""

from __future__ import annotations

from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.shell.command_scope import (
    in_project,
    is_narrowed,
    runs_elsewhere,
    without_passthrough,
)
from memtab.writer.offline.shell.commands import skips_hooks, without_machine_env
from memtab.writer.offline.shell.outcomes import error_signature, repair_hint

from .events import bash, calls, tool

SAFECAST = "/home/rob/Documents/Safecast/safecast-map-MCP"
REPIQ = "/home/yuta/ghq/github.com/yutakobayashidev/repiq"
DOTNIX = "/home/yuta/ghq/github.com/yutakobayashidev/dotnix"
EXVS2 = "/Users/sksn/Development/exvs2-cost-calculator"


def test_a_path_set_up_from_someones_home_is_not_part_of_the_command() -> None:
    # safecast: `go` was not on the shell's PATH; the working build added two folders to it,
    # one in the developer's home — the project's command is the build itself
    worked = (
        f"PATH=$PATH:/usr/local/go/bin:/home/rob/go/bin && cd {SAFECAST}/go && "
        "go build ./cmd/mcp-server/ 2>&1"
    )
    assert without_machine_env(in_project(worked, SAFECAST)) == (
        "cd go && go build ./cmd/mcp-server/ 2>&1"
    )
    assert without_machine_env("MIX_ENV=test mix ecto.migrate") == "MIX_ENV=test mix ecto.migrate"
    assert without_machine_env("export GOPATH=/Users/x/go; go test ./...") == "go test ./..."
    events = [
        bash(
            f"cd {SAFECAST}/go && go build ./cmd/mcp-server/ 2>&1",
            ok=False,
            output="Exit code 127\n/bin/bash: line 1: go: command not found\n",
        ),
        bash(worked, output=""),
    ]
    for event in events:
        event.cwd = SAFECAST
    findings = extract_findings(events)
    # the build, as anyone runs it; no fix that only one machine's PATH made
    assert [command.command for command in findings.commands] == [
        "cd go && go build ./cmd/mcp-server/"
    ]
    assert findings.solved_problems == []


def test_a_commit_in_another_repository_says_nothing_of_the_projects_hooks() -> None:
    # repiq: the agent committed a rule into the user's dotfiles (dotnix), whose own
    # pre-commit hooks ran — not repiq's
    other = (
        f"git -C {DOTNIX} add claude/rules/commit-convention.md && "
        f"git -C {DOTNIX} commit -m \"$(cat <<'EOF'\n"
        'feat(claude): add commit convention rule\nEOF\n)"'
    )
    hooks = (
        "git-secrets..............................................................Passed\n"
        "treefmt..................................................................Passed\n"
        "[main 9254aec] feat(claude): add commit convention rule\n"
    )
    assert runs_elsewhere(in_project(other, REPIQ))
    own = f"git -C {REPIQ} add AGENTS.md && git -C {REPIQ} commit -m x"
    assert in_project(own, REPIQ) == "git add AGENTS.md && git commit -m x"
    assert not runs_elsewhere(in_project(own, REPIQ))
    assert runs_elsewhere("git -C ~/Development/claude-shared commit -m x")
    event = bash(other, output=hooks)
    event.cwd = REPIQ
    assert extract_findings([event]).findings == []
    # where the session started is not known: no folder can be told to be another's
    unknown = bash("cd /srv/repiq && git commit -m x", output=hooks)
    assert len(extract_findings([unknown]).findings) == 1
    mine = bash(own, output=hooks)
    mine.cwd = REPIQ
    assert extract_findings([mine]).findings == [
        "`git commit` runs the project's pre-commit hooks: git-secrets, treefmt."
    ]


def test_a_package_scripts_file_arguments_are_that_moments() -> None:
    # exvs2: `pnpm lint -- <file>` is `pnpm run lint -- <file>`: the lint of one file
    one_file = (
        f"pnpm --dir {EXVS2} lint -- src/components/__tests__/CookieConsentBanner.test.tsx 2>&1"
    )
    banner = (
        f"> exvs2-cost-calculator@0.3.0 lint {EXVS2}\n"
        "> eslint src/ -- src/components/__tests__/CookieConsentBanner.test.tsx"
    )
    assert without_passthrough(in_project(one_file, EXVS2)) == "pnpm lint"
    assert without_passthrough("pnpm add -- left-pad") == "pnpm add -- left-pad"
    event = bash(one_file, output=banner)
    event.cwd = EXVS2
    [command] = extract_findings([event]).commands
    assert (command.command, command.kind) == ("pnpm lint", "lint")


def test_the_same_script_run_again_without_its_arguments_is_no_fix() -> None:
    # exvs2: the lint of one file with a flag failed; the whole lint then passed
    findings = extract_findings(
        [
            bash(
                "pnpm lint -- --no-warn-ignored src/components/ComparisonResultPanel.tsx 2>&1",
                ok=False,
                output=" ELIFECYCLE  Command failed with exit code 2.",
            ),
            bash("pnpm lint 2>&1", output="> exvs2-cost-calculator@0.3.0 lint\n> eslint src/"),
        ]
    )
    assert findings.solved_problems == []
    assert [command.command for command in findings.commands] == ["pnpm lint"]


def test_a_check_of_the_files_it_names_is_that_moments() -> None:
    # cipher-box: eslint on the generated API client's files, to see its warnings
    assert is_narrowed("npx eslint apps/web/src/api/**/*.ts 2>&1 | head -50")
    assert is_narrowed("pytest tests/test_clock.py")
    assert not is_narrowed("go vet ./pkg/codegen/")
    assert not is_narrowed("tsc -p tsconfig.json")
    assert not is_narrowed("xcodebuild -project FitToday/FitToday.xcodeproj -scheme FitToday build")
    findings = extract_findings(
        [bash("npx eslint apps/web/src/api/**/*.ts 2>&1 | head -50", output="")]
    )
    assert findings.commands == []


MIGRATION_MODE = (
    "Exit code 1\n"
    "gitleaks.................................................................Passed\n"
    "bug: pre-commit's script is installed in migration mode\n"
    "run `pre-commit install -f --hook-type commit-msg` to fix this\n\n"
    "Please report this bug at https://github.com/pre-commit/pre-commit/issues\n"
)
COMMIT = (
    "git add README.md && git commit -m \"$(cat <<'EOF'\ndocs(cli): add contribution links\n"
    'EOF\n)"'
)


def test_the_repair_a_hooks_output_names_is_read() -> None:
    # repiq: pre-commit's commit-msg hook, broken; spotter: its own pre-commit validation
    assert repair_hint(MIGRATION_MODE) == (
        "bug: pre-commit's script is installed in migration mode",
        "pre-commit install -f --hook-type commit-msg",
    )
    assert error_signature(MIGRATION_MODE) == (
        "bug: pre-commit's script is installed in migration mode"
    )
    spotter = (
        "Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\n"
        "Run 'mix format' to fix.\\n\\nFix these issues before committing."
    )
    assert repair_hint(spotter) == ("[FORMAT] Code is not formatted.", "mix format")
    assert repair_hint("error: 3 tests failed") is None


def test_a_hook_skipped_after_it_failed_is_noted_broken_with_its_repair() -> None:
    # repiq: the commit-msg hook failed; the same commit then went in with --no-verify
    skipped = COMMIT.replace("git commit -m", "git commit --no-verify -m")
    findings = extract_findings([bash(COMMIT, ok=False, output=MIGRATION_MODE), bash(skipped)])
    assert findings.solved_problems == []
    assert findings.findings == [
        "`git commit` fails in the project's hook: `bug: pre-commit's script is installed in "
        "migration mode` — its output says to run `pre-commit install -f --hook-type "
        "commit-msg`; the session's commits skipped the hooks (`--no-verify`), so their "
        "checks did not run."
    ]
    # not skipped: nothing says the hook, not the change, was at fault
    assert extract_findings([bash(COMMIT, ok=False, output=MIGRATION_MODE)]).findings == []
    # no repair named: nothing to keep but "it failed"
    bare = "Exit code 1\n$ bun test src/\nerror: Item 3 failed\n"
    assert extract_findings([bash(COMMIT, ok=False, output=bare), bash(skipped)]).findings == []
    assert skips_hooks(skipped) and skips_hooks("git push --no-verify")
    assert skips_hooks("git commit -n -m wip") and not skips_hooks(COMMIT)


def test_a_windows_projects_folder_is_written_relative_to_it() -> None:
    # JanDeDobbeleer/oh-my-posh: the session started in `D:\oh-my-posh`; its commands name
    # the folder `D:/oh-my-posh`
    omp = "D:\\oh-my-posh"
    line = "cd D:/oh-my-posh/src && gofmt -l config/segment_types.go && go build ./..."
    assert in_project(line, omp) == "cd src && gofmt -l config/segment_types.go && go build ./..."
    assert in_project("git -C D:/oh-my-posh stash", omp) == "git stash"
    assert not runs_elsewhere(in_project("git -C D:/oh-my-posh commit -m x", omp))
    assert runs_elsewhere(in_project("git -C E:/dotfiles commit -m x", omp))


def test_a_cargo_test_name_picks_that_moments_tests() -> None:
    # jdx/mise (Codex sessions): `cargo test wildcard`, `cargo test shorthands` ran the tests
    # of the change; cargo's first positional word is its TESTNAME filter
    assert is_narrowed("cargo test wildcard")
    assert is_narrowed("cargo test -p mise shorthands")
    assert is_narrowed("cargo +1.96.0 test redact")
    assert is_narrowed("cargo nextest run wildcard")
    assert not is_narrowed("cargo test")
    assert not is_narrowed("cargo +1.96.0 test")
    assert not is_narrowed("cargo test -p mise --all-features")
    assert not is_narrowed("cargo test -- --nocapture")


def test_a_fixs_edited_file_is_named_as_the_project_names_it() -> None:
    app = "/home/marco/projects/spotter"
    edit = calls(tool("Edit", {"file_path": f"{app}/config/test.exs", "old_string": "a"}))
    events = [
        bash("mix test", ok=False, output="** (DBConnection.ConnectionError) connection refused"),
        edit,
        bash("mix ecto.create", output="The database for Spotter.Repo has been created"),
        bash("mix test", output="31 tests, 0 failures"),
    ]
    for event in events:
        event.cwd = app
    [fix] = extract_findings(events).solved_problems
    assert fix.solving_steps == ("editing `config/test.exs`", "`mix ecto.create`")
