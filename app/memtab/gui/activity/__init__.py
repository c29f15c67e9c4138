"""What changed on disk, on screen: the watchdog → GUI-thread bridge (`watch`,
`watch_observer`), the "agent edited" marks (`edit_marks`), whether mux runs
(`mux_presence`).
"""
