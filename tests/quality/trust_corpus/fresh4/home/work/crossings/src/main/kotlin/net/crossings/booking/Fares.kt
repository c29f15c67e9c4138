package net.crossings.booking

// fare table lookup by route and season
