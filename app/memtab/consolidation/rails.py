"""The consolidator's rails (issue 82): the new text a model's `create`, `str_replace` or `insert`
brings — the lines no memory file of the run's scopes held when it started — is checked in code
before it is written (`trust.rails`): a merge moves what memory says, it may not invent a standing
rule no file states, put words in the user's mouth, say what no file says, copy the consolidator's
instructions or carry a secret."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.markdown import text_lines
from memtab.redact import redact_outgoing
from memtab.store.errors import MemoryStoreError
from memtab.store.paths import PathError, Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import ToolRequest
from memtab.store.scopes.tool_args import CreateArgs, InsertArgs, StrReplaceArgs
from memtab.trust.rails import Rails

UNSTATED_RULE = "it is a standing rule no memory file states"
UNHEARD = "it says what no memory file says"


class ConsolidationRails:
    """The rails of one run over `store`'s `scopes`, the model told `instructions`; the
    memory is read when a change first needs it."""

    def __init__(self, store: MemoryStore, scopes: Sequence[Scope], instructions: str) -> None:
        self.store = store
        self.scopes = tuple(scopes)
        self.instructions = instructions
        self._rails: Rails | None = None
        self._held: frozenset[str] = frozenset()

    def refusal(self, request: ToolRequest) -> str | None:
        """Why the guard refuses a change (None: it may be made)."""
        args = request.args
        if isinstance(args, StrReplaceArgs):
            before = {line.strip() for line in text_lines(args.old_str)}
            new_text = args.new_str
        elif isinstance(args, InsertArgs):
            before, new_text = set(), args.insert_text
        elif isinstance(args, CreateArgs):
            before, new_text = set(), args.file_text
        else:
            return None
        rails = self._ready()
        lines = text_lines(new_text)
        added = [
            number
            for number, line in enumerate(lines)
            if line.strip() and line.strip() not in before and line.strip() not in self._held
        ]
        refused = rails.refusals(new_text, added)
        if not refused:
            return None
        first = refused[min(refused)]
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        line = redact_outgoing(first.line.strip())
        return f"refused: the new line “{line}”{more}: {first.why}"

    def _ready(self) -> Rails:
        if self._rails is None:
            texts = list(self._memory_texts())
            lines = [line for text in texts for line in text_lines(text)]
            self._held = frozenset(line.strip() for line in lines if line.strip())
            self._rails = Rails(
                self.instructions,
                lines,
                lines,
                unstated_rule=UNSTATED_RULE,
                heard="\n".join(texts),
                unheard=UNHEARD,
            )
        return self._rails

    def _memory_texts(self) -> list[str]:
        """The text of every file of the run's scopes, as the run started."""
        texts = []
        for listing in self.store.list_all(scopes=self.scopes):
            for file in listing.files:
                try:
                    data = self.store.read_whole(file.path)
                except (MemoryStoreError, PathError):
                    continue
                if data is not None:
                    texts.append(data.decode("utf-8", "replace"))
        return texts
