"""The home's JSON sidecars others write too: the registry (config.json), memory-meta.json and
memory-consolidation.json.
"""
