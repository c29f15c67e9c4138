"""Commands a memory names that would not run: undefined targets, missing programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.checkout import build_checkout
from memtab.check.markdown import scan_markdown
from memtab.check.programs import which_in
from memtab.check.rules.runnable import RunProblem, run_problems
from memtab.check.scripts import (
    just_recipes,
    make_targets,
    mise_config_tasks,
    mise_file_tasks,
    taskfile_tasks,
)

from .helpers import check, home_with_project, make_checkout, of_kind, programs

MAKEFILE = """\
include common.mk
-include .env.mk
.PHONY: test check lint-all
test:
\tpytest
check: test \\
\tlint-all
\truff check .
db-%:
\tdocker compose up -d $*
$(BUILD)/app: main.o
\tcc -o $@ $^
define HELP
notatarget:
endef
"""
PACKAGE = (
    '{"name": "@acme/web", "scripts": {"dev": "vite", "gen:api": "orval"}, '
    '"bin": {"acme": "bin/acme.js"}, "devDependencies": {"vitest": "1", "@biomejs/biome": "1"}}'
)
PYPROJECT = """\
[project]
name = "acme"
dependencies = ["fastapi"]
[project.scripts]
acme-admin = "acme.admin:main"
[dependency-groups]
dev = ["pytest", "ruff"]
[tool.poe.tasks]
serve = "uvicorn acme:app"
"""
JUSTFILE = """\
set dotenv-load
alias t := test
# run the tests
test *args:
    pytest {{args}}
@fmt:
    ruff format
[private]
_helper:
    echo
"""
MISE = '[tasks.fmt]\nrun = "gofmt"\n[tasks."test:ci"]\nrun = "go test"\nalias = "ci"\n'


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_checkout(
        tmp_path / "acme",
        {
            "Makefile": MAKEFILE,
            "common.mk": "deploy:\n\t./deploy.sh\n",
            "package.json": PACKAGE,
            "packages/ui/package.json": '{"scripts": {"storybook": "storybook dev"}}',
            "pyproject.toml": PYPROJECT,
            "justfile": JUSTFILE,
            "mise.toml": MISE,
            "mise-tasks/lint/_default": "",
            "mise-tasks/lint/go": "",
            "cmd/acmectl/main.go": "",
            "frontend/package.json": '{"scripts": {"build": "vite build"}}',
        },
    )


def problems(repo: Path, text: str, *installed: str) -> list[RunProblem]:
    search = programs(repo.parent / "machine", *installed)
    return list(
        run_problems(scan_markdown(text), build_checkout(repo), find_program=which_in(search))
    )


def subjects(repo: Path, text: str, *installed: str) -> list[str]:
    return [p.subject for p in problems(repo, text, *installed)]


ALL = ("make", "npm", "pnpm", "yarn", "uv", "just", "mise", "poe", "pytest", "docker", "bun")


def test_makefile_targets_are_read_with_includes_phony_and_patterns(repo: Path) -> None:
    targets = make_targets(repo / "Makefile")
    assert {"test", "check", "lint-all", "deploy"} <= targets.names
    assert "notatarget" not in targets.names and not targets.open
    assert targets.defines("db-up") and targets.defines("build/app")


def test_a_makefile_including_what_it_cannot_read_may_define_anything(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("include $(ROOT)/rules.mk\ntest:\n\ttrue\n")
    assert make_targets(tmp_path / "Makefile").defines("anything")


def test_justfile_recipes_and_aliases(repo: Path) -> None:
    recipes = just_recipes(repo / "justfile")
    assert recipes.names == {"t", "test", "fmt", "_helper"}


def test_mise_tasks_from_config_and_task_files(repo: Path) -> None:
    tasks = mise_config_tasks(repo).names | mise_file_tasks(
        ["mise-tasks/lint/_default", "mise-tasks/lint/go"]
    )
    assert {"fmt", "test:ci", "ci", "lint", "lint:go"} <= tasks


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- `make lint` before pushing\n", ["make lint"]),
        ("- `make test check db-up deploy` all pass\n", []),
        ("- `npm run storybook` and `npm run dev`\n", []),  # a package of the monorepo
        ("- `npm run typecheck`\n", ["npm run typecheck"]),
        ("- `npm test` and `npm install` are npm's own\n", []),
        ("- `pnpm run gen:api` then `pnpm gen:api`\n", []),
        ("- `pnpm run lint`\n", ["pnpm run lint"]),
        ("- `just test` and `just t` and `just fmt`\n", []),
        ("- `just deploy`\n", ["just deploy"]),
        ("- `just --list`\n", []),
        ("- `uv run pytest -x` and `uv run acme-admin`\n", []),
        ("- `uv run acme-server`\n", ["uv run acme-server"]),
        ("- `uv run python -m acme` and `uv run scripts/x.py`\n", []),
        ("- `mise run fmt && mise run lint:go && mise run ci`\n", []),
        ("- `mise run lint:full`\n", ["mise run lint:full"]),
        ("- `poe serve` and `poe deploy`\n", ["poe deploy"]),
        ("- `cd frontend && npm run build`\n", []),
        ("- `cd frontend && npm run dev`\n", ["npm run dev"]),
        ("- `cd ../other && make release`\n", []),
        ("- `make -C docs html`\n", []),  # a folder the checkout does not have
        ("- `make -f other.mk thing`\n", []),
        ("- `npm run build --workspace web`\n", []),
        ("- `make lint` was removed; use `make check`\n", []),
        ("- e.g. `make whatever`\n", []),
        ("- `make seed` → drops the dev DB and re-seeds it\n", ["make seed"]),  # what it does
        ("- `make reseed` → `make seed`\n", []),  # two names: one became the other
    ],
)
def test_script_targets(repo: Path, text: str, expected: list[str]) -> None:
    assert subjects(repo, text, *ALL) == expected


MIX_PROJECT = {
    "mix.exs": 'def project, do: [app: :tidevann, aliases: ["tidevann.setup": ["deps.get"]]]\n',
    "lib/mix/tasks/tidevann.seed_gauges.ex": "defmodule Mix.Tasks.Tidevann.SeedGauges do\nend\n",
    "lib/mix/tasks/prune.ex": "defmodule Mix.Tasks.Tidevann.Readings.Prune do\nend\n",
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- `mix tidevann.import_gauges` loads the CSV\n", ["mix tidevann.import_gauges"]),
        ("- `mix tidevann.seed_gauges` seeds the gauges\n", []),  # its task file
        ("- `mix tidevann.readings.prune` prunes\n", []),  # a file named for its last part
        ("- `mix tidevann.setup` on a fresh clone\n", []),  # an alias of mix.exs
        ("- `mix phx.server` serves it; `mix ecto.migrate` first\n", []),  # dependencies'
    ],
)
def test_a_mix_task_of_the_project_s_own_app_is_looked_for(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    repo = make_checkout(tmp_path / "tidevann", MIX_PROJECT)
    assert subjects(repo, text, "mix") == expected


def test_a_target_of_a_tool_without_its_file_is_reported(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "r", {"src/a.py": ""})
    [problem] = problems(repo, "- `make test` runs everything\n", "make")
    assert problem.message == "`make test`: there is no Makefile in the checkout"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The real Claude Code store: `vercel` is not installed on this machine.
        (
            "**How to apply:** 항상 `printf '값' | vercel env add KEY environment` "
            "방식으로 추가.\n",
            ["vercel"],
        ),
        ("```bash\nterraform plan\nkubectl get pods\n```\n", ["terraform", "kubectl"]),
        ("```console\n$ terraform plan\nPlan: 3 to add\n```\n", ["terraform"]),
        ("- `about get`으로 실제 주체 확인 필수\n", []),  # a sub-command, not a program
        ("- `vercel` CLI로만 작업할 것\n", []),  # a name, not a command line
        ("- Install it: `npm i -g vercel`, then `vercel deploy`\n", []),
        ("- `docker compose up -d` (Docker Desktop is not installed here)\n", []),
        ("- `acme --help` and `acmectl status` and `vitest run` and `biome check`\n", []),
        ("- `ruff check .` then `pytest -x`\n", []),  # the project's dev dependencies
        ("- Run `./scripts/deploy.sh prod`\n", []),  # a path, not a program
        ("```bash\nexport FOO=1\ncd src\nsource .env\n```\n", []),
        ("- `make test`\n", []),
        # A program given an option is a command line, whatever the program.
        ("- `bossac -p /dev/ttyACM0 fw.bin` flashes the board\n", ["bossac"]),
        ("- Sign the image: `cosign sign --key k.pem img`\n", ["cosign"]),
        ("- Pass `--workers 4` and `-v` for more\n", []),  # options alone
        ("- `Release -x` in the menu\n", []),  # not a program's name
        # An option's value a variable's expansion, as only a shell line gives it.
        ('- `tern --conn "$PG_URL" status` shows what is applied\n', ["tern"]),
        ("- Load it with `pgloader --with ${SETTINGS} dump`\n", ["pgloader"]),
        # A path operand written as only a path is: a folder, from here, a file in a folder.
        ("- `vhs render tapes/` makes the README's GIFs\n", ["vhs"]),
        ("- `zola serve ./site` previews the docs\n", ["zola"]),
        ("- `lychee docs/guide/index.md` checks the links\n", ["lychee"]),
        # Words that are no path, and names with a dot, prove no command line.
        ("- Reads `client and/or server` logs\n", []),
        ("- Never `import os.path` in the hot loop\n", []),
        ("- `use Node.js` streams here\n", []),
        # A well-known tool without options (`check.known_programs`).
        ("- Lint the Dockerfile with `hadolint Dockerfile`\n", ["hadolint"]),
        ("- `sqlc generate` after editing queries\n", ["sqlc"]),
        ("- Never `checkout` or `reset --hard` with go-git\n", []),  # a sub-command
        # A companion named after a well-known tool; a file named after one is no program.
        ("- Profile the exporter with `dotnet-trace collect`\n", ["dotnet-trace"]),
        ("- Ports are in `docker-compose.yml services`\n", []),
        # The folder commands run in is an operand only a path is; an option holds a file.
        ("- `trufflehog .` scans the tree before a push\n", ["trufflehog"]),
        ("- `reportgen -reports:cov.cobertura.xml -targetdir:out` for HTML\n", ["reportgen"]),
        ("- `Release .` and `Build -c:Debug` in the menu\n", []),  # no program's name
    ],
)
def test_programs_that_are_not_installed(repo: Path, text: str, expected: list[str]) -> None:
    found = [p.subject for p in problems(repo, text, "make", "npm", "printf", "pytest")]
    assert [s for s in found if not s.startswith(("make ", "npm "))] == expected


def test_an_alias_a_memory_defines_makes_a_program_available(tmp_path: Path, repo: Path) -> None:
    home, _ = home_with_project(
        tmp_path,
        repo,
        {"notes.md": "- `docker compose up -d` starts the database\n"},
        global_memory={"environment.md": "- Use podman (`alias docker=podman`).\n"},
    )
    assert of_kind(check(home, tmp_path, installed=("podman",)), "missing-program") == []


def test_a_program_named_on_many_lines_is_one_finding(tmp_path: Path, repo: Path) -> None:
    text = "```bash\nbun install\nbun run test\nbun run build\n```\n"
    home, _ = home_with_project(tmp_path, repo, {"notes.md": text})
    [found] = of_kind(check(home, tmp_path), "missing-program")
    assert (found.line, found.subject) == (2, "bun")
    assert [place.line for place in found.related] == [3, 4]
    assert found.message == "`bun` is not installed (and on 2 more lines)"


def test_justfile_recipes_with_parameters_are_recipes(tmp_path: Path) -> None:
    """Recipe headers of just's own justfile (github.com/casey/just `justfile` at 4f41f60):
    a variadic parameter with a default, a default in backticks, two parameters, a
    dependency with arguments — and a `release level="patch":` as a memory's project has."""
    (tmp_path / "justfile").write_text(
        "log := \"warn\"\n\n[group: 'dev']\nwatch +args='lcheck':\n  cargo watch\n\n"
        "filter PATTERN: (watch f'ltest --tests {{ PATTERN }}')\n\n"
        "done BRANCH=`git rev-parse --abbrev-ref HEAD`:\n  git checkout master\n\n"
        "replace FROM TO:\n  sd '{{FROM}}' '{{TO}}' src/*.rs\n\n"
        'release level="patch": ci\n  cargo release {{level}}\n\n'
        "test $VAR *args:\n  echo\n\n@quiet:\n  true\n\n"
        'serve port=("80" + "80") host=\'0.0.0.0:1\':\n  true\n'
    )
    recipes = just_recipes(tmp_path / "justfile").names
    assert recipes == {"watch", "filter", "done", "replace", "release", "test", "quiet", "serve"}


TASKFILE = """\
version: '3'
tasks:
  build-apk:
    aliases: [apk]
    cmds: [flutter build apk]
  start:*:
    cmds: ['docker compose up {{index .MATCH 0}}']
"""


def test_taskfile_tasks_aliases_and_wildcards(tmp_path: Path) -> None:
    (tmp_path / "Taskfile.yml").write_text(TASKFILE)
    tasks = taskfile_tasks(tmp_path / "Taskfile.yml")
    assert tasks.names == {"build-apk", "apk"} and not tasks.open
    assert tasks.defines("start:db") and not tasks.defines("golden")
    (tmp_path / "Taskfile.yml").write_text(TASKFILE + "includes:\n  docs: ./docs\n")
    assert taskfile_tasks(tmp_path / "Taskfile.yml").defines("docs:serve")
    (tmp_path / "Taskfile.yml").write_text("tasks: [unclosed\n")
    assert taskfile_tasks(tmp_path / "Taskfile.yml").open


@pytest.mark.parametrize(
    ("files", "text", "expected"),
    [
        ({"Taskfile.yml": TASKFILE}, "- `task golden` refreshes the goldens\n", ["task golden"]),
        ({"Taskfile.yml": TASKFILE}, "- `task apk` then `task start:db -- --fresh`\n", []),
        ({"Taskfile.yml": TASKFILE}, "- `task build-apk VERSION=1.2 golden`\n", ["task golden"]),
        ({"Taskfile.yml": TASKFILE}, "- `task --list` shows them\n", []),
        ({"app/Taskfile.yml": TASKFILE}, "- `cd app && task build-apk`\n", []),
        # no Taskfile anywhere: `task` may be Taskwarrior's
        ({"src/a.py": ""}, "- `task add buy milk` files a to-do\n", []),
    ],
)
def test_taskfile_tasks_a_memory_runs(
    tmp_path: Path, files: dict[str, str], text: str, expected: list[str]
) -> None:
    repo = make_checkout(tmp_path / "r", files)
    assert subjects(repo, text, "task") == expected


def test_justfile_recipes_named_after_a_keyword_are_recipes(tmp_path: Path) -> None:
    """`export:`, `export-levels:` and `set-up:` are recipes (just reads `export` as a keyword
    only before `NAME :=`); `export X := …` and `set …` are not."""
    (tmp_path / "justfile").write_text(
        "set shell := ['bash', '-c']\nset dotenv-load\nexport RUST_LOG := 'warn'\n\n"
        "export-levels:\n  unity -batchmode\n\nset-up target='dev':\n  true\n\n"
        "export:\n  deno run -A scripts/export_kv.ts\n"
    )
    assert just_recipes(tmp_path / "justfile").names == {"export", "export-levels", "set-up"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Words that silenced a line stating what a command does now, and kept no false
        # finding away on any half or real store (issue 94):
        ("- `just corpus` downloads the big sample images\n", ["just corpus"]),  # fresh7 K6
        ("- `just audit` once a month to find unused code\n", ["just audit"]),  # as fresh10 K8
        ("- `just pods` was how I watched the pods\n", ["just pods"]),  # fresh12 K8
        ("- `just preview` pushes a preview without a PR\n", ["just preview"]),  # fresh11 K17
        ("- `just close` prints what would be invoiced\n", ["just close"]),  # fresh11 K23
        ("- `just drift` runs a refresh-only plan every Monday\n", ["just drift"]),  # fresh8 K15
        # "old" still does: a command run from an old machine is that machine's (fresh13 KN35,
        # a false finding there when it did not, untuned)
        ("- `just upload` from the old Windows laptop\n", []),
    ],
)
def test_a_word_that_hedges_nothing_does_not_silence_a_command(
    repo: Path, text: str, expected: list[str]
) -> None:
    assert subjects(repo, text, *ALL) == expected
