package net.crossings

// uses one Testcontainers Postgres per run
