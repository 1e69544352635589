#!/bin/sh
# Guest side of tests/guest/runner.sh: proves a script gets its arguments
# and can leave files in /results.
set -eu
printf '%s\n' "$@" >/results/args.txt
