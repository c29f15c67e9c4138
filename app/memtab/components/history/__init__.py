"""History as the window shows it: a file's versions and the trash (`history`), every run with its
ops (`runs`), diff text read back into lines (`diff`)."""
