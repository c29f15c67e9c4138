"""What xum (mux) recalls of its notebook for a prompt (docs/formats.md §17.8): its index
entries ranked by path and description, the best chunks of the first 200 judged, at most 5
notes recalled; the ranking predicted from the words (`relevance`)."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.loads.kept import KeptHeads
from memtab.loads.limits import XUM_NO_DESCRIPTION, xum_recall_warning
from memtab.loads.recall.records import AgentRecall, RecallFile, Unrecallable, loaded_files
from memtab.loads.recall.relevance import Fields, Judgement, Prompt, holds, judge, ranked
from memtab.loads.records import AgentLoads
from memtab.loads.xum import index_notes
from memtab.store.files import FileContent, FileEntry
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.text.frontmatter import find_frontmatter

RECALL_ENTRIES = 200
RECALL_INDEX_BYTES = 32 * 1024
RECALL_NOTES = 5
HOW = (
    f"xum ranks its memory index by path and description, keeps the first {RECALL_ENTRIES} "
    f"entries within {RECALL_INDEX_BYTES // 1024} KiB, then judges their notes' chunks; "
    f"the notes of the best chunks are recalled (at most {RECALL_NOTES}); the index and "
    "the hot set are in every session"
)


@dataclass(frozen=True)
class Chunk:
    path: VirtualPath
    first: int
    last: int
    text: str


def entry_line(path: VirtualPath, description: str) -> str:
    """The note's line in xum's memory index."""
    return f'- {path} — "{description}"' if description else f"- {path}"


def chunks_of(path: VirtualPath, text: str) -> list[Chunk]:
    """A note's paragraphs after its frontmatter, each heading with the paragraph under it, with
    their 1-based lines."""
    span = find_frontmatter(text)
    skipped = text[: span.end].count("\n") if span is not None else 0
    found: list[Chunk] = []
    lines: list[str] = []
    first = 0
    for number, line in enumerate(text.split("\n")[skipped:], start=skipped + 1):
        heading = line.lstrip().startswith("#")
        body = any(not kept.lstrip().startswith("#") for kept in lines)
        if lines and (heading or (not line.strip() and body)):
            found.append(Chunk(path, first, first + len(lines) - 1, "\n".join(lines).strip()))
            lines = []
        if not line.strip() and not lines:
            continue
        if not lines:
            first = number
        lines.append(line)
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        found.append(Chunk(path, first, first + len(lines) - 1, "\n".join(lines).strip()))
    return found


def xum_recall(
    prompt: Prompt,
    loads: AgentLoads,
    view: ScopeView,
    *,
    removed: bool = False,
    heads: KeptHeads | None = None,
) -> tuple[AgentRecall, list[Unrecallable]]:
    """What xum loads and would recall for `prompt` in the workspace `view` shows."""
    files = loaded_files(loads)
    listed = index_notes(view, removed=removed, kept=heads)
    judgements = judge(
        prompt,
        [
            Fields.of(
                (str(f.path).removesuffix(".md").replace("/", " ").replace("-", " "), 1.0),
                (f.description, 1.0),
            )
            for f in listed
        ],
    )
    order = ranked(judgements)
    kept: list[int] = []
    size = 0
    past_cut: list[int] = []
    for index in order:
        line = entry_line(listed[index].path, listed[index].description)
        size += len(line.encode("utf-8", errors="surrogatepass")) + 1
        if len(kept) >= RECALL_ENTRIES or size > RECALL_INDEX_BYTES:
            past_cut.append(index)
        else:
            kept.append(index)
    contents = dict(view.read_many(f.path for f in listed))
    texts = {
        path: content.content
        for path, content in contents.items()
        if isinstance(content, FileContent) and not content.binary
    }
    chunks = [c for i in kept for c in chunks_of(listed[i].path, texts.get(listed[i].path, ""))]
    chunk_judgements = judge(prompt, [Fields.of((c.text, 1.0)) for c in chunks])
    best: dict[VirtualPath, tuple[Chunk, Judgement]] = {}
    for chunk_index in ranked(chunk_judgements):
        chunk = chunks[chunk_index]
        best.setdefault(chunk.path, (chunk, chunk_judgements[chunk_index]))
    entry_of = {listed[i].path: i for i in kept}
    recalled = sorted(
        best,
        key=lambda p: (-(judgements[entry_of[p]].score + best[p][1].score), str(p)),
    )[:RECALL_NOTES]
    for rank, path in enumerate(recalled, start=1):
        chunk, chunk_judgement = best[path]
        entry = judgements[entry_of[path]]
        words = tuple(dict.fromkeys((*entry.matched, *chunk_judgement.matched)))
        files.append(
            RecallFile(
                path=str(path),
                name=str(path),
                kind="note",
                verdict="recalled",
                rank=rank,
                score=round(entry.score + chunk_judgement.score, 3),
                matched=words,
                reason=(
                    f"Its index entry holds {', '.join(entry.matched)}; its best chunk "
                    f"(lines {chunk.first}–{chunk.last}) holds "
                    f"{', '.join(chunk_judgement.matched) or 'none of the words'}"
                ),
                first_line=chunk.first,
                last_line=chunk.last,
            )
        )
    loaded = {f.path for f in files if f.verdict == "loaded"}
    files += [
        f
        for f in _missed(prompt, listed, judgements, set(recalled), kept, past_cut, texts)
        if f.path not in loaded
    ]
    unrecallable = [
        Unrecallable(agent="xum", path=str(f.path), reason=XUM_NO_DESCRIPTION)
        for f in listed
        if xum_recall_warning(f.description) and f.editable
    ]
    recall = AgentRecall(agent="xum", how=HOW, files=tuple(files), notes=loads.notes)
    return recall, unrecallable


def _missed(
    prompt: Prompt,
    listed: list[FileEntry],
    judgements: list[Judgement],
    recalled: set[VirtualPath],
    kept: list[int],
    past_cut: list[int],
    texts: dict[VirtualPath, str],
) -> list[RecallFile]:
    bodies = judge(prompt, [Fields.of((texts.get(f.path, ""), 1.0)) for f in listed])
    cut = set(past_cut)
    kept_set = set(kept)
    missed: list[RecallFile] = []
    for index, note in enumerate(listed):
        if note.path in recalled:
            continue
        entry, body = judgements[index], bodies[index]
        if index in cut:
            reason = (
                f"Its index entry ranks past the first {RECALL_ENTRIES} entries or "
                f"{RECALL_INDEX_BYTES // 1024} KiB xum judges"
            )
        elif index in kept_set:
            reason = "Ranked, but its chunks answer the prompt less well than the notes recalled"
        elif holds(body) and not note.description:
            reason = (
                "Its text holds the prompt's words, but it has no description: xum's index "
                "lists it by path alone, and its recall judges path and description first"
            )
        elif holds(body):
            reason = (
                "Its text holds the prompt's words, but its path and description do not: "
                "xum's recall judges those first"
            )
        else:
            continue
        judged = entry if entry.score > 0 else body
        missed.append(
            RecallFile(
                path=str(note.path),
                name=str(note.path),
                kind="note",
                verdict="missed",
                score=judged.score,
                matched=judged.matched,
                reason=reason,
            )
        )
    return missed


def _path_words(path: VirtualPath) -> str:
    return str(path).removesuffix(".md").replace("/", " ").replace("-", " ")
