"""Dense items for Japanese and Portuguese tuned-on sessions first labelled sparsely
(2026-11-23, "h28"): each session read whole again, the way the measured part was labelled
(tests/quality/gold.py's header), and everything written down that the person whose memory
it is would want their agent to know next time, without looking at the offline writer's
notes on it. The items are added to the session's earlier ones (corpus.py
`_with_dense_items`); none is removed.

Each row: the transcript's file name (as in corpus.py) and its new items (fragments one note
must all contain; `a|b` is met by either spelling).
"""

from __future__ import annotations

DenseItems = tuple[str, tuple[tuple[str, ...], ...]]

_MEOW = "135yshr-meow__entire-checkpoints-v1__"
_FIT = "Viniciuscarvalho-FitToday__entire-checkpoints-v1__"
_REPIQ = "yutakobayashidev-repiq__entire-checkpoints-v1__"
_EXVS = "dOwOd-exvs2-cost-calculator__entire-checkpoints-v1__"
_REEF = "matthsena-reef-coder__entire-checkpoints-v1__"

# Read whole again and found nothing to add (the earlier items already hold what is durable):
# - FitToday f4/473875393c/4 (subscription names, Linear MCP): two questions, a product-ID
#   answer and `claude mcp add`.
# - FitToday 4d/ae7bf07b83/1 (the branch merged with main): a merge and its conflicts of the
#   moment (xcscheme, AppInfo.plist), nothing a later session needs.
# - reef-coder 0f/ed6ce58406/4 (Enter on the slash-command menu): one fix, labelled already.
DENSE_INTL_ITEMS: tuple[DenseItems, ...] = (
    (  # meow: code signing, open-source files
        f"{_MEOW}7f__050443dfd6__0__full.jsonl.gz",
        (
            ("/release",),  # a `/release` comment on a merged PR: semantic-release + GoReleaser
            ("macos-notarization-setup.md",),  # docs/: the signing/notarization setup guide
            ("MACOS_SIGN_P12",),  # .goreleaser.yaml notarizes only when the secrets are set
            ("codesign -dv",),  # how the installed binary's signature was checked (it ran)
            ("gitmoji",),  # commit messages carry gitmoji prefixes (docs/contributing.md, log)
            ("CONTRIBUTING.md",),  # the user's decision: the OSS files at the root, all of them
            ("Entire-Checkpoint|Entire Checkpoint",),  # the user's rule: a PR template AI Session
        ),
    ),
    (  # repiq: the commit convention moves to the account's rules
        f"{_REPIQ}f4__784ee5a009__2__full.jsonl.gz",
        (
            ("Conventional Commits", "scope|スコープ"),  # `<type>(<scope>): …`, scope required
            ("AGENTS.md", "scope|スコープ"),  # repiq's AGENTS.md keeps only its commit scopes
            ("claude-code.nix",),  # home-manager links ~/.config/claude/* to dotnix/claude
            ("toolchain-explainer", "WebSearch"),  # the user's rule: domain knowledge first
        ),
    ),
    (  # exvs2: a PR's CI type check fixed
        f"{_EXVS}fb__7a8e8e2164__0__full.jsonl.gz",
        (
            ("CookieConsentStatus",),  # fix: the mock's status typed so, not 'undecided' as const
            ("Type: Subject",),  # the commit skill's format (Add, Fix, Update, …)
            ("eslint --fix|prettier --write",),  # what the commit hook runs on staged files
            ("pnpm test -- --run",),  # runs one test file (it ran, the file's tests passed)
        ),
    ),
    (  # reef-coder: a slash-command preview
        f"{_REEF}d1__d4d909c0de__0__full.jsonl.gz",
        (
            ("preview|prévia", "command|comando"),  # the goal: `/` first shows the commands
            ("Chat.tsx",),  # handleSubmit dispatches the commands; PromptInput only captures
            ("/switch", "/engine"),  # the engine-switch command and its alias
            ("mcp__acp__Bash",),  # spawn errors on `cd … &&` and on arguments (both ran)
        ),
    ),
    (  # meow: a to_bytes built-in from a plan
        f"{_MEOW}7c__25dbb846ec__0__full.jsonl.gz",
        (
            ("genCall", "genTypedCall"),  # fix: a built-in is mapped in both, or it is undefined
            ("interpreter.go",),  # dispatchBuiltin: a new built-in goes there too
            ("website/content/doc/stdlib.md",),  # the site's copy of docs/stdlib.md, kept in step
            ("go run ./cmd/meow transpile",),  # prints the generated Go (how the bug was seen)
            ("coderabbit review",),  # the review the user runs (`--plain -t all`)
            ("gitmoji",),  # /commit: `<gitmoji> <type>: …` in English, a branch off main
        ),
    ),
    (  # FitToday: an exercise image cache, task by task
        f"{_FIT}0c__d9c6b71332__0__full.jsonl.gz",
        (
            ("ExerciseImageCache",),  # the Fase 5 actor: NSCache + Caches/exercise_images/
            ("Auto:|auto-commit",),  # every file write is auto-committed: amend/squash after
            ("ImageCacheService|DiskImageCache",),  # the existing cache for Wger image URLs
            ("WorkoutPlanView",),  # there is no WorkoutDetailView: the workout detail is this one
        ),
    ),
    (  # repiq: the mcp epic dropped, the commit-msg hook repaired
        f"{_REPIQ}24__723c7a3c59__1__full.jsonl.gz",
        (
            ("Agents Skills", "scope|スコープ"),  # the user's choice: out of scope, not MCP mode
            ("Recommended Epics", "mcp"),  # the user's decision: only the P5 mcp epic removed
            ("docs/specs/scope.md",),  # the scope spec: Recommended Epics, Out of Scope
            ("entire enable",),  # restores Entire's hooks after pre-commit reinstalls its own
            ("core.hooksPath",),  # pre-commit install refuses while it is set (unset, restore)
        ),
    ),
    (  # exvs2: the cookie banner's flicker on reload
        f"{_EXVS}f3__88b8c2c65c__0__full.jsonl.gz",
        (
            ("useCookieConsent", "ready"),  # fix: the banner waits for the hook's ready flag
            ("Astro", "static|SSG"),  # the site is prerendered (output: 'static'), client:load
            ("pnpm test -- --run",),  # runs one test file (failed first, then passed)
            ("Type: Subject",),  # the commit skill's format (Add, Fix, Update, …)
            ("fix/issue-|feature/issue-",),  # a branch per issue, its number in the name
            ("eslint --fix|prettier --write",),  # what the commit hook runs on staged files
        ),
    ),
    (  # reef-coder: a /model command
        f"{_REEF}40__2398ffd174__2__full.jsonl.gz",
        (
            ("/model",),  # the goal: /model changes the session's model, the engine stays
            ("ENGINES", "types.ts"),  # src/types.ts: each engine's executable, args, model
        ),
    ),
    (  # meow: type aliases in string iteration
        f"{_MEOW}2e__746e8d4e5a__0__full.jsonl.gz",
        (
            ("gh api repos/135yshr/meow/pulls",),  # how a PR's review comments are read (ran)
            ("gitmoji",),  # /commit: `<gitmoji> <type>: …` in English
        ),
    ),
    (  # FitToday: images and the invite flow fixed
        f"{_FIT}4d__ae7bf07b83__0__full.jsonl.gz",
        (
            ("build", "task|tarefa"),  # the user's rule: the app builds when a task is finished
            ("failedKeys",),  # fix: no permanent negative cache, a failed listAll() is retried
            ("listAll",),  # ExerciseImageCache finds an exercise's images with Storage listAll()
            ("ChallengesView", "Activity"),  # the challenges screen lives in Features/Activity
        ),
    ),
    (  # repiq: contribution links, a commit past the broken hook
        f"{_REPIQ}f4__784ee5a009__1__full.jsonl.gz",
        (
            ("adding-a-provider.md",),  # docs/: how to add a provider (README links it)
            ("core.hooksPath",),  # pre-commit install refuses while it is set
        ),
    ),
    (  # reef-coder: /model opens the model selector (its sub-agents' outputs are invented;
        # only the user's own request is kept)
        f"{_REEF}40__2398ffd174__1__full.jsonl.gz",
        (("/model", "selector|seletor|ModelSelect"),),  # the goal: /model opens the selector
    ),
    (  # meow: an SEO plan for the site
        f"{_MEOW}24__c6e56fcaa1__0__full.jsonl.gz",
        (
            ("135yshr.github.io/meow",),  # the site's URL (hugo.toml baseURL)
            ("public/",),  # website/public/ is build output, ignored and untracked; CI builds
            ("sitemap", ".Data.Pages"),  # Hugo's .Data.Pages leaves the home page out
            ("jsonld.html",),  # partials/jsonld.html: the JSON-LD structured data
            ("robots.txt", "Sitemap"),  # layouts/robots.txt with a Sitemap: line
            ("pre-commit|hook|フック", "golangci-lint"),  # a commit runs go fmt/vet/lint/test
        ),
    ),
    (  # repiq: flake-parts, a commit past the broken hook
        f"{_REPIQ}b4__907d0840f0__0__full.jsonl.gz",
        (
            (".envrc", "gitignore"),  # the user's request: .envrc ignored
            ("tasks/todo.md",),  # ignored and out of git (removed from tracking)
            ("Agent Skills", "Install"),  # the user's layout: README's Agent Skills after Install
            ("nix flake update",),  # updates flake.lock (it ran)
        ),
    ),
    (  # meow: SEO wording and a review fix
        f"{_MEOW}9b__21926f697e__0__full.jsonl.gz",
        (
            ("Meow Programming Language", "Meow Language"),  # the user's queued directive
            ("goal|目的|ゴール", "SEO"),  # the goal: found on Google for "meow language"
            ("safeJS",),  # fix: jsonify inside <script> was escaped twice; `| safeJS`
            ("CodeRabbit",),  # PR reviews come from CodeRabbit (gh api …/pulls/N/comments)
        ),
    ),
    (  # FitToday: screens redrawn with the Pencil MCP
        f"{_FIT}96__ecaabb0621__0__full.jsonl.gz",
        (
            ("untitled.pen",),  # the app's screens and components live in that Pencil file
            ("fontFamily",),  # Pencil: a font variable cannot be a fontFamily, use the name
        ),
    ),
    (  # repiq: Markdown as the default output
        f"{_REPIQ}f7__b72e2d874f__1__full.jsonl.gz",
        (
            ("--json", "--ndjson"),  # the flags that switch away from the Markdown default
            ("format.go",),  # internal/format: the JSON, NDJSON and Markdown formatters
            ("SKILL.md",),  # skills/repiq/SKILL.md (+ references/REFERENCE.md) document the CLI
        ),
    ),
    (  # meow: an HTML sitemap
        f"{_MEOW}a0__849fc981e9__0__full.jsonl.gz",
        (
            ("/sitemap/", "HTML"),  # the HTML sitemap page (content/sitemap.md + sitemap.html)
            ("index.xml",),  # the RSS feed, served as XML: a second sitemap for Search Console
        ),
    ),
    (  # FitToday: crash and screen bugs through the feature-marker skill
        f"{_FIT}66__1a284558a3__0__full.jsonl.gz",
        (
            ("ExerciseTranslationService",),  # tells English from Portuguese descriptions
            ("prd-", "techspec.md"),  # feature-marker: tasks/prd-<slug>/prd, techspec, tasks
            ("MVVM", "@Observable"),  # the app: Swift 6, SwiftUI, MVVM + @Observable, iOS 17+
            ("NavigationStack", "CreateWorkoutView"),  # fix #14: no NavigationStack of its own
            ("WorkoutTimerStore", "WorkoutCompletionView"),  # fix #16: the crash on finishing
        ),
    ),
    (  # meow: a page missing from GitHub Pages
        f"{_MEOW}43__b89df0028d__0__full.jsonl.gz",
        (
            ("hugo.yml",),  # the Pages deploy: pushes to main touching website/, docs/, …
            ("gh run list --workflow=hugo.yml",),  # how the deploy was watched (it ran)
        ),
    ),
    (  # FitToday: Apple's EULA as the Terms link
        f"{_FIT}f4__473875393c__7__full.jsonl.gz",
        (
            ("LegalSection.swift",),  # the app's Terms/Privacy links (and AppInfoFooter.swift)
            ("deploy.sh", "--release"),  # deploy.sh has no --release option (it warns)
        ),
    ),
    (  # meow: a site-verification tag
        f"{_MEOW}4c__8159ada8fc__0__full.jsonl.gz",
        (
            ("meow.oreha.dev",),  # the site's custom domain since #88/#89
            ("gitmoji",),  # /commit: `<gitmoji> <type>: …`, a branch off main first
        ),
    ),
    (  # FitToday: the social feed behind a Remote Config flag
        f"{_FIT}4a__8c33dc1758__1__full.jsonl.gz",
        (
            ("social_feed_enabled",),  # the flag's key, false by default
            ("FeatureFlag.swift",),  # where flags are declared (checked via FeatureFlagChecking)
            ("Stop hook", "test"),  # a Stop hook refuses to finish a code change without tests
        ),
    ),
    (  # meow: placeholder names unified
        f"{_MEOW}5e__da0c86b979__0__full.jsonl.gz",
        (("Nyantyu", "Tyako"),),  # CLAUDE.md's placeholder names (and Tyomusuke), not Tama
    ),
    (  # FitToday: issues #41-#43 after a summary
        f"{_FIT}74__73a72bbf1d__0__full.jsonl.gz",
        (
            ("TabRootView", "NavigationStack"),  # each tab is wrapped in its NavigationStack
            ("Localizable.strings",),  # en and pt-BR strings live there
        ),
    ),
    (  # meow: a CI failure after setup-go v6
        f"{_MEOW}f0__7df40725a7__0__full.jsonl.gz",
        (("1.25", "matrix|マトリクス"),),  # fix: Go 1.25 dropped from CI's test matrix
    ),
    (  # FitToday: the EULA fix cherry-picked for App Review
        f"{_FIT}4d__ae7bf07b83__7__full.jsonl.gz",
        (("OptimizedPaywallView",),),  # the paywall view, where its legal links are
    ),
    (  # meow: a review's arity check for built-ins
        f"{_MEOW}66__92ebc77178__0__full.jsonl.gz",
        (
            ("requireArgs",),  # fix: built-ins' argument count checked exactly (`!=`)
            ("gh api repos/135yshr/meow/pulls",),  # how a PR's review comments are read (ran)
            ("gitmoji",),  # /commit: `<gitmoji> <type>: …` in English
        ),
    ),
    (  # FitToday: the language row's font, Apple Translation for WGER
        f"{_FIT}2f__a841d3cc29__0__full.jsonl.gz",
        (
            ("translationTask",),  # descriptions translated in the detail views, not a dictionary
            ("ProfileProView",),  # the settings screen (languageRow, SettingsRow)
            ("swift-code-reviewer-skill",),  # the user's review of a PR's changes
        ),
    ),
    (  # meow: the site's GA4 measurement ID
        f"{_MEOW}8a__4166fa7f5f__0__full.jsonl.gz",
        (
            ("hugo.toml", "googleAnalytics"),  # where the site's GA4 ID is set
            ("Consent Mode",),  # GA in Consent Mode v2, denied by default (consent.js)
            ("meow.oreha.dev",),  # the site's custom domain (hugo.toml baseURL)
        ),
    ),
    (  # meow: the hello example keeps its type annotations
        f"{_MEOW}21__108c718e58__0__full.jsonl.gz",
        (
            ("ci.yml", "hello.nyan"),  # CI's smoke test compares examples/hello.nyan's output
            ("gitmoji",),  # /commit: `<gitmoji> <type>: …`, a branch off main first
        ),
    ),
    (  # meow: the sitemap lists every page, JSON-LD, a 404 page
        f"{_MEOW}09__154b33f6e6__0__full.jsonl.gz",
        (
            ("404.html",),  # layouts/404.html: the site's own 404 page
            ("BreadcrumbList",),  # jsonld.html: BreadcrumbList on pages, BlogPosting for posts
        ),
    ),
    (  # meow: the Playground's SEO, a Bing verification tag
        f"{_MEOW}53__280fa48bf2__0__full.jsonl.gz",
        (
            ("sitemap", "/playground/"),  # static pages are not in Hugo's sitemap: added by hand
            ("meow.oreha.dev",),  # the site's domain: links are /playground/, not /meow/…
            ("msvalidate.01",),  # Bing's tag, in baseof.html and in playground/index.html
        ),
    ),
)
