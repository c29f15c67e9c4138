"""The writer's news in words (`news`): "Recorded 3 notes in notes.md · just now"."""
