#!/usr/bin/env bash
# Prints every fuzz target of the tree as package:FuzzName, one per line,
# for `make fuzz`.
set -eu
cd "$(dirname "$0")/.."
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  dir=$(dirname "${f#./}")
  sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$f" | while read -r t; do
    echo "./$dir:$t"
  done
done
