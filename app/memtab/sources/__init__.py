"""Every agent's memory beside mux's: Claude Code, Codex, Gemini CLI and loki-mode sources,
discovered, listed, read, saved, copied and watched (no Qt; discovery blocks on disk)."""
