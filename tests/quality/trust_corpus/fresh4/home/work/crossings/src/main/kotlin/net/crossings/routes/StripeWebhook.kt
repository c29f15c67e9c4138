package net.crossings.routes

// POST /webhooks/stripe
