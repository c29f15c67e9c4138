"""Work off the GUI thread: the window's one job service (`jobs`: lanes, a client per
feature), the lane's worker (`runner.TaskRunner`, which only the service builds), the file
channel the window's reads and writes of memory files go through (`file_channel`) and the
file operations on it (`file_ops`). What the jobs do is each feature's, Qt-free
(`components/<feature>/`).
"""
