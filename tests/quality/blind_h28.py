"""split.txt's 2026-11-23 "h28blind" block: nineteen real sessions of six projects new to the corpus
(seventeen English, two Japanese; Claude Code and Codex; tests/fixtures/shared/README.md says where
each comes from), labelled DENSELY the gold way — each read whole (the user's messages, the agent's
answers and sub-agent reports, the commands and their results) and everything written down that the
person whose memory it is would want their agent to know next time: the goal when it names
something durable, project facts the session established, commands that ran and worked, the user's
decisions and directives, fixes, conventions — BEFORE the writer ran on any of them.

Kept unrun until h28judge froze its judge, then run once on main-at-start (890c6a93) and once
on the judge's frozen commit (the paired A/B of issue 24's "rules propose, a judge disposes");
only after both figures were posted did the block join the tuned-on part.

Each row: name, file under tests/fixtures/shared (its folder says claude-code or codex), the
items (fragments one note must all contain; `a|b` is met by either spelling), the language.
"""

from __future__ import annotations

_SKILLS = "entireio-skills__entire-checkpoints-v1__"
_CYSP = "chikachow-cyspbot__entire-checkpoints__"
_IMSG = "stat-guy-imessage-mail__entire-checkpoints-v1__"
_NV = "darthzen-neuvector-mcp__entire-checkpoints__"
_TIJ = "nakamura-shuta-tij__entire-checkpoints-v1__"
_CC = "ClusterCockpit-cc-backend__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

BLIND_H28_LABELS: tuple[Label, ...] = (
    (
        "entireio/skills: agent-plugins renamed skills (en)",
        f"claude-code/{_SKILLS}3d__ef2a97d2c3__0__full.jsonl.gz",
        (
            ("agent-plugins", "skills"),  # the user's goal: the repo/package is now `skills`
            ("plugins/entire/skills",),  # where the skills live (explain, search, session-handoff)
            ("entire-skills",),  # the Claude marketplace's name (.claude-plugin/marketplace.json)
            (".opencode/INSTALL.md",),  # OpenCode's install doc (plugin entry in opencode config)
            ("GEMINI.md",),  # Gemini's context file imports the session-handoff skill
        ),
        "en",
    ),
    (
        "entireio/skills: flat layout like cc-skills-golang, version 0.3.0 (en)",
        f"claude-code/{_SKILLS}ae__338bf9605e__0__full.jsonl.gz",
        (
            ("cc-skills-golang",),  # the user's: follow its install layout (Cursor installs broke)
            ("skills/", "plugins/entire"),  # skills moved from plugins/entire/skills to skills/
            ("version", "gemini-extension.json"),  # versions kept in sync in every manifest
            ("0.3.0",),  # the user's: 0.3.0, someone else merges a 0.2.0
            ("contextFileName",),  # dropped from gemini-extension.json once GEMINI.md went
            (".opencode/plugins/entire.js",),  # package.json main: registers the skills dir
            ("cursor", "~/.cursor/skills"),  # Cursor/Codex/Copilot install by clone/symlink there
        ),
        "en",
    ),
    (
        "entireio/skills: issue 6, skills found by the installer (en, Codex)",
        f"codex/{_SKILLS}10__196f206d8a__0__full.jsonl.gz",
        (
            ("SKILL.md", "name", "description"),  # `skills` installer needs both in frontmatter
            ("skills@1.5.2 add", "--list"),  # the repro that ran: Found 1 skill -> Found 4 skills
            ("issues/6|issue #6|issue 6",),  # the user's goal: fix issue #6 (skill discovery)
            ("what-happened", "session-handoff"),  # the repo's four skills
        ),
        "en",
    ),
    (
        "entireio/skills: the What Happened skill reviewed and made cheaper (en, Codex)",
        f"codex/{_SKILLS}d6__54a3e78b3c__0__full.jsonl.gz",
        (
            ("What Happened", "wat"),  # the user's: the skill is "What Happened", not wat any more
            ("entire explain --commit", "--short"),  # checked fast: finds the checkpoint first
            ("--full", "--raw-transcript"),  # escalate only as needed, raw transcript last
            ("git show --no-patch",),  # the fallback when entire explain fails (no session scan)
            ("entire explain", "dedup|unique|once per commit"),  # one lookup per unique commit
            ("entire", "0.5.5"),  # the installed Entire CLI
            ("what-happened", "SKILL.md"),  # plugins/entire/skills/what-happened/SKILL.md
        ),
        "en",
    ),
    (
        "cyspbot: a token exchange denied for the repository (en, Codex)",
        f"codex/{_CYSP}6a__6cf1d0955f6a__0__full.jsonl.gz",
        (
            ("deny_reasons", "principalRepository"),  # "repository": no rule for that repository
            (
                "token-policy-rules.ts",
            ),  # the allow rules (workers/cyspbot-token-exchange/src/policy)
            ("cyspbot-deploy", "rule|policy"),  # its update-cyspbot workflow is allowed (6104c7b)
            ("node --run check",),  # the repository's check path (docs/implementation.md)
            ("cyspbot-token-exchange",),  # the Worker that issues installation tokens
        ),
        "en",
    ),
    (
        "cyspbot: branch sync, SSH keychain, gh as git credential helper (en, Codex)",
        f"codex/{_CYSP}5b__cfea8c08dd5b__0__full.jsonl.gz",
        (
            ("git merge --ff-only origin/main",),  # the branch sync: fetch, then fast-forward only
            ("https://github.com/chikachow/cyspbot.git",),  # origin is HTTPS now (SSH failed)
            ("gh auth git-credential", "global"),  # the user's: the helper set globally
            ("id_ed25519_github",),  # the SSH key: encrypted, Keychain refuses non-interactively
            ("gh auth login", "--git-protocol https"),  # fixed the invalid gh token
            ("gh auth status", "sandbox"),  # sandboxed gh sees a stale token; run it outside
        ),
        "en",
    ),
    (
        "cyspbot: failed production deployments traced and cleaned up (en, Codex)",
        f"codex/{_CYSP}2c__ee170305c92c__0__full.jsonl.gz",
        (
            ("chikachow/cyspbot-deploy", "deploy"),  # production is deployed from that repo now
            ("wrangler-action", "pnpm"),  # old deploy.yml failed: no pnpm on the runner
            ("gh api -X DELETE", "deployments"),  # stale deployment records deleted this way
            ("ci.yml", "ci-test"),  # CI: ci.yml calls reusable ci-format/lint/typecheck/test...
            ("@cyspbot/token-exchange", "github-webhook-receiver"),  # the deployable Workers
        ),
        "en",
    ),
    (
        "cyspbot: an OIDC trust-boundary review, PR 83 rebase-merged (en, Codex)",
        f"codex/{_CYSP}4d__22222ed5984d__0__full.jsonl.gz",
        (
            ("fnm exec --using=24", "node --run check"),  # the full gate, green under Node 24
            ("ERR_PNPM_UNSUPPORTED_ENGINE|engines.node|.nvmrc", "24"),  # Node 24 required
            ("listen EPERM|localhost", "sandbox"),  # vitest cannot listen inside the sandbox
            ("gh pr merge", "--rebase"),  # the user's: merge with the rebase method
            ("approve", "own pull request|self-approv|author"),  # cysp cannot approve own PRs
            ("VerifiedOidcToken",),  # binding gets the verified token (signature, issuer first)
        ),
        "en",
    ),
    (
        "imessage-mail: pre-loaded context in the skill (en)",
        f"claude-code/{_IMSG}aa__13cb34771d__0__full.jsonl.gz",
        (
            ("~/.claude/skills/imessage-mail",),  # the installed skill, copied into the repo
            ("Pre-loaded Context",),  # SKILL.md injects recent contacts/unread mail via !`cmd`
            ("chat.db", "978307200"),  # iMessage dates: date/1e9 + 978307200 (unixepoch)
            ("Envelope Index",),  # Apple Mail's database (~/Library/Mail/V10/MailData)
        ),
        "en",
    ),
    (
        "imessage-mail: the skill published on GitHub with Entire's trace (en)",
        f"claude-code/{_IMSG}57__e8437ebd48__0__full.jsonl.gz",
        (
            ("sensitive", "generic"),  # the user's: never push sensitive data; generic examples
            ("stat-guy/imessage-mail",),  # the public repo (gh repo create … --public)
            (".entire/trace.log",),  # the user's: push Entire's trace file too
            ("permission", "allow"),  # README: Apple asks once, "Allow" and it stays allowed
            ("metadata/", ".entire/.gitignore"),  # it ignored metadata/; changed to push it
            ("failed to get HEAD|no commits|no prior commit", "checkpoint"),  # why 0 checkpoints
            ("merge", "own|yourself|without asking"),  # the user's: resolve merge issues yourself
            ("t363-demo",),  # where the skill was first built (session 8850d460)
        ),
        "en",
    ),
    (
        "neuvector-mcp: ticket T-001 farmed out, the scaffold merged (en)",
        f"claude-code/{_NV}3Q__01KYTH4NZXXK84BBHCMRWB4S3Q__0__full.jsonl.gz",
        (
            ("agent-tools.py next",),  # the ticket toolkit: next/show/start/verify/finish
            ("agent-tools.py finish",),  # branches, commits, PR, squash-merge, closes the issue
            ("make install PY=.venv/bin/python",),  # Python 3.14.5, fastmcp 3.4.5
            ("make spec",),  # verify_spec: R1–R9
            ("make test", "85"),  # 11 passed but coverage 76 < fail-under 85 on the scaffold
            ("make verify", "default_acceptance|config.yaml"),  # fails on the reference core
            ("Generated-By", "claude-opus-5"),  # the user's answer: the trailer names this session
            (".coverage", ".gitignore"),  # not ignored: finish reports a dirty tree
        ),
        "en",
    ),
    (
        "neuvector-mcp: 1.0.3 built in-cluster and rolled out (en)",
        f"claude-code/{_NV}65__01KYV7YNHZWC43H8ZKKF4FJF65__0__full.jsonl.gz",
        (
            ("SERVER_VERSION", "uv lock"),  # a version bump: pyproject, uv.lock, __init__, server…
            ("make verify", "uv run python"),  # green: 433 passed, 97% coverage
            ("registry.ash4d.com/ash4d-lab/neuvector-mcp",),  # where images are pushed
            ("buildkit", "buildctl"),  # built by a throwaway rootless BuildKit pod in the cluster
            ("kubectl -n neuvector-mcp set image",),  # the rollout
            ("~/.claude/handoffs",),  # the project's handoff document
            ("git diff origin/main HEAD",),  # squash merges: compare trees, not commit counts
            ("iCloud",),  # the repo lives in iCloud Drive: conflict copies like `uv 2.lock`
            ("192.168.7.166:8080",),  # the deployed MCP server the session's client points at
        ),
        "en",
    ),
    (
        "neuvector-mcp: config transfer left out, kept on its branch (en)",
        f"claude-code/{_NV}QB__01KYWBM2B4NN92TWN4QVJVZZQB__0__full.jsonl.gz",
        (
            ("feat/config-transfer",),  # the user's: leave it out, preserve it on its own branch
            ("/v1/file", "secret"),  # why gated: exports carry credentials (and are huge)
            ("_safe_json", "500"),  # client.request truncates non-JSON bodies to 500 chars
            ("make lint",),  # ruff check + format check
            ("make types",),  # mypy
            ("make test", "background|120"),  # the suite outlasts a 120 s command: background it
            ("TOOLS.md", "exclu"),  # neuvector-mcp-spec/TOOLS.md records what is left out
            ("apis.go", "5.6.0"),  # wire shapes come from NeuVector 5.6.0's controller/api
        ),
        "en",
    ),
    (
        "tij: rebase by revset (Phase 29), then fetch --tracked, released (ja)",
        f"claude-code/{_TIJ}3c__79e00521d9__0__full.jsonl.gz",
        (
            ("jj bookmark set main -r @",),  # the release: describe, move main, push it
            ("jj git push -b main",),
            ("tag", "release.yml"),  # a pushed v* tag runs release.yml: cargo publish, binaries
            ("homebrew-tij",),  # homebrew.yml then updates the Homebrew formula
            ("cargo clippy",),  # fmt, clippy, test: green before every commit
            ("cargo test",),
            ("cargo fmt",),
            (".work/docs/spec-detail",),  # each phase's SoW; plan.md is the summary
            (".work", "gitignore|ignored|無視"),  # .work is ignored by git: not committed
            ("mytest-private-repository",),  # where changes are tried by hand
            ("plan.md", "README"),  # the user's: update both, then commit, push, publish
            ("revset", "jj"),  # a revset goes to jj rebase as is: jj validates it
            ("cargo build --release",),  # target/release/tij for the manual check
        ),
        "ja",
    ),
    (
        "tij: refactorings R5+R6+R7 (ja)",
        f"claude-code/{_TIJ}68__b88a394690__1__full.jsonl.gz",
        (
            ("R5", "R6", "R7"),  # the goal: the refactoring plan's last three (R1-R4, R8 done)
            ("rebase_unified",),  # one JjExecutor rebase method replaces ten
            ("model/rebase.rs",),  # RebaseMode moved to the model layer
            ("run_jj_action",),  # the helper for simple Ok/Err jj actions
            ("run_jj_action", "message|文言"),  # review: the old error messages are kept
            ("fetch_diff_content",),  # the diff-format fetch helper
            ("binary crate|バイナリクレート",),  # so JjExecutor's pub API need not stay stable
            ("cargo fmt --check",),
            ("cargo clippy",),  # zero warnings
            ("cargo test",),  # 620 unit tests and the integration scenarios
        ),
        "ja",
    ),
    (
        "cc-backend: fmt and lint make targets, gopls.json (en)",
        f"claude-code/{_CC}53__425877e242__0__full.jsonl.gz",
        (
            ("make fmt",),  # gofumpt -l -w . over every Go file
            ("make lint",),  # golangci-lint run ./... with .golangci.yml
            ("gopls.json",),  # project-specific gopls settings at the module root
            ("directoryFilters",),  # var, web/frontend, testdata… left out of gopls' index
            ("golangci-lint", "install script|go install"),  # the official script, not go install
        ),
        "en",
    ),
    (
        "cc-backend: .golangci.yml made valid for golangci-lint v2 (en)",
        f"claude-code/{_CC}1a__908bd95cfa__0__full.jsonl.gz",
        (
            ("golangci-lint", "version"),  # v2 (2.10.1 here) needs version: "2" in .golangci.yml
            ("gofumpt", "formatter"),  # v2: gofumpt goes under formatters, not linters
            ("golangci-lint run",),  # loads the config and reports findings
        ),
        "en",
    ),
    (
        "cc-backend: the Log view's auto refresh loop (en)",
        f"claude-code/{_CC}0f__c6e5388e08__0__full.jsonl.gz",
        (
            ("timer", "$state"),  # the fix: the interval id is a plain variable, not $state
            ("npm run build",),  # in web/frontend: the frontend build
        ),
        "en",
    ),
    (
        "cc-backend: Keycloak realm roles over OIDC (en)",
        f"claude-code/{_CC}bb__e9ad3cf817__0__full.jsonl.gz",
        (
            ("realm_access", "ID token|idToken"),  # Keycloak's roles are in the ID token only
            ("resource_access", "client"),  # every client's roles merged, no fixed client name
            ("-loglevel debug",),  # shows the new OIDC claim logging
            ("internal/auth/oidc.go",),  # where OIDC login builds the user
            ("go build",),  # go build ./internal/auth/... compiled clean
        ),
        "en",
    ),
)
