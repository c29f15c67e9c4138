"""Sync in the window without Qt: where it stands (`status`), a first sync's set-up (`setup`)
and its conflicts (`conflicts`), each with its jobs."""
