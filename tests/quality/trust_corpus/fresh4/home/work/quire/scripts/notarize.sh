#!/bin/sh
# xcrun notarytool submit with the keychain profile quire-notary
set -eu
