#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/runner.sh: proves a script gets its arguments
# and can leave files in /results; it loads a CPU so that OPP changes
# show in its trace.
set -eu
printf '%s\n' "$@" >/results/args.txt
# Some load, so that schedutil changes OPPs while the script is traced.
i=0
while [ $i -lt 30000 ]; do
	i=$((i + 1))
done
