"""Work off the GUI thread: the window's one job service (`jobs`), its lanes' worker
(`runner`), and the channel and file operations for memory files (`file_channel`, `file_ops`);
the jobs themselves are each feature's, Qt-free (`components/<feature>/`)."""
