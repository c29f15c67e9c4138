"""Dense items for English tuned-on sessions first labelled sparsely (2026-11-23, "h28"):
each session read whole again, the way the measured part was labelled (tests/quality/gold.py's
header), and everything written down that the person whose memory it is would want their
agent to know next time, without looking at the offline writer's notes on it. The items are
added to the session's earlier ones (corpus.py `_with_dense_items`); none is removed.

Each row: the transcript's file name (as in corpus.py) and its new items (fragments one note
must all contain; `a|b` is met by either spelling).
"""

from __future__ import annotations

DenseItems = tuple[str, tuple[tuple[str, ...], ...]]

_CB = "FSM1-cipher-box__entire-checkpoints-v1__"
_CE = "PackmindHub-context-evaluator__entire-checkpoints-v1__"
_EN = "entireio-cli__entire-checkpoints-v1__"
_OMP = "JanDeDobbeleer-oh-my-posh__entire-checkpoints-v1__"
_SC = "Safecast-safecast-map-MCP__entire-checkpoints-v1__"

DENSE_EN_ITEMS: tuple[DenseItems, ...] = (
    (
        "marot-spotter__test__fixtures__transcripts__tool_heavy.jsonl",
        # the browser terminal is xterm.js, mounted by a LiveView hook in assets/js/app.js
        (("xterm", "app.js"),),
    ),
    # thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl: read again, nothing
    # more than its `bun test` (a test fixture: markers, a fake key; typecheck never ran).
    (
        f"{_EN}7e__d4051c8a85__0__full.jsonl.gz",
        (
            ("mise run fmt",),  # ran and passed (gofmt -w .)
            ("mise run lint",),  # ran and passed: golangci-lint's "0 issues."
            ("go build", "./cmd/entire"),  # builds the CLI binary for a manual try
            ("errors.As",),  # *cli.SilentError is a type: errors.As, never errors.Is
            ("switch", "else"),  # the user: a switch, not a chain of if/else
            ("showSuggestion", "unknown command"),  # main.go's handling of an unknown command
            ("brew",),  # the user: unknown-command output modelled on brew's (usage, then error)
            ("stripe",),  # the goal: error handling like stripe-cli's
        ),
    ),
    (
        "d-kimuson-claude-code-viewer__mock-global-claude-dir__projects__sample-project__"
        "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl.gz",
        (
            ("todo", "next.js"),  # the goal: a TODO app with Next.js
            ("useTodos", "localStorage"),  # state lives in the useTodos hook, kept in localStorage
            ("3001",),  # the dev server's port, as the setup agent found it
            ("lucide-react",),  # the icon library installed
        ),
    ),
    (
        f"{_OMP}87__3295b4d85e__0__full.jsonl.gz",
        (
            ("language.mdx",),  # the generic language segment's docs page (examples go there)
            ("conventional", "commit"),  # commits follow the repo's conventional-commit skill
            ("code-changes",),  # the repo's skill for issue → shipped code, analysis first
        ),
    ),
    # PackmindHub-context-evaluator…17__252607bde7__1: read again; its release tag, changelog,
    # tmp/clones and rtk items hold what is durable in it.
    (
        "EntityProcess-agentv__entire-checkpoints-v1__7a__d2528cc37f__0__full.jsonl.gz",
        (
            ("biome check",),  # the lint hook's command
            (".entire", "telemetry"),  # Entire enabled with telemetry off (.entire/settings.json)
            (".worktrees",),  # feature work lives in git worktrees under .worktrees/ (ignored)
        ),
    ),
    (
        f"{_CB}d3__e476e685d1__0__full.jsonl.gz",
        (
            ("main", "pull"),  # the user: back to main and pull the latest before a change
            ("gsd:quick", ".planning/quick"),  # the GSD quick-task workflow and where tasks live
            (".learnings",),  # past gotchas kept in .learnings/*.md, read before a task
            ("apps/api", "NestJS"),  # the monorepo's API
            ("apps/web", "Vite"),  # the monorepo's web app (React + Vite)
            ("footer", "status"),  # the user: the API status indicator belongs in the footer
        ),
    ),
    (
        f"{_SC}64__db4ca444b7__0__full.jsonl.gz",
        (
            ("deploy.yml", "rsync"),  # the deploy workflow stops the service, rsyncs, restarts
            ("simplemap.safecast.org",),  # the server the MCP binary is deployed to
            ("analytics.duckdb",),  # the server directory also holds the DuckDB analytics file
            ("workflow_dispatch",),  # a deploy can be started by hand from the Actions UI
        ),
    ),
    (
        "jdx-mise__entire-checkpoints-v1__71__b56c467073__0__full.jsonl.gz",
        (
            ("wildcard.rs", "redact"),  # the redaction matcher (`mise env --redacted` uses it too)
            ("codex/",),  # the agent's branches are named codex/…
            ("conventional",),  # conventional commit messages (fix(env): …)
        ),
    ),
    (
        "jdx-hk__entire-checkpoints-v1__df__56f4cfedbc__0__full.jsonl.gz",
        (
            ("nscloud-cache-action", "v1.4.3"),  # the pinned SHA is v1.4.3, not the v1 tag
            ("zizmor: ignore",),  # how a finding is suppressed inline in a workflow
            ("codex/",),  # the agent's branches are named codex/…
            ("conventional",),  # PR titles and commits are conventional commits (the repo's rules)
            ("PR", "generated by"),  # a PR body says it was generated by Codex
        ),
    ),
    (
        "jdx-communique__entire-checkpoints-v1__42__7d4e76cb81__0__full.jsonl.gz",
        (
            ("kdl", "1.95"),  # kdl 6.7.1 needs rustc 1.95: the default 1.93 toolchain cannot build
            ("generate.rs", "model"),  # the default model is set in src/generate.rs
            ("detect_provider|auto-detect", "openai"),  # claude* → Anthropic, any other → OpenAI
            ("Unreleased", "changelog"),  # changes are noted under CHANGELOG.md's [Unreleased]
        ),
    ),
    (
        f"{_EN}19__1cb6003d79__0__full.jsonl.gz",
        (
            ("mise run lint",),  # ran and passed (golangci-lint: 0 issues)
            ("mise run fmt",),  # ran and passed (gofmt -w .)
            ("CollapseWhitespace",),  # stringutil's helper: newlines collapsed before display
            ("manual_commit_hooks.go", "Entire-Checkpoint|trailer"),  # builds the commit's trailer
        ),
    ),
    (
        f"{_OMP}d7__ecded13dbf__0__full.jsonl.gz",
        (
            ("deps.tar.xz",),  # releases carry a Go deps tarball (for offline distro builds)
            ("post.ps1", "sha256|themes.zip"),  # build/post.ps1 zips themes, hashes dist files
            ("conventional", "commit"),  # commits follow the repo's conventional-commit skill
            ("code-changes",),  # the user's skill for issue → shipped code, analysis first
        ),
    ),
    (
        f"{_CE}6b__7fad164b2b__0__full.jsonl.gz",
        (
            ("codex-provider.ts",),  # src/shared/providers/codex-provider.ts runs the Codex CLI
            ("CODEX_API_KEY",),  # the Codex provider needs CODEX_API_KEY or `codex login`
        ),
    ),
    (
        "EntityProcess-agentv__entire-checkpoints-v1__1e__d266d094ed__1__full.jsonl.gz",
        (
            ("claim", "in-progress"),  # AGENTS.md: issues are claimed with the in-progress label
            ("squash",),  # AGENTS.md: PRs are squash-merged
            ("uv run",),  # AGENTS.md: Python scripts run with uv run
        ),
    ),
    (
        f"{_CB}c9__61fe9a7d37__0__full.jsonl.gz",
        (
            ("MFA", "key stability"),  # the user: MFA stays first, for the key stability questions
            ("encryptionMode",),  # FolderMetadata.encryptionMode ('GCM') lets CTR come in later
            ("100MB|100 MB",),  # files are encrypted whole in memory, up to 100 MB
            ("@cipherbox/crypto|packages/crypto",),  # where the AES/ECIES code lives
            ("gsd:insert-phase",),  # urgent work goes in as a decimal phase (12.1)
        ),
    ),
    (
        f"{_SC}cf__7ea6b10bab__0__full.jsonl.gz",
        (
            ("go/cmd/mcp-server", "tool_"),  # each MCP tool is defined in its own tool_*.go file
            ("_ai_generated_note",),  # every tool's response carries a note to show verbatim
        ),
    ),
    (
        "jdx-mise__entire-checkpoints-v1__a3__dbe1ca0817__0__full.jsonl.gz",
        (
            ("xtasks/release-plz",),  # the CI-only release script: publishes crates, pushes tags
            ("vfox", "subcrate|independent"),  # subcrates are versioned and tagged independently
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        "jdx-hk__entire-checkpoints-v1__2a__d768bbbb7b__0__full.jsonl.gz",
        (
            ("mise run test:bats:libgit2",),  # ran and passed: the bats suite with HK_LIBGIT2=1
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        f"{_EN}0f__8a8e9ee9a2__0__full.jsonl.gz",
        # cmd/entire/cli/setup.go installs and removes the shell-completion stanza
        (("setup.go", "completion|stanza"),),
    ),
    (
        f"{_OMP}a1__5c30369ec4__0__full.jsonl.gz",
        (
            ("src/shell/scripts",),  # each shell's init script (omp.bash …), embedded by its .go
            ("supportedShells",),  # src/cli/init.go's list of shells `init` accepts
            ("YASH_PS1R|POST_PROMPT_COMMAND",),  # yash's extras over bash: right prompt, preexec
            ("ble.sh",),  # bash gets a right prompt only under ble.sh
        ),
    ),
    (
        f"{_CE}92__f5148183c0__0__full.jsonl.gz",
        (
            ("cursor-provider", "stdin"),  # Cursor's `agent` CLI gets its prompt on stdin (E2BIG)
            ("rtk test",),  # ran and passed: `rtk test bun run test` (rtk has no `bun` subcommand)
            ("remediation", "engine.ts"),  # src/shared/remediation/engine.ts runs a remediation
        ),
    ),
    (
        f"{_CB}04__6f4c1b3b1e__5__full.jsonl.gz",
        (
            ("file", "HKDF"),  # file IPNS keys are HKDF-derived today (vault, registry too)
            ("multi-writer|read-only sharing",),  # read-only sharing only: multi-writer IPNS is v3
            ("METADATA_SCHEMAS.md",),  # docs/METADATA_SCHEMAS.md: every metadata schema
            (".planning/todos",),  # GSD todos: .planning/todos/pending → done, listed in STATE.md
            ("prettier", "markdownlint"),  # the pre-commit hook runs eslint/markdownlint/prettier
            ("main", "pull"),  # the user: back to main and pull the latest between tasks
        ),
    ),
    (
        f"{_SC}53__15e2b1a87b__0__full.jsonl.gz",
        (
            ("web-chat", "index.html"),  # the chat UI is go/cmd/web-chat/index.html
            ("logo", "avatar"),  # the user: the assistant's avatar is the Safecast logo
            ("Build and Deploy",),  # the workflow a push to main starts (deploys the server)
        ),
    ),
)
