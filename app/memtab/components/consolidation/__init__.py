"""Consolidation in the window without Qt: the footer's and a review's words
(`consolidation.py`), and runs and declines off the GUI thread (`jobs.py`)."""
