"""Claude Code as a source: its memory directories, MEMORY.md index, instructions and settings."""
