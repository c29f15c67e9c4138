"""The recorder that keeps history while no window runs: `memtab watch` (no Qt).

- recorder.py  `Recorder`: the first recording pass, then watchdog (polling as a fallback), each
  change recorded within about a second, with its actor;
- targets.py   what it follows (mux's scopes, other agents' sources) and which of them a
  changed path concerns;
- actors.py    who made a change, from the agents' own records;
- lease.py     one recorder per home, and whether it runs (the window defers to it);
- events.py    bursts: the versions one agent made at once, restored in one step;
- service.py   starting it at login (systemd user unit, LaunchAgent, Startup folder).
"""
