package net.crossings.auth

// verifier for partner and app tokens; leeway 30 s
object JwtConfig
