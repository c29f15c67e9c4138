#!/usr/bin/env bash
set -euo pipefail
restic check --read-data-subset=5%
