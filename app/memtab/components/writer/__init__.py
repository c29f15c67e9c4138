"""The writer's news in words (`news`): "Recorded 3 notes in notes.md · just now"; the
background writer's supervision (`supervision`) and status line (`status_line`)."""
