#!/bin/sh
set -eu
uv run jupyter nbconvert --to html --execute notebooks/*.ipynb --output-dir build
