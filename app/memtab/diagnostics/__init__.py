"""What `memtab doctor` checks, Qt-free: `run_doctor` gathers one `DoctorReport` of findings,
`broken` (`memtab doctor` exits 1) or `warning`."""
