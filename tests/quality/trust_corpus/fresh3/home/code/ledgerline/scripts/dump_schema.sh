#!/bin/sh
set -eu
pg_dump --schema-only "$DATABASE_URL" > schema.sql
