"""What each agent loads and recalls, in the window without Qt: the rows and Claude Code's
cut (`loads.py`), and the loads and recalls computed off the GUI thread (`jobs.py`)."""
