//! The watchdog task.
