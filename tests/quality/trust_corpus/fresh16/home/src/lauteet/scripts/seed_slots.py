"""Fill a week of slots for every sauna."""
