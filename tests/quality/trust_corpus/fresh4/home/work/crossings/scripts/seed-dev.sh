#!/bin/sh
set -eu
psql "${CROSSINGS_DB_URL:-postgresql://postgres:postgres@localhost:5433/crossings_dev}" -f scripts/seed.sql
