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
    (
        "jdx-mise__entire-checkpoints-v1__37__c30f3fe0b7__0__full.jsonl.gz",
        (
            ("build-copr.sh",),  # packaging/copr/build-copr.sh writes the COPR spec and builds it
            ("aws-lc", "LDFLAGS"),  # aws-lc-sys's probe ignores CFLAGS but takes LDFLAGS (-fPIE)
            ("AI-generated|generated by an AI",),  # the repo wants replies and PRs marked AI-made
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        "jdx-hk__entire-checkpoints-v1__a3__e13cc6b6d2__0__full.jsonl.gz",
        (
            ("config.pkl", "merge"),  # global ~/.config/hk/config.pkl and hk.pkl merged, no amends
            ("cache.rs", "atomic"),  # cache files are written in place: no lock, no atomic rename
            ("subcommands", "sorted"),  # a unit test keeps the CLI's subcommands sorted
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        f"{_EN}25__9e16a0e452__0__full.jsonl.gz",
        (
            ("mise run test",),  # ran and passed (go test ./...)
            ("mise run lint",),  # ran and passed (golangci-lint: 0 issues)
            ("mise run test:integration",),  # the integration tests (-tags=integration) passed
            ("--disable-multisession-warning",),  # the enable flag that silences the warning
            ("multi-session|multisession", "interactive|prompt"),  # the user: a flag, no prompt
            ("settings.local.json",),  # `entire enable --local` writes .entire/settings.local.json
            ("checkConcurrentSessions",),  # hooks_claudecode_handlers.go: the concurrent warning
            ("workflows:plan|workflows:work",),  # the team's plan-then-work commands
        ),
    ),
    (
        f"{_OMP}9c__fbeb544e7f__0__full.jsonl.gz",
        (
            ("fixup", "lease"),  # the user: fix up the commit that made it, force-push with lease
            ("segment_types.go",),  # src/config/segment_types.go maps segment types to writers
        ),
    ),
    (
        f"{_CE}8b__c8fff8c659__2__full.jsonl.gz",
        # src/api/routes/remediation.ts's evaluateImpact evaluates the patched clone
        (("evaluateImpact", "remediation.ts"),),
    ),
    (
        f"{_CB}58__0853e62d60__0__full.jsonl.gz",
        (
            ("orval", "openapi.json"),  # api:generate: OpenAPI spec → orval web client → lint:fix
            ("testPathPattern",),  # `-- --testPathPattern=…` ran no test: pass the name instead
            ("entire.io/install.sh",),  # how Entire CLI is installed and updated
            ("shadow branch", "checkpoint"),  # Entire's checkpoints live on a shadow branch
            ("Growth Plan",),  # Web3Auth's custom JWT verifier needs the Growth Plan in prod
        ),
    ),
    (
        f"{_SC}0c__fb002d4dd4__0__full.jsonl.gz",
        (
            ("simplemap.safecast.org/mcp-http",),  # the MCP URL to add to Claude (HTTP transport)
            ("8765",),  # the map server's port behind nginx
            ("3334", "assistant|chat"),  # the web chat's port (/assistant/)
            ("nginx",),  # the server's proxy is nginx (the README said Apache)
            ("CLOUDFRONT_DEPLOYMENT.md",),  # docs/CLOUDFRONT_DEPLOYMENT.md: the traffic flow
            ("65.108.24.131",),  # the server's address
        ),
    ),
    (
        "jdx-mise__entire-checkpoints-v1__56__19a3025102__0__full.jsonl.gz",
        (
            ("registry/", "backends"),  # registry/<tool>.toml lists a tool's backends
            ("registry", "popularity"),  # a registry PR's body carries a popularity section
            ("registry:",),  # registry changes use the `registry:` commit type
            ("shorthands.rs",),  # src/shorthands.rs's test expects each registry backend
            ("AI-generated|generated by an AI",),  # the PR body says it was AI-made
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        f"{_EN}33__bdd525bfa3__0__full.jsonl.gz",
        (
            ("mise run lint",),  # ran and passed (golangci-lint: 0 issues)
            ("Entire-Session",),  # commits no longer carry an Entire-Session trailer
            ("entire session raw",),  # prints a commit's session transcript
        ),
    ),
    (
        f"{_OMP}63__1ff72e482a__0__full.jsonl.gz",
        (
            ("ANSI", "strip"),  # ANSI escapes in segment text are stripped (#7711)
            ("skills/markdown|markdown skill",),  # the repo's rules for .md/.mdx files
            ("sprig",),  # templates get sprig's functions (src/template/func_map.go)
            ("faq.mdx",),  # website/docs/faq.mdx: the FAQ
        ),
    ),
    (
        f"{_CE}18__8f64dd752f__0__full.jsonl.gz",
        # frontend/src/components/RemediateTab.tsx: the remediation tab's form
        (("RemediateTab.tsx",),),
    ),
    (
        f"{_CB}7b__a1991528fc__0__full.jsonl.gz",
        (
            ("DATABASE_EVOLUTION_PROTOCOL",),  # docs/DATABASE_EVOLUTION_PROTOCOL.md: the rules
            ("@Entity", "CREATE TABLE"),  # every @Entity() needs a CREATE TABLE migration
            ("IF NOT EXISTS",),  # migrations are idempotent (IF NOT EXISTS / IF EXISTS)
            ("synchronize",),  # synchronize: true is a dev convenience, never deployment
            ("CRDT",),  # the user's direction: solve IPNS conflicts once (CRDT research todo)
            ("delegated-ipfs.dev",),  # IPNS is resolved through delegated-ipfs.dev (502s)
            ("resolveReviewThread",),  # how review threads were resolved (gh api graphql)
            ("share_keys",),  # sharing keeps ECIES-wrapped keys in shares/share_keys tables
            ("main", "pull"),  # the user: back to main, pull, a docs branch and a PR
        ),
    ),
    (
        f"{_SC}41__ffd882bfb2__0__full.jsonl.gz",
        (
            ("entire status",),  # shows Entire's mode and active sessions
            ("entire", ".claude/settings.json"),  # Entire's hooks sit in .claude/settings.json
        ),
    ),
    (
        "jdx-mise__entire-checkpoints-v1__08__f468d8cae5__0__full.jsonl.gz",
        (
            ("RUST_BACKTRACE",),  # CI runs the e2e tests with RUST_BACKTRACE=1 (long error output)
            ("mise trust",),  # untrusted task includes are refused until `mise trust`
            ("codex/",),  # the agent's branches are named codex/…
        ),
    ),
    (
        f"{_EN}3b__ff9e85c79b__0__full.jsonl.gz",
        (
            ("mise run test:integration",),  # the integration suite, passing after the fix
            ("mise run lint",),  # ran and passed (golangci-lint: 0 issues)
            ("mise run fmt",),  # ran and passed (gofmt -w .)
            ("-count=1",),  # cached integration results hid the state: -count=1 reruns them
            ("resume", "uncommitted"),  # `entire resume` refuses to switch with uncommitted changes
            ("hard_reset_test.go",),  # regression tests for go-git's checkout/reset deletions
        ),
    ),
    (
        f"{_OMP}41__5f73d35669__0__full.jsonl.gz",
        (
            ("omp_repaint_prompt",),  # fish's public repaint function (documented in the FAQ)
            ("vimode", "zsh"),  # zsh's vi-mode indicator: the vimode segment, _omp_enable_vimode
            ("Enable-PoshVIMode",),  # PowerShell's vi-mode equivalent
            ("readline", "repaint"),  # bash's readline has no supported way to repaint the prompt
        ),
    ),
    (
        f"{_CE}2d__f95bcf1603__0__full.jsonl.gz",
        # the user's design: the Action Summary groups actions by target file, no strategy badge
        (("Action Summary", "target file|by file"),),
    ),
    (
        f"{_CB}92__e5c6093780__0__full.jsonl.gz",
        (
            ("FUSE", "rename", "SMB"),  # the goal: mv fails with EPERM on FUSE-T's SMB backend
            ("SMB", "NFS"),  # the mount uses FUSE-T's SMB backend: NFS hangs on new-file writes
            ("access", "uid"),  # operations.rs's access() rejects a uid unlike the inode's
            ("getuid", "req.uid"),  # inode uids: getuid() for populated, req.uid() for created
        ),
    ),
    (
        f"{_SC}95__f4bcf55635__0__full.jsonl.gz",
        (
            ("claude_web.go",),  # test/claude_web.go: a web chat over the Claude CLI (:8080)
            ("realtime_measurements",),  # real-time sensor readings' table (markers: bGeigie logs)
            ("J305", "100"),  # the bGeigie's J305 tube: µSv/h = CPM / 100
        ),
    ),
    (
        f"{_EN}40__80b6c2257f__0__full.jsonl.gz",
        (
            ("mise run lint",),  # ran and passed
            ("mise run fmt",),  # ran and passed (gofmt -s -w .)
            ("mise run test:integration",),  # ran and passed
            ("mise run test:ci",),  # ran and passed: go test -tags=integration -race ./...
            ("checkpoint-scenarios.md",),  # docs/architecture/checkpoint-scenarios.md
            ("e2e_test",),  # cmd/entire/cli/e2e_test: the e2e scenarios (build tag e2e)
        ),
    ),
    (
        f"{_OMP}55__d5cdc9f52a__1__full.jsonl.gz",
        # .Interrupted in a transient prompt (--interrupted): only zsh passes it
        (("Interrupted", "zsh"),),
    ),
    (
        f"{_CE}3d__da33aeff7e__1__full.jsonl.gz",
        (
            ("context-remediation", "SKILL.md"),  # skills/context-remediation/SKILL.md
            ("standard", "skill", "always"),  # standards always loaded; skills on demand
            ("agent-agnostic",),  # the user: the remediation instructions stay agent-agnostic
        ),
    ),
    (
        f"{_SC}52__c8f0ec9cd6__0__full.jsonl.gz",
        (
            ("Swagger", "/docs"),  # the REST API's Swagger UI is served at /docs/
            ("DATABASE_URL",),  # the DB is optional: without DATABASE_URL, the Safecast API
            ("minerva-onboarding.md",),  # the Minerva students' onboarding page
        ),
    ),
    (
        f"{_EN}51__0c10bf7b7a__0__full.jsonl.gz",
        (
            ("EnsureEntireGitignore",),  # strategy/common.go keeps .entire/.gitignore's entries
            (".entire/.gitignore", "logs"),  # .entire/logs/ is ignored too
            ("workflows:review",),  # the team's multi-agent review command
        ),
    ),
    (
        f"{_OMP}52__ce428f6a9c__0__full.jsonl.gz",
        # GoReleaser refuses an untracked (dirty) tree; it honours .gitignore
        (("goreleaser", "dirty"),),
    ),
    (
        f"{_EN}61__a440d894cc__0__full.jsonl.gz",
        (
            ("sync-fork-checkpoints",),  # the action that imports a fork's checkpoints on merge
            ("cherry-pick", "checkpoint"),  # the user: keep the fork's commits, cherry-picked
            ("Checkpoint:", "subject"),  # on entire/checkpoints/v1 the id is the commit subject
            ("push_sessions", "prompt"),  # strategy_options.push_sessions: auto, prompt, false
        ),
    ),
    (
        f"{_EN}7f__fca5503682__0__full.jsonl.gz",
        (
            ("goconst",),  # golangci-lint's goconst: a repeated string becomes a constant
            ("SA5011|staticcheck", "return"),  # staticcheck wants a return after t.Fatal
        ),
    ),
    (
        f"{_EN}89__7eb280e769__20__full.jsonl.gz",
        (
            ("entire-wrapper.sh", "ENTIRE_LOCAL_DEV"),  # hooks run go run when ENTIRE_LOCAL_DEV=1
            (".env", "source"),  # never source .env under set -u: read only ENTIRE_LOCAL_DEV
            ("mise run lint",),  # ran and passed
            ("mise run fmt",),  # ran and passed
            ("geminicli/hooks.go|entireHookPrefixes",),  # where Gemini's hooks are installed
        ),
    ),
    (
        f"{_EN}bc__b1ad8ffbac__0__full.jsonl.gz",
        (
            ("mise run lint",),  # ran and passed after the nolint/noctx fixes
            ("hook_registry.go", "git"),  # the user: one no-git check for every agent's hooks
            ("noctx", "CommandContext"),  # golangci-lint's noctx: exec.CommandContext in tests
            ("RepoRoot", "git init"),  # paths.RepoRoot needs a real `git init`, not a .git dir
        ),
    ),
    (
        f"{_EN}29__47d03374d0__0__full.jsonl.gz",
        # a CheckpointID is a 12-character hex id (checkpoint/id)
        (("CheckpointID", "12"),),
    ),
)
