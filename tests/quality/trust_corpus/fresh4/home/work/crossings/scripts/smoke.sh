#!/bin/sh
set -eu
curl -fsS "${1:-http://localhost:8080}/health"
