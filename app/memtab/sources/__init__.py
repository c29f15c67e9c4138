"""Every agent's memory beside mux's: Claude Code, Codex and loki-mode sources (no Qt).

The API the GUI and the CLI use:
- `SourceContext.load(home)` reads the settings (config.py); `discover(context)` finds the
  sources cheaply and `scan(context)` lists them too — both block on disk, so the GUI runs
  them in its background scan (discovery.py);
- `list_source(source)` and `source_file(source, relative)` (listing.py);
- `read_source_file(file)` and `save_source_file(source, file, text, sha)` (content.py);
- `source_history(source)` for Codex's git log (history.py);
- `copy_note(origin, target, …)` for Copy to… (copy.py);
- `watch_targets(source)` for the watcher and `Discovery.source_containing(path)` to map
  its events back (layouts.py, model.py).
"""
