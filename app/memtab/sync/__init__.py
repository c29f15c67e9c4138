"""One memory across machines and teammates over a git remote (docs/formats.md §18), through the
developer's own `git`; no Qt, GUI, CLI or engine (an import contract)."""
