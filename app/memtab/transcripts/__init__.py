"""Transcript readers for mux, Claude Code and Codex and the writer's event budget (also over a
stream, in bounded memory); on `fs` and `redact` alone, no Qt."""
