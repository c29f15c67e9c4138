package net.crossings.routes

// POST /api/v1/bookings, POST /api/v1/bookings/{id}/cancel
