"""Sync in the window without Qt: where it stands in words (`status_line`), what a first
sync's set-up says and allows (`setup_view`), what quitting with changes unsent asks
(`quit_question`), which sync job runs and when (`turns`)."""
