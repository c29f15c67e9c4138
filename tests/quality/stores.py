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
from dataclasses import dataclass
from pathlib import Path

from memtab.store.memory import MemoryStore
from memtab.store.paths import Scope

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
