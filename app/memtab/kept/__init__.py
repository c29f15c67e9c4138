"""What the engines keep of each memory file between runs (docs/formats.md §19.10), in
Memtab's cache dir: what an engine worked out of a file, by its key and text, refreshed
per file (`per_file.py`), and the files' texts as last read, so a file still as it was is
not opened again (`texts.py`). Used by the check and the trust engines; it knows neither.
"""
