"""Nothing untrue or harmful in the offline writer's notes, the ones a model judges too (issue
95): a command kept as working ran and worked after its last failure, is not one the user
forbade nor one the project's own lockfile contradicts; a fix note says only what the session
shows fixed its error (the command that then worked)."""

from __future__ import annotations

from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.events import TranscriptEvent
from memtab.transcripts.window import NewestEvents
from memtab.writer.config import WriterSettings
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.providers import bind_to_run
from memtab.writer.job.run import run_writer
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import plan_notes
from memtab.writer.offline.shell.lockfiles import ProjectManagers

from .events import answer, bash, calls, tool, user
from .local_model import notes

LS = "README.md\nnode_modules\npackage.json\npnpm-lock.yaml\nsrc\nvite.config.ts\n"


def commands(*events: TranscriptEvent) -> list[str]:
    return [command.command for command in extract_findings(events).commands]


def note_texts(*events: TranscriptEvent) -> list[str]:
    return [note.text for note in plan_notes("", extract_findings(events))]


def test_a_command_that_worked_then_failed_is_no_command_that_works() -> None:
    worked = bash("npm run build", output="built in 2.1s")
    failed = bash("npm run build", ok=False, output="Error: Cannot find module 'vite'")
    assert commands(worked) == ["npm run build"]
    assert commands(worked, failed) == []
    # worked again after its failure: it works
    assert commands(worked, failed, bash("npm run build", output="built in 1.9s")) == [
        "npm run build"
    ]
    # another command of the family failing says nothing of this one
    other = bash("npm run build -- --mode staging", ok=False, output="Error: no such mode")
    assert commands(worked, other) == ["npm run build"]


def test_a_package_a_later_command_removes_is_no_command_that_works() -> None:
    added = bash("composer require --dev barryvdh/laravel-debugbar", output="1 install")
    removed = bash(
        "composer remove --dev barryvdh/laravel-debugbar && php artisan test", output="ok"
    )
    assert commands(added) == ["composer require --dev barryvdh/laravel-debugbar"]
    assert "composer require --dev barryvdh/laravel-debugbar" not in commands(added, removed)
    # another package removed, or another manager's, says nothing of it
    other = bash("composer remove --dev laravel/pint", output="ok")
    npm = bash("npm uninstall barryvdh/laravel-debugbar", output="ok")
    assert commands(added, other, npm)[0] == "composer require --dev barryvdh/laravel-debugbar"


def test_a_package_whose_managers_files_are_restored_is_no_command_nor_fix() -> None:
    broke = bash("cargo test", ok=False, output="error[E0432]: unresolved import `proptest`")
    added = bash("cargo add --dev proptest && cargo test", output="test result: ok. 12 passed")
    assert "cargo add --dev proptest" in commands(broke, added)
    assert [text for text in note_texts(broke, added) if "proptest" in text]
    restored = bash("git checkout -- Cargo.toml Cargo.lock", output="")
    assert "cargo add --dev proptest" not in commands(broke, added, restored)
    assert not [text for text in note_texts(broke, added, restored) if "proptest" in text]
    # another manager's files, or files only unstaged, undo nothing of it
    other = bash("git checkout -- package.json", output="")
    unstaged = bash("git restore --staged Cargo.toml", output="")
    assert "cargo add --dev proptest" in commands(broke, added, other, unstaged)
    # added again after the restore: it works
    again = bash("cargo add --dev proptest", output="Adding proptest v1.5.0")
    assert "cargo add --dev proptest" in commands(broke, added, restored, again)


def test_a_package_manager_the_projects_lockfile_contradicts_is_not_kept() -> None:
    listed = bash("ls", output=LS)
    npm = bash("npm install", output="added 412 packages in 9s")
    pnpm = bash("pnpm install", output="Done in 3.1s")
    assert commands(listed, npm, pnpm) == ["pnpm install"]
    assert commands(npm, pnpm) == ["npm install", "pnpm install"]  # no lockfile seen: both
    # the lockfile npm writes once it ran is its own doing, not the project's
    after = bash("git status --short", output="?? package-lock.json\n M pnpm-lock.yaml")
    assert commands(listed, npm, after, pnpm) == ["pnpm install"]
    # a lockfile read by path, Python's: pip is not this project's installer
    read = calls(tool("Read", {"file_path": "/home/raj/ingest/uv.lock"}, output="version = 1"))
    pip = bash("pip install -e .", output="Successfully installed ingest-0.1")
    uv = bash("uv run pytest -q", output="23 passed in 3.98s")
    assert commands(read, pip, uv) == ["uv run pytest -q"]
    # a fix that worked by running the contradicted manager is no fix to keep
    broke = bash("pnpm test", ok=False, output="Error: Cannot find module 'vitest'")
    passed = bash("pnpm test", output="Test Files  9 passed (9)")
    fixed = [text for text in note_texts(listed, broke, npm, passed) if "failed" in text]
    assert fixed == []
    assert [t for t in note_texts(broke, npm, passed) if "failed" in t]  # without the lockfile


def test_the_managers_a_lockfile_names_are_read_by_ecosystem() -> None:
    managers = ProjectManagers()
    managers.saw(["yarn.lock.bak", "my-yarn.lock-notes"])  # not a lockfile of the project
    assert not managers.contradicts("npm ci")
    managers.saw(["drwx  bun.lockb"])
    assert managers.contradicts("npm ci") and managers.contradicts("yarn add zod")
    assert not managers.contradicts("bun install") and not managers.contradicts("uv sync")
    assert not managers.contradicts("cargo build")


def test_the_offline_writer_never_suggests_a_command_the_user_forbade(
    home: Home, workspace: Workspace
) -> None:
    events = [
        bash("npm install", output="added 412 packages in 9s"),
        user("We use pnpm, not npm. Never run npm in this repo."),
        bash("pnpm install", output="Done in 3.1s"),
        bash("pnpm test", output="Test Files  9 passed (9)"),
        answer("Done: the tests pass."),
    ]
    settings = WriterSettings(offline_notes="write")
    budget = NewestEvents.of(events, 80_000, redact=True)
    provider = bind_to_run(OfflineWriterProvider(), home, workspace, budget.budget, settings)
    result = run_writer(home, workspace, budget, provider, settings=settings)
    assert result.outcome == "wrote"
    written = notes(home, workspace)
    assert "`pnpm install`" in written and "Never run npm in this repo." in written
    assert "`npm install`" not in written


def test_a_fix_note_says_only_what_the_session_shows_fixed_its_error() -> None:
    """`go test` failed on a missing go.sum entry; `go mod tidy && go test` then failed
    otherwise (the database was down); the database started, `go test` passed: the session
    never shows the go.sum error fixed by a command that then worked, and starting the
    database fixed the second error, not the first."""
    events = [
        bash(
            "go test ./...",
            ok=False,
            output="internal/store/store.go:9:2: missing go.sum entry for module providing "
            "package github.com/jackc/pgx/v5 (imported by example.com/tide/internal/store)\nFAIL",
        ),
        bash(
            "go mod tidy && go test ./...",
            ok=False,
            output="--- FAIL: TestStore (0.00s)\n    store_test.go:20: dial tcp 127.0.0.1:5432: "
            "connect: connection refused\nFAIL",
        ),
        bash("docker compose up -d db", output="Container tide-db-1  Started"),
        bash("go test ./...", output="ok  \texample.com/tide/internal/store\t0.31s"),
    ]
    fixes = [text for text in note_texts(*events) if " failed: " in text]
    assert not any("go.sum" in text for text in fixes)
    assert len(fixes) == 1 and "connection refused" in fixes[0]
    assert "`docker compose up -d db`" in fixes[0]
    # the same error again (its timings aside): what came before did not fix it
    again = [
        bash("go test ./...", ok=False, output="store_test.go:20: dial tcp: connection refused"),
        bash("go vet ./...", output=""),
        bash("go test ./...", ok=False, output="store_test.go:21: dial tcp: connection refused"),
        bash("docker compose up -d db", output="Container tide-db-1  Started"),
        bash("go test ./...", output="ok  \texample.com/tide/internal/store\t0.31s"),
    ]
    fixed = [text for text in note_texts(*again) if " failed: " in text]
    assert fixed and all(text.endswith("fixed by `docker compose up -d db`.") for text in fixed)


def test_a_command_that_only_shows_what_is_there_is_no_command_nor_fix() -> None:
    broke = bash("bundle exec rspec", ok=False, output="PG::ConnectionBad: connection refused")
    shown = bash("docker compose ps postgres && kubectl get pods", output="postgres  exited")
    secrets = bash("rails credentials:show && heroku config list", output="db_pass: …")
    started = bash("docker compose up -d postgres", output="Started")
    passed = bash("bundle exec rspec", output="212 examples, 0 failures")
    session = (broke, shown, secrets, started, passed)
    assert "docker compose ps postgres" not in commands(*session)
    assert "heroku config list" not in commands(*session)
    fixed = [text for text in note_texts(*session) if "failed" in text]
    assert fixed and all("ps postgres" not in t and "config list" not in t for t in fixed)
    assert "docker compose up -d postgres" in fixed[0]
