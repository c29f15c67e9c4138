"""What a careful reader keeps from each transcript of the measured part (tests/quality/split.txt).

Labelled by reading each session whole — the user's messages, the agent's answers and
sub-agent reports, the commands and their results — and writing down what the person
whose memory it is would want their agent to know next time, before the offline
writer's output on these transcripts was looked at. Each item lists fragments one note
must all contain (case-insensitive); a fragment `a|b` is met by either spelling (a note in
the session's language or in English); `why` says what the note is about.

These lists are not changed to fit the writer: an item it misses stays missed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GoldItem:
    fragments: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class GoldCase:
    path: str  # relative to tests/, as in split.txt
    language: str
    items: tuple[GoldItem, ...]


def gold(*fragments: str, why: str) -> GoldItem:
    return GoldItem(fragments, why)


_SPOTTER = "fixtures/shared/claude-code/marot-spotter__test__fixtures__transcripts__"
_MOREDIP = "fixtures/shared/claude-code/moredip-session-share__samples__claude-code-projects__"
# Added 2026-11-22 (split.txt's second block), labelled before the writer ran on them.
_VIEWER = "fixtures/shared/claude-code/d-kimuson-claude-code-viewer__mock-global-claude-dir__"
_MEOW = "fixtures/shared/claude-code/135yshr-meow__entire-checkpoints-v1__"
_MINI = "fixtures/shared/claude-code/xiaotouming1011-mini-coding-agent__entire-checkpoints-v1__"
_FIT = "fixtures/shared/claude-code/Viniciuscarvalho-FitToday__entire-checkpoints-v1__"
_ENTIRE = "fixtures/shared/claude-code/entireio-cli__entire-checkpoints-v1__"

GOLD = (
    GoldCase(
        _SPOTTER + "258c7280-ae70-4798-800f-63464d01a85d.jsonl",
        "en",
        (
            gold("spotter-gqc", why="the user's goal: implement the spotter-gqc epic"),
            gold("mix test", why="the test suite command"),
            gold("mix credo --strict", why="the lint command"),
            gold("mix compile --warnings-as-errors", why="the strict compile"),
            gold("mix deps.get", why="installs dependencies"),
            gold("mix ecto.migrate", why="runs migrations (worked)"),
            gold("mix ash.codegen", why="generates Ash migrations and snapshots"),
            gold("sqlite", "migration", why="generated migrations must be rewritten for SQLite"),
            gold("lazy_html", why="LiveView tests need the lazy_html test dependency"),
            gold("sandbox", "shared", why="LiveView tests need the sandbox in shared mode"),
            gold("bd ready", why="beads: how to find ready work"),
            gold("bd sync", why="beads are synced before git push"),
            gold("1100", why="Spotter's default port is 1100"),
        ),
    ),
    GoldCase(
        _SPOTTER + "4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
        "en",
        (
            gold("spotter-dov", why="the user's goal: work on the spotter-dov epic"),
            gold("mix test", why="the test suite command"),
            gold("mix credo --strict", why="the lint command"),
            gold("mix compile", why="the build command"),
            gold("mix format", why="the formatter"),
            gold("mix dialyzer", why="the type checker"),
            gold("git commit", "mix format", why="the pre-commit hook refuses unformatted code"),
            gold(
                "fix the issues", why="the user's decision: fix what the hook finds, no --no-verify"
            ),
            gold("priv/static/assets/spotter.css", why="tracked despite .gitignore: git add -f"),
            gold("bd ready", why="beads: how to find ready work"),
            gold("bd sync", why="beads are synced before committing"),
            gold("AshComputer", "handle_event", why="AshComputer generates the event handlers"),
            gold("LLMChain.run", why="LLMChain.run returns a 3-tuple on error"),
        ),
    ),
    GoldCase(
        _SPOTTER + "subagent.jsonl",
        "en",
        (
            gold("credo", "dialyxir", "mix_audit", why="the user's goal: set up these tools"),
            gold("no rig", why="the user's decision: beads of this project have no rig prefix"),
            gold("igniter", why="no Igniter installers exist; mix igniter.install adds the deps"),
            gold("bd create", why="how beads are created (epic, --parent tasks)"),
        ),
    ),
    GoldCase(
        _MOREDIP + "0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl",
        "en",
        (),  # poems written by sub-agents: nothing about a project to keep
    ),
    GoldCase(
        _VIEWER + "projects__sample-project__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
        "ja",  # /orchestrator: bring CLAUDE.md up to date; the answer is in Japanese
        (
            gold("15.5.2", why="the app runs Next.js 15.5.2 (CLAUDE.md said 14)"),
            gold("tailwind", "4", why="Tailwind CSS v4 (with @tailwindcss/postcss), not v3"),
            gold("type-check", why="there is no npm run type-check script"),
            gold("3000", why="the dev server runs on the default port 3000, not 3001"),
            gold("todo-app", why="the Next.js app lives in todo-app/ (root folders duplicate it)"),
        ),
    ),
    GoldCase(
        _MEOW + "8e__02fa6d2328__0__full.jsonl.gz",
        "ja",  # a custom domain for the project's GitHub Pages site
        (
            gold("meow.oreha.dev", why="the site's domain is meow.oreha.dev"),
            gold("CNAME", "static", why="the CNAME lives in website/static so deploys keep it"),
            gold("hugo", why="the site is built by Hugo from website/ in the hugo.yml workflow"),
            gold(
                "ブランチ|branch",
                "PR",
                why="the user's rule: commit on a new branch and go as far as the PR",
            ),
            gold("gitmoji", why="commit messages follow the gitmoji convention"),
            gold(
                "sandbox|サンドボックス",
                "push|プッシュ",
                why="git push over SSH fails in the sandbox (known_hosts): run it outside",
            ),
        ),
    ),
    GoldCase(
        _MEOW + "71__31ac715393__0__full.jsonl.gz",
        "ja",  # releases made automatic on merge to main
        (
            gold("auto-release", why="auto-release.yml releases on every push to main"),
            gold("semantic-release", why="semantic-release picks the version from gitmoji commits"),
            gold("go test ./...", why="the test suite (all 18 packages)"),
            gold("golden", why="codegen output is checked by golden files"),
            gold("coderabbit", why="PR reviews come from CodeRabbit (read with gh api)"),
            gold("pre-commit", why="pre-commit hooks run gofmt, go vet, golangci-lint, go test"),
        ),
    ),
    GoldCase(
        _MEOW + "fc__7f2dc86b7b__0__full.jsonl.gz",
        "ja",  # Google Analytics for the playground
        (
            gold("G-081QKVSS83", why="the user's GA4 measurement ID"),
            gold("consent", why="GA runs only after the cookie banner's consent (consent.js)"),
        ),
    ),
    GoldCase(
        _MINI + "c6__4529616f02__0__full.jsonl.gz",
        "zh",  # a fork of mini-coding-agent: git, Ollama models, the agent's prompt
        (
            gold("upstream", why="the repo is a fork; upstream is the original, synced by merge"),
            gold("uv run mini-coding-agent", why="how the agent is run (with --model)"),
            gold("cspell", why="cspell.json holds the project's words (Ollama, qwen, …)"),
            gold("mini_coding_agent.py", why="all the core code is in mini_coding_agent.py"),
            gold("build_prefix", why="the system prompt is built in build_prefix()"),
            gold("entire/checkpoints", why="that branch is Entire's checkpoints: keep it"),
            gold("max-steps", why="--max-steps (default 6) bounds the agent's tool calls"),
            gold("malformed", why="small models return malformed tool JSON"),
            gold(
                "ollama", "brew", why="Ollama was not installed by Homebrew: update from its site"
            ),
            gold("10G|10 GB", why="the user accepts models under 10 GB"),
        ),
    ),
    GoldCase(
        _FIT + "f4__473875393c__6__full.jsonl.gz",
        "pt",  # an App Store release with deploy.sh, then the script fixed
        (
            gold("deploy.sh release", why="release = tests, build, TestFlight and App Store"),
            gold("destination", why="ExportOptions destination: upload leaves no local IPA"),
            gold("dsym", why="Firebase dSYM warnings make xcodebuild exit 1"),
            gold("asc publish", why="the script publishes with asc publish testflight/appstore"),
            gold("block-dangerous-commands", why="a safety hook blocks some commands"),
            gold("deploy.sh", "reposit", why="the user wants deploy.sh usable in other repos"),
            gold("source", ".env", why="the deploy sources .env first (set -a)"),
            gold("Beta Testers", why="TestFlight builds go to the Beta Testers group"),
        ),
    ),
    GoldCase(
        _FIT + "f4__473875393c__5__full.jsonl.gz",
        "pt",  # StoreKit configuration checked against App Store Connect and RevenueCat
        (
            gold("FitToday Premium", why="one subscription group, FitToday Premium"),
            gold("com.fittoday.", why="product IDs com.fittoday.{pro,elite}.{monthly,annual}"),
            gold("entitlement", why="FitToday Pro/Elite are RevenueCat entitlements, not groups"),
            gold("body-file", why="the safety hook blocks PR bodies in heredocs: --body-file"),
            gold("linear", why="issues live in Linear (PRO-…), reached through its MCP server"),
        ),
    ),
    GoldCase(
        _FIT + "8c__abfb24f25e__1__full.jsonl.gz",
        "pt",  # the social feed behind a Remote Config flag; a loading loop fixed
        (
            gold("social_feed_enabled", why="the Remote Config flag that shows the Feed segment"),
            gold("xcodebuild", "FitToday", why="the build command (scheme FitToday)"),
            gold("iPhone 17 Pro", why="the simulator to build for (no iPhone 16 here)"),
            gold("concurrency", why="the user's rule: mind the app's concurrency rules"),
            gold("getDocuments", why="getDocuments fails on permissions where the listener works"),
            gold("fittoday-2aaff", why="the Firebase project"),
            gold("block-dangerous-commands", why="a safety hook blocks long commit messages"),
        ),
    ),
    GoldCase(
        _ENTIRE + "1a__8a83a35a9b__0__full.jsonl.gz",
        "en",  # git status broken in a worktree: a corrupted index after gc
        (
            gold("git read-tree HEAD", why="rebuilds a worktree index that lost objects"),
            gold("gc", "worktree", why="gc --auto prunes loose objects a worktree index needs"),
            gold("KNOWN_LIMITATIONS", why="known limitations are documented there"),
            gold("ENT-241", why="the Linear issue that tracks running gc at safe points"),
            gold(".worktrees", why="worktrees live in .worktrees/ (gitignored)"),
        ),
    ),
    GoldCase(
        _ENTIRE + "5b__5251b9bdab__0__full.jsonl.gz",
        "en",  # the metadata branch's commit author
        (
            gold("GetGitAuthorFromRepo", why="commit authors come from GetGitAuthorFromRepo"),
            gold("go build ./...", why="the build command"),
            gold("go test", why="the test command (go test ./cmd/entire/cli/strategy/)"),
            gold("XDG_CONFIG_HOME", why="tests isolate global git config (HOME, XDG_CONFIG_HOME)"),
            gold("testify", why="the tests use plain t.Fatalf/t.Errorf, no testify"),
        ),
    ),
    GoldCase(
        _ENTIRE + "67__ea786b178e__0__full.jsonl.gz",
        "en",  # Claude Code's "Invalid Date" after the test-repo skill
        (
            gold("Invalid Date", why="Claude Code fails to start on malformed session files"),
            gold("test-harness", why="the test-repo skill's harness writes fake sessions"),
            gold("tmp-entire-test-repo", why="where those sessions land (delete to recover)"),
            gold("session", "uuid", why="Claude Code session files are named by plain UUIDs"),
        ),
    ),
    GoldCase(
        _ENTIRE + "42__d34ec97ff8__0__full.jsonl.gz",
        "en",  # review feedback on the checkpoint trailer's pattern
        (
            gold("mise run test", why="the test suite"),
            gold("mise run lint", why="the linter"),
            gold("mise run fmt", why="the formatter"),
            gold("checkpoint", "hex", why="checkpoint IDs are 12 lowercase hex characters"),
            gold("checkpointID", why="the id package is imported as checkpointID"),
        ),
    ),
)
