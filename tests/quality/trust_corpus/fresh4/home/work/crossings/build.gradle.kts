plugins {
    alias(libs.plugins.kotlin.jvm)
    alias(libs.plugins.ktor)
    alias(libs.plugins.kotlin.serialization)
    alias(libs.plugins.flyway)
    alias(libs.plugins.detekt)
    alias(libs.plugins.jooq.codegen)
}

group = "net.crossings"
version = "0.14.2"

kotlin { jvmToolchain(21) }

application { mainClass.set("net.crossings.ApplicationKt") }

dependencies {
    implementation(libs.ktor.server.netty)
    implementation(libs.ktor.server.auth.jwt)
    implementation(libs.ktor.server.content.negotiation)
    implementation(libs.ktor.serialization.jackson)
    implementation(libs.jooq)
    implementation(libs.hikari)
    implementation(libs.postgresql)
    implementation(libs.flyway.core)
    implementation(libs.flyway.postgresql)
    testImplementation(libs.ktor.server.test.host)
    testImplementation(libs.testcontainers.postgresql)
    testImplementation(libs.kotest.runner)
}

flyway {
    url = System.getenv("CROSSINGS_DB_URL") ?: "jdbc:postgresql://localhost:5433/crossings_dev"
    locations = arrayOf("classpath:db/migration")
}

tasks.test { useJUnitPlatform() }
