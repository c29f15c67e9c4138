"""Memory every agent can trust (issue 72): what the memories say against each other.

Qt-free engines over every memory Memtab sees — mux's scopes, Claude Code's, Codex's and
loki-mode's files, read as `memtab check` reads them (`check.documents.collect`) — one
sub-package a question: `duplicates/` (memories that say the same thing: `memtab
duplicates`), `contradictions/` (lines that state different values for one thing: `memtab
contradictions`), `leaks/` (memories in the wrong place, and secrets: `memtab leaks`).
What they share is here: the memories read, the engines' base (`MemoryEngine`) and who sees
them together (`memories.py`), what a memory says in words (`words.py`) and where a memory
is, as a record (`records.py`); what each keeps of each file between runs is `memtab.kept`'s.
"""
