"""Gemini CLI's build-file protection, as Memtab's tools tell a Gemini CLI session of it
(docs/formats.md §22.2).

Gemini CLI 0.61's policy engine refuses a tool whose name reads as an edit (`create`,
`str_replace`: a word of it is write, edit, replace, patch, update, create, append or save)
when the file name of its `path` is a build file's — "Modifying build configuration files
requires explicit user confirmation": denied outright in a run without a terminal
(`gemini -p`), even with `--yolo`, and asked of the user otherwise. It does so before the
call reaches the server, whatever the server is, so Memtab can only say it beforehand. The
names are Gemini CLI's `isBuildFile`'s (packages/core/src/utils/buildFileUtils.ts).
"""

from __future__ import annotations

import posixpath

from memtab.agent_server.server_names import GEMINI_CLI_CLIENT

BUILD_FILE_NAMES = frozenset(
    {
        "BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc",
        ".blazerc", "Makefile", "makefile", "GNUmakefile", "CMakeLists.txt", "package.json",
        "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb", "setup.py",
        "setup.cfg", "pyproject.toml", "go.mod", "go.sum", "Cargo.toml", "Cargo.lock",
        "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle",
        "settings.gradle.kts", "Dockerfile", "Containerfile",
    }
)  # fmt: skip
BUILD_FILE_PREFIXES = ("Dockerfile.", "Containerfile.")
BUILD_FILE_EXTENSIONS = frozenset({".bzl", ".bazel", ".bzlmod", ".mk", ".cmake"})
REFUSED_TOOLS = frozenset({"create", "str_replace"})

REFUSAL = "Modifying build configuration files requires explicit user confirmation"
GEMINI_REFUSES = (
    "Gemini CLI refuses this tool on a path whose file name is a build file's (Makefile, "
    "package.json, pyproject.toml, go.mod, Cargo.toml, Dockerfile, *.mk, *.bzl, *.cmake…), "
    f'before Memtab sees the call: "{REFUSAL}", denied outright without a terminal, even in '
    "YOLO mode. Name a note for its subject (/memories/project/build-commands.md, not "
    "/memories/project/Makefile); to change a note named like a build file, `rename` it first."
)


def named_like_build_file(path: str) -> bool:
    """Whether Gemini CLI takes `path` (a virtual path) for a build file, by its last name."""
    name = posixpath.basename(path.replace("\\", "/").rstrip("/"))
    if name in BUILD_FILE_NAMES or name.startswith(BUILD_FILE_PREFIXES):
        return True
    return posixpath.splitext(name)[1].lower() in BUILD_FILE_EXTENSIONS


def name_gemini_takes(path: str) -> str:
    """A name for the note at `path` that Gemini CLI takes for no build file."""
    folder, name = posixpath.split(path)
    return posixpath.join(folder, name.replace(".", "-") + "-notes.md")


def refusal_note(client: str | None, path: str) -> str | None:
    """What `view` adds for a Gemini CLI session about a note it cannot change (None: nothing)."""
    if client != GEMINI_CLI_CLIENT or not named_like_build_file(path):
        return None
    return (
        f"(Gemini CLI refuses `create` and `str_replace` on {path}, named like a build file: "
        f'"{REFUSAL}". To change it, `rename` it first, e.g. to {name_gemini_takes(path)}.)'
    )
