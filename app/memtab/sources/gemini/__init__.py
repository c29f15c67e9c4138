"""Gemini CLI as a source: where its memory is and its project ids (`source.py`), its
settings (`settings.py`), the files it reads at a session's start (`context_files.py`), and
its memory inbox's patches (`inbox.py`), read and applied as its bundled jsdiff does
(`patch.py`)."""
