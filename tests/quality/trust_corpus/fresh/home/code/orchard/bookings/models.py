"""Plots, seasons, bookings and the waitlist."""
