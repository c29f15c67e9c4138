"""The background writer's trace dumps: their format, and reading them for the CLI and GUI.

- `schema`: the dump format as records (camelCase names), defined once, each field read as
  a person would read it (the codec's markers); the writer (`memtab.writer.job.dumps`)
  builds and saves a `DumpRecord`, the reader reads the same.
- `names`: the dump's file name, built and parsed in one place.
- `catalog`: every dump of a home, newest first, as cheap `TraceSummary` lines.
- `reader`: one dump as a `TraceDump`, read loosely (fields of odd types noted, read by
  `schema`'s records; `tolerant_json`: files cut short, damaged or nested too deeply);
  `outcome`: how the run ended; `describe`: words and JSON for display.

No Qt here. Import the module you need: this package imports nothing by itself, so the
writer's use of `names` and `schema` does not load the reader.
"""
