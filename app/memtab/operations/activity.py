"""The badges' operations: whether mux runs on the shown home (the warnings that only
matter then). What Memtab's runs in other processes wrote is history's
(`operations.history.contents_written_since`)."""

from __future__ import annotations

from memtab.components.activity.mux_activity import MuxActivity, mux_activity
from memtab.components.jobs import JobContext
from memtab.store.home import Home


def mux_presence(home: Home, _ctx: JobContext) -> MuxActivity:
    """Whether mux may be running on `home` (it lists processes and looks at the home)."""
    return mux_activity(home)
