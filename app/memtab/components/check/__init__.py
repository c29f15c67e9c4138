"""The check in the window without Qt: what its findings say on rows, lines and the panel
(`check.py`), and the check run off the GUI thread (`jobs.py`)."""
