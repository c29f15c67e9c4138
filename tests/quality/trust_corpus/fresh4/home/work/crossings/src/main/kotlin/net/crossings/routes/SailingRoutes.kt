package net.crossings.routes

// GET /api/v1/sailings?from=&to=&date=
