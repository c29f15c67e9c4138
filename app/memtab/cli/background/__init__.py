"""Commands for what works in the background: the writer, consolidation, the recorder, traces,
models."""
