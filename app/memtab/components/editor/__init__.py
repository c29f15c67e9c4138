"""The editor's open file and its rules, Qt-free: `document`, the session's decisions against the
disk (`session`), `text_buffer`, the three-way `merge`, `find`, an outside editor (`external`)."""
