"""What Codex recalls of its memories for a prompt (docs/formats.md §17.8): its quick memory pass
with the prompt's words as keywords — the summary's lines, `MEMORY.md`'s sections, and the 1–2
rollout summaries or skills they name that hold the words best."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from memtab.loads.codex import SUMMARY_NAME, SUMMARY_TOKEN_LIMIT
from memtab.loads.measure import Identify, named, read_text
from memtab.loads.recall.records import AgentRecall, RecallFile, loaded_files
from memtab.loads.recall.relevance import Fields, Judgement, Prompt, holds, judge, ranked
from memtab.loads.records import AgentLoads
from memtab.sources.codex.memory_settings import read_memory_settings

REGISTRY = "MEMORY.md"
OPENED = 2
SECTION_SHARE = 0.3
"""A section holds the prompt when it holds a third of its weight."""
_SECTION = re.compile(r"^#{1,2}\s")
_POINTED = re.compile(r"(?<![\w/.-])((?:rollout_summaries|skills)/[^\s)`'\",]+)")
HOW = (
    f"Codex reads {SUMMARY_NAME} at the start (at most {SUMMARY_TOKEN_LIMIT:,} tokens); for "
    f"a prompt it searches {REGISTRY} for its keywords and opens the {OPENED} rollout "
    "summaries or skills the sections found point to that fit best"
)


@dataclass(frozen=True)
class Section:
    first: int
    last: int
    text: str

    def pointed(self) -> list[str]:
        return list(dict.fromkeys(m.group(1) for m in _POINTED.finditer(self.text)))


def sections_of(text: str) -> list[Section]:
    """`MEMORY.md`'s sections: a heading of level 1 or 2 begins one (lines 1-based)."""
    found: list[Section] = []
    lines = text.split("\n")
    start = 0
    for number, line in enumerate(lines):
        if _SECTION.match(line) and number > start:
            found.append(Section(start + 1, number, "\n".join(lines[start:number])))
            start = number
    if start < len(lines) and "\n".join(lines[start:]).strip():
        found.append(Section(start + 1, len(lines), "\n".join(lines[start:])))
    return [s for s in found if s.text.strip()]


def codex_recall(
    prompt: Prompt, loads: AgentLoads, codex_root: Path | None, identify: Identify
) -> AgentRecall:
    """What Codex loads and would recall for `prompt` (its memories under `codex_root`)."""
    files = loaded_files(loads)
    notes = list(loads.notes)
    if codex_root is None:
        return AgentRecall(agent="codex", how=HOW, files=tuple(files), notes=tuple(notes))
    settings = read_memory_settings(codex_root)
    if settings.feature is False or not settings.use_memories:
        return AgentRecall(agent="codex", how=HOW, files=tuple(files), notes=tuple(notes))
    root = codex_root / settings.root_name
    summary = next((f for f in loads.files if f.kind == "summary"), None)
    if summary is not None and summary.cut_at_line is not None:
        files += _past_cut(
            prompt, root / SUMMARY_NAME, summary.cut_at_line, summary.resumes_at_line, identify
        )
    registry = read_text(root / REGISTRY)
    if registry is None:
        notes.append(f"No {REGISTRY}: Codex has nothing to search for the prompt's keywords")
        return AgentRecall(agent="codex", how=HOW, files=tuple(files), notes=tuple(notes))
    sections = sections_of(registry)
    judged = judge(prompt, [Fields.of((s.text, 1.0)) for s in sections])
    found = [i for i in ranked(judged) if judged[i].share >= SECTION_SHARE]
    pointed: dict[str, float] = {}
    for rank, index in enumerate(found[:1], start=1):
        section, judgement = sections[index], judged[index]
        files.append(
            _record(
                root / REGISTRY,
                REGISTRY,
                "registry",
                "recalled",
                judgement,
                identify,
                f"Its search of {REGISTRY} for {', '.join(judgement.matched)} finds "
                f"lines {section.first}–{section.last}",
                rank=rank,
                first_line=section.first,
                last_line=section.last,
            )
        )
    for index in found:
        for name in sections[index].pointed():
            pointed[name] = max(pointed.get(name, 0.0), judged[index].score)
    files += _opened(prompt, root, pointed, identify, start_rank=2 if found else 1)
    if not found:
        notes.append(f"None of {REGISTRY}'s sections holds the prompt's words")
    return AgentRecall(agent="codex", how=HOW, files=tuple(files), notes=tuple(notes))


def _opened(
    prompt: Prompt, root: Path, pointed: dict[str, float], identify: Identify, start_rank: int
) -> list[RecallFile]:
    """The rollout summaries and skills the found sections point to (the best 2 opened, the
    rest missed), and those unpointed whose text holds the words."""
    names = list(pointed)
    others = sorted(
        p.relative_to(root).as_posix()
        for folder in ("rollout_summaries", "skills")
        for p in (root / folder).rglob("*.md")
        if (root / folder).is_dir() and p.relative_to(root).as_posix() not in pointed
    )
    texts = {name: read_text(root / name) or "" for name in (*names, *others)}
    judged = judge(prompt, [Fields.of((name, 1.0), (texts[name], 1.0)) for name in names])
    order = sorted(range(len(names)), key=lambda i: (-(pointed[names[i]] + judged[i].score), i))
    files: list[RecallFile] = []
    for position, index in enumerate(order):
        name = names[index]
        if not texts[name]:
            continue
        taken = position < OPENED
        files.append(
            _record(
                root / name,
                name,
                "skill" if name.startswith("skills/") else "rollout",
                "recalled" if taken else "missed",
                judged[index],
                identify,
                f"{REGISTRY}'s section for the prompt points to it"
                if taken
                else f"{REGISTRY} points to it, but Codex opens only the {OPENED} that fit best",
                rank=start_rank + position if taken else None,
            )
        )
    bodies = judge(prompt, [Fields.of((texts[name], 1.0)) for name in others])
    for name, judgement in zip(others, bodies, strict=True):
        if holds(judgement):
            kind = "skill" if name.startswith("skills/") else "rollout"
            files.append(
                _record(
                    root / name,
                    name,
                    kind,
                    "missed",
                    judgement,
                    identify,
                    f"Its text holds the prompt's words, but no section of {REGISTRY} "
                    "that does points to it: Codex opens only what MEMORY.md points to",
                )
            )
    return files


def _past_cut(
    prompt: Prompt, path: Path, cut: int, resumes: int | None, identify: Identify
) -> list[RecallFile]:
    """The summary's lines Codex does not see that hold the prompt's words."""
    text = read_text(path) or ""
    lines = text.split("\n")
    last = (resumes - 1) if resumes is not None else len(lines)
    hidden = "\n".join(lines[cut - 1 : last])
    judgement = judge(prompt, [Fields.of((hidden, 1.0))])[0]
    if judgement.score <= 0:
        return []
    return [
        _record(
            path,
            SUMMARY_NAME,
            "summary",
            "missed",
            judgement,
            identify,
            f"Lines {cut}–{last} hold the prompt's words, but Codex reads at most "
            f"{SUMMARY_TOKEN_LIMIT:,} tokens of {SUMMARY_NAME}: they are cut",
            first_line=cut,
            last_line=last,
        )
    ]


def _record(
    path: Path,
    name: str,
    kind: str,
    verdict: str,
    judgement: Judgement,
    identify: Identify,
    reason: str,
    **lines: int | None,
) -> RecallFile:
    """`rank`, `first_line`, `last_line` in `lines` where they apply."""
    return RecallFile(
        name=name,
        kind=kind,
        verdict=verdict,  # type: ignore[arg-type]
        score=judgement.score,
        matched=judgement.matched,
        reason=reason,
        **lines,  # type: ignore[arg-type]
        **named(path, identify),
    )
