"""split.txt's 2026-11-23 block (tuned on): more Japanese and Portuguese sessions, labelled by
reading each transcript whole before the offline writer ran on it — what a careful developer
of that project would keep, found or not. Kept apart from corpus.py so that labels of other
blocks merge without conflict; corpus.py turns each row into a `WriterCase`.

Each row: name, file under tests/fixtures/shared/claude-code, the items (fragments one note
must all contain; `a|b` is met by either spelling), and the session's language.
"""

from __future__ import annotations

_MEOW = "135yshr-meow__entire-checkpoints-v1__"
_FIT = "Viniciuscarvalho-FitToday__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

INTL_LABELS: tuple[Label, ...] = (
    (
        "meow: a CI failure after setup-go v6 (ja)",
        f"{_MEOW}f0__7df40725a7__0__full.jsonl.gz",
        (
            ("1.26",),  # go.mod requires go 1.26.0: CI tests no older Go
            ("GOTOOLCHAIN",),  # setup-go v6 sets GOTOOLCHAIN=local
        ),
        "ja",
    ),
    (
        "meow: a review's arity check for built-ins (ja)",
        f"{_MEOW}66__92ebc77178__0__full.jsonl.gz",
        (("go test ./...",),),
        "ja",
    ),
    (
        "meow: the site's GA4 measurement ID (ja)",
        f"{_MEOW}8a__4166fa7f5f__0__full.jsonl.gz",
        (("G-081QKVSS83",),),  # the user's correction: the right measurement ID
        "ja",
    ),
    (
        "meow: the hello example keeps its type annotations (ja)",
        f"{_MEOW}21__108c718e58__0__full.jsonl.gz",
        (
            ("型注釈|type annotation",),  # parameters and results must be annotated
            ("go run ./cmd/meow run",),  # how a .nyan program is run
            ("Nyantyu",),  # the project's placeholder names
        ),
        "ja",
    ),
    (
        "meow: security fixes from a plan (ja)",
        f"{_MEOW}b6__87f00538b6__0__full.jsonl.gz",
        (
            ("goal", "セキュリティ|security"),
            ("go test ./...",),
            ("go vet",),
            ("SECURITY.md", "SSRF|パストラバーサル|path traversal"),  # by design, documented
            ("${{", "env"),  # workflow step outputs pass through env, not ${{ }} in scripts
        ),
        "ja",
    ),
    (
        "meow: to_runes and a byte type (ja)",
        f"{_MEOW}9c__ac748559e3__0__full.jsonl.gz",
        (
            ("to_runes",),  # the user's choice: no implicit string iteration in purr
            ("ByteType|byte型|byte type",),
            ("go test ./...",),
            ("go test ./compiler/ -update",),  # regenerates the golden files
            ("go run ./cmd/meow run",),
        ),
        "ja",
    ),
    (
        "FitToday: crash and screen bugs through the feature-marker skill (pt)",
        f"{_FIT}66__1a284558a3__0__full.jsonl.gz",
        (
            ("WorkoutCompositionFlowTests",),  # failing before the change (sub-agent report)
            ("SourceKit",),  # its diagnostics are false positives; the build passes
        ),
        "pt",
    ),
    (
        "FitToday: Apple's EULA as the Terms link (pt)",
        f"{_FIT}f4__473875393c__7__full.jsonl.gz",
        (
            ("stdeula",),  # the user's decision: Apple's standard EULA
            ("RevenueCat", "dashboard"),  # the paywall's links come from the dashboard
            ("deploy.sh", "appstore"),
        ),
        "pt",
    ),
    (
        "FitToday: Terms and Privacy links on the paywall (en)",
        f"{_FIT}4d__ae7bf07b83__6__full.jsonl.gz",
        (
            ("goal", "paywall"),
            ("xcodebuild -scheme FitToday",),
            ("Localizable.strings",),  # en and pt-BR strings live there
            ("SourceKit",),
        ),
        "en",
    ),
    (
        "FitToday: the social feed behind a Remote Config flag (pt)",
        f"{_FIT}4a__8c33dc1758__1__full.jsonl.gz",
        (
            ("Remote Config", "flag"),  # the user's rule for the PRO-89 feature
            ("remoteconfig.template.json",),
            ("XCTest", "SourceKit"),
        ),
        "pt",
    ),
    (
        "FitToday: issues #41-#43 after a summary (pt)",
        f"{_FIT}74__73a72bbf1d__0__full.jsonl.gz",
        (
            ("xcodebuild -project FitToday/FitToday.xcodeproj",),
            ("26.1",),  # the test target's simulator deployment target
            ("FitOrb", "paywall"),  # the user's rule: a paywall past the free question
        ),
        "pt",
    ),
)

# split.txt's "2026-11-23 (h25intl)" block (tuned on): sessions of three OTHER projects,
# labelled by reading each transcript whole, the labels committed before the writer ran on them.
_REPIQ = "yutakobayashidev-repiq__entire-checkpoints-v1__"
_EXVS = "dOwOd-exvs2-cost-calculator__entire-checkpoints-v1__"
_REEF = "matthsena-reef-coder__entire-checkpoints-v1__"

INTL_LABELS_2: tuple[Label, ...] = (
    (
        "repiq: the commit convention moves to the account's rules (ja)",
        f"{_REPIQ}f4__784ee5a009__2__full.jsonl.gz",
        (
            ("dotnix/claude/rules",),  # the user's correction: account rules live there
            ("--no-verify|pre-commit install -f",),  # the commit-msg hook fails (migration mode)
        ),
        "ja",
    ),
    (
        "repiq: license and monthly downloads, a release, a fields spec (ja)",
        f"{_REPIQ}f4__784ee5a009__0__full.jsonl.gz",
        (
            ("go test ./...",),
            ("golangci-lint run",),
            ("goreleaser",),  # a tag push releases through CI; never `gh release create`
            ("no-verify",),  # the user's instruction while the commit-msg hook is broken
            ("--fields",),  # the user's answers: output filter only, unknown fields ignored
            ("tasks/lessons.md",),  # tracked in git; tasks/todo.md stays ignored
        ),
        "ja",
    ),
    (
        "repiq: the mcp epic dropped, the commit-msg hook repaired (ja)",
        f"{_REPIQ}24__723c7a3c59__1__full.jsonl.gz",
        (
            ("pre-commit install -f",),  # with core.hooksPath unset, then `entire enable`
            ("commitizen",),  # the commit-msg hook checks conventional commits
        ),
        "ja",
    ),
    (
        "exvs2: a PR's CI type check fixed (ja)",
        f"{_EXVS}fb__7a8e8e2164__0__full.jsonl.gz",
        (
            ("tsc --noEmit",),  # CI's type check
            ("pnpm test",),
            ("pnpm", "lint"),
        ),
        "ja",
    ),
    (
        "exvs2: the cookie banner's flicker on reload (ja)",
        f"{_EXVS}f3__88b8c2c65c__0__full.jsonl.gz",
        (
            ("pnpm test",),
            ("pnpm lint",),
            ("@testing-library/preact",),  # render runs effects in act(): mock the hook
        ),
        "ja",
    ),
    (
        "exvs2: PR summaries on push, a hamburger menu, one name (ja)",
        f"{_EXVS}1e__932214440b__0__full.jsonl.gz",
        (
            ("PR概要|PR summary|PR body", "push|Push|プッシュ"),  # updated on push, not commit
            ("claude-shared",),  # the commit/pr skills are symlinks into that repository
            ("pnpm test",),
            ("pnpm lint",),
            ("ハンバーガー|hamburger",),  # the user's answer for the mobile navigation
            ("計算ツール", "計算機"),  # one name: 計算機, not 計算ツール
        ),
        "ja",
    ),
    (
        "reef-coder: a slash-command preview (pt)",
        f"{_REEF}d1__d4d909c0de__0__full.jsonl.gz",
        (
            ("bunx tsc --noEmit",),  # the type check (a sub-agent ran it)
            ("bun run index.ts",),  # how the app is started
            ("commands.ts",),  # the slash commands and their descriptions
        ),
        "pt",
    ),
    (
        "reef-coder: persistent sessions across engines (pt)",
        f"{_REEF}f9__72c79dc2f8__4__full.jsonl.gz",
        (
            ("bunx tsc --noEmit",),
            (".data",),  # the user's choice: sessions in .data/, not data/
            ("mcp__acp__Bash",),  # cannot run a command with arguments: a Bash sub-agent does
            ("co-author|coauthor",),  # the user's rule: commits without Claude as co-author
        ),
        "pt",
    ),
    (
        "reef-coder: renamed, English UI, engines checked at start (pt)",
        f"{_REEF}f9__72c79dc2f8__7__full.jsonl.gz",
        (
            (".reef",),  # sessions now live in .reef/
            ("produto global|global product|English|inglês",),  # UI text in English
            ("co-author|coauthor",),  # semantic commits, one a file, no co-author
            ("mcp__acp__Bash",),
            ("codex-acp|claude-code-acp",),  # each engine's executable must be installed
        ),
        "pt",
    ),
)

# split.txt's "2026-11-23 later (h25intl)" block (tuned on): eight more sessions of the same three
# projects, labelled blind once the rules of the block above were written, the labels committed
# before the writer ran on them.
INTL_LABELS_3: tuple[Label, ...] = (
    (
        "repiq: contribution links, a commit past the broken hook (ja)",
        f"{_REPIQ}f4__784ee5a009__1__full.jsonl.gz",
        (("no-verify|pre-commit install -f",),),  # the commit-msg hook fails (migration mode)
        "ja",
    ),
    (
        "repiq: a cross-ecosystem scenario, PyPI's license_expression (ja)",
        f"{_REPIQ}f4__784ee5a009__4__full.jsonl.gz",
        (
            ("go test ./...",),
            ("go run ./cmd/repiq",),  # how the CLI is run (flags before the targets)
            ("license_expression",),  # PEP 639 packages leave PyPI's `license` null
            ("no-verify|pre-commit install -f",),
        ),
        "ja",
    ),
    (
        "exvs2: a bar chart in the comparison table, by an agent team (ja)",
        f"{_EXVS}98__1df130c781__1__full.jsonl.gz",
        (
            ("pnpm lint",),
            ("pnpm test",),
            ("pnpm format",),  # prettier --write .
            ("feature/issue-|fix/issue-",),  # one branch per issue, its number in the name
            ("eslint --fix|prettier --write",),  # what the commit hook runs on staged files
        ),
        "ja",
    ),
    (
        "exvs2: suit names in the health dropdown, scrolling (ja)",
        f"{_EXVS}fa__a499d38537__0__full.jsonl.gz",
        (
            ("pnpm test",),
            ("pnpm lint",),
            ("jsdom", "animate"),  # jsdom has no element.animate: tests skip the animation
            ("SCROLL_SPEED|同じ速度",),  # the user's wish: one speed whatever the names' length
        ),
        "ja",
    ),
    (
        "reef-coder: Markdown rendered in the terminal (pt)",
        f"{_REEF}32__d3f26f819c__0__full.jsonl.gz",
        (
            ("bunx tsc --noEmit",),
            ("bun run index.ts",),
            ("mcp__acp__Bash",),  # cannot run a command with arguments
            ("markdown.tsx|renderMarkdown",),  # the app's own Markdown renderer for Ink
        ),
        "pt",
    ),
    (
        "reef-coder: a /model command (pt)",
        f"{_REEF}40__2398ffd174__2__full.jsonl.gz",
        (
            ("bunx tsc --noEmit",),
            ("setSessionModel",),  # changes the model within the ACP session, not the engine
        ),
        "pt",
    ),
    (  # a sub-agent's invented command outputs, a feature redone: nothing to keep
        "reef-coder: /model opens the model selector (pt)",
        f"{_REEF}40__2398ffd174__1__full.jsonl.gz",
        (),
        "pt",
    ),
    (
        "reef-coder: installed as `reef`, its keys in ~/.config/reef (pt)",
        f"{_REEF}f9__72c79dc2f8__3__full.jsonl.gz",
        (
            ("bun run build|bun link",),  # installs the CLI globally as `reef`
            ("bun run dev",),
            ("~/.config/reef/.env",),  # where the global CLI reads its API keys
            ("Bun.which",),  # how each engine's executable is looked for
        ),
        "pt",
    ),
)

# split.txt's "2026-11-23 (h26intl) A" block (tuned on): four more sessions of four of those
# projects, sharing no message with a measured or a tuned-on session, labelled blind by reading
# each one whole, the labels committed before the writer ran on them (run once with the rules
# of h26intl's first piece, then tuned on).
INTL_LABELS_4: tuple[Label, ...] = (
    (
        "repiq: flake-parts, a commit past the broken hook (ja)",
        f"{_REPIQ}b4__907d0840f0__0__full.jsonl.gz",
        (
            ("nix flake check",),  # the flake's check, which passed
            ("no-verify|pre-commit install -f",),  # the commit-msg hook fails (migration mode)
            ("flake-parts",),  # the user's choice: flake.nix on flake-parts' perSystem
        ),
        "ja",
    ),
    (
        "FitToday: the EULA fix cherry-picked for App Review (pt)",
        f"{_FIT}4d__ae7bf07b83__7__full.jsonl.gz",
        (
            ("EULA|Terms of Use", "paywall|Paywall"),  # App Review wants them in the paywall
            ("Localizable.strings",),  # en and pt-BR strings live there
        ),
        "pt",
    ),
    (
        "meow: the sitemap lists every page, JSON-LD, a 404 page (ja)",
        f"{_MEOW}09__154b33f6e6__0__full.jsonl.gz",
        (
            ("sitemap", "AllPages"),  # .Data.Pages on the home gave the sections only
            ("hugo --environment production",),
            ("WebFetch",),  # it drops <head> tags: the live site's head is checked with curl
        ),
        "ja",
    ),
    (
        "reef-coder: predefined Gemini models (en)",
        f"{_REEF}11__60ee397fa9__1__full.jsonl.gz",
        (
            ("bunx tsc --noEmit",),
            ("bun test",),
            ("predefinedModels",),  # Gemini CLI lists no models over ACP, only takes -m
            ("flaky|timing",),  # the arrow-key navigation tests fail now and then
        ),
        "en",
    ),
)

# split.txt's "2026-11-23 (h26intl) B" block (tuned on): five more sessions of the same
# projects, labelled blind like block A and at the same time; the writer was run on them only
# once h26intl's rules were frozen (d1da870) — the estimate of how the final rules do on
# sessions they were not written for (kind: the projects are known) — then they joined the
# tuned-on cases.
INTL_LABELS_5: tuple[Label, ...] = (
    (
        "repiq: Markdown as the default output (ja)",
        f"{_REPIQ}f7__b72e2d874f__1__full.jsonl.gz",
        (
            ("Markdown", "default|デフォルト"),  # the user's choice: LLMs keep asking for it
            ("go test ./...",),
            ("no-verify|pre-commit install -f|core.hooksPath",),  # the broken commit-msg hook
        ),
        "ja",
    ),
    (
        "repiq: stale cache entries, a schema version (ja)",
        f"{_REPIQ}ec__ed0f4a0f20__0__full.jsonl.gz",
        (
            ("schemaVersion",),  # bump it when a metrics struct changes: old entries miss
            ("--no-cache",),  # bypasses the 24-hour disk cache
            ("go run ./cmd/repiq",),  # flags before the targets ("--json" after one is a target)
            ("go test ./...",),
            ("no-verify|pre-commit install -f",),
            ("lessons.md",),  # the user's lessons file, tasks/lessons.md
        ),
        "ja",
    ),
    (
        "meow: the Playground's SEO, a Bing verification tag (ja)",
        f"{_MEOW}53__280fa48bf2__0__full.jsonl.gz",
        (
            ("playground/index.html",),  # static HTML outside Hugo's layouts: its meta by hand
            ("baseof.html",),  # every Hugo page's <head>, where verification tags go
            ("hugo --quiet",),
        ),
        "ja",
    ),
    (
        "FitToday: twelve programs from twenty-six (pt)",
        f"{_FIT}df__5b67723645__1__full.jsonl.gz",
        (
            ("ProgramsSeed.json",),  # where the programs are defined
            ("Storage", "exerc"),  # exercise names and IDs match Firebase Storage's (English)
            ("exercises/{",),  # the Storage path of an exercise's images
            ("xcodebuild", "-scheme FitToday"),
            (
                "prd-",
                "techspec.md",
            ),  # a PRD's folder: tasks/prd-<slug>/prd.md, techspec.md, tasks.md
        ),
        "pt",
    ),
    (
        "FitToday: the language row's font, Apple Translation for WGER (pt)",
        f"{_FIT}2f__a841d3cc29__0__full.jsonl.gz",
        (
            ("Dynamic Type|.system(.body)",),  # the design system's rows: no hardcoded size
            ("Translation", "WGER"),  # the user's choice: Apple's Translation API, iOS 17.4+
            ("SourceKit",),  # its errors there are indexing only (Swinject), not the build's
        ),
        "pt",
    ),
)
