"""The background memory writer ("System 1", docs/formats.md §10). No Qt, no CLI."""
