"""What each agent reads at the start of a session: Claude Code, Codex and xum, file by
file in its own order, with lines, bytes, estimated tokens and where each cut falls
(docs/formats.md §17.6). Qt-free: `memtab loads` prints it, the window shows it."""
