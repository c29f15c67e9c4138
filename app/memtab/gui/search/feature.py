"""Search as the window builds it: the Memory tab's search field and its searches
(`SearchBox`).
"""

from __future__ import annotations

from memtab.gui.search.box import SearchBox

__all__ = ["SearchBox"]
