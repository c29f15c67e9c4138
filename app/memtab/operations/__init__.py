"""The window's jobs that call what `components` may not import (the writer, consolidation,
a model) or run in a child process: plain Qt-free functions whose last argument is the job's
context (`components.jobs.JobContext`), a module a feature; this `__init__` imports nothing."""
