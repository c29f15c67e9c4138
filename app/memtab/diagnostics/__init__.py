"""What `memtab doctor` checks, Qt-free, for the CLI and a later About/Diagnostics view.

`run_doctor` gathers one `DoctorReport`: the home and why it was chosen, the registry,
every sidecar's health, the file watcher's backend and inotify headroom, other agents'
memory found, the model provider and where each of its values came from (never a key),
the writer's settings and the versions of what Memtab runs on. Each check adds findings:
`broken` (something Memtab cannot use or that will fail — `memtab doctor` exits 1) or
`warning` (works, degraded or worth a look).

- report.py      levels, findings and the report (its JSON is a stable contract)
- home.py        home, registry, sidecars (parse status, size, copies kept aside)
- watching.py    watchdog's backend here, inotify limits and watches in use
- setup.py       provider, writer settings, other agents' sources
- runtime.py     versions (Qt's read in a child process), the log file
- doctor.py      `run_doctor`, which runs them all
"""
