"""split.txt's 2026-11-23 "h27en" blocks: English Claude Code sessions of three projects using
Entire (entireio/cli, PackmindHub/context-evaluator, JanDeDobbeleer/oh-my-posh), labelled the
way the measured part was (tests/quality/gold.py's header): each transcript read whole — the
user's messages, the agent's answers and sub-agent reports, the commands and their results —
and everything written down that the person whose memory it is would want their agent to know
next time (project facts the session established, commands that work, the user's decisions and
directives, fixes, conventions), BEFORE the offline writer ran on any of them. Kept apart from
corpus.py and the other label files so the blocks merge without conflict.

Block A was run once with the rules as they were (a blind figure: 0.81 (13/16) / 0.40 (17/42)),
then tuned on. Block B was run once, with this session's rules frozen (the honest check at the
end: 0.50 (7/14) / 0.32 (9/28)), and only then joined the tuned-on part.

Each row: name, file under tests/fixtures/shared/claude-code, the items (fragments one note must
all contain; `a|b` is met by either spelling), and the session's language.
"""

from __future__ import annotations

_CLI = "entireio-cli__entire-checkpoints-v1__"
_CE = "PackmindHub-context-evaluator__entire-checkpoints-v1__"
_OMP = "JanDeDobbeleer-oh-my-posh__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

H27_LABELS_A: tuple[Label, ...] = (
    (
        "entire cli: integration tests after CheckpointID became a type (en)",
        f"{_CLI}29__47d03374d0__0__full.jsonl.gz",
        (
            ("mise run test:ci",),  # `go test -tags=integration -race ./...`, green after the fix
            ("MustCheckpointID",),  # strings become ids with id.MustCheckpointID (CheckpointPath)
            ("CheckpointID", "checkpoint/id"),  # the type's own package (no import cycle)
        ),
        "en",
    ),
    (
        "entire cli: go-git misses the global gitignore (en)",
        f"{_CLI}48__b4b05476e5__0__full.jsonl.gz",
        (
            ("go-git", "gitignore|excludesfile"),  # ~/.config/git/ignore is not read by go-git
            # the fix: HasUncommittedChanges asks `git status --porcelain`
            ("HasUncommittedChanges", "git status --porcelain|git CLI"),
            # the user's: the git CLI is right for the worktree; go-git elsewhere, not tied to it
            ("go-git", "worktree|checkout"),
            ("mise run build",),  # rebuild the CLI for a fix to take effect
            ("mise run test",),
            ("mise run lint",),  # golangci-lint
            ("mise run fmt",),  # gofmt -w .
            ("CommandContext",),  # lint (noctx): exec.Command is refused, exec.CommandContext
        ),
        "en",
    ),
    (
        "context-evaluator: Copilot instructions badge (en)",
        f"{_CE}4a__ff29dfc8d7__2__full.jsonl.gz",
        (
            ("Copilot instructions",),  # the user's: not "AGENTS.md" for Copilot instruction files
            ("getContextFileType",),  # src/shared/file-system/context-files-summarizer.ts
            (".github/instructions", "copilot"),  # every .md there is a Copilot instruction file
            ("ContextTreeView|getFileTypeBadge",),  # where the badge label is
            ("bun run test",),  # bun test src/
            ("bun run lint",),  # biome check --error-on-warnings
            ("rtk", "bun"),  # rtk has no bun subcommand: bun runs without it
        ),
        "en",
    ),
    (
        "context-evaluator: macOS signing in the release workflow (en)",
        f"{_CE}7e__b9199a878a__0__full.jsonl.gz",
        (
            ("release/", "tag"),  # a pushed tag release/X.Y.Z runs ci.yml's release jobs
            ("sign-macos",),  # build → sign-macos → release; entitlements.plist
            ("MACOS_CERTIFICATE",),  # the signing secrets are not configured yet
            ("package.json", "CHANGELOG"),  # the user's: version and changelog before the tag
            ("rtk proxy",),  # rtk filters gh's output: `rtk proxy gh api …` for the raw JSON
            ("rtk", "bun"),
            ("bun run test",),
            ("bun run lint",),
            ("pre-commit",),  # the pre-commit hook runs tests, lint and typecheck
        ),
        "en",
    ),
    (
        "context-evaluator: Generate Prompts button removed (en)",
        f"{_CE}20__b41b43efc7__0__full.jsonl.gz",
        (
            ("Generate Prompts",),  # the user's: the remediation module has no such button
            ("bun run lint:fix",),  # biome check --write fixes the formatting lint refuses
            ("bun run test",),
            ("bun run lint",),
            ("rtk", "bun"),
            # the hook's typecheck needs the generated embedded assets (`bun run build`)
            ("pre-commit|typecheck", "bun run build|generated|frontend-assets"),
        ),
        "en",
    ),
    (
        "oh-my-posh: the zsh serve daemon's job notice (en)",
        f"{_OMP}31__4ef6589731__0__full.jsonl.gz",
        (
            ("no_monitor",),  # the fix: setopt localoptions no_monitor in _omp_serve_start
            ("oh-my-posh serve", "coproc|streaming|daemon"),  # zsh starts it with streaming on
            ("GoLand|JetBrains",),  # the IDE's close dialog sees the daemon: not fixable here
            ("issue", "verif"),  # the user's: issue replies explain only what was verified
            ("pull request",),  # the user's: the agent commits, the user opens the pull request
            ("GOARCH=arm64",),  # WSL is aarch64: a linux/arm64 build from src/ to test zsh
            ("MSYS_NO_PATHCONV",),  # wsl paths from Git Bash need it
        ),
        "en",
    ),
    (
        "oh-my-posh: GoReleaser's dirty tree (en)",
        f"{_OMP}52__ce428f6a9c__0__full.jsonl.gz",
        (
            ("gomodcache", "gitignore"),  # /src/gomodcache ignored: GoReleaser refuses a dirty tree
            ("release.yml", "main"),  # the release workflow runs from main (work is on next)
        ),
        "en",
    ),
)

# Block B: labelled blind with block A's and committed before the writer ran on it; run only
# once, with this session's rules frozen (main f1d4f8fe's writer): 0.50 (7/14) / 0.32 (9/28).
H27_LABELS_B: tuple[Label, ...] = (
    (
        "entire cli: the sessions branch pushed without upstream (en)",
        f"{_CLI}c3__7f53c3af3b__0__full.jsonl.gz",
        (
            ("entire/sessions", "-u|upstream"),  # the fix: `git push -u` sets the tracking ref
            ("push_common.go|tryPushSessionsCommon",),  # where the sessions branch is pushed
            ("mise run test",),
            ("mise run lint",),  # golangci-lint
            ("any", "interface{}"),  # lint: `any`, not `interface{}`
        ),
        "en",
    ),
    (
        "entire cli: settings.json parsed strictly (en)",
        f"{_CLI}b7__03660e28ea__0__full.jsonl.gz",
        (
            ("DisallowUnknownFields",),  # the user's: the decoder's own strictness, no hand check
            ("settings.go", "settings.json"),  # cmd/entire/cli/settings/settings.go loads it
            ("t.Chdir",),  # errcheck refuses os.Chdir in tests: t.Chdir
            ("mise run lint",),
        ),
        "en",
    ),
    (
        "context-evaluator: cost and timing hidden in cloud mode (en)",
        f"{_CE}1a__551a9675cf__0__full.jsonl.gz",
        (
            ("cloudMode", "useFeatureFlags"),  # how a component knows it runs in cloud mode
            ("cloud", "cost|timing"),  # the user's: context analysis cost/timing hidden there
            ("bun run lint:fix",),
            ("bun run test",),
            ("bun run lint",),
            ("rtk", "bun"),
        ),
        "en",
    ),
    (
        "oh-my-posh: a review of the zsh multiline prompt PR (en)",
        f"{_OMP}09__11216ed051__1__full.jsonl.gz",
        (
            ("_omp_is_buffer_complete", "EOF"),  # the heredoc's EOF collides with the buffer
            ("em dash|em-dash",),  # the user's: no em dashes in what is posted
            ("writing-clearly",),  # the user's: comments written with that skill
            ("zsh", "not installed|not found"),  # no zsh in the agent's shell
            ("gh pr diff",),
        ),
        "en",
    ),
    (
        "oh-my-posh: palette colors as templates (en)",
        f"{_OMP}e2__9966ae2d7f__0__full.jsonl.gz",
        (
            ("palette", "template"),  # resolveColor renders a palette value holding {{ }}
            ("transparent", "palette"),  # already allowed (schema) and working
            ("Vale",),  # the user's: no Vale on user-facing docs; its CI lints agent docs only
            ("table-driven",),  # the user's: tests are table-driven
            ("template.Render", "nil|cache|global"),  # globals come from the embedded cache
            ("golangci-lint",),
            ("fieldalignment",),
            ("conventional|commitlint",),  # commit messages: conventional commits
        ),
        "en",
    ),
)
