"""Paths a memory names that are not in its checkout: what is reported, what never is."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.checkout import build_checkout
from memtab.check.markdown import scan_markdown
from memtab.check.rules.paths import is_missing, moved_to, named_paths

from .helpers import check, home_with_project, make_checkout, of_kind

CHECKOUT_FILES = {
    "src/acme/api/routes.py": "",
    "src/acme/config/settings_local.py": "",
    "src/lib/api.ts": "",
    "docs/setup.md": "",
    "deploy/k8s/app.yaml": "",
    "Makefile": "test:\n\tpytest\n",
    ".gitignore": "dist/\nlogs/\n",
    ".github/workflows/ci.yml": "",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_checkout(tmp_path / "acme", CHECKOUT_FILES)


def missing(repo: Path, text: str) -> list[str]:
    checkout = build_checkout(repo)
    return [
        named.relative
        for named in named_paths(scan_markdown(text), checkout)
        if is_missing(checkout, named)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "- Persistence: models in `src/acme/db/models.py`.",  # the demo's architecture.md
        "- Routers live in src/acme/routers/users.py",  # prose, with an extension
        "- CI runs `.github/workflows/release.yml` on tags",  # a dot-folder
        "See `docs/adr/` for the decisions.",  # a folder, with its slash
        # A description beside an arrow, not a rename (issue 83's trust corpus):
        "- App config → `src/acme/config/index.ts` (validated env).",
        "- `make test` → runs the checks of `src/acme/tests/run.py`.",
        "- `kubectl apply -f deploy/k8s/gone.yaml` rolls it out",  # a file after -f
        "- Handlers: **src/acme/api/handlers.py**",  # bold (issue 83), not a glob's `*`
        "- Handlers: *src/acme/api/handlers.py*",  # italics
        # A folder, its own code span, though its first folder is not in the checkout:
        "- `ops/charts/` holds the release chart",
        "- The Terraform for the bucket lives in `infra/tf/`.",
        # A file, its own code span, though its first folder is not in the checkout:
        "- The seed SQL is `seeds/dev.sql`.",
        "- Charts are in `assets/js/hooks/chart.js`.",
    ],
)
def test_a_path_of_the_checkout_that_is_not_there_is_reported(repo: Path, line: str) -> None:
    assert len(missing(repo, line + "\n")) == 1


@pytest.mark.parametrize(
    ("line", "reported"),
    [
        # fresh13 K26, fresh10 K8 of the trust corpus: a tool's config, named alone.
        ("The nREPL port is 7889, set in .nrepl.edn so CIDER finds it.", [".nrepl.edn"]),
        ("- `periphery scan`; the config is `.periphery.yml`.", [".periphery.yml"]),
        ("- Lint rules are in `.eslintrc.json`.", []),  # there
        # A file of the root starts with its first part: a local copy, a tool's lock file.
        ("- Copy `.env.example` to `.env.local` and fill in the keys.", []),
        ("- Only .terraform.lock.hcl is committed.", []),
        # Not a hidden file's name: a folder's path, a version, a home's dotfile, a URL.
        ("- CI is .github/workflows/ci.yml; Python .3.12 and `.bashrc`", []),
        ("- See https://example.com/.well-known.json", []),
        ("- The other repo's .prettierrc.json sets the width.", []),  # another checkout's
    ],
)
def test_a_hidden_file_named_alone_is_missing_when_nothing_of_its_tool_is_there(
    tmp_path: Path, line: str, reported: list[str]
) -> None:
    files = {".eslintrc.json": "{}", ".env.example": "", ".terraform-version": "1.9\n"}
    repo = make_checkout(tmp_path / "acme", {**CHECKOUT_FILES, **files})
    assert missing(repo, line + "\n") == reported


def test_an_absolute_path_inside_the_checkout_is_checked(repo: Path) -> None:
    assert missing(repo, f"- Settings: `{repo}/src/acme/settings.py`\n") == ["src/acme/settings.py"]


@pytest.mark.parametrize(
    "line",
    [
        # From the real stores (tests/fixtures/shared/memory-stores):
        "- 스킬 디렉토리: `~/.claude/skills\\` (Claude가 인식하는 경로 + git 리포)",
        "- GitHub 리포: `1000ssam/claude-skills` (비공개, default branch: main)",
        "- The local layout already used per-version directories under "
        "`/public3/home/scg6928/mysoft/tools/codex/<version>/`",
        "- `rust-v0.131.0/codex-x86_64-unknown-linux-musl.tar.gz` and more",
        "- 리다이렉트 와일드카드 문법: `From: /old/*` → `To: /new/:splat`",
        '  "https://api.vercel.com/v9/projects/<projId>/domains/<domain>?teamId=<teamId>" \\',
        "cat .vercel/project.json",
        # The traps the issue names:
        "- Put the file at `path/to/your/file.py`.",
        "- e.g. `src/acme/example/thing.py`",
        "- `src/acme/old_auth.py` was removed in the rewrite.",
        "- `src/acme/legacy.py` → `src/acme/api/routes.py`",
        "- Templates: `src/{name}/index.ts`, `src/*/mod.rs`, `src/$APP/main.go`",
        "- Install `@types/node` and send `application/json`",
        "- Branch `feature/auth-timeout` is merged into `origin/main`.",
        "- Releases are cut from `release/` branches, as in `release/2.4`",  # one part
        "- The chart is at `deploy/k8s/`",  # a folder, its own code span, and there
        "- The build writes `dist/app.js`.",
        # A path in a code span of its own, its first folder nowhere, that is no file of the
        # checkout: a release's asset, a branch, another repository's, build output.
        "- Download `cli-v2.4.1/cli-linux.tar.gz` from the release.",
        "- Tags like `release/v2.4` are cut on Fridays.",
        "- The other repo's `cmd/tern/main.go` does the same.",
        "- In the mobile repo, `screens/Pay.tsx` does this.",
        "- Fastify's `lib/route.js` does the same.",
        "- Compiled CSS goes to `static/css/app.css` and is not committed.",
        "- The seed SQL is seeds/dev.sql.",  # prose: two words and a dot may be a name
        "- and/or client/server trade-offs",
        "- Migrations in `migrations/`; routers under `routers/`.",  # one part: relative
        "- Create `docs/guide/next.md` next.",
        "- Dates like 2026/05/19 and ratios like 1/2",
        "- Metadata in `.entire/metadata/<session-id>/`",
        "- Import it from `src/lib/api` (the module).",
        # A cluster's resources, not the checkout's `src/` (issue 83's trust corpus):
        "- `kubectl -n acme logs deploy/acme-api -f` shows the rollout",
        "- `kubectl rollout restart deployment/acme-api`",
        "```bash\noc logs deploy/acme-web\n```",
        "- `src/acme/old.py` -> `src/acme/new.py`",  # two names: a rename
    ],
)
def test_what_is_not_clearly_a_missing_path_of_the_checkout_is_never_reported(
    repo: Path, line: str
) -> None:
    assert missing(repo, line + "\n") == []


def test_paths_in_a_shell_block_are_checked_and_in_other_code_not(repo: Path) -> None:
    text = "```bash\npython src/acme/tool.py\n```\n```python\nopen('src/acme/gone.py')\n```\n"
    assert missing(repo, text) == ["src/acme/tool.py"]


def test_a_moved_file_is_found_by_its_name(repo: Path) -> None:
    checkout = build_checkout(repo)
    named = next(named_paths(scan_markdown("`src/acme/settings_local.py`\n"), checkout))
    assert is_missing(checkout, named)
    assert moved_to(checkout, named) == "src/acme/config/settings_local.py"


def test_a_name_found_twice_proposes_no_move(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "r", {"a/util.py": "", "b/util.py": "", "src/x.py": ""})
    checkout = build_checkout(repo)
    named = next(named_paths(scan_markdown("`src/util.py`\n"), checkout))
    assert moved_to(checkout, named) is None


def test_a_finding_names_the_line_and_proposes_the_move_as_the_line_fixed(
    tmp_path: Path, repo: Path
) -> None:
    home, _ = home_with_project(
        tmp_path,
        repo,
        {"notes.md": "# Notes\n\n- Local settings live in `src/acme/settings_local.py`.\n"},
    )
    [found] = of_kind(check(home, tmp_path), "missing-path")
    assert (found.path, found.line, found.subject) == (
        "/memories/project/notes.md",
        3,
        "src/acme/settings_local.py",
    )
    assert found.checkout == str(repo)
    assert found.fix is not None and found.fix.plannable
    assert found.fix.old_str == "- Local settings live in `src/acme/settings_local.py`."
    assert found.fix.new_str == "- Local settings live in `src/acme/config/settings_local.py`."


def test_a_file_git_ignores_is_not_missing_even_named_plainly(tmp_path: Path, repo: Path) -> None:
    home, _ = home_with_project(tmp_path, repo, {"n.md": "- Bundle at `dist/js/app.js`.\n"})
    (repo / "dist").mkdir()  # the folder exists (a build ran); the file does not
    assert of_kind(check(home, tmp_path), "missing-path") == []


def test_a_file_git_ignores_is_not_missing_though_its_first_folder_is_nowhere(
    tmp_path: Path, repo: Path
) -> None:
    home, _ = home_with_project(tmp_path, repo, {"n.md": "- Logs go to `logs/app.log`.\n"})
    assert of_kind(check(home, tmp_path), "missing-path") == []


def test_a_checkout_that_is_not_a_repository_is_walked(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "plain", {"src/a.py": "", "node_modules/x/y.js": ""}, git=False)
    checkout = build_checkout(repo)
    assert not checkout.git
    assert "src/a.py" in checkout.files and "node_modules/x/y.js" not in checkout.files
    assert missing(repo, "- `src/b.py` holds it\n") == ["src/b.py"]


def test_paths_under_a_heading_or_label_of_what_is_still_open_are_not_checked(
    repo: Path,
) -> None:
    # The demo's Claude Code memory: the regression test it names is still to be written.
    text = (
        "**Still open:**\n"
        "- A regression test that fires two refreshes concurrently "
        "(`src/acme/test_refresh_race.py`).\n"
        "\n## Next steps\n- Split `src/acme/api/big.py`\n"
        "\n## Layout\n- Handlers in `src/acme/api/handlers.py`\n"
    )
    assert missing(repo, text) == ["src/acme/api/handlers.py"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # The paragraph after a label's list is checked; the list's own items are not.
        ("**Ideas:**\n- Split `src/acme/big.py`\n\nRoutes in `src/acme/x.py`.\n", ["x"]),
        # Its items stay silent past blank lines and in a line indented under an item.
        (
            "**Ideas:**\n\n- `src/acme/a.py`\n\n- `src/acme/b.py`\n\n  `src/acme/c.py`\n\n"
            "1. Routes in `src/acme/x.py`.\n",
            ["x"],
        ),
        # A label over a fence governs that fence only, even with no blank line after it.
        ("**Ideas:**\n```sh\ncat src/acme/a.py\n```\nRoutes in `src/acme/x.py`.\n", ["x"]),
        # A heading governs its whole section: paragraphs, fences, a label's block and past it.
        (
            "## Next steps\n\nSplit it.\n\n```sh\ncat src/acme/a.py\n```\n\n**Then:**\n"
            "- `src/acme/b.py`\n\nRoutes in `src/acme/c.py`.\n\n## Layout\n- `src/acme/x.py`\n",
            ["x"],
        ),
    ],
)
def test_a_label_governs_its_paragraph_list_or_fence_not_the_rest_of_the_file(
    repo: Path, text: str, found: list[str]
) -> None:
    assert missing(repo, text) == [f"src/acme/{name}.py" for name in found]


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("- Routes: `src/acme/*/routes.py` and `deploy/*/app.yaml`", []),
        ("- Views: `src/acme/*/views.py`", ["src/acme/*/views.py"]),
        ("- Fixtures: `src/**/fixtures/`", ["src/**/fixtures"]),
        ("```sh\nruff check src/**/*.pyi\n```", ["src/**/*.pyi"]),
        ("- Views are matched in prose: src/acme/*/views.py", []),  # a glob in prose
        ("- Templates: `src/{name}/x.py`, `src/*/mod.rs`", []),  # a pattern names follow
        ("- Logs: `logs/*.log`, `dist/**/*.js`, `release/*`", []),  # ignored, output, branch
        ("```sh\nrm -rf src/*/node_modules src/acme/*/dist\n```", []),  # dependencies, output
        ("- Deep: `src/" + "*/" * 5000 + "x.py`", []),  # too deep to be a path
    ],
)
def test_a_glob_in_code_is_missing_when_nothing_of_the_checkout_matches_it(
    repo: Path, line: str, found: list[str]
) -> None:
    assert missing(repo, line + "\n") == found


def test_a_missing_glob_says_nothing_matches_it(repo: Path, tmp_path: Path) -> None:
    home, _ = home_with_project(tmp_path, repo, {"n.md": "- Views: `src/*/views/`\n"})
    [finding] = of_kind(check(home, tmp_path), "missing-path")
    assert finding.message.startswith("`src/*/views` is not in ")
    assert finding.why.endswith("and nothing matches src/*/views/.")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # showtime's CLAUDE.md (issue 94): what a heading says is to be deleted may be gone.
        ("## Files to Delete\n- `src/acme/ChatView.tsx` — not needed\n", []),
        ("## Removed in v2\n- `src/acme/legacy.py`\n", []),
        ("## Files\n- `src/acme/ChatView.tsx` — the chat\n", ["src/acme/ChatView.tsx"]),
    ],
)
def test_paths_under_a_heading_that_says_they_go_are_not_checked(
    repo: Path, text: str, found: list[str]
) -> None:
    assert missing(repo, text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # showtime's openspec skill: "Create the archive directory if it doesn't exist:".
        ("```bash\nmkdir -p src/acme/archive\n```\n", []),
        ("Run `mkdir -p src/acme/archive/` first.\n", []),
        ("```sh\ntouch src/acme/new.py && cp src/acme/api/routes.py src/acme/copy.py\n```\n", []),
        ("```sh\npytest > src/acme/report.txt\n```\n", []),
        ("```sh\nls src/acme/archive\n```\n", ["src/acme/archive"]),
        ("```sh\ncp src/acme/gone.py src/acme/copy.py\n```\n", ["src/acme/gone.py"]),
    ],
)
def test_a_path_the_lines_own_command_makes_is_not_missing(
    repo: Path, text: str, found: list[str]
) -> None:
    assert missing(repo, text) == found


@pytest.mark.parametrize(
    ("line", "found"),
    [
        # 1000ssam/claude-config's memory: "(its sibling `./libsodium.mjs` missing)".
        ("ESM 빌드 패키징 버그(형제 `src/acme/libsodium.mjs` 누락)로 실행 시 실패.", []),
        ("构建缺少 `src/acme/libsodium.mjs` 文件。", []),
        ("ビルドで `src/acme/libsodium.mjs` が見つからない。", []),
        ("ESM 빌드는 `src/acme/libsodium.mjs`를 쓴다.", ["src/acme/libsodium.mjs"]),
    ],
)
def test_a_path_the_line_says_is_missing_is_not_reported_in_any_language(
    repo: Path, line: str, found: list[str]
) -> None:
    assert missing(repo, line + "\n") == found


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- Lint rules are in `eslint.config.mjs`.", ["eslint.config.mjs"]),
        ("- The CLI starts in `entry.ts`.", ["entry.ts"]),
        ("- Prices come from LiteLLM (JSON in `prices.json`).", []),  # data, maybe not ours
        ("- The route table is `routes.py`.", []),  # a file of the checkout, in src/acme/api
        ("- CI is described in `ci.yml`.", []),  # there, in .github/workflows/
        ("- Every service of ours ships an `acme.yaml`.", []),  # named after the project
        ("- The API is served at `api.acme.example.com`.", []),  # a host, not a file
        ("- Notes go to `ROADMAP.md` in the wiki.", []),  # a note's name, not source
        ("- Settings in `src/acme/config/settings_local.py` and `v1.2`.", []),
    ],
)
def test_a_file_name_alone_in_code_is_looked_for_anywhere_in_the_checkout(
    repo: Path, line: str, expected: list[str]
) -> None:
    assert missing(repo, line + "\n") == expected


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("- Mail templates live under src/acme/mail/ (to be created with the redesign).", []),
        ("- Fixtures go in `src/acme/fixtures/`, not yet added.", []),
        ("- The bundle is written to src/acme/out/, also ignored.", []),
        ("- `src/acme/dist-cache/` is gitignored.", []),
        ("- Mail templates live under `src/acme/mail/`.", ["src/acme/mail"]),
    ],
)
def test_a_path_the_line_says_is_still_to_be_made_is_not_missing(
    repo: Path, line: str, found: list[str]
) -> None:
    assert missing(repo, line + "\n") == found


@pytest.mark.parametrize(
    "line",
    [
        # Words that silenced a line stating where a thing is now, and kept no false finding
        # away on any half or real store (issue 94):
        "- The PDF template is `src/acme/pdf/invoice.html`, rendered on demand.",  # fresh11 K10
        "- Sample data comes from `src/acme/sample/` (anonymised).",  # held-out K1
        "- The old importer in `src/acme/importer/` holds the CSV parser.",  # fresh6 K7
        "## Legacy\n- The Sapper routes are still under `src/acme/routes-legacy/`.",  # fresh9 K17
        "- The state bucket comes from src/acme/bootstrap.sh, run once per account.",  # fresh8 K19
        "- The Christmas layout is still in `src/acme/layouts/` for next year.",  # fresh11 K15
        "Snapshots sit in `src/acme/snapshots/` next to each suite.",
        "- The lifecycle (planned → loaded → delivered) lives in `src/acme/jobs.py`.",  # fresh12 K1
        "- Draft posts go in `src/acme/drafts/` until the editor approves them.",  # fresh16 K11
        "- The Q4 draft is `src/acme/2026-q4.qmd`; only a skeleton so far.",  # fresh14 K13
    ],
)
def test_a_word_that_hedges_nothing_does_not_silence_where_a_thing_is(
    repo: Path, line: str
) -> None:
    assert len(missing(repo, line + "\n")) == 1
