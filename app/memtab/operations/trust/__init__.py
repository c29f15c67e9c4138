"""Memory every agent can trust, in the window, off the GUI thread: the one read for the
three questions (`window.py`) and the actions on what they find (`actions.py`)."""
