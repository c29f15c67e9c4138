"""What Codex reads at a session's start (docs/formats.md §17.6): its AGENTS files up to
`project_doc_max_bytes`, then its memory summary cut to its token limit (middle dropped), as its
`[memories]` settings say; the files the summary names on demand."""

from __future__ import annotations

import re
from pathlib import Path

from memtab.loads.measure import (
    BYTES_PER_TOKEN,
    Identify,
    line_of_byte,
    measured,
    named,
    on_demand,
    project_root,
    read_text,
)
from memtab.loads.records import AgentLoads, LoadedFile
from memtab.sources.claude.index import count_lines
from memtab.sources.codex.memory_settings import (
    V1_ROOT,
    V2_ROOT,
    CodexMemorySettings,
    external_context_note,
    is_valid_v2_summary,
    read_memory_settings,
)
from memtab.sources.codex.summary import has_version_line

PROJECT_DOC_MAX_BYTES = 32 * 1024
SUMMARY_TOKEN_LIMIT = 2_500
"""`MEMORY_TOOL_DEVELOPER_INSTRUCTIONS_SUMMARY_TOKEN_LIMIT`."""
SUMMARY_NAME = "memory_summary.md"
NO_V1_NOTE = "Codex reads it as it is, and its next consolidation writes it again from scratch"
_NAMED = re.compile(
    r"(?<![\w/.-])((?:rollout_summaries|skills|extensions)/[^\s)`'\",]+\.md|MEMORY\.md)"
)


def codex_loads(*, codex_root: Path | None, cwd: Path | None, identify: Identify) -> AgentLoads:
    if codex_root is None:
        return AgentLoads(agent="codex", notes=("Codex's directory was not found",))
    files: list[LoadedFile] = []
    notes: list[str] = []
    user = _first_file(codex_root, notes)
    if user is not None:
        files.append(measured(read_text(user) or "", kind="instructions", **named(user, identify)))
    if cwd is not None:
        files.extend(_project_docs(cwd, identify, notes))
    settings = read_memory_settings(codex_root)
    files.extend(_memory(codex_root, settings, identify, notes))
    total = sum(f.loaded_tokens for f in files if f.when == "start")
    return AgentLoads(agent="codex", files=tuple(files), total_tokens=total, notes=tuple(notes))


def _memory(
    codex_root: Path, settings: CodexMemorySettings, identify: Identify, notes: list[str]
) -> list[LoadedFile]:
    """The memory summary a session reads (and the files it names, on demand), as the
    `[memories]` settings say (each said in `notes`)."""
    if settings.problem is not None:
        notes.append(f"Codex's memory settings are its defaults here: {settings.problem}")
    if settings.feature is False:
        notes.append(
            "Codex's memories feature is off ([features] memories = false in config.toml): "
            "it reads no memory summary"
        )
        return []
    if not settings.use_memories:
        notes.append(
            "[memories] use_memories = false in config.toml: Codex puts no memory summary in "
            "a session"
        )
        return []
    files: list[LoadedFile] = []
    root = codex_root / settings.root_name
    summary_path = root / SUMMARY_NAME
    summary = read_text(summary_path, notes)
    if summary is not None and summary.strip():
        v2_refused = settings.version == "v2" and not is_valid_v2_summary(summary)
        if v2_refused:
            notes.append(
                f"{V2_ROOT}/{SUMMARY_NAME} is not read: Codex uses a v2 summary only when it "
                "begins with `v1`, is under 10,000 bytes and has the headings User Profile, "
                "User preferences, General Tips and What's in Memory"
            )
        else:
            files.append(_summary(summary, summary_path, identify))
            files.extend(_named_files(summary, root, identify, notes))
            notes.append(f"{SUMMARY_NAME} is read when Codex's memories feature is on")
            if settings.version == "v2":
                notes.append(
                    f'[memories] version = "v2": Codex reads {V2_ROOT}/, once its v2 memory '
                    "has enough consolidated threads (counted in Codex's database, not seen)"
                )
            if not has_version_line(summary):  # read now, written again from scratch later
                notes.append(f"{SUMMARY_NAME} does not begin with `v1`: {NO_V1_NOTE}")
    if settings.dual_write:
        other = V1_ROOT if settings.version == "v2" else V2_ROOT
        notes.append(
            f"[memories] dual_write is on: Codex's memory pipeline writes {V1_ROOT}/ and "
            f"{V2_ROOT}/ both; a session reads {settings.root_name}/ alone, not {other}/"
        )
    if settings.dedicated_tools:
        notes.append(
            "[memories] dedicated_tools is on: Codex reads MEMORY.md and the files its "
            "summary names with its own memory tools (list, read, search) and adds notes "
            "with add_ad_hoc_note"
        )
    external = external_context_note(settings)
    if external is not None:
        notes.append(external)
    return files


def _first_file(directory: Path, notes: list[str]) -> Path | None:
    for name in ("AGENTS.override.md", "AGENTS.md"):
        text = read_text(directory / name, notes)
        if text is not None and text.strip():
            return directory / name
    return None


def _project_docs(cwd: Path, identify: Identify, notes: list[str]) -> list[LoadedFile]:
    root = project_root(cwd)
    directories = [d for d in (*reversed(cwd.parents), cwd) if d == root or root in d.parents]
    files: list[LoadedFile] = []
    left = PROJECT_DOC_MAX_BYTES
    for directory in directories:
        path = _first_file(directory, notes)
        if path is None:
            continue
        text = read_text(path) or ""
        data = text.encode("utf-8", errors="surrogatepass")
        if left and len(data) <= left:
            files.append(measured(text, kind="instructions", **named(path, identify)))
            left -= len(data)
            continue
        files.append(
            measured(
                text,
                loaded=data[:left].decode("utf-8", errors="ignore"),
                cut_at_line=line_of_byte(text, left),
                cut_reason="Codex reads at most 32 KiB of project AGENTS.md files",
                kind="instructions",
                **named(path, identify),
            )
        )
        left = 0
    return files


def _summary(text: str, path: Path, identify: Identify) -> LoadedFile:
    trimmed = text.strip()
    leading = text[: len(text) - len(text.lstrip())].count("\n")
    data = trimmed.encode("utf-8", errors="surrogatepass")
    budget = SUMMARY_TOKEN_LIMIT * BYTES_PER_TOKEN
    if len(data) <= budget:
        return measured(text, loaded=trimmed, kind="summary", **named(path, identify))
    head, tail = budget // 2, budget - budget // 2
    kept_head = data[:head].decode("utf-8", errors="ignore")
    kept_tail = data[len(data) - tail :].decode("utf-8", errors="ignore")
    cut = leading + line_of_byte(trimmed, len(kept_head.encode("utf-8", errors="surrogatepass")))
    tail_start = len(data) - len(kept_tail.encode("utf-8", errors="surrogatepass"))
    resumes = leading + line_of_byte(trimmed, tail_start)
    resumes += 0 if tail_start == 0 or data[tail_start - 1 : tail_start] == b"\n" else 1
    return measured(
        text,
        loaded=kept_head + kept_tail,
        loaded_lines=cut - 1 + max(0, count_lines(text) - resumes + 1),
        cut_at_line=cut,
        resumes_at_line=resumes,
        cut_reason=f"Codex reads at most {SUMMARY_TOKEN_LIMIT:,} tokens of {SUMMARY_NAME}: "
        "its head and tail",
        kind="summary",
        **named(path, identify),
    )


def _named_files(
    summary: str, memories: Path, identify: Identify, notes: list[str]
) -> list[LoadedFile]:
    names = ["MEMORY.md", *(m.group(1) for m in _NAMED.finditer(summary))]
    return [
        on_demand(text, kind="named", **named(memories / name, identify))
        for name in dict.fromkeys(names)
        if (text := read_text(memories / name, notes)) is not None
    ]
