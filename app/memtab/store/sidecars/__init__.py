"""The home's JSON sidecars others write too: config.json, memory-meta.json,
memory-consolidation.json."""
