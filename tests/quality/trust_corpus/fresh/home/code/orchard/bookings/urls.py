app_name = "bookings"
