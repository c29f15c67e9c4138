"""The Inbox: every memory an agent proposed for one workspace, to accept, edit or reject
(docs/formats.md §10.5, §22.5, §17.7)."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import OmitNone, Record, computed
from memtab.fs.user_files import open_regular_file
from memtab.redact import redact_secrets
from memtab.store.actors import MCP_PREFIX, actor_name
from memtab.store.history.recorder import RecordedChange
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.proposals.queue import (
    ProposalError,
    ProposalQueue,
    proposal_summary,
    proposal_target,
    proposal_text,
)
from memtab.store.proposals.records import AgentProposal
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.gemini import GeminiDecided, GeminiInbox, GeminiInboxError, GeminiPatchItem
from memtab.writer.inbox.harvest import MAX_TEXT_CHARS, Candidate, HarvestError, HarvestInbox
from memtab.writer.inbox.suggestions import (
    SuggestionError,
    SuggestionQueue,
    clean_note_text,
    sections_order,
    write_notes,
)
from memtab.writer.inbox.targets import proposed_target, target_problem
from memtab.writer.inbox.undo import InboxUndo
from memtab.writer.offline.notes import DIRECTIVES, FINDINGS, Note
from memtab.writer.records import Suggestion

logger = logging.getLogger(__name__)

Kind = Literal["harvest", "suggestion", "agent", "gemini"]
AS_PROPOSED_KINDS = ("agent", "gemini")
"""Items accepted as they are, into the file they name: an agent's call, a Gemini patch."""
SOURCE_HARVEST_PREFIX = "harvest:"
GEMINI_PROPOSER = "Gemini CLI auto memory"
# Which section of the notes file each of mux's categories goes under.
CATEGORY_SECTIONS = {
    "preference": DIRECTIVES,
    "workflow": DIRECTIVES,
    "project": FINDINGS,
    "environment": FINDINGS,
    "other": FINDINGS,
}
MAX_EVIDENCE_CHARS = 2000  # of one message's text, as shown


class InboxError(Exception):
    """A decision the inbox refuses; the message is for the user."""


class Evidence(Record, write_only=True):
    """A transcript message a candidate rests on; `role`/`text` None: not in the transcript."""

    id: str
    role: str | None = None
    text: str | None = None


class InboxItem(Record, write_only=True):
    """One proposed memory: `memtab inbox --json`'s row (docs/formats.md §10.5)."""

    id: str
    kind: Kind
    workspace_id: str | None  # None: an agent's proposal for global memory (§22.5)
    text: str
    section: str  # of the notes file, where accepting puts it
    memory_path: str  # the file accepting writes, unless the user chooses another
    source: str  # the harvest file's path, the suggestion's source, `mcp:<client>`
    category: str | None = None  # mux's category (harvest)
    evidence: tuple[Evidence, ...] = ()
    confidence: float | None = None
    rationale: str | None = None  # mux's (harvest); the tool call in one line (agent)
    created_at: int | None = None  # ms (suggestions, agents' proposals)
    target_reason: str | None = None  # why `memory_path` (harvest, suggestions)
    problem: Annotated[str | None, OmitNone] = None
    """Why it cannot be accepted (a Gemini patch Gemini CLI would refuse): reject it.
    Written only when there is one."""
    retargetable: bool = computed(lambda item: item.kind not in AS_PROPOSED_KINDS)
    """Whether the user may accept it into another file (a note: not an agent's call nor a
    Gemini patch, which change the files they name)."""
    source_name: str = computed(lambda item: proposer_name(item.kind, item.source))
    """Who proposed it, in words: an agent as History names it ("Codex via Memtab MCP")."""


@dataclass(frozen=True)
class Decision:
    """What accept or reject did: the items, the notes file written, and its undo."""

    items: tuple[InboxItem, ...]
    memory_path: str | None = None
    texts: dict[str, str] = field(default_factory=dict)  # id → the text written
    undo: InboxUndo | None = None


@dataclass
class _Done:
    """What a decision did so far, for its `InboxUndo`."""

    changes: list[RecordedChange] = field(default_factory=list)
    bullets: dict[str, list[str]] = field(default_factory=dict)
    suggestions: list[Suggestion] = field(default_factory=list)
    proposals: list[tuple[bool, AgentProposal]] = field(default_factory=list)
    gemini: list[GeminiDecided] = field(default_factory=list)

    def wrote(self, changes: Sequence[RecordedChange], path: str, bullet: str) -> None:
        """`changes` made, `bullet` among them if `path` changed (else the file said it
        already: taking the accept back leaves that line)."""
        self.changes += changes
        if any(change.path == path for change in changes):
            self.bullets.setdefault(path, []).append(bullet)

    def undo(
        self,
        verb: Literal["accept", "reject"],
        items: Sequence[InboxItem],
        *,
        text: str | None = None,
        to: str | None = None,
    ) -> InboxUndo:
        return InboxUndo(
            verb,
            tuple(item.id for item in items),
            tuple(item.rationale or "" if item.kind == "gemini" else item.text for item in items),
            text=text,
            to=to,
            changes=tuple(self.changes),
            bullets={path: tuple(lines) for path, lines in self.bullets.items()},
            suggestions=tuple(self.suggestions),
            proposals=tuple(self.proposals),
            gemini=tuple(self.gemini),
        )


def proposer_name(kind: Kind, source: str) -> str:
    """Who proposed an item of `kind` from `source`, in words (docs/formats.md §14.7)."""
    if kind == "agent":
        return actor_name(source)
    if kind == "gemini":
        return GEMINI_PROPOSER
    return "mux harvest" if kind == "harvest" else "Memtab's offline writer"


def harvest_run_id(path: str) -> str:
    """The run id history records for a change a harvest decision made."""
    return f"{SOURCE_HARVEST_PREFIX}{path}"


def _from_candidate(view: ScopeView, workspace_id: str, candidate: Candidate) -> InboxItem:
    section = CATEGORY_SECTIONS.get(candidate.category, FINDINGS)
    target = proposed_target(
        view, category=candidate.category, section=section, default_path=DEFAULT_MEMORY_PATH
    )
    return InboxItem(
        id=candidate.id,
        kind="harvest",
        workspace_id=workspace_id,
        text=candidate.text,
        section=section,
        memory_path=target.path,
        source=candidate.path,
        category=candidate.category,
        evidence=tuple(Evidence(id=i) for i in candidate.evidence),
        confidence=candidate.confidence,
        rationale=candidate.rationale,
        target_reason=target.reason,
    )


def _from_suggestion(view: ScopeView, workspace_id: str, suggestion: Suggestion) -> InboxItem:
    target = proposed_target(
        view, category=None, section=suggestion.section, default_path=suggestion.memory_path
    )
    return InboxItem(
        id=suggestion.id,
        kind="suggestion",
        workspace_id=workspace_id,
        text=suggestion.text,
        section=suggestion.section,
        memory_path=target.path,
        source=suggestion.source,
        created_at=suggestion.created_at,
        target_reason=target.reason,
    )


def _from_gemini(item: GeminiPatchItem) -> InboxItem:
    patch = item.patch
    return InboxItem(
        id=item.id,
        kind="gemini",
        workspace_id=item.workspace_id,
        text=patch.text,
        section="",
        memory_path=item.targets[0].removesuffix(" (new)") if item.targets else "",
        source=str(patch.path),
        category=patch.kind,
        rationale=item.summary,
        created_at=patch.modified_ms,
        problem=patch.problem,
    )


def _from_proposal(workspace_id: str | None, proposal: AgentProposal) -> InboxItem:
    return InboxItem(
        id=proposal.id,
        kind="agent",
        workspace_id=workspace_id,
        text=proposal_text(proposal),
        section="",
        memory_path=proposal_target(proposal),
        source=MCP_PREFIX + proposal.client,
        category=proposal.command,
        rationale=proposal_summary(proposal),
        created_at=proposal.created_at,
    )


class Inbox:
    """The proposed memories of one workspace (see the module docstring); `workspace`
    None: the global Inbox, agents' proposals for global memory only."""

    def __init__(
        self, home: Home, workspace: Workspace | None, *, gemini: GeminiInbox | None = None
    ) -> None:
        """`gemini`: Gemini CLI's inboxes, as the sources found (found when first asked)."""
        self.home = home
        self.workspace = workspace
        if gemini is not None:
            self.gemini = gemini

    @functools.cached_property
    def gemini(self) -> GeminiInbox:
        return GeminiInbox(self.home)

    def _gemini_items(self, *, with_global: bool) -> list[GeminiPatchItem]:
        """This workspace's Gemini patches and (`with_global`, or the global Inbox) those of
        projects no workspace holds."""
        registry = self.gemini.context.registry
        found = self.gemini.items(self.workspace, registry) if self.workspace is not None else []
        if with_global or self.workspace is None:
            found += self.gemini.items(None, registry)
        return found

    def _harvest(self, run_id: str | None = None) -> HarvestInbox:
        return HarvestInbox(MemoryStore(self.home, self.workspace, run_id=run_id))

    def _proposals(self, global_queue: bool = False) -> ProposalQueue:
        return ProposalQueue(self.home, None if global_queue else self.workspace)

    def items(self, *, with_evidence: bool = False, with_global: bool = True) -> list[InboxItem]:
        """Harvest candidates (by file), suggestions (in the notes' section order), then agents'
        proposals, oldest first — this workspace's, then (`with_global`) those for global memory.
        `with_evidence` reads the transcript for the evidence messages' text."""
        if self.workspace is None:
            return [_from_proposal(None, p) for p in self._proposals().pending()] + [
                _from_gemini(g) for g in self._gemini_items(with_global=True)
            ]
        workspace_id = self.workspace.id
        harvest = self._harvest()
        view = harvest.store
        items = [_from_candidate(view, workspace_id, c) for c in harvest.candidates()]
        items += [
            _from_suggestion(view, workspace_id, s)
            for s in sections_order(SuggestionQueue(self.home, workspace_id).pending())
        ]
        items += [_from_proposal(workspace_id, p) for p in self._proposals().pending()]
        if with_global:
            items += [_from_proposal(None, p) for p in self._proposals(True).pending()]
        items += [_from_gemini(g) for g in self._gemini_items(with_global=with_global)]
        if with_evidence:
            items = with_transcript_evidence(self.home, workspace_id, items)
        return items

    def _find(self, ids: Sequence[str]) -> list[InboxItem]:
        if not ids:
            raise InboxError("No inbox ids given")
        by_id = {item.id: item for item in self.items()}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise InboxError(f"Nothing in the inbox with id {', '.join(missing)}")
        return [by_id[i] for i in dict.fromkeys(ids)]

    def accept(
        self, ids: Sequence[str], *, text: str | None = None, to: str | None = None
    ) -> Decision:
        """Write these items into their notes file (`to`: into this file instead; `text`:
        the edited text of the one item given), then take them out of the inbox.
        InboxError, or the store's errors."""
        if text is not None and len(ids) != 1:
            raise InboxError("Edited text can be given for one item at a time")
        chosen = self._find(ids)
        if text is not None and chosen[0].kind == "gemini":
            raise InboxError(
                f"{chosen[0].id} is a Gemini CLI patch: it is applied as it is, never edited"
            )
        if to is not None:
            chosen = [self._retargeted(item, to) for item in chosen]
        written: dict[str, str] = {}
        done = _Done()
        try:
            for item in chosen:
                if item.kind == "gemini":
                    decided = self.gemini.accept(self.gemini_item(item.id))
                    done.gemini.append(decided)
                    written[item.id] = decided.message
                    continue
                if item.kind == "agent":
                    queue = self._proposals(global_queue=item.workspace_id is None)
                    entry = next((p for p in queue.pending() if p.id == item.id), None)
                    recorded: list[RecordedChange] = []
                    proposal, _ = queue.accept(item.id, text=text, recorded=recorded)
                    done.changes += recorded
                    done.proposals += [(item.workspace_id is None, entry)] if entry else []
                    written[item.id] = proposal_text(proposal)
                    continue
                assert self.workspace is not None  # harvest and suggestions are a workspace's
                if item.kind == "suggestion":
                    suggestions = SuggestionQueue(self.home, self.workspace.id)
                    suggestion = next((s for s in suggestions.pending() if s.id == item.id), None)
                    accepted = suggestions.accept(
                        [item.id], workspace=self.workspace, text=text, to=item.memory_path
                    )
                    note = accepted.suggestions[0].note
                    done.wrote(accepted.written, item.memory_path, note.bullet)
                    done.suggestions += [suggestion] if suggestion else []
                    written[item.id] = note.text
                    continue
                final = clean_note_text(item.text if text is None else text, limit=MAX_TEXT_CHARS)
                harvest = self._harvest(harvest_run_id(item.source))
                note = Note(item.section, final)
                with harvest.store.collecting_changes() as changes:
                    write_notes(harvest.store, item.memory_path, [note])
                    harvest.remove(item.source, [item.id])
                done.wrote(changes, item.memory_path, note.bullet)
                written[item.id] = final
        except (SuggestionError, HarvestError, ProposalError, GeminiInboxError) as error:
            raise InboxError(str(error)) from None
        paths = {item.memory_path for item in chosen}
        undo = done.undo("accept", chosen, text=text, to=to)
        return Decision(tuple(chosen), paths.pop() if len(paths) == 1 else None, written, undo)

    def redo(self, undo: InboxUndo) -> Decision:
        """Make again a decision that was taken back (`undo.take_back`): the same
        items, decided the same way."""
        if undo.verb == "reject":
            return self.reject(undo.ids)
        return self.accept(undo.ids, text=undo.text, to=undo.to)

    def _retargeted(self, item: InboxItem, to: str) -> InboxItem:
        """The item going to `to`, a file the user chose (InboxError when it cannot)."""
        if not item.retargetable:
            if to == item.memory_path:
                return item
            raise InboxError(
                f"{item.id} is an agent's change of {item.memory_path}; it cannot be "
                "accepted into another file"
            )
        problem = target_problem(MemoryStore(self.home, self.workspace), to)
        if problem is not None:
            raise InboxError(problem)
        path = str(parse_file_path(to))
        return item.replaced(memory_path=path, target_reason="chosen by the user")

    def gemini_item(self, item_id: str) -> GeminiPatchItem:
        """The Gemini patch `item_id` names, as it is now (InboxError: none)."""
        found = next((g for g in self._gemini_items(with_global=True) if g.id == item_id), None)
        if found is None:
            raise InboxError(f"Nothing in the inbox with id {item_id}")
        return found

    def reject(self, ids: Sequence[str]) -> Decision:
        """Take these items out of the inbox: a harvest candidate leaves its file, a suggestion is
        dismissed (never proposed again), a Gemini patch is removed as Gemini CLI dismisses it."""
        chosen = self._find(ids)
        done = _Done()
        try:
            for item in chosen:
                if item.kind == "gemini":
                    done.gemini.append(self.gemini.reject(self.gemini_item(item.id)))
            for global_queue in (False, True):
                proposals = [
                    item.id
                    for item in chosen
                    if item.kind == "agent" and (item.workspace_id is None) == global_queue
                ]
                if proposals:
                    queue = self._proposals(global_queue)
                    entries = [p for p in queue.pending() if p.id in proposals]
                    queue.reject(proposals)
                    done.proposals += [(global_queue, entry) for entry in entries]
            suggestions = [item.id for item in chosen if item.kind == "suggestion"]
            if suggestions and self.workspace is not None:
                queue_of_suggestions = SuggestionQueue(self.home, self.workspace.id)
                pending = [s for s in queue_of_suggestions.pending() if s.id in suggestions]
                queue_of_suggestions.dismiss(suggestions)
                done.suggestions += pending
            by_file: dict[str, list[str]] = {}
            for item in chosen:
                if item.kind == "harvest":
                    by_file.setdefault(item.source, []).append(item.id)
            for path, file_ids in by_file.items():
                harvest = self._harvest(harvest_run_id(path))
                with harvest.store.collecting_changes() as changes:
                    harvest.remove(path, file_ids)
                done.changes += changes
        except (SuggestionError, HarvestError, ProposalError, GeminiInboxError) as error:
            raise InboxError(str(error)) from None
        return Decision(tuple(chosen), undo=done.undo("reject", chosen))


def with_transcript_evidence(
    home: Home, workspace_id: str, items: Iterable[InboxItem]
) -> list[InboxItem]:
    """The items with their evidence messages read from the workspace's transcript."""
    items = list(items)
    wanted = {e.id for item in items for e in item.evidence}
    found = transcript_messages(home, workspace_id, wanted) if wanted else {}
    return [
        item.replaced(evidence=tuple(found.get(e.id, e) for e in item.evidence))
        if item.evidence
        else item
        for item in items
    ]


def transcript_messages(home: Home, workspace_id: str, ids: set[str]) -> dict[str, Evidence]:
    """The messages of mux's `chat.jsonl` with these ids (docs/formats.md §11.2): a line
    is parsed only when it holds one of the ids; a broken line is skipped."""
    needles = {json.dumps(i, ensure_ascii=False).encode(): i for i in ids}
    found: dict[str, Evidence] = {}
    try:
        # Never blocks on a FIFO named chat.jsonl, nor reads a device (§16.1).
        with open_regular_file(home.transcript_path(workspace_id)) as transcript:
            for line in transcript:
                if not any(needle in line for needle in needles):
                    continue
                message = _message(line)
                if message is not None and message.id in ids:
                    found[message.id] = message
                    if len(found) == len(ids):
                        break
    except OSError as error:
        logger.info("Inbox: cannot read the transcript of %s: %s", workspace_id, error)
    return found


def _message(line: bytes) -> Evidence | None:
    try:
        record = parse_json(line)  # a line nested 100,000 deep is a JsonError, no traceback
    except JsonError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        return None
    parts = record.get("parts")
    texts: list[str] = []
    for part in parts if isinstance(parts, list) else ():
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif part.get("type") == "dynamic-tool":
            texts.append(f"[tool:{part.get('toolName')}]")
    text = redact_secrets("\n".join(texts).strip())
    if len(text) > MAX_EVIDENCE_CHARS:
        text = text[:MAX_EVIDENCE_CHARS] + "…"
    role = record.get("role")
    return Evidence(id=record["id"], role=role if isinstance(role, str) else None, text=text)
