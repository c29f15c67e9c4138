"""A Gemini CLI home laid out exactly as Gemini CLI 0.61 writes one (`@google/gemini-cli` from
npm; the strings below are its bundle's, docs/formats.md §17.7).

What each piece is, and which of its strings it follows:
- `~/.gemini/` — `GEMINI_DIR = ".gemini"` under `homedir()` (`GEMINI_CLI_HOME`, else the
  user's home);
- `settings.json` — the user's settings (`Storage.getGlobalSettingsPath`), JSON with
  comments; here `experimental.autoMemory: true` (the auto memory that writes patches)
  and, when asked, `context.fileName`;
- `GEMINI.md` — the global personal memory (`DEFAULT_CONTEXT_FILENAME`,
  `getGlobalMemoryFilePath`);
- `projects.json` — the project registry (`ProjectRegistry.save`: `JSON.stringify(data,
  null, 2)`, no final newline): `{"projects": {"<path>": "<id>"}}`;
- `tmp/<id>/.project_root` and `history/<id>/.project_root` — the ownership markers
  (`ensureOwnershipMarkers`: the normalized project path, no newline, in both base dirs);
- `tmp/<id>/memory/` — the private project memory (`getProjectMemoryTempDir`): `MEMORY.md`
  (`PROJECT_MEMORY_INDEX_FILENAME`) whose pointer lines are absolute
  (`- See <memoryDir>/<topic>.md for …`, the extraction prompt's shape), a sibling note,
  `skills/<name>/SKILL.md` (frontmatter `name`, `description`: what the extraction agent
  writes with the skill-creator's format);
- `tmp/<id>/memory/.inbox/private/extraction.patch` and `.inbox/global/extraction.patch` —
  the canonical patch of each kind (`EXACTLY ONE canonical patch file per kind`), unified
  diffs with absolute paths in both headers (`--- /dev/null` for a new note), as its
  extraction prompt's "MEMORY PATCH FORMAT (STRICT)" asks;
- `tmp/<id>/memory/.extraction-state.json` — the memory service's state
  (`writeExtractionState`: `JSON.stringify(state, null, 2)` of `{"runs": […]}`);
- `trustedFolders.json` — the trusted folders (`TRUST_FOLDER`);
- the project's own `GEMINI.md`.

The memory texts are Memtab's own words in those shapes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from memtab.sources.gemini.source import slugify

INDEX_TEXT = (
    "# Project Memory\n\n"
    "- The API listens on port 8080 in development.\n"
    "- See {memory}/build-notes.md for the build and release steps.\n"
)
NOTE_TEXT = "# Build notes\n\n1. `make dev` builds and starts the API.\n2. `make release` tags.\n"
SKILL_TEXT = (
    "---\nname: run-api-tests\ndescription: Run the API's tests offline, with the fake store\n"
    "---\n\n# Run the API tests\n\n1. `make test-offline`\n"
)
GLOBAL_TEXT = "# My preferences\n\n- Prefer pytest.\n- Answer in English.\n"
PROJECT_TEXT = "# acme-api\n\nTeam conventions: run `make check` before a commit.\n"


@dataclass(frozen=True)
class GeminiHome:
    """Where everything is."""

    gemini_dir: Path
    project: Path
    project_id: str

    @property
    def memory(self) -> Path:
        return self.gemini_dir / "tmp" / self.project_id / "memory"

    @property
    def global_file(self) -> Path:
        return self.gemini_dir / "GEMINI.md"

    def inbox(self, kind: str) -> Path:
        return self.memory / ".inbox" / kind

    def private_patch(self) -> str:
        """A private patch as the extraction agent writes one: a new sibling note and the
        paired hunk that points `MEMORY.md` to it."""
        memory = self.memory
        return (
            "--- /dev/null\n"
            f"+++ {memory}/deploy-checklist.md\n"
            "@@ -0,0 +1,3 @@\n"
            "+# Deploy checklist\n"
            "+\n"
            "+Run `make migrate` before `make release`.\n"
            f"--- {memory}/MEMORY.md\n"
            f"+++ {memory}/MEMORY.md\n"
            "@@ -2,2 +2,3 @@\n"
            " - The API listens on port 8080 in development.\n"
            f" - See {memory}/build-notes.md for the build and release steps.\n"
            f"+- See {memory}/deploy-checklist.md for what to run before a release.\n"
        )

    def global_patch(self) -> str:
        """A global patch: one more preference in `~/.gemini/GEMINI.md`."""
        target = self.global_file
        return (
            f"--- {target}\n+++ {target}\n@@ -2,3 +2,4 @@\n \n - Prefer pytest.\n"
            " - Answer in English.\n+- Keep commit messages under 72 characters.\n"
        )


def build_gemini_home(
    user_home: Path,
    project: Path,
    *,
    context_names: list[str] | None = None,
    patches: bool = True,
) -> GeminiHome:
    """A Gemini CLI home in `user_home/.gemini` that has run in `project` (created)."""
    gemini = user_home / ".gemini"
    project.mkdir(parents=True, exist_ok=True)
    project_id = slugify(project.name)
    settings: dict[str, object] = {"experimental": {"autoMemory": True}}
    if context_names is not None:
        settings["context"] = {"fileName": context_names}
    gemini.mkdir(parents=True, exist_ok=True)
    (gemini / "settings.json").write_text(
        "// Gemini CLI settings\n" + json.dumps(settings, indent=2) + "\n", encoding="utf-8"
    )
    (gemini / "GEMINI.md").write_text(GLOBAL_TEXT, encoding="utf-8")
    (gemini / "projects.json").write_text(
        json.dumps({"projects": {str(project): project_id}}, indent=2), encoding="utf-8"
    )
    (gemini / "trustedFolders.json").write_text(
        json.dumps({str(project): "TRUST_FOLDER"}, indent=2), encoding="utf-8"
    )
    for base in ("tmp", "history"):
        (gemini / base / project_id).mkdir(parents=True, exist_ok=True)
        (gemini / base / project_id / ".project_root").write_text(str(project), encoding="utf-8")
    home = GeminiHome(gemini, project, project_id)
    memory = home.memory
    (memory / "skills" / "run-api-tests").mkdir(parents=True)
    (memory / "MEMORY.md").write_text(INDEX_TEXT.format(memory=memory), encoding="utf-8")
    (memory / "build-notes.md").write_text(NOTE_TEXT, encoding="utf-8")
    (memory / "skills" / "run-api-tests" / "SKILL.md").write_text(SKILL_TEXT, encoding="utf-8")
    state = {
        "runs": [
            {
                "runAt": "2026-11-20T09:12:44.120Z",
                "sessionIds": ["5f0c1d2e"],
                "skillsCreated": ["run-api-tests"],
                "memoryCandidatesCreated": [".inbox/private/extraction.patch"],
            }
        ]
    }
    (memory / ".extraction-state.json").write_text(json.dumps(state, indent=2))
    if patches:
        home.inbox("private").mkdir(parents=True)
        home.inbox("global").mkdir(parents=True)
        (home.inbox("private") / "extraction.patch").write_text(home.private_patch())
        (home.inbox("global") / "extraction.patch").write_text(home.global_patch())
    (project / "GEMINI.md").write_text(PROJECT_TEXT, encoding="utf-8")
    return home
