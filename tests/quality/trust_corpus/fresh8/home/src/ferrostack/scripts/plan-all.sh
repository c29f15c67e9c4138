#!/bin/sh
set -eu
for env in staging production; do
  make plan ENV="$env"
done
