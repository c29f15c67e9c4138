"""What the engines keep of each memory file between runs (docs/formats.md §19.10): what an engine
worked out of a file (`per_file.py`), and the files' texts as last read (`texts.py`)."""
