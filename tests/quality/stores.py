"""Real memory stores from `tests/fixtures/shared/memory-stores`, installed into a home.

Each store keeps its files byte for byte, under the names the agent gave them (the
`<owner>-<repo>__` prefix and the agent's own folder are cut: `…__memories__MEMORY.md` →
`MEMORY.md`, `…__.loki__memory__handoffs__x.json` → `handoffs/x.json`). Where an issue
was seen on a file the fixtures do not hold, it is derived from the real files in the
format the agent writes, and says so:

- `raw_memories.md` (Codex): Codex's merged stage-1 file — `# Raw Memories`, then one
  `## Thread` block per rollout — built from the two real rollout summaries;
- `handoffs/<stamp>.md` (loki-mode): the Markdown twin loki writes beside each JSON
  handoff (`write_structured_handoff` in loki's run.sh), and `handoffs/<stamp>-notes.md`,
  a key/value rendering of the same handoff as an agent writes it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from memtab.consolidation.service import ConsolidationService
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore

MEMORY_STORES = Path(__file__).resolve().parents[1] / "fixtures" / "shared" / "memory-stores"
_AGENT_FOLDER = re.compile(r"^.*?__(?:\.loki__memory|memories|memory)__")


@dataclass(frozen=True)
class RealStore:
    """A fixture folder and the scope its agent's memory corresponds to."""

    folder: str
    scope: Scope


CODEX = RealStore("codex-memories", Scope.GLOBAL)  # ~/.codex/memories: every project
CLAUDE = RealStore("claude-code-auto-memory", Scope.PROJECT)  # one per project
LOKI = RealStore("loki-mode", Scope.WORKSPACE)  # .loki/memory in one checkout
REAL_STORES = (CODEX, CLAUDE, LOKI)


def agent_name(fixture_name: str) -> str:
    """`<owner>-<repo>__…__memories__a__b.md` → `a/b.md`."""
    return _AGENT_FOLDER.sub("", fixture_name).replace("__", "/")


def real_files(store: RealStore) -> dict[str, bytes]:
    """The store's files by their name inside the agent's memory folder."""
    return {
        agent_name(path.name): path.read_bytes()
        for path in sorted((MEMORY_STORES / store.folder).iterdir())
    }


def derived_files(store: RealStore) -> dict[str, str]:
    """Files derived from the real ones in the agent's own format (see module doc)."""
    files = real_files(store)
    if store is CODEX:
        summaries = {n: t.decode() for n, t in files.items() if n.startswith("rollout_summaries/")}
        return {"raw_memories.md": codex_raw_memories(summaries)}
    if store is LOKI:
        derived: dict[str, str] = {}
        for name, data in files.items():
            if name.startswith("handoffs/") and name.endswith(".json"):
                handoff = json.loads(data)
                stem = name[: -len(".json")]
                derived[f"{stem}.md"] = loki_handoff_markdown(handoff)
                derived[f"{stem}-notes.md"] = key_value_markdown(stem, handoff)
        return derived
    return {}


def codex_raw_memories(summaries: dict[str, str]) -> str:
    """Codex's `raw_memories.md` for these rollout summaries (latest first)."""
    blocks = ["# Raw Memories", "", "Merged stage-1 raw memories (latest first):", ""]
    for name, text in sorted(summaries.items(), reverse=True):
        header, _, body = text.partition("\n\n")
        meta = dict(line.split(": ", 1) for line in header.splitlines())
        body_lines = []
        for line in body.splitlines():
            if line.startswith("# "):
                continue  # the summary's title: the thread header stands for it
            if line.startswith("## Task "):
                body_lines.append("### " + line[3:])
            elif line.startswith("Outcome: "):
                body_lines.append("task_outcome: " + line.removeprefix("Outcome: "))
            else:
                body_lines.append(line)
        blocks += [
            f"## Thread `{meta['thread_id']}`",
            f"updated_at: {meta['updated_at']}",
            f"cwd: {meta['cwd']}",
            f"rollout_path: {meta['rollout_path']}",
            f"rollout_summary_file: {name}",
            "",
            *body_lines,
            "",
        ]
    return "\n".join(blocks)


def loki_handoff_markdown(handoff: dict[str, object]) -> str:
    """The Markdown companion loki writes beside a JSON handoff."""
    status = handoff["task_status"]
    assert isinstance(status, dict)
    files = handoff["files_modified"]
    commits = handoff["recent_commits"]
    assert isinstance(files, list) and isinstance(commits, list)
    return (
        f"# Session Handoff - {handoff['timestamp']}\n\n"
        f"**Reason:** {handoff['reason']}\n**Iteration:** {handoff['iteration']}\n\n"
        f"## Files Modified\n{','.join(files)}\n\n"
        "## Recent Commits\n" + "\n".join(commits) + "\n\n"
        f"## Task Status\n- Pending: {status['pending']}\n- Completed: {status['completed']}\n\n"
        "## Notes\nSession handoff generated automatically.\n"
    )


def key_value_markdown(stem: str, handoff: dict[str, object]) -> str:
    """The same handoff as `- key: value` bullets (how an agent writes one in Markdown)."""

    def value(item: object) -> str:
        return ", ".join(map(str, item)) if isinstance(item, list) else str(item)

    rows = [f"- {key}: {value(item)}" for key, item in handoff.items()]
    return f"# Handoff {stem.rsplit('/', 1)[-1]}\n\n" + "\n".join(rows) + "\n"


def install(
    store: MemoryStore, real: RealStore, *, derived: bool = True, scope: Scope | None = None
) -> dict[str, bytes]:
    """Write a real store (and its derived files) into a scope; returns path → bytes."""
    root = store.root(scope or real.scope)
    written: dict[str, bytes] = {}
    files: dict[str, bytes] = dict(real_files(real))
    if derived:
        files |= {name: text.encode() for name, text in derived_files(real).items()}
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written[f"{(scope or real.scope).virtual_root}/{name}"] = data
    return written


@dataclass(frozen=True)
class StoreCase:
    """Real stores installed together; `copy` puts one real file into a narrower scope
    too (the same note saved twice, as users do), which consolidation should clear up."""

    name: str
    stores: tuple[RealStore, ...]
    copy: tuple[RealStore, str, Scope] | None = None


STORE_CASES = (
    StoreCase("codex memories", (CODEX,)),
    StoreCase("claude code auto memory", (CLAUDE,)),
    StoreCase("loki-mode memory", (LOKI,)),
    StoreCase("all three in one home", (CODEX, CLAUDE, LOKI)),
    StoreCase(
        "all three, a note saved twice",
        (CODEX, CLAUDE, LOKI),
        (CLAUDE, "reference_vercel-cli-rest-api.md", Scope.WORKSPACE),
    ),
)


@dataclass
class StoreOutcome:
    """What two consolidation runs did to a store case."""

    must_survive: int = 0  # lines of the real Markdown files
    survived: int = 0
    other_files: int = 0  # non-Markdown files
    other_files_unchanged: int = 0
    first_run_ops: int = 0
    second_run_ops: int = 0
    notes: list[str] = field(default_factory=list)


def consolidate_case(home: Home, case: StoreCase, workspace_id: str) -> StoreOutcome:
    """Install a case, consolidate twice, and count what survived."""
    store = MemoryStore.open(home, workspace_id)
    originals: dict[str, bytes] = {}
    for real in case.stores:
        originals |= install(store, real)
    if case.copy is not None:
        real, name, scope = case.copy
        text = real_files(real)[name].decode()
        body = text.split("---\n", 2)[2] if text.startswith("---\n") else text
        target = store.root(scope) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body)
    service = ConsolidationService(home, settings=ProviderSettings("offline", "offline", ""))
    first = service.run(workspace_id)
    second = service.run(workspace_id)
    outcome = StoreOutcome(first_run_ops=len(first.ops), second_run_ops=len(second.ops))
    outcome.notes = [f"{op.command} {op.path}: {op.note}" for op in first.ops]
    for path, data in originals.items():
        physical = store.physical(parse_file_path(path))
        after = physical.read_bytes() if physical.exists() else b""
        if not path.endswith(".md"):
            outcome.other_files += 1
            outcome.other_files_unchanged += after == data
            continue
        kept = set(after.decode().split("\n"))
        lines = [line for line in data.decode().split("\n") if line.strip()]
        outcome.must_survive += len(lines)
        outcome.survived += sum(line in kept for line in lines)
    return outcome
