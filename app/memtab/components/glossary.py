"""Memtab's jargon in plain words, for the tooltips where the words appear."""

from __future__ import annotations

HARVEST = (
    "A harvest is mux reading the summary of a compacted conversation for lessons worth "
    "keeping, and adding them to memory. This line says when mux last harvested this "
    "workspace and whether it worked; Memtab only shows it."
)

OTHER_AGENTS = (
    "Other agents' memory: what Claude Code, Codex and loki-mode keep for themselves, found "
    "beside mux's. Memtab edits the files those agents let you edit and shows the others "
    "read-only; consolidation works on mux's memory only."
)

SESSION = (
    "Session memory is xum's session scope: the agent of this workspace keeps its own "
    "checkpoint there in token-budget mode, to carry its work into its next context window. "
    "It is host-local and deleted with its workspace; consolidation never reads or changes "
    "it, and sync never carries it."
)
SESSION_NEVER_CONSOLIDATED = "never consolidated (an agent's own checkpoint)"

ORPHANED_PROJECT_MEMORY = (
    "Orphaned project memory: a folder under memory/project/ that no registered project "
    "owns any more (the project was removed from mux or its folder moved). It is shown "
    "read-only; delete it when you no longer need it."
)

LIVE_WATCHING = (
    "Live: Memtab shows changes to the memory files as soon as they happen — its own, "
    "an agent's, mux's or your text editor's."
)
INOTIFY = "inotify is Linux's file-change notification: changes show at once."
POLLING = "Polling: Memtab looks for changes every few seconds (no inotify here)."

POLICY_SATISFIED = (
    "The writer's rule for a run: it must end with a successful memory_write, or with "
    "no_new_memories and no failed write. “Policy satisfied” says this run kept it; a run "
    "that did not is a failure, with a trace."
)

USAGE = (
    "Uses count, as mux counts them: an agent reading the file, every save (an agent's, "
    "the writer's or yours) and each pin. Opening it in Memtab is not a use."
)

PINS_WITH_MUX = "Pins live in memory-meta.json; a running mux may overwrite pin changes."
PINS_WITHOUT_MUX = "Pins live in memory-meta.json, which mux reads too."
