// Polls for active alarms.
