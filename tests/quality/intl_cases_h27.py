"""split.txt's 2026-11-23 "h27intl" blocks: Japanese, Portuguese and Korean Claude Code
sessions, labelled THE GOLD WAY — by reading each transcript whole (the user's messages, the
agent's answers and sub-agent reports, the commands and their results) and writing down
everything the person whose memory it is would want their agent to know next time: project
facts the session established, commands that work, decisions and the user's directives, the
goal, fixes, conventions — BEFORE the offline writer ran on it, found or not. Kept apart from
intl_cases.py so that the other blocks' labels merge without conflict; corpus.py turns each
row into a `WriterCase`.

Block A was run once with the rules as they were (a blind figure) and then tuned on. Block B
is run once with this session's rules frozen (the honest check at the end), then joins the
tuned-on part. Korean is a language the writer does not claim (writer/offline/directives.py):
its two sessions test what an unclaimed language gets.

Each row: name, file under tests/fixtures/shared/claude-code, the items (fragments one note
must all contain; `a|b` is met by either spelling: the session's language or English), and
the session's language.
"""

from __future__ import annotations

_MEOW = "135yshr-meow__entire-checkpoints-v1__"
_FIT = "Viniciuscarvalho-FitToday__entire-checkpoints-v1__"
_REEF = "matthsena-reef-coder__entire-checkpoints-v1__"
_REPIQ = "yutakobayashidev-repiq__entire-checkpoints-v1__"
_EC = "teslamint-entirecontext__entire-checkpoints__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

H27_INTL_LABELS_A: tuple[Label, ...] = (
    (
        "reef-coder: voice input on Tab (pt)",
        f"{_REEF}fc__6723fc9346__1__full.jsonl.gz",
        (
            ("Tab", "voz|voice"),  # the goal: Tab starts/stops recording in PromptInput
            ("voice-input.ts",),  # arecord recording + Whisper transcription live there
            ("useVoiceInput",),  # the hook's state machine idle → recording → transcribing
            ("bunx tsc --noEmit",),  # the type check, clean
            ("OPENAI_API_KEY",),  # Whisper needs it at run time (and arecord installed)
            ("SIGINT", "arecord"),  # SIGINT, not SIGTERM, so arecord finishes the WAV header
        ),
        "pt",
    ),
    (
        "reef-coder: Enter on the slash-command menu (pt)",
        f"{_REEF}0f__ed6ce58406__4__full.jsonl.gz",
        (
            ("PromptInput", "Enter"),  # fix: Enter with the menu open submits the selected command
            ("commands.ts",),  # the slash commands (/switch, /help …) are declared in COMMANDS
        ),
        "pt",
    ),
    (
        "meow: 'Meow Programming Language' across the Hugo site (ja)",
        f"{_MEOW}1c__aa122e3444__1__full.jsonl.gz",
        (
            ("Meow Programming Language", "Meow Language"),  # the name; never "Meow Language"
            ("hugo --gc --minify",),  # the site's build, in website/
            ("hugo.toml",),  # website/hugo.toml: baseURL, enableRobotsTXT, no theme
            ("baseof.html",),  # where <title> and the meta description are generated
            ("ogp.html",),  # partials/ogp.html: OGP / Twitter Card (JSON-LD in jsonld.html)
            ("public/",),  # website/public/ is build output, git-ignored
            ("go vet ./...",),
        ),
        "ja",
    ),
    (
        "entirecontext: what next — v0.16.0, py.typed deferred (ko)",
        f"{_EC}BP__01M0DCC9VQ4CRZEXMXG2GWTDBP__0__full.jsonl.gz",
        (
            ("v0.16.0",),  # the goal: finish v0.16.0's two open items, then release
            ("py.typed", "0019"),  # ADR 0019: no py.typed marker until the package is stable
            ("ec decision create",),  # title positional (`--title` does not exist), --rationale
            ("ROADMAP.md",),  # the open items by priority and version
            ("docs/solutions",),  # AGENTS.md: durable solved-problem guidance, committed
            ("Assisted-By",),  # commit trailer `Assisted-By: Claude Code <noreply@anthropic.com>`
        ),
        "ko",
    ),
)

H27_INTL_LABELS_B: tuple[Label, ...] = (
    (
        "repiq: the vision, the core epic's spec, commit hooks from the flake (ja)",
        f"{_REPIQ}10__ce21a11a92__0__full.jsonl.gz",
        (
            ("<scheme>:<identifier>",),  # the canonical input: github:owner/repo, npm:react
            ("Markdown", "スキーム|scheme"),  # --markdown for humans: one table per scheme
            ("go-github",),  # the GitHub client (google/go-github)
            ("標準ライブラリ|standard library",),  # the CLI: flags by the standard library only
            ("commitizen|conventional commit",),  # commit messages checked by git-hooks.nix
            ("gitleaks",),  # the pre-commit secret scan
            ("core.hooksPath",),  # pre-commit refuses to install while it is set: unset it
            ("spec", "PR"),  # the user: specs go in as a pull request, not committed on main
        ),
        "ja",
    ),
    (
        "meow: Zenn articles, staticcheck ST1005 on the PR (ja)",
        f"{_MEOW}5f__50a383f98a__0__full.jsonl.gz",
        (
            ("ST1005", "小文字|lowercase"),  # the user: lowercase the error string, no nolint
            ("--new-from-rev",),  # CI's golangci-lint checks only new code against origin/main
            ("gh run view", "--log-failed"),  # how the failed CI job was read
            ("npx zenn new:article",),  # a new article in the documents repository
            ("textlint",),  # the documents repository's Japanese prose lint
            ("npm run fmt",),  # Prettier over the articles
        ),
        "ja",
    ),
    (
        "FitToday: the trainer connection's Firestore DTO (pt)",
        f"{_FIT}f4__473875393c__3__full.jsonl.gz",
        (
            ("FBTrainerStudent", "trainerStudents"),  # the DTO matches the real documents' fields
            ("xcodebuild build", "iPhone 17 Pro"),  # the build (no iPhone 16 simulator)
            ("-only-testing",),  # one test class: -only-testing:FitTodayTests/<Class>
            ("DerivedData",),  # a full disk corrupted it: remove SourcePackages/checkouts
            ("--body-file",),  # a PR body quoting `curl … | sh` is blocked by the hook
            ("FeatureAccessResult", "allowed"),  # `.allowed`, not `.available`
        ),
        "pt",
    ),
    (
        "FitToday: personal trainers for every plan, a deploy (pt)",
        f"{_FIT}09__bca7325750__0__full.jsonl.gz",
        (
            ("personalTrainerEnabled", "Remote Config"),  # the user: a kill switch, not per plan
            ("EntitlementPolicy",),  # personalTrainer is no longer elite-only there
            ("xcodebuild build", "iPhone 17 Pro"),  # the build (no iPhone 16 simulator)
            ("./deploy.sh appstore",),  # from the repository root; `--release` is no option of it
            ("agvtool",),  # the build number: `xcrun agvtool next-version -all`
            ("--body-file",),  # a PR body in a heredoc is blocked by the hook
        ),
        "pt",
    ),
    (
        "reef-coder: images by @image:, Gemini CLI removed (pt)",
        f"{_REEF}00__6bca7234c9__4__full.jsonl.gz",
        (
            ("@image:",),  # how a message attaches an image (quoted when the path has spaces)
            ("image-utils",),  # src/image-utils.ts: extractImageRefs, buildPromptBlocks
            ("bun test",),  # the whole suite
            ("bunx tsc --noEmit",),
            ("co-author|coauthor",),  # the user: commits in semantic groups, no Claude co-author
            ("Gemini", "remov|retir"),  # the user: Gemini CLI support removed, no legacy code
            ("ContentBlock", "@agentclientprotocol/sdk"),  # the type from the package root
        ),
        "pt",
    ),
    (
        "entirecontext: PRs merged, the MCP SDK 2.0 migration (ko)",
        f"{_EC}39__01M0CV5D1MQXCRJBJXKV1JQ939__0__full.jsonl.gz",
        (
            ("MCPServer", "FastMCP"),  # SDK 2.0: `from mcp.server import MCPServer`
            ("mcp>=2.0.0,<3",),  # the mcp extra's pin
            ("uv run mypy",),  # the type check (mypy src/entirecontext/), clean
            ("uv run pytest",),  # the whole suite, 2297 passed
            ("uv sync --extra",),  # `uv sync --extra dev --extra mcp`
            ("protected|보호",),  # main is protected: changes go through a pull request
        ),
        "ko",
    ),
)
