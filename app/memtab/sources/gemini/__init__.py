"""Gemini CLI as a source: where its memory is and its project ids, its settings, the files it
reads at a session's start, and its memory inbox's patches applied as its jsdiff does."""
