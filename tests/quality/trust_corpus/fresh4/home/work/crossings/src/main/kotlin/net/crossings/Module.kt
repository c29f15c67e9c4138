package net.crossings

import io.ktor.server.application.Application

fun Application.module() {
    configureAuth()
    configureRoutes()
}
