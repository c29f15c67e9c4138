"""A realistic demo home: a developer's mux home after a few weeks of work, times relative to now,
with its projects' checkouts and other agents' memory inside it (never the user's), written
through the records Memtab writes with and mux's files as mux writes them."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memtab.demo_history import (
    Branch,
    SeedChangedError,
    write_demo_history,
    write_failed_trace_dump,
)
from memtab.file_protocol.file_ref import Agent
from memtab.fs import clock
from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.fs.locking.locks import interprocess_lock
from memtab.resources import resource_path
from memtab.sources.claude.source import MAX_ENCODED_LENGTH, encode_project_path
from memtab.sources.config import HOME_OVERRIDES_NAME, AgentSettings, HomeSources
from memtab.sources.gemini.source import PROJECT_ROOT_FILE, PROJECTS_NAME, memory_dir_of, slugify
from memtab.store.home import DEMO_MARKER, Home, HomeError
from memtab.store.paths import project_dir_name
from memtab.store.sidecars.journal import ConsolidationRecord, JournalOp, RunUsage
from memtab.store.sidecars.meta import MetaEntry, MetaFile, global_key, project_key, workspace_key
from memtab.writer.records import WriterState

OLD_PROTOTYPE = "/home/dev/src/old-prototype"
MAIN_ID = "a1b2c3d4e5"
DARK_MODE_ID = "d4e5f6a7b8"
MULTI_ID = "5a6b7c8d9e"
DELETED_ID = "c0ffee1234"

logger = logging.getLogger(__name__)

MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
# mux's archive run (two days ago, in the journal) created the webapp's styling notes.
STYLING_CREATED_AGO = 2 * DAY + 2 * MINUTE


class DemoError(HomeError):
    """The demo home cannot be written where asked (a home error: said as one)."""


CODE_DIR = "code"
"""The demo home's folder of its projects' checkouts."""
ACME_API = "acme-api"
WEBAPP = "webapp"
CLAUDE_PROJECT_SEED = "acme-api"
"""The name of acme-api's folder in the seed's `claude/projects/`."""


def acme_api(home: Home) -> str:
    """acme-api's checkout, as mux's registry has it."""
    return str(home.root / CODE_DIR / ACME_API)


def webapp(home: Home) -> str:
    return str(home.root / CODE_DIR / WEBAPP)


def seeded(text: str, home: Home) -> str:
    """A seed's `text` naming the demo's projects where they are."""
    return text.replace("{acme}", acme_api(home)).replace("{webapp}", webapp(home))


def claude_folder(home: Home, relative: Path) -> Path:
    """Where a file of the seed's `claude/` goes (acme-api's memory in Claude Code's folder)."""
    parts = relative.parts
    if len(parts) > 1 and parts[0] == "projects" and parts[1] == CLAUDE_PROJECT_SEED:
        return Path("projects", claude_project_name(acme_api(home)), *parts[2:])
    return relative


def claude_project_name(path: str) -> str:
    """The name of Claude Code's folder of the project at `path` (a long one cut and given a
    suffix)."""
    encoded = encode_project_path(path)
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded
    suffix = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
    return f"{encoded[:MAX_ENCODED_LENGTH]}-{suffix}"


def copy_seed_tree(
    seed: Path, target: Path, first_ms: int, step_ms: int, *, leaving: frozenset[str] = frozenset()
) -> None:
    """Every file of `seed` but `leaving` written under `target`, mtimes `step_ms` apart from
    `first_ms`."""
    files = [
        p
        for p in seed.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.relative_to(seed).as_posix() not in leaving
    ]
    for index, file in enumerate(sorted(files)):
        written = target / file.relative_to(seed)
        atomic_write_text(written, file.read_text(encoding="utf-8"))
        modified = (first_ms + index * step_ms) / 1000
        os.utime(written, (modified, modified))


BRANCH_ONLY = frozenset({"GEMINI.md"})
"""The worktree's files its branch added: not in acme-api's main checkout."""


def write_projects(home: Home, now: int) -> None:
    """acme-api's checkout and the webapp's, where the registry says they are."""
    acme = Path(acme_api(home))
    copy_seed_tree(
        resource_path("demo", "worktree"), acme, now - 6 * DAY, MINUTE, leaving=BRANCH_ONLY
    )
    copy_seed_tree(resource_path("demo", WEBAPP), Path(webapp(home)), now - 21 * DAY, MINUTE)


def _iso(ms: int) -> str:
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def require_empty_target(target: Path) -> None:
    """DemoError unless `target` is missing or an empty directory."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise DemoError(f"{target} is not empty; choose a new directory for the demo home")


def create_demo_home(target: Path, now_ms: int | None = None) -> Home:
    """Write the demo home into `target`, which must be missing or an empty directory."""
    require_empty_target(target)
    now = clock.now_ms() if now_ms is None else now_ms
    home = Home(target)
    target.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target / DEMO_MARKER, "A Memtab demo home: memtab --demo replaces it.\n")
    _write_registry(home, now)
    _copy_memories(home, now)
    _write_journal(home, now)
    _write_history(home, now)
    _write_meta(home, now)
    _write_extension_metadata(home, now)
    _write_transcript_and_writer_state(home, now)
    branch = Branch(MAIN_ID, demo_transcript(now)[:2])
    write_failed_trace_dump(home, now, branch, "fix-token-refresh", acme_api(home))
    _write_agent_sources(home, now)
    seed = resource_path("demo", "worktree")
    copy_seed_tree(seed, demo_worktree(home), now - 3 * DAY, 11 * MINUTE)
    write_projects(home, now)
    return home


def _write_registry(home: Home, now: int) -> None:
    acme, web = acme_api(home), webapp(home)
    config = {
        "projects": [
            [
                acme,
                {
                    "workspaces": [
                        {
                            "path": str(demo_worktree(home)),
                            "id": MAIN_ID,
                            "name": "fix-token-refresh",
                            "title": "Fix the token refresh race",
                            "createdAt": _iso(now - 9 * DAY),
                            "runtimeConfig": {"type": "worktree"},
                        }
                    ]
                },
            ],
            [
                web,
                {
                    "workspaces": [
                        {
                            "path": f"{web}/.worktrees/dark-mode",
                            "id": DARK_MODE_ID,
                            "name": "dark-mode",
                            "title": "Dark mode",
                            "createdAt": _iso(now - 30 * DAY),
                            "archivedAt": _iso(now - 2 * DAY),
                        }
                    ]
                },
            ],
            [
                "_multi",
                {
                    "workspaces": [
                        {
                            "path": "/home/dev/src/.multi/api-client-sync",
                            "id": MULTI_ID,
                            "name": "api-client-sync",
                            "title": "Sync the API client",
                            "createdAt": _iso(now - 4 * DAY),
                            "projects": [
                                {"projectPath": acme, "projectName": "acme-api"},
                                {"projectPath": web, "projectName": "webapp"},
                            ],
                        }
                    ]
                },
            ],
        ],
        "taskSettings": {"memoryWriterIntervalMessages": 2},
        "serverSshHost": None,
    }
    atomic_write_json(home.config_path, config)


# Where each folder of resources/demo goes, and how old its files look.
def _memory_targets(home: Home) -> dict[str, tuple[Path, int]]:
    return {
        "global": (home.global_root, 12 * DAY),
        "project/acme-api": (home.project_root(acme_api(home)), 5 * DAY),
        "project/webapp": (home.project_root(webapp(home)), 20 * DAY),
        "project/orphan": (home.projects_root / project_dir_name(OLD_PROTOTYPE), 90 * DAY),
        "workspace/main": (home.workspace_root(MAIN_ID), 2 * HOUR),
        "workspace/dark-mode": (home.workspace_root(DARK_MODE_ID), 3 * DAY),
        "workspace/multi": (home.workspace_root(MULTI_ID), 1 * DAY),
    }


def _copy_memories(home: Home, now: int) -> None:
    seed = resource_path("demo")
    if not seed.is_dir():
        raise DemoError(f"The demo seed is missing from this installation ({seed})")
    for source_name, (root, age) in _memory_targets(home).items():
        source = seed / source_name
        for index, file in enumerate(sorted(source.rglob("*.md"))):
            target = root / file.relative_to(source)
            atomic_write_text(target, seeded(file.read_text(encoding="utf-8"), home))
            modified = (now - age + index * 7 * MINUTE) / 1000
            os.utime(target, (modified, modified))


def _write_history(home: Home, now: int) -> None:
    """How some memories got there (`memtab.demo_history`), and when mux's run created the
    webapp's styling notes."""
    try:
        write_demo_history(home, now, Branch(MAIN_ID, demo_transcript(now)[:2]))
    except SeedChangedError as error:
        raise DemoError(str(error)) from None
    created = (now - STYLING_CREATED_AGO) / 1000
    os.utime(home.project_root(webapp(home)) / "styling.md", (created, created))


def _write_meta(home: Home, now: int) -> None:
    def entry(pinned: bool, uses: int, read_ago: int, write_ago: int | None) -> MetaEntry:
        written = None if write_ago is None else now - write_ago
        return MetaEntry(
            pinned=pinned, access_count=uses, last_accessed_at=now - read_ago, last_write_at=written
        )

    acme, web = acme_api(home), webapp(home)
    entries = {
        global_key("preferences.md"): entry(True, 42, 20 * MINUTE, 12 * DAY),
        global_key("environment.md"): entry(False, 17, 2 * HOUR, 12 * DAY),
        global_key("tools/git.md"): entry(False, 9, 1 * DAY, None),
        project_key(acme, "architecture.md"): entry(True, 31, 40 * MINUTE, 5 * DAY),
        project_key(acme, "testing.md"): entry(False, 12, 3 * HOUR, 5 * DAY),
        project_key(acme, "gotchas.md"): entry(False, 6, 2 * DAY, 30 * HOUR),
        project_key(web, "styling.md"): entry(False, 4, 3 * DAY, STYLING_CREATED_AGO),
        workspace_key(MAIN_ID, "notes.md"): entry(False, 8, 25 * MINUTE, 66 * MINUTE),
        workspace_key(MAIN_ID, "todo.md"): entry(True, 3, 5 * HOUR, 5 * HOUR),
        workspace_key(MULTI_ID, "contract.md"): entry(False, 2, 1 * DAY, 1 * DAY),
    }
    atomic_write_json(home.meta_path, MetaFile(entries=entries).to_json())


def _write_journal(home: Home, now: int) -> None:
    main_run = ConsolidationRecord(
        last_run_at=now - 3 * HOUR,
        trigger="manual",
        summary="Combined the duplicate refresh-race notes into notes.md and removed a stale "
        "TODO; kept the pinned architecture notes.",
        ops=(
            JournalOp(
                command="str_replace",
                path="/memories/workspace/notes.md",
                applied=True,
                note="refresh-race.md holds the fix for the race notes.md describes: "
                "merged into notes.md",
            ),
            JournalOp(
                command="delete",
                path="/memories/workspace/refresh-race.md",
                applied=True,
                note="everything refresh-race.md says is in notes.md now",
            ),
            JournalOp(
                command="delete",
                path="/memories/project/architecture.md",
                applied=False,
                note="/memories/project/architecture.md is pinned: pinned files may be "
                "edited but never deleted or renamed",
            ),
        ),
        usage=RunUsage(input_tokens=18240, output_tokens=1312),
    ).to_json()
    dark_mode_run = ConsolidationRecord(
        last_run_at=now - 2 * DAY,  # created styling.md: STYLING_CREATED_AGO
        trigger="archive",
        summary="Promoted the contrast-check rule to project memory before archiving.",
        ops=(
            JournalOp(command="create", path="/memories/project/styling.md", applied=True),
            JournalOp(
                command="rename",
                path="/memories/workspace/a11y.md",
                applied=False,
                new_path="/memories/workspace/notes.md",
                note="A file already exists at /memories/workspace/notes.md",
            ),
        ),
        usage=RunUsage(input_tokens=9120, output_tokens=640),
    ).to_json()
    multi_run = ConsolidationRecord(
        last_run_at=now - 20 * HOUR, trigger="launch", summary="no changes needed"
    ).to_json()
    # Written by an old mux before projects were journaled: never project coverage.
    legacy_run = ConsolidationRecord(
        last_run_at=now - 40 * DAY,
        trigger="compaction",
        summary="Pruned one-off debugging notes.",
        ops=(JournalOp(command="delete", path="/memories/workspace/debug.md", applied=True),),
    ).to_json()
    # mux's harvests, as mux writes them: the main workspace retried a failed one; the dark-mode
    # workspace's last failed before it was archived.
    harvests = {
        MAIN_ID: {
            "msg-summary-0007": {
                "status": "failed",
                "startedAt": now - 26 * HOUR,
                "completedAt": now - 26 * HOUR + 62_000,
                "attemptCount": 2,
                "boundaryKey": "history:118",
                "compactionEpoch": 2,
                "acceptedCandidates": 0,
                "skippedCandidates": 0,
                "error": "Provider returned 529 overloaded twice; will retry at next compaction",
            },
            "msg-summary-0009": {
                "status": "completed",
                "startedAt": now - 50 * MINUTE,
                "completedAt": now - 50 * MINUTE + 41_000,
                "attemptCount": 1,
                "boundaryKey": "history:164",
                "compactionEpoch": 3,
                "acceptedCandidates": 3,
                "skippedCandidates": 1,
                "usage": {"inputTokens": 22100, "outputTokens": 905},
            },
        },
        DARK_MODE_ID: {
            "msg-summary-0003": {
                "status": "failed",
                "startedAt": now - 3 * DAY,
                "completedAt": now - 3 * DAY + 30_000,
                "attemptCount": 2,
                "boundaryKey": "history:40",
                "compactionEpoch": 1,
                "acceptedCandidates": 0,
                "skippedCandidates": 0,
                "error": "Provider returned 529 overloaded twice; will retry at next compaction",
            },
        },
    }
    journal = {
        "workspaces": {
            MAIN_ID: main_run,
            DARK_MODE_ID: dark_mode_run,
            MULTI_ID: multi_run,
            DELETED_ID: legacy_run,
        },
        "projects": {acme_api(home): main_run, webapp(home): dark_mode_run},
        "harvestsByWorkspace": harvests,
    }
    atomic_write_json(home.journal_path, journal)


def _write_extension_metadata(home: Home, now: int) -> None:
    atomic_write_json(
        home.extension_metadata_path,
        {
            "version": 1,
            "workspaces": {
                MAIN_ID: {"recency": now - 15 * MINUTE, "streaming": False},
                DARK_MODE_ID: {"recency": now - 3 * DAY, "streaming": False},
                MULTI_ID: {"recency": now - 30 * HOUR, "streaming": False},
            },
        },
    )


def _text_message(
    message_id: str, role: str, text: str, at: int, sequence: int, extra_parts: list[Any]
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"timestamp": at, "historySequence": sequence}
    if role == "assistant":
        metadata["model"] = "anthropic:claude-sonnet-4-5"
        metadata["usage"] = {"inputTokens": 3000 + 150 * sequence, "outputTokens": 220}
    parts = [*extra_parts, {"type": "text", "text": text, "state": "done"}]
    return {
        "id": message_id,
        "role": role,
        "metadata": metadata,
        "parts": parts,
        "workspaceId": MAIN_ID,
    }


def _bash(call_id: str, script: str, ok: bool, output: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "success": ok,
        "output": output,
        "exitCode": 0 if ok else 1,
        "wall_duration_ms": 840,
    }
    if not ok:
        result["error"] = "Command exited with code 1"
    return {
        "type": "dynamic-tool",
        "toolCallId": call_id,
        "toolName": "bash",
        "state": "output-available",
        "input": {"script": script, "timeout_secs": 120},
        "output": result,
    }


def demo_transcript(now: int) -> list[dict[str, Any]]:
    """A short mux session: a directive, a failing command, its fix, and passing tests."""
    start = now - 70 * MINUTE
    return [
        _text_message(
            "user-0001",
            "user",
            "The refresh endpoint returns 401 when two tabs refresh at once. Find the race. "
            "From now on, always run `make check` before you push anything.",
            start,
            0,
            [],
        ),
        _text_message(
            "assistant-0001",
            "assistant",
            "The integration test failed to connect to Postgres; I started the database "
            "container and reran it. The race reproduces: both requests rotate the same token.",
            start + 2 * MINUTE,
            1,
            [
                _bash(
                    "call_01",
                    "pytest tests/integration -k refresh -q",
                    False,
                    "E   sqlalchemy.exc.OperationalError: connection to server at "
                    '"localhost" (127.0.0.1), port 5432 failed: Connection refused',
                ),
                _bash("call_02", "make db-up", True, "Container acme-db  Started"),
                _bash(
                    "call_03",
                    "pytest tests/integration -k refresh -q",
                    True,
                    "1 failed, 4 passed in 3.21s",
                ),
            ],
        ),
        _text_message(
            "user-0002",
            "user",
            "Remember that the staging database is read-only for us. Lock the row instead of "
            "retrying.",
            start + 10 * MINUTE,
            2,
            [],
        ),
        _text_message(
            "assistant-0002",
            "assistant",
            "Done: the refresh handler now selects the token row FOR UPDATE. All refresh "
            "tests pass and `make check` is clean.",
            start + 16 * MINUTE,
            3,
            [
                _bash("call_04", "make check", True, "ruff: ok\nmypy: ok\n212 passed in 41.2s"),
            ],
        ),
    ]


def _write_transcript_and_writer_state(home: Home, now: int) -> None:
    lines = "".join(json.dumps(message) + "\n" for message in demo_transcript(now))
    atomic_write_text(home.transcript_path(MAIN_ID), lines)
    state = WriterState(
        turns_since_last_run=1,
        last_run_started_at=now - 54 * MINUTE,
        last_run_completed_at=now - 54 * MINUTE + 10_000,
        last_run_message_id="assistant-0001",
    )
    atomic_write_json(home.writer_state_path(MAIN_ID), state.to_json())


# The other agents' seed, copied into the same dir of the demo home (mux's `agents/` is taken).
DEMO_AGENTS_DIR = "other-agents"
DEMO_AGENT_DIRS: dict[Agent, str] = {"claude-code": "claude", "codex": "codex", "loki": "loki"}
DEMO_GEMINI_DIR = "gemini"
"""Gemini CLI's directory in the demo: written by `write_gemini_demo` (it names absolute paths)."""


def _write_agent_sources(home: Home, now: int) -> None:
    """Copy the other agents' seed into `<home>/other-agents/` and point the home's isolated
    source settings at it, relative to the home."""
    seed = resource_path("demo", DEMO_AGENTS_DIR)
    for folder in DEMO_AGENT_DIRS.values():
        source = seed / folder
        for index, file in enumerate(sorted(p for p in source.rglob("*") if p.is_file())):
            relative = file.relative_to(source)
            if folder == DEMO_AGENT_DIRS["claude-code"]:
                relative = claude_folder(home, relative)
            target = home.root / DEMO_AGENTS_DIR / folder / relative
            atomic_write_text(target, seeded(file.read_text(encoding="utf-8"), home))
            modified = (now - 6 * DAY + index * 53 * MINUTE) / 1000
            os.utime(target, (modified, modified))
    write_gemini_demo(home.root / DEMO_AGENTS_DIR / DEMO_GEMINI_DIR, demo_worktree(home), now)
    agents = {
        agent: AgentSettings(path=f"{DEMO_AGENTS_DIR}/{folder}")
        for agent, folder in {**DEMO_AGENT_DIRS, "gemini": DEMO_GEMINI_DIR}.items()
    }
    sources = HomeSources.of(agents, isolated=True)
    atomic_write_json(home.memtab_dir / HOME_OVERRIDES_NAME, sources.to_json())


def demo_worktree(home: Home) -> Path:
    """The main workspace's worktree in `src/<project>/<workspace>`, as mux keeps it, for
    `memtab check` to check against."""
    return home.root / "src" / "acme-api" / "fix-token-refresh"


def demo_config_dir(home: Home) -> Path:
    """The demo's own config dir, inside the demo home (docs/formats.md §15)."""
    return home.memtab_dir / "config"


def is_demo_home(path: Path) -> bool:
    """Whether `path` holds a demo home Memtab wrote (and may therefore replace)."""
    return Home(path).demo_marker.is_file()


@dataclass
class DemoSession:
    """The demo home one `memtab --demo` works on, held until `release()` or exit; `fresh`
    False when another Memtab had it open (shown as it is)."""

    home: Home
    fresh: bool
    _hold: contextlib.ExitStack

    def release(self) -> None:
        self._hold.close()


def open_fresh_demo(target: Path, *, replace_unmarked: bool = False) -> DemoSession:
    """Recreate the demo home at `target` from the seed, unless another Memtab has it open; only
    a missing, empty or marked directory is replaced (`replace_unmarked`: an unmarked one too),
    else DemoError."""
    hold = contextlib.ExitStack()
    lock_path = target.parent / f".{target.name}.lock"
    try:
        hold.enter_context(interprocess_lock(lock_path, timeout_s=0))
    except TimeoutError:
        if is_demo_home(target) or (replace_unmarked and target.is_dir()):
            logger.info("Another Memtab has the demo home %s open; not resetting it", target)
            return DemoSession(Home(target), False, hold)
        raise DemoError(f"{target} is being set up by another Memtab; try again") from None
    try:
        if target.exists() and not target.is_dir():
            raise DemoError(f"{target} is not a directory; choose another demo home")
        if target.is_dir() and any(target.iterdir()):
            if not (is_demo_home(target) or replace_unmarked):
                raise DemoError(
                    f"{target} is not a Memtab demo home; it is left as it is. "
                    "Point MEMTAB_DEMO_HOME at a new directory."
                )
            shutil.rmtree(target)
        return DemoSession(create_demo_home(target), True, hold)
    except BaseException:
        hold.close()
        raise


GEMINI_SEED = "gemini"


def write_gemini_demo(gemini_dir: Path, project: Path, now: int) -> None:
    """Write the demo's Gemini CLI home (docs/formats.md §17.7) into `gemini_dir`, as having run in
    `project`: its seed, with what names absolute paths written where the demo home is."""
    seed = resource_path("demo", "other-agents", GEMINI_SEED)
    project_id = slugify(project.name)
    memory = memory_dir_of(gemini_dir, project_id)
    global_file = gemini_dir / "GEMINI.md"
    for name in ("GEMINI.md", "settings.json"):
        _write(gemini_dir / name, (seed / name).read_text(encoding="utf-8"), now - 20 * DAY)
    files = sorted(p for p in (seed / "memory").rglob("*") if p.is_file())
    for index, file in enumerate(files):
        text = file.read_text(encoding="utf-8")
        text = text.replace("{memory}", str(memory)).replace("{global}", str(global_file))
        _write(
            memory / file.relative_to(seed / "memory"), text, now - 9 * DAY + index * 97 * MINUTE
        )
    # Gemini CLI's own JSON (`JSON.stringify(data, null, 2)`, no final newline).
    registry = {"projects": {str(project): project_id}}
    _write(gemini_dir / PROJECTS_NAME, json.dumps(registry, indent=2), now - 20 * DAY)
    trusted = {str(project): "TRUST_FOLDER"}
    _write(gemini_dir / "trustedFolders.json", json.dumps(trusted, indent=2), now - 20 * DAY)
    for base in ("tmp", "history"):
        _write(gemini_dir / base / project_id / PROJECT_ROOT_FILE, str(project), now - 20 * DAY)
    state = {
        "runs": [
            {
                "runAt": _iso(now - 2 * DAY),
                "sessionIds": ["d3c1a8e0-5b7f-4c2e-9a14-6f0e2b7d9c41"],
                "skillsCreated": ["refresh-token-tests"],
                "memoryCandidatesCreated": [
                    ".inbox/global/extraction.patch",
                    ".inbox/private/extraction.patch",
                ],
                "memoryFilesUpdated": [],
            }
        ]
    }
    _write(memory / ".extraction-state.json", json.dumps(state, indent=2), now - 2 * DAY)


def _write(path: Path, text: str, modified_ms: int) -> None:
    atomic_write_text(path, text)
    os.utime(path, (modified_ms / 1000, modified_ms / 1000))
