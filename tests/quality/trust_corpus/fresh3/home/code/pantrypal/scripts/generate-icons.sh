#!/bin/sh
set -eu
npx expo-optimize
