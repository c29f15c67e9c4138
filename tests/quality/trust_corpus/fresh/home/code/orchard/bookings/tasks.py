"""Periodic tasks: reminders and the waitlist sweep."""
