"""What Gemini CLI recalls of its memory for a prompt (docs/formats.md §17.8): everything at the
start is whole; a note is read only through a pointer of `MEMORY.md`, so Memtab takes the notes
whose pointer line and name hold the prompt's words, at most `OPENED`."""

from __future__ import annotations

from pathlib import Path

from memtab.loads.measure import Identify, named, read_text
from memtab.loads.recall.records import AgentRecall, RecallFile, Unrecallable, loaded_files
from memtab.loads.recall.relevance import Fields, Prompt, judge, ranked
from memtab.loads.records import AgentLoads, LoadedFile
from memtab.sources.gemini.context_files import sibling_notes

INDEX = "MEMORY.md"
OPENED = 3
"""How many notes a model follows pointers to for one prompt (Gemini CLI sets none)."""
HOW = (
    "Gemini CLI reads its context files and the private memory's MEMORY.md whole at the "
    "start; for a prompt its model reads the notes MEMORY.md points to that fit the task"
)


def gemini_recall(
    prompt: Prompt, loads: AgentLoads, identify: Identify
) -> tuple[AgentRecall, list[Unrecallable]]:
    """What Gemini CLI loads and would recall for `prompt`, and its notes no prompt reaches."""
    files = loaded_files(loads)
    notes = list(loads.notes)
    pointed = [f for f in loads.files if f.when == "on demand" and f.physical_path]
    index = next((f for f in loads.files if f.kind == "memory" and f.physical_path), None)
    index_text = read_text(Path(index.physical_path)) if index and index.physical_path else None
    index_lines = (index_text or "").split("\n")
    judged = judge(
        prompt,
        [
            Fields.of((_name(f.physical_path), 2.0), (_pointer(index_lines, f.physical_path), 1.0))
            for f in pointed
        ],
    )
    order = ranked(judged)
    for position, at in enumerate(order):
        file, judgement = pointed[at], judged[at]
        taken = position < OPENED
        files.append(
            RecallFile(
                path=file.path,
                id=file.id,
                physical_path=file.physical_path,
                name=_name(file.physical_path),
                kind="note",
                verdict="recalled" if taken else "missed",
                rank=position + 1 if taken else None,
                score=judgement.score,
                matched=judgement.matched,
                reason=(
                    f"{INDEX} points to it by words of the prompt"
                    if taken
                    else f"{INDEX} points to it, but a model follows the {OPENED} that fit best"
                ),
            )
        )
    if pointed and not order:
        notes.append(f"No line of {INDEX} that points to a note holds the prompt's words")
    return AgentRecall(agent="gemini", how=HOW, files=tuple(files), notes=tuple(notes)), (
        _unnamed(index, pointed, identify)
    )


def _name(physical_path: str | None) -> str:
    return Path(physical_path or "").name


def _pointer(index_lines: list[str], physical_path: str | None) -> str:
    """The lines of `MEMORY.md` that name the note, without the folder named in them."""
    name = _name(physical_path)
    folder = str(Path(physical_path or "").parent) + "/"
    return "\n".join(line.replace(folder, "") for line in index_lines if name and name in line)


def _unnamed(
    index: LoadedFile | None, pointed: list[LoadedFile], identify: Identify
) -> list[Unrecallable]:
    """The private memory's notes no line of `MEMORY.md` names."""
    if index is None or not index.physical_path:
        return []
    physical = index.physical_path
    known = {f.physical_path for f in pointed}
    return [
        Unrecallable(
            agent="gemini",
            reason=f"No line of {INDEX} names it: Gemini CLI reads a note only when "
            f"{INDEX} points to it",
            **named(path, identify),
        )
        for path in sibling_notes(Path(physical).parent)
        if str(path) not in known
    ]
