#!/usr/bin/env bash
set -euo pipefail
wakeonlan 3c:7c:3f:1a:2b:4d
