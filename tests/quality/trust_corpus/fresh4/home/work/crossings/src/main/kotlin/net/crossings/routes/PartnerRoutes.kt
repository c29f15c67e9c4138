package net.crossings.routes

// partner API, rate limited per key
