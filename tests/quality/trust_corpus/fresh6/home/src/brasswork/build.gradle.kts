plugins {
    kotlin("jvm") version "2.0.21"
    id("org.springframework.boot") version "3.3.5"
}
