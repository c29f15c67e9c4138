#!/bin/sh
set -eu
psql "$DATABASE_URL" -f testdata/fixtures.sql
